"""Celery tasks of match play: thin, they take ids, call one service and are safe to run
twice. Sent by name (:mod:`games.background`); the names are the stable interface."""

from __future__ import annotations

from celery import shared_task

from games.play import alarms
from games.play.clock import GAME_CLOCK_ALARM


@shared_task(name=GAME_CLOCK_ALARM, ignore_result=True)
def game_clock_alarm(game_id: int, version: int) -> str:
    """The timer of one game version: flag or warn if due, else nothing ("stale" when
    the game moved on, so a re-delivered or doubled task has no second effect)."""
    return alarms.game_clock_alarm(game_id=game_id, version=version)
