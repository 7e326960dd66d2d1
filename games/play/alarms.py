"""Acting on the alarms of online games' clocks (R12): deadlines stored as data, timers
that act on them.

* After each action of a clocked game the row holds ``alarm_at`` (:mod:`games.play.clock`)
  and, when the alarm is near (:data:`games.background.ARM_WINDOW`), a timer task is sent
  with an ETA at the alarm (``games.game_clock_alarm``, :mod:`games.play.tasks`): Redis
  re-delivers an ETA task held longer than its visibility timeout, so far alarms are
  armed later by the sweeper.
* The task calls :func:`game_clock_alarm`, which locks the row, does nothing when the
  version moved ("stale", so running it twice has one effect), else sends the low-time
  notice or records the flag (:func:`games.play.services.game_flag`: the engine's
  ``timeout`` action, logged; when the match does not require a claim, the opponent's
  ``claim_timeout`` follows at once).
* :func:`games_sweep_alarms`, run by Celery beat every few seconds with the table clocks'
  sweep (:mod:`games.clocks.sweep`), handles every overdue alarm and arms the near ones:
  the backstop for lost or late tasks.
* Reads of a game check the deadline too (:func:`game_alarm_if_due`), so a page never
  shows a clock below zero without the flag being recorded.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Literal

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import F, Q

from games import background, wallclock
from games.engine import actions as engine_actions
from games.engine.clock import ClockState
from games.models import Game, Match, Player
from games.play import clock as game_clock
from games.play import notices, services

AlarmOutcome = Literal["stale", "not_due", "low_time", "flagged"]


def game_clock_alarm(
    *, game_id: int, version: int | None = None, at: datetime | None = None
) -> AlarmOutcome:
    """Act on a game's alarm: record a flag that is due or send the low-time notice.
    ``version``: the version the timer was armed for (``None``: whatever is current).
    Safe to run twice: a second run finds the version moved or nothing due."""
    at = at or wallclock.now()
    at_ms = wallclock.to_ms(at)
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
            deadline_at = wallclock.from_ms(clock.deadline_ms())
            if game.alarm_at is None or game.alarm_at > at or game.alarm_at == deadline_at:
                return "not_due"
            assert clock.running is not None
            remaining = clock.remaining(at_ms)
            left = 0 if remaining is None else remaining[1]
            notices.time_low(game=game, player_index=clock.running, remaining_ms=left)
            # Next: the deadline itself. Same version; the alarm moves on.
            Game.objects.filter(pk=game.pk).update(alarm_at=deadline_at, armed_version=game.version)
            game_clock.arm_on_commit(game.pk, game.version, deadline_at)
            return "low_time"
        services.game_flag(game=game, state=state, clock=clock, flagged=flagged, at=at)
        return "flagged"


def _game_for_alarm(game_id: int) -> Game | None:
    """The game row, locked, with what a flag needs of its match, players and their
    users, in one plain query: the ORM's ``select_for_update().select_related()`` and
    the lazy loads of the players and their email addresses took five queries, half of
    a flag's time (bench/clocks.py)."""
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
        " WHERE g.id = %s"
    )
    if connection.vendor == "postgresql":
        # SQLite (the one-command local run) has no row locks: its one writer at a time
        # serialises the flag with the moves instead.
        sql += " FOR UPDATE OF g"
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


def game_alarm_if_due(game: Game) -> bool:
    """On a read: act on an overdue alarm of ``game`` now. True when something changed
    (the caller reads the game again)."""
    if game.alarm_at is None or game.is_over or game.alarm_at > wallclock.now():
        return False
    return game_clock_alarm(game_id=game.pk) in ("flagged", "low_time")


def games_sweep_alarms(*, at: datetime | None = None, limit: int = 500) -> dict[str, int]:
    """The backstop: act on every overdue alarm, arm the near ones that have no timer.
    Returns counts, for the beat task's result and the tests."""
    at = at or wallclock.now()
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
    if background.celery_timers():
        near = (
            Game.objects.filter(
                alarm_at__gt=at, alarm_at__lte=at + background.ARM_WINDOW, is_over=False
            )
            .filter(Q(armed_version__isnull=True) | ~Q(armed_version=F("version")))
            .values_list("pk", "version", "alarm_at")[:limit]
        )
        for game_id, version, alarm_at in near:
            with transaction.atomic():
                if Game.objects.filter(pk=game_id, version=version).update(armed_version=version):
                    game_clock.arm_on_commit(game_id, version, alarm_at)
                    counts["armed"] += 1
    return counts
