"""Celery tasks of online chouette play: thin, they take ids, call one service and are
safe to run twice. Sent by name (:mod:`games.background`)."""

from __future__ import annotations

from celery import shared_task

from chouette.online import alarms
from chouette.online.steps import ONLINE_ALARM, ONLINE_SWEEP


@shared_task(name=ONLINE_ALARM, ignore_result=True)
def online_alarm(game_id: int, version: int) -> str:
    """The timer of one game version: a decision window's end or a flag, if due (a
    re-delivered or doubled task finds the version moved: "stale")."""
    return alarms.online_game_alarm(game_id=game_id, version=version)


@shared_task(name=ONLINE_SWEEP, ignore_result=True)
def sweep_online_alarms() -> int:
    """Beat's backstop: every overdue alarm acted on, the near ones armed."""
    return alarms.online_sweep_alarms()
