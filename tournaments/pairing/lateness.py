"""The club's lateness rule (docs/rules.md R15): minutes late -> penalty points or forfeit.

A flight may set the rule: ``grace`` minutes of grace, then one penalty point per
``per_point`` minutes or part of them; the points are the late player's opponent's
starting score. A player whose penalty would be more than half the match length has
forfeited the match. Exactly:

* ``minutes`` late are whole minutes, every started minute counted (:func:`minutes_late`:
  arriving 5 min 1 s after the start is 6 minutes late).
* ``minutes <= grace``: no penalty.
* Otherwise ``points = ceil((minutes - grace) / per_point)``: with the common club rule
  (5' grace, a point per 5') 6-10 minutes late is 1 point, 11-15 is 2, and so on.
* ``2 * points > length`` (more than half the match length): a forfeit. A 5-point match
  is forfeited at 3 points (16 minutes late with 5/5), a 7-point match at 4 (21 minutes),
  a 1-point match at the first point (6 minutes). A forfeit has no starting score: the
  match is a walkover for the opponent.

Refusals are :class:`~tournaments.pairing.common.PairingError`:

``invalid_minutes``          minutes late is not a whole number 0 .. :data:`MAX_MINUTES`.
``invalid_grace``            the grace period is not a whole number 0 .. :data:`MAX_GRACE`.
``invalid_minutes_per_point`` minutes per point is not a whole number 1 .. :data:`MAX_PER_POINT`.
``invalid_length``           the match length is not a positive whole number.

No Django: plain values in, plain values out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from tournaments.pairing.common import PairingError

#: The club rule's defaults: 5 minutes of grace, then a point per 5 minutes.
DEFAULT_GRACE: Final = 5
DEFAULT_PER_POINT: Final = 5
#: Bounds of what a director may enter: a night is not longer than 10 hours.
MAX_MINUTES: Final = 600
MAX_GRACE: Final = 60
MAX_PER_POINT: Final = 60


@dataclass(frozen=True, slots=True)
class Penalty:
    """What a lateness costs: ``points`` for the opponent's starting score, or a
    ``forfeit`` (then ``points`` is the penalty that would have been, over half the
    length, and the match is a walkover)."""

    points: int
    forfeit: bool = False

    @property
    def start_points(self) -> int:
        """The opponent's starting score: the points, or 0 for a forfeit (no match)."""
        return 0 if self.forfeit else self.points


def _whole(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def check_rule(grace: object, per_point: object) -> None:
    """Refuse a grace period or minutes per point out of bounds (codes: module docstring)."""
    if not _whole(grace, 0, MAX_GRACE):
        raise PairingError(
            "invalid_grace", f"the grace period is 0 to {MAX_GRACE} minutes, not {grace!r}"
        )
    if not _whole(per_point, 1, MAX_PER_POINT):
        raise PairingError(
            "invalid_minutes_per_point",
            f"a penalty point is for 1 to {MAX_PER_POINT} minutes, not {per_point!r}",
        )


def penalty(
    minutes: int,
    *,
    length: int,
    grace: int = DEFAULT_GRACE,
    per_point: int = DEFAULT_PER_POINT,
) -> Penalty:
    """The penalty for ``minutes`` late in a match to ``length`` points (R15)."""
    if not _whole(minutes, 0, MAX_MINUTES):
        raise PairingError(
            "invalid_minutes", f"minutes late are 0 to {MAX_MINUTES}, not {minutes!r}"
        )
    if not _whole(length, 1, 10**6):
        raise PairingError("invalid_length", f"a match is 1 or more points, not {length!r}")
    check_rule(grace, per_point)
    if minutes <= grace:
        return Penalty(0)
    points = math.ceil((minutes - grace) / per_point)
    return Penalty(points, forfeit=2 * points > length)


def minutes_late(starts_at: datetime, arrived_at: datetime) -> int:
    """Whole minutes from the round's start to the player's arrival, every started
    minute counted; 0 for an arrival before the start."""
    seconds = (arrived_at - starts_at).total_seconds()
    return max(0, math.ceil(seconds / 60))


def start_score(late_side: str, points: int) -> tuple[int, int]:
    """The score (side a, side b) a match starts at when ``late_side`` (``"a"``, ``"b"``
    or ``""`` for nobody) was late by ``points``: the opponent starts at the points."""
    if late_side == "a":
        return (0, points)
    if late_side == "b":
        return (points, 0)
    return (0, 0)
