"""The clock columns of an online game (R12): what every action stores with the new version.

The clock itself is pure (:mod:`games.engine.clock`). Every action of a clocked game
(:mod:`games.play.services`) switches the clock to the player who must act next and
stores, with the new version, the clock state, the ``deadline_at`` at which that player
runs out of time and the ``alarm_at`` at which the server must next look at the game (the
deadline, or earlier the "time running low" notice); after commit a timer task is sent
for alarms near enough. Acting on an alarm is :mod:`games.play.alarms`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings

from games import background, wallclock
from games.engine.clock import ClockSettings, ClockState, settings_from_dict
from games.models import Match

#: The registered name of the game timer task (:mod:`games.play.tasks`).
GAME_CLOCK_ALARM = "games.game_clock_alarm"


def low_time_ms() -> int:
    """The reserve left at which a player is told their time is running low."""
    return int(settings.NOTIFICATION_TIME_LOW_MS)


# ====================================================================== computing
def clock_columns(clock: ClockState | None, *, version: int, at: datetime) -> dict[str, Any]:
    """The :class:`~games.models.Game` columns that mirror a clock after an action made
    at ``at`` (``version`` is the game's new version)."""
    if clock is None:
        return {}
    deadline = clock.deadline_ms()
    alarm = deadline
    low = clock.low_time_at(low_time_ms())
    if low is not None and deadline is not None and low > wallclock.to_ms(at):
        alarm = low
    alarm_at = wallclock.from_ms(alarm)
    near = alarm_at is not None and alarm_at - at <= background.ARM_WINDOW
    return {
        "clock": clock.to_dict(),
        "deadline_at": wallclock.from_ms(deadline),
        "alarm_at": alarm_at,
        "armed_version": version if near else None,
    }


def clock_after(clock: ClockState, *, to_player: int | None, at_ms: int) -> ClockState:
    """The clock after an action: it runs for the player who must act next; when the
    same player acts again (a roll, then the play) their turn goes on."""
    if to_player is not None and to_player == clock.running:
        return clock
    return clock.switch(at_ms, to_player)


def clock_for_new_game(
    *,
    match: Match,
    previous: ClockState | None,
    length: int,
    score: tuple[int, int],
    player: int | None,
    at_ms: int,
) -> ClockState | None:
    """The clock of a match's next game (``previous``: the last game's clock)."""
    if match.clock is None:
        return None
    if previous is None:
        settings_ = _settings(match)
        return ClockState.start(settings_, length=length, score=score, player=player, now_ms=at_ms)
    return previous.new_game(length=length, score=score, player=player, now_ms=at_ms)


def _settings(match: Match) -> ClockSettings:
    assert match.clock is not None
    return settings_from_dict(match.clock)


def arm_on_commit(game_id: int, version: int, alarm_at: datetime | None) -> None:
    """Send the timer task for this version after commit, when its alarm is near
    (``games.play.tasks.game_clock_alarm``, sent by name: see :mod:`games.background`)."""
    background.send_timer_on_commit(GAME_CLOCK_ALARM, (game_id, version), alarm_at)


def clock_reading(state: ClockState, at_ms: int) -> dict[str, Any]:
    """What every client is sent of a clock at the server's time ``at_ms``, for an online
    game and a table clock alike (R12): the turn's ``delay_ms``, the ``delay_left_ms`` of
    the running turn, both ``reserves_ms`` as a clock would show them, and who
    ``flagged``."""
    remaining = state.remaining(at_ms)
    return {
        "delay_ms": state.settings.delay_ms,
        "delay_left_ms": None if remaining is None else remaining[0],
        "reserves_ms": list(state.reserves_at(at_ms)),
        "flagged": state.flagged_player(at_ms),
    }
