"""The analysis job's services: ask for an analysis; run it (``games.analysis_run``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F

from games import background
from games.models import Match, MatchAnalysis

#: The Celery task that runs one analysis (games.analysis.tasks), by its name.
RUN_TASK = "games.analysis_run"


def analysis_request(
    *, match_id: int, plies: int | None = None, requested_by: Any = None, again: bool = False
) -> MatchAnalysis:
    """Queue ``match_id`` for analysis at ``plies`` (default ``ANALYSIS_PLIES``) and send
    the job after commit. An analysis queued, running or done is left as it is unless
    ``again`` (then it is queued anew, its old figures kept until the new run stores its
    own); a failed one is queued anew. Returns the row as it now is."""
    plies = settings.ANALYSIS_PLIES if plies is None else plies
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        analysis, created = MatchAnalysis.objects.select_for_update().get_or_create(
            match=match, defaults={"plies": plies, "requested_by": requested_by}
        )
        if not created:
            if analysis.status != MatchAnalysis.Status.FAILED and not again:
                return analysis
            MatchAnalysis.objects.filter(pk=analysis.pk).update(
                status=MatchAnalysis.Status.QUEUED,
                plies=plies,
                progress=0,
                attempts=0,
                failure_code="",
                failure_reason="",
                requested_by=requested_by,
                version=F("version") + 1,
            )
            analysis.refresh_from_db()
        analysis_id = analysis.pk
        transaction.on_commit(lambda: background.task(RUN_TASK).delay(analysis_id))
    return analysis


def analysis_run(*, analysis_id: int) -> None:
    """Run the analysis ``analysis_id`` with gnubg and store its figures (issue 28, A)."""
    raise NotImplementedError("the analysis run is being built (issue 28)")
