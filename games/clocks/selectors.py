"""Reads of the table clocks (R12): one clock, the director's list, and the clock as every
client shows it, computed from the stored state at the server's time."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from games import wallclock
from games.engine.clock import ClockState
from games.errors import NotFound
from games.models import TableClock
from games.play.clock import clock_reading

Status = TableClock.Status


# ====================================================================== permissions
def table_clock_can_operate(*, clock: TableClock, user: Any) -> bool:
    """Whether ``user`` may start, tap, pause and finish ``clock``: its creator and the
    directors (staff). Reading is public."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff) or (
        clock.created_by_id is not None and clock.created_by_id == user.pk
    )


def table_clock_get(*, clock_id: int) -> TableClock:
    clock = TableClock.objects.filter(pk=clock_id).first()
    if clock is None:
        raise NotFound("table_clock_not_found", _("There is no table clock with this id."))
    return clock


#: The list's default: every clock not finished.
LIVE = "live"


def table_clock_list(*, status: str | None = LIVE, limit: int = 200) -> list[TableClock]:
    """Table clocks in the order of their labels read as people do ("Table 2" before
    "Table 10"). ``status``: ``live`` (every one not finished), one status, or ``None``
    (all). One query."""
    clocks_ = TableClock.objects.all()
    if status == LIVE:
        clocks_ = clocks_.exclude(status=Status.FINISHED)
    elif status is not None:
        clocks_ = clocks_.filter(status=status)
    found = list(clocks_.order_by("-updated_at", "-id")[:limit])
    return sorted(found, key=lambda c: (_natural(c.label), c.pk))


def _natural(label: str) -> tuple[tuple[int, int | str], ...]:
    return tuple(
        (0, int(part)) if part.isascii() and part.isdigit() else (1, part.casefold())
        for part in re.split(r"(\d+)", label)
        if part
    )


def table_clock_view(clock: TableClock, *, at: datetime | None = None) -> dict[str, Any]:
    """The clock as every client shows it, computed from the stored state at the
    server's time ``at``: ``running`` (whose clock runs now; ``None`` unless running),
    ``turn`` (whose turn it is, also while paused), ``delay_left_ms`` (of that turn),
    both ``reserves_ms`` as a clock would show them, the ``deadline`` and who
    ``flagged``. A paused clock reads at the moment it was paused."""
    at = at or wallclock.now()
    state = ClockState.from_dict(clock.state)
    reading_ms = paused_ms(clock, at) if clock.status == Status.PAUSED else wallclock.to_ms(at)
    return {
        "id": clock.pk,
        "label": clock.label,
        "players": [
            {"name": clock.player1_name, "player": clock.player1_id},
            {"name": clock.player2_name, "player": clock.player2_id},
        ],
        "match": clock.match_id,
        "preset": clock.preset,
        "match_length": clock.match_length,
        "settings": clock.clock_settings,
        "status": clock.status,
        "version": clock.version,
        "server_time": at,
        "running": state.running if clock.status == Status.RUNNING else None,
        "turn": state.running,
        **clock_reading(state, reading_ms),
        "deadline": clock.deadline_at,
        "created_at": clock.created_at,
        "updated_at": clock.updated_at,
    }


def paused_ms(clock: TableClock, at: datetime) -> int:
    """The reading of a clock at ``at``, or at the moment it was paused."""
    return wallclock.to_ms(clock.paused_at or at)
