"""Work sent to Celery after the current transaction commits.

Services send tasks **by their registered name** (``games.game_clock_alarm``, ...) and
never import a tasks module: each tasks module imports the service it calls, so a
service importing its task back would make an import cycle. The names are the stable
interface (routes, beat entries and queued messages use them too); the tasks modules are
registered when the app is ready (``games.apps``).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction

log = logging.getLogger(__name__)


def task(name: str) -> Any:
    """The registered Celery task called ``name`` (a ``KeyError`` when nothing
    registered it: a typo should fail loudly, not drop the work)."""
    return current_app.tasks[name]


#: Timers nearer than this get an ETA task at once; farther ones are armed by the sweeper
#: when they come near. Well inside Redis's 15 min visibility timeout (settings: an ETA
#: task held longer than that is delivered again).
ARM_WINDOW = timedelta(minutes=10)


def celery_timers() -> bool:
    """Whether clock timers are Celery ETA tasks (else only the sweeper: the local run)."""
    return bool(settings.GAMES_CLOCK_TIMERS)


def send_timer_on_commit(name: str, args: tuple[int, int], eta: datetime | None) -> None:
    """After commit, send the task ``name(*args)`` to run at ``eta``: the timer of one
    version of a clock (a game's or a table clock's). A broker that is down loses nothing:
    the sweeper finds the alarm."""
    if eta is None or not celery_timers():
        return

    def send() -> None:
        try:
            task(name).apply_async(args, eta=eta)
        except Exception:
            log.exception("could not send %s%r", name, args)

    transaction.on_commit(send)
