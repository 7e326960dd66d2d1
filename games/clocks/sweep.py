"""The backstop of every clock (R12): overdue alarms acted on, near ones armed.

Celery beat runs :func:`clocks_sweep_alarms` every 2 s (``games.sweep_clock_alarms``,
:mod:`games.clocks.tasks`); the one-command local run has no worker or beat, so
``runserver`` sweeps in a thread instead (:func:`start_inprocess_sweeper`). The online
games' alarms are :mod:`games.play.alarms`, the table clocks' :mod:`games.clocks.services`.
"""

from __future__ import annotations

import logging
import threading
import time
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
                clocks_sweep_alarms()
            except Exception:  # keep sweeping; the error is in the log
                log.exception("clock sweep failed")
            finally:
                connection.close()

    threading.Thread(target=loop, name="clock-sweeper", daemon=True).start()
