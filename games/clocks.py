"""Clocks of match play (R12): deadlines stored as data, timers that act on them.

The clock itself is pure (:mod:`games.engine.clock`). Here it meets the database:

* Every action of a clocked game (``services._game_act``) switches the clock to the
  player who must act next and stores, with the new version, the clock state, the
  ``deadline_at`` at which that player runs out of time and the ``alarm_at`` at which
  the server must next look at the game (the deadline, or earlier the "time running low"
  notice).
* After commit a timer task (``games.tasks.game_clock_alarm``) is sent with an ETA at
  the alarm, for alarms near enough (:data:`ARM_WINDOW`): Redis re-delivers an ETA task
  held longer than its visibility timeout, so far alarms are armed later by the sweeper.
* The task calls :func:`game_clock_alarm`, which locks the row, does nothing when the
  version moved ("stale", so running it twice has one effect), else sends the low-time
  notice or records the flag: the engine's ``timeout`` action, logged; when the match
  does not require a claim, the opponent's ``claim_timeout`` follows at once.
* :func:`games_sweep_alarms`, run by Celery beat every few seconds (and, in the
  one-command local run without Redis, by a small thread in the web process), handles
  every overdue alarm and arms the near ones: the backstop for lost or late tasks.
* Reads of a game check the deadline too (:func:`game_alarm_if_due`), so a page never
  shows a clock below zero without the flag being recorded.

Only :func:`now` reads the wall clock; tests replace it.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from games.engine import actions as engine_actions
from games.engine.actions import Action
from games.engine.clock import ClockSettings, ClockState, settings_from_dict

from .models import Game, Match

log = logging.getLogger(__name__)

#: Alarms nearer than this get an ETA task at once; farther ones are armed by the
#: sweeper when they come near. Well inside Redis's 15 min visibility timeout.
ARM_WINDOW = timedelta(minutes=10)

AlarmOutcome = Literal["stale", "not_due", "low_time", "flagged"]


def now() -> datetime:
    """The one reading of the wall clock for clocks (tests replace it)."""
    return timezone.now()


def to_ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def from_ms(ms: int | None) -> datetime | None:
    return None if ms is None else datetime.fromtimestamp(ms / 1000, tz=UTC)


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
    if low is not None and deadline is not None and low > to_ms(at):
        alarm = low
    alarm_at = from_ms(alarm)
    near = alarm_at is not None and alarm_at - at <= ARM_WINDOW
    return {
        "clock": clock.to_dict(),
        "deadline_at": from_ms(deadline),
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
    """Send the timer task for this version after commit, when its alarm is near."""
    from .tasks import game_clock_alarm

    send_timer_on_commit(game_clock_alarm, (game_id, version), alarm_at)


def send_timer_on_commit(task: Any, args: tuple[int, int], eta: datetime | None) -> None:
    """After commit, send ``task(*args)`` to run at ``eta`` (a timer of one version of a
    clock; table clocks use it too). A broker that is down loses nothing: the sweeper
    finds the alarm."""
    if eta is None or not celery_timers():
        return

    def send() -> None:
        try:
            task.apply_async(args, eta=eta)
        except Exception:
            log.exception("could not send %s%r", task.name, args)

    transaction.on_commit(send)


def celery_timers() -> bool:
    """Whether timers are Celery ETA tasks (else only the sweeper: the local run)."""
    return bool(settings.GAMES_CLOCK_TIMERS)


# ====================================================================== acting on alarms
def game_clock_alarm(
    *, game_id: int, version: int | None = None, at: datetime | None = None
) -> AlarmOutcome:
    """Act on a game's alarm: record a flag that is due or send the low-time notice.
    ``version``: the version the timer was armed for (``None``: whatever is current).
    Safe to run twice: a second run finds the version moved or nothing due."""
    from . import notifications_hooks as hooks

    at = at or now()
    at_ms = to_ms(at)
    with transaction.atomic():
        game = _game_for_alarm(game_id)
        if game is None or game.is_over or game.clock is None:
            return "stale"
        if version is not None and game.version != version:
            return "stale"
        clock = ClockState.from_dict(game.clock)
        state = engine_actions.state_from_dict(game.state)
        flagged = clock.flagged_player(at_ms)
        if state.flagged is not None or (flagged is None and clock.running is None):
            return "stale"
        if flagged is None:
            # Not out of time: the alarm, when due, is the low-time notice (it then moves
            # on to the deadline, so the notice is sent once per turn).
            deadline_at = from_ms(clock.deadline_ms())
            if game.alarm_at is None or game.alarm_at > at or game.alarm_at == deadline_at:
                return "not_due"
            assert clock.running is not None
            remaining = clock.remaining(at_ms)
            left = 0 if remaining is None else remaining[1]
            hooks.time_low(game=game, player_index=clock.running, remaining_ms=left)
            # Next: the deadline itself. Same version; the alarm moves on.
            Game.objects.filter(pk=game.pk).update(alarm_at=deadline_at, armed_version=game.version)
            arm_on_commit(game.pk, game.version, deadline_at)
            return "low_time"
        _record_flag(game=game, state=state, clock=clock, flagged=flagged, at=at)
        return "flagged"


def _game_for_alarm(game_id: int) -> Game | None:
    """The game row, locked, with what a flag needs of its match, players and their
    users, in one plain query: the ORM's ``select_for_update().select_related()`` and
    the lazy loads of the players and their email addresses took five queries, half of
    a flag's time (bench/clocks.py)."""
    from django.contrib.auth import get_user_model

    from .models import Player

    user_model = get_user_model()
    player_fields = ["id", "name", "user_id", "notification_channels"]
    fields = Game._meta.concrete_fields
    sql = (
        f"SELECT {', '.join('g.' + f.column for f in fields)}, m.timeout_claim,"  # noqa: S608 -- names from the models, the id is a parameter
        " p1.id, p1.name, p1.user_id, p1.notification_channels, u1.email,"
        " p2.id, p2.name, p2.user_id, p2.notification_channels, u2.email"
        f" FROM {Game._meta.db_table} g JOIN {Match._meta.db_table} m ON m.id = g.match_id"
        f" JOIN {Player._meta.db_table} p1 ON p1.id = m.player1_id"
        f" JOIN {Player._meta.db_table} p2 ON p2.id = m.player2_id"
        f" LEFT JOIN {user_model._meta.db_table} u1 ON u1.id = p1.user_id"
        f" LEFT JOIN {user_model._meta.db_table} u2 ON u2.id = p2.user_id"
        " WHERE g.id = %s FOR UPDATE OF g"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    n = len(fields)
    values = [
        f.from_db_value(v, None, connection) if hasattr(f, "from_db_value") else v
        for f, v in zip(fields, row[:n], strict=True)
    ]
    game = Game.from_db(connection.alias, [f.attname for f in fields], values)
    claim = row[n]
    players = []
    for offset in (n + 1, n + 6):
        pid, name, user_id, channels, email = row[offset : offset + 5]
        if isinstance(channels, str):
            channels = json.loads(channels)
        player = Player.from_db(connection.alias, player_fields, [pid, name, user_id, channels])
        if user_id is not None:
            player.user = user_model.from_db(connection.alias, ["id", "email"], [user_id, email])
        players.append(player)
    match = Match.from_db(
        connection.alias,
        ["id", "player1_id", "player2_id", "timeout_claim"],
        [game.match_id, players[0].pk, players[1].pk, claim],
    )
    match.player1, match.player2 = players
    game.match = match
    return game


def _record_flag(*, game: Game, state: Any, clock: ClockState, flagged: int, at: datetime) -> None:
    """Log the engine's ``timeout`` (and, without a claim, the opponent's
    ``claim_timeout``); stop the clock. Called under the game's row lock."""
    from . import notifications_hooks as hooks
    from .services import _game_store, _match_advance, game_row_values

    at_ms = to_ms(at)
    log_rows = [Action("timeout", flagged, {})]
    after = engine_actions.apply_action(state, log_rows[0])
    match = game.match
    if not match.timeout_claim:
        claim = Action("claim_timeout", 1 - flagged, {})
        after = engine_actions.apply_action(after, claim)
        log_rows.append(claim)
    stopped = clock.record_flag(at_ms).end_game(at_ms)
    values = game_row_values(after, version=game.version + len(log_rows))
    values.update(clock=stopped.to_dict(), deadline_at=None, alarm_at=None, armed_version=None)
    if after.result is not None:
        values["finished_at"] = at
    # Under our row lock the compare-and-set cannot fail.
    _game_store(
        game=game,
        expected_version=game.version,
        values=values,
        actions=log_rows,
        actor=None,
        now=at,
    )
    for field, value in values.items():
        setattr(game, field, value)
    hooks.lost_on_time(game=game, player_index=flagged, claim_needed=match.timeout_claim)
    if after.result is not None:
        locked = Match.objects.select_for_update().get(pk=match.pk)
        _match_advance(match=locked, state=after, previous_clock=stopped)
        hooks.match_over(match=locked)


def game_alarm_if_due(game: Game) -> bool:
    """On a read: act on an overdue alarm of ``game`` now. True when something changed
    (the caller reads the game again)."""
    if game.alarm_at is None or game.is_over or game.alarm_at > now():
        return False
    return game_clock_alarm(game_id=game.pk) in ("flagged", "low_time")


def games_sweep_alarms(*, at: datetime | None = None, limit: int = 500) -> dict[str, int]:
    """The backstop: act on every overdue alarm, arm the near ones that have no timer.
    Returns counts, for the beat task's result and the tests."""
    at = at or now()
    counts = {"flagged": 0, "low_time": 0, "armed": 0}
    overdue = list(
        Game.objects.filter(alarm_at__lte=at, is_over=False)
        .order_by("alarm_at")
        .values_list("pk", "version")[:limit]
    )
    for game_id, version in overdue:
        outcome = game_clock_alarm(game_id=game_id, version=version, at=at)
        if outcome in counts:
            counts[outcome] += 1
    if celery_timers():
        near = (
            Game.objects.filter(alarm_at__gt=at, alarm_at__lte=at + ARM_WINDOW, is_over=False)
            .filter(Q(armed_version__isnull=True) | ~Q(armed_version=F("version")))
            .values_list("pk", "version", "alarm_at")[:limit]
        )
        for game_id, version, alarm_at in near:
            with transaction.atomic():
                if Game.objects.filter(pk=game_id, version=version).update(armed_version=version):
                    arm_on_commit(game_id, version, alarm_at)
                    counts["armed"] += 1
    # The over-the-board table clocks (games.tableclocks) have deadlines too.
    from .tableclocks import table_clocks_sweep_alarms

    table_clocks_sweep_alarms(at=at, limit=limit)
    return counts


# ====================================================================== local sweeper
_sweeper_started = threading.Event()


def start_inprocess_sweeper(period: float = 1.0) -> None:
    """The one-command local run has no Celery worker or beat: a daemon thread sweeps
    instead (started once, by ``runserver``). Production uses beat (settings)."""
    if _sweeper_started.is_set():
        return
    _sweeper_started.set()

    def loop() -> None:
        from django.db import connection

        while True:
            time.sleep(period)
            try:
                games_sweep_alarms()
            except Exception:  # keep sweeping; the error is in the log
                log.exception("clock sweep failed")
            finally:
                connection.close()

    threading.Thread(target=loop, name="clock-sweeper", daemon=True).start()
