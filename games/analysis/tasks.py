"""Celery tasks of the analysis: each takes an id and calls one service.

The run's Celery time limits sit above gnubg's own (the driver kills gnubg at
``analysis_time_limit``): the soft limit ends a run stuck elsewhere (it is retried
once), the hard one kills the pool child, whose task ``reject_on_worker_lost`` delivers
again.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from games.analysis import services

SWEEP_TASK = "games.analysis_sweep"


@shared_task(
    name=services.RUN_TASK,
    soft_time_limit=settings.ANALYSIS_TIME_LIMIT + 60,
    time_limit=settings.ANALYSIS_TIME_LIMIT + 120,
)
def analysis_run(analysis_id: int) -> None:
    """Run one queued analysis (safe to run twice: a done analysis is left alone)."""
    services.analysis_run(analysis_id=analysis_id)


@shared_task(name=SWEEP_TASK, ignore_result=True)
def analysis_sweep() -> int:
    """Beat: queue again (or fail) the jobs whose worker died mid-run."""
    return services.analysis_sweep()
