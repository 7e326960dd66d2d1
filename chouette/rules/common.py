"""Shared vocabulary of the chouette rules: player ids, the error type, small checks.

* A **player id** is whatever the caller uses to name a player (the Django side passes
  primary keys, tests pass short strings). The rules never look inside an id; they only
  compare and hash it. ``bool`` is refused even though it is an ``int`` (a ``True`` that
  slipped through a form is a bug, not player 1), and so is the empty string.
* Every refusal is a :class:`ChouetteError` with a stable ``code`` (the application maps
  it to a translated message and an HTTP status at its edge, as for ``EngineError``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeAlias

PlayerId: TypeAlias = int | str
"""The caller's name for a player (a primary key, a name)."""


class ChouetteError(Exception):
    """An input the chouette rules refuse, with a stable machine-readable ``code``.

    ``message`` is an English explanation for logs and developers, never shown to users
    untranslated. ``players``: the players the refusal is about, where it names some (a
    tie in the roll-off), for a caller that says it in words. ``game``: the number of the
    game the refusal is about, where it names one (an edit that breaks a later game).
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        players: tuple[object, ...] = (),
        game: int | None = None,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.players = players
        self.game = game


def is_player_id(value: object) -> bool:
    """Whether ``value`` can name a player: a non-bool ``int`` or a non-empty ``str``."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, str) and value != "")


def check_player(value: object, what: str = "player") -> None:
    """Refuse anything that cannot name a player (``invalid_player``)."""
    if not is_player_id(value):
        raise ChouetteError(
            "invalid_player", f"{what} must be an int or a non-empty str, not {value!r}"
        )


def check_distinct(players: Iterable[PlayerId], what: str) -> None:
    """Refuse a player named twice (``duplicate_player``)."""
    seen: set[PlayerId] = set()
    for p in players:
        if p in seen:
            raise ChouetteError("duplicate_player", f"{p!r} appears twice in {what}")
        seen.add(p)


def is_power_of_two(n: object) -> bool:
    """Whether ``n`` is a (non-bool) int that is a power of two (1, 2, 4, ...)."""
    return isinstance(n, int) and not isinstance(n, bool) and n >= 1 and n & (n - 1) == 0


def is_int(value: object) -> bool:
    """A real ``int`` (not ``bool``)."""
    return isinstance(value, int) and not isinstance(value, bool)


def require_tuple(value: object, what: str) -> None:
    """Structures are immutable: sequences inside them must be tuples (``invalid_data``)."""
    if not isinstance(value, tuple):
        raise ChouetteError("invalid_data", f"{what} must be a tuple, not {type(value).__name__}")


def check_keys(
    data: Mapping[str, Any], allowed: Iterable[str], required: Iterable[str], what: str
) -> None:
    """``from_dict`` helper: refuse unknown or missing keys (``invalid_data``)."""
    if not isinstance(data, Mapping):
        raise ChouetteError("invalid_data", f"{what} must be a mapping")
    allowed_set = set(allowed)
    unknown = sorted(str(k) for k in data if k not in allowed_set)
    if unknown:
        raise ChouetteError("invalid_data", f"{what}: unknown keys {unknown}")
    missing = [k for k in required if k not in data]
    if missing:
        raise ChouetteError("invalid_data", f"{what}: missing keys {missing}")


def as_tuple(value: object, what: str) -> tuple[Any, ...]:
    """``from_dict`` helper: a JSON list (or tuple) as a tuple (``invalid_data`` otherwise)."""
    if not isinstance(value, list | tuple):
        raise ChouetteError("invalid_data", f"{what} must be a list")
    return tuple(value)
