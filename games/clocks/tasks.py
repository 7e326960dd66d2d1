"""Celery tasks of the clocks: thin, they take ids, call one service and are safe to run
twice. Sent by name (:mod:`games.background`); the names are the stable interface (beat's
schedule names ``games.sweep_clock_alarms``)."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from games.clocks import services, sweep


@shared_task(name=services.TABLE_CLOCK_ALARM, ignore_result=True)
def table_clock_alarm(clock_id: int, version: int) -> str:
    """The timer of one table clock version (over the board): flag the running player
    if their time is up ("stale" when the clock moved on, so a re-delivered or doubled
    task has no second effect)."""
    return services.table_clock_alarm(clock_id=clock_id, version=version)


@shared_task(name="games.sweep_clock_alarms", ignore_result=True)
def sweep_clock_alarms() -> dict[str, Any]:
    """Beat's backstop every few seconds: overdue alarms acted on, near ones armed."""
    return sweep.clocks_sweep_alarms()
