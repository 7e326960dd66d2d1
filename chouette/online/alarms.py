"""Acting on what is due in an online chouette game: the **time window** of a cube
decision (``ChouetteSession.decision_seconds``), the R12 **move clock** of box and captain
(``ChouetteSession.online_clock``) and the away window of a side nobody at the table moves
for are stored deadlines (``alarm_at``, :func:`chouette.online.steps.set_alarm`); a timer
task (``chouette.online_alarm``) or the sweeper (``chouette.sweep_online_alarms``) acts on
them through :func:`online_game_alarm`, which is safe to run twice (a moved version is
"stale"), and every read and write of a game acts first on an alarm already due, so
nobody sees a decision open past its time. Every timeout's log row names its rule and
what it decided (``defaults``: the answers given; ``flag``; ``forfeit``).

A proxy named or cleared mid-game reaches the game at once
(:func:`online_presence_changed`, a log row ``away``).
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction

from chouette import selectors as chouette_selectors
from chouette.models import ChouetteOnlineGame, ChouetteSession
from chouette.online import selectors as online_selectors
from chouette.online.steps import (
    ONLINE_ALARM,
    decision_deadline,
    lock_session_of_game,
    present,
    set_alarm,
    store_step,
)
from chouette.online.table import BOX, Table
from games import background, wallclock
from games.engine.clock import ClockState

log = logging.getLogger(__name__)


def online_game_alarm(
    *, game_id: int, version: int | None = None, at: datetime | None = None
) -> str:
    """Act on what is due in a game: a cube decision's window that ran out (every open
    decision takes its default) or a move clock that flagged (R12: the game ends, a
    gammon for the other side). ``version``: what the timer was armed for. Safe to run
    twice: ``stale`` when the game moved on or ended, ``not_due`` before its time."""
    at = at or wallclock.now()
    # One cheap read first: every page and every action asks, and mostly nothing is due.
    found = (
        ChouetteOnlineGame.objects.filter(pk=game_id)
        .values_list("status", "version", "alarm_at")
        .first()
    )
    if found is None or found[0] != ChouetteOnlineGame.Status.PLAYING:
        return "stale"
    if version is not None and found[1] != version:
        return "stale"
    if found[2] is None or found[2] > at:
        return "not_due"
    with transaction.atomic():
        session, game = lock_session_of_game(game_id)
        if not game.is_playing or (version is not None and game.version != version):
            return "stale"
        if game.alarm_at is None or game.alarm_at > at:
            return "not_due"
        table = present(session, Table.from_dict(game.table))
        at_ms = wallclock.to_ms(at)
        decision_due = decision_deadline(session, game, table)
        if decision_due is not None and decision_due <= at:
            seconds = online_selectors.window_seconds(session, table)
            if table.decisions:
                answered = [(d.member, d.kind) for d in table.decisions]
                default = session.decision_default
                after, given = table.defaults_applied(default)  # type: ignore[arg-type]
                store_step(
                    session,
                    game,
                    table,
                    after,
                    kind="defaults",
                    actor=None,
                    by_player=None,
                    data={
                        "rule": "decision_window",
                        "seconds": seconds,
                        "default": default,
                        "decisions": [[m, k] for m, k in answered],
                        "answers": [list(a) for a in given],
                    },
                    at=at,
                )
                return "defaults"
            side = table.unmanned
            if side is not None:
                after = table.forfeit(side)
                store_step(
                    session,
                    game,
                    table,
                    after,
                    kind="forfeit",
                    actor=None,
                    by_player=None,
                    data={
                        "rule": "away_window",
                        "seconds": seconds,
                        "side": side,
                        "result": "gammon",
                    },
                    at=at,
                )
                return "forfeit"
        if game.clock is not None:
            clock = ClockState.from_dict(game.clock)
            flagged = clock.flagged_player(at_ms)
            if flagged is not None:
                side_name = "box" if flagged == BOX else "team"
                after = table.flag(side_name)
                store_step(
                    session,
                    game,
                    table,
                    after,
                    kind="flag",
                    actor=table.box if flagged == BOX else table.acting_captain,
                    by_player=None,
                    data={"rule": "move_clock", "side": side_name, "result": "gammon"},
                    at=at,
                )
                return "flagged"
        set_alarm(session, game, table)
        game.save(update_fields=["alarm_at"])
        return "not_due"


def online_presence_changed(*, session: ChouetteSession, at: datetime | None = None) -> None:
    """A player of the session named or cleared a proxy (away or back,
    :func:`chouette.services.proxies.participant_proxy_set`, in its transaction, the session
    locked): the game being played takes the new away list at once, with a log row
    (``away``: who left, who came back), so a side nobody at the table moves for starts
    its window now and a member back at the table moves again."""
    at = at or wallclock.now()
    game = (
        ChouetteOnlineGame.objects.select_for_update()
        .filter(session=session, status=ChouetteOnlineGame.Status.PLAYING)
        .first()
    )
    if game is None:
        return
    table = Table.from_dict(game.table)
    after = present(session, table)
    if after.away == table.away:
        return
    proxies = chouette_selectors.session_proxies(session)
    data = {
        "away": [[p, proxies.get(p)] for p in after.away if p not in table.away],
        "back": [p for p in table.away if p not in after.away],
    }
    store_step(
        session, game, table, after, kind="away", actor=None, by_player=None, data=data, at=at
    )


def online_sweep_alarms(*, at: datetime | None = None, limit: int = 200) -> int:
    """Act on every overdue alarm and arm the near ones: the backstop of lost timers
    (Celery beat, every 2 s). Returns how many games were acted on."""
    at = at or wallclock.now()
    overdue = list(
        ChouetteOnlineGame.objects.filter(
            status=ChouetteOnlineGame.Status.PLAYING, alarm_at__lte=at
        ).values_list("pk", flat=True)[:limit]
    )
    acted = 0
    for pk in overdue:
        if online_game_alarm(game_id=pk, at=at) not in ("stale", "not_due"):
            acted += 1
    near = ChouetteOnlineGame.objects.filter(
        status=ChouetteOnlineGame.Status.PLAYING,
        alarm_at__gt=at,
        alarm_at__lte=at + background.ARM_WINDOW,
    ).values_list("pk", "version", "alarm_at")[:limit]
    if background.celery_timers():
        for pk, version, alarm_at in near:
            try:
                background.task(ONLINE_ALARM).apply_async((pk, version), eta=alarm_at)
            except Exception:  # the next sweep tries again
                log.exception("could not arm the online chouette alarm of game %s", pk)
    return acted
