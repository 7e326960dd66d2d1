"""The wall clock: the one place the application reads the time (docs/architecture.md, "Time
and randomness").

Terms: a *moment* is an aware ``datetime`` (``USE_TZ`` is on); *ms* is a moment as whole
milliseconds since the Unix epoch, the unit of the pure clock (:mod:`games.engine.clock`).
Callers read the time as ``wallclock.now()`` (never ``from games.wallclock import now``),
so that a test can replace it (``tests/wall.py``).
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.utils import timezone


def now() -> datetime:
    """The current moment (tests replace this function)."""
    return timezone.now()


def to_ms(moment: datetime) -> int:
    """A moment as milliseconds since the epoch."""
    return int(moment.timestamp() * 1000)


def from_ms(ms: int | None) -> datetime | None:
    """Milliseconds since the epoch as a moment (``None`` stays ``None``)."""
    return None if ms is None else datetime.fromtimestamp(ms / 1000, tz=UTC)
