"""Celery tasks of the analysis: each takes an id and calls one service."""

from __future__ import annotations

from celery import shared_task

from games.analysis import services


@shared_task(name=services.RUN_TASK)
def analysis_run(analysis_id: int) -> None:
    """Run one queued analysis (safe to run twice: a done analysis is left alone)."""
    services.analysis_run(analysis_id=analysis_id)
