"""Where the server's dice come from (R14).

Production rolls with :class:`secrets.SystemRandom` (the operating system's CSPRNG);
tests pass a seeded :class:`random.Random` or a :class:`ScriptedDice` to the services
instead. Every roll is stored in the action log, so the source never needs to be
reproduced to audit a game.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Iterator
from typing import Protocol


class DiceSource(Protocol):
    def randint(self, a: int, b: int) -> int: ...


SYSTEM_DICE: DiceSource = secrets.SystemRandom()


class ScriptedDice:
    """Dice that show the given faces in order (for tests and for recording games
    played over the board)."""

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces: Iterator[int] = iter(faces)

    def randint(self, a: int, b: int) -> int:
        face = next(self._faces)
        if not a <= face <= b:
            raise ValueError(f"scripted die {face} outside {a}..{b}")
        return face


def roll_die(source: DiceSource) -> int:
    return source.randint(1, 6)


__all__ = ["SYSTEM_DICE", "DiceSource", "ScriptedDice", "roll_die"]
