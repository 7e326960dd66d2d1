"""The backstop of every clock (R12): overdue alarms acted on, near ones armed.

Celery beat runs :func:`clocks_sweep_alarms` every 2 s (``games.sweep_clock_alarms``,
:mod:`games.clocks.tasks`); the one-command local run has no worker or beat, so
``runserver`` sweeps in a thread instead (:func:`start_inprocess_sweeper`). The online
games' alarms are :mod:`games.play.alarms`, the table clocks' :mod:`games.clocks.services`;
other apps add their own sweeps to the thread (:func:`register_inprocess_sweep`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime

from django.db import connection

from games import wallclock
from games.clocks import services as table_clocks
from games.play import alarms

log = logging.getLogger(__name__)


def clocks_sweep_alarms(*, at: datetime | None = None, limit: int = 500) -> dict[str, int]:
    """Sweep the online games' alarms, then the table clocks'. Returns the games' counts
    (for the beat task's result and the tests)."""
    at = at or wallclock.now()
    counts = alarms.games_sweep_alarms(at=at, limit=limit)
    table_clocks.table_clocks_sweep_alarms(at=at, limit=limit)
    return counts


_sweeper_started = threading.Event()

#: More sweeps the in-process sweeper runs, registered by the apps that own them when they
#: load (``games`` imports neither ``tournaments`` nor ``chouette``): the online
#: chouette's decision windows and move clocks. Under Celery, beat sends each app's own
#: sweep task instead.
_INPROCESS_SWEEPS: list[Callable[[], object]] = []


def register_inprocess_sweep(sweep: Callable[[], object]) -> None:
    """Have the local run's sweeper thread call ``sweep`` too (once per registration)."""
    if sweep not in _INPROCESS_SWEEPS:
        _INPROCESS_SWEEPS.append(sweep)


def start_inprocess_sweeper(period: float = 1.0) -> None:
    """The one-command local run has no Celery worker or beat: a daemon thread sweeps
    instead (started once, by ``runserver``). Production uses beat (settings)."""
    if _sweeper_started.is_set():
        return
    _sweeper_started.set()

    def loop() -> None:
        while True:
            time.sleep(period)
            try:
                for sweep in (clocks_sweep_alarms, *_INPROCESS_SWEEPS):
                    try:
                        sweep()
                    except Exception:  # keep sweeping; the error is in the log
                        log.exception("clock sweep failed")
            finally:
                connection.close()

    threading.Thread(target=loop, name="clock-sweeper", daemon=True).start()
