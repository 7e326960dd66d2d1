"""Seeding: the order of entrants, and where each seed stands in a knockout bracket.

Terms:

* **Seed** ``k`` (1-based) is the entrant at position ``k`` of the seeding order; seed 1
  is the strongest.
* The **bracket size** of ``n`` entrants is the smallest power of two ``>= n`` (at least
  2). The ``size - n`` missing entrants are **byes**: seed numbers ``n+1 .. size``.
* The **standard bracket line** (:func:`bracket_line`) lists the seeds from top to bottom
  of the first round so that, with the higher seed always winning, seed ``k`` meets seed
  ``size + 1 - k`` in round 1, and seeds 1 and 2 can only meet in the final (1 and 4 in a
  semi-final, ...). For 8: ``1 8 4 5 2 7 3 6`` = matches 1v8, 4v5, 2v7, 3v6.
* Because the bye numbers are the highest seeds and seed ``k`` meets ``size + 1 - k``,
  **the byes go to the top seeds**: seeds ``1 .. size - n`` have a bye in round 1.

Randomness: :func:`seed_order` with ``method="random"`` needs the caller's integer seed
(the service draws it with ``secrets`` and stores it); the same seed always gives the same
order, so a draw can be re-done and audited. This module reads no entropy of its own.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from tournaments.pairing.common import EntrantId, PairingError

SeedMethod = Literal["rating", "random"]


@dataclass(frozen=True, slots=True)
class Seeding:
    """The result of a draw for seeds.

    Attributes:
        order: entrant ids, seed 1 first.
        method: ``"rating"`` or ``"random"``.
        seed: the integer that made a random order (``None`` for ``"rating"``).
    """

    order: tuple[EntrantId, ...]
    method: SeedMethod
    seed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"order": list(self.order), "method": self.method, "seed": self.seed}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seeding:
        method = data["method"]
        if method not in ("rating", "random"):
            raise PairingError("invalid_seed_method", f"unknown seeding method {method!r}")
        return cls(order=tuple(data["order"]), method=method, seed=data.get("seed"))


def seed_order(
    entrants: Sequence[tuple[EntrantId, float]],
    *,
    method: SeedMethod,
    seed: int | None = None,
) -> Seeding:
    """Order ``entrants`` (pairs of id and rating) into seeds.

    ``"rating"``: rating descending; equal ratings keep the order given (a stable sort), so
    the caller decides ties (e.g. by registration time). ``seed`` must be ``None``.
    ``"random"``: a shuffle by ``random.Random(seed)``; ``seed`` is required.
    """
    ids = [e[0] for e in entrants]
    if len(set(ids)) != len(ids):
        raise PairingError("duplicate_entrant", "an entrant is listed twice")
    if method == "rating":
        if seed is not None:
            raise PairingError("invalid_seed", "a rating seeding takes no random seed")
        ordered = sorted(entrants, key=lambda e: -e[1])  # sorted() is stable: ties keep order
        return Seeding(order=tuple(e[0] for e in ordered), method="rating")
    if method == "random":
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise PairingError("invalid_seed", "a random seeding needs an integer seed")
        # random.Random(int).shuffle is stable across CPython versions for int seeds.
        rng = random.Random(seed)
        rng.shuffle(ids)
        return Seeding(order=tuple(ids), method="random", seed=seed)
    raise PairingError("invalid_seed_method", f"unknown seeding method {method!r}")


def bracket_size(n: int) -> int:
    """The smallest power of two ``>= n``, at least 2 (a bracket needs a match)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 2:
        raise PairingError("too_few_entrants", f"a bracket needs at least 2 entrants, not {n!r}")
    size = 2
    while size < n:
        size *= 2
    return size


def bracket_line(size: int) -> list[int]:
    """The standard bracket line of a power-of-two ``size`` (see the module docstring).

    Built by doubling: each seed ``s`` of the line for ``m`` players is followed by its
    round-1 opponent ``2m + 1 - s`` in the line for ``2m``, which keeps every earlier
    round's meeting intact one round later.
    """
    if size < 2 or size & (size - 1):
        raise PairingError("invalid_bracket_size", f"{size} is not a power of two >= 2")
    line = [1]
    m = 1
    while m < size:
        m *= 2
        line = [x for s in line for x in (s, m + 1 - s)]
    return line


def bye_seeds(n: int) -> list[int]:
    """The seeds that get a first-round bye with ``n`` entrants: the top ``size - n``."""
    return list(range(1, bracket_size(n) - n + 1))
