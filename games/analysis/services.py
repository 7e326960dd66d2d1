"""The analysis job's services: ask for an analysis; run it (``games.analysis_run``);
sweep up runs whose worker died (``games.analysis_sweep``).

A run, in order: it takes the job (row lock: ``running``, ``attempts`` + 1, a fresh
``run_token``) while holding a PostgreSQL advisory lock on the job for as long as it
runs -- a session lock, so a worker that dies releases it with its connection; it runs
gnubg outside any transaction; then one transaction checks the token is still its own
and stores the figures with ``status = done``. A killed or timed-out run leaves no
figures and is run once more (``attempts`` < 2), then the job fails; a match gnubg
refuses fails at once. Who notices a dead run: the next delivery of the task (Celery's
``acks_late`` + ``reject_on_worker_lost`` re-deliver the task of a killed pool child),
or the beat sweep (a whole worker killed: Redis holds its message for the visibility
timeout), both by finding the job ``running`` and its advisory lock free.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from games import background
from games.analysis import store
from games.analysis.driver import GnubgFailure, analysis_time_limit, gnubg_analyse
from games.errors import ValidationFailed
from games.models import GameAction, Match, MatchAnalysis
from games.play.interchange import match_export_mat
from games.play.live import publish_match_changed

log = logging.getLogger(__name__)

#: The Celery task that runs one analysis (games.analysis.tasks), by its name.
RUN_TASK = "games.analysis_run"
#: How many runs a job gets: the first, and one more after a kill or a timeout.
MAX_RUNS = 2
#: The advisory lock space of the analysis jobs (the second key is the job's id).
LOCK_SPACE = 28


def analysis_request(
    *,
    match_id: int,
    plies: int | None = None,
    requested_by: Any = None,
    again: bool = False,
    send: bool = True,
) -> MatchAnalysis:
    """Queue ``match_id`` for analysis at ``plies`` (default ``ANALYSIS_PLIES``) and send
    the job after commit (``send=False``: the caller runs it itself, as the command
    does). An analysis queued, running or done is left as it is unless
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
        if send:
            transaction.on_commit(lambda: _send(analysis_id))
    return analysis


def _send(analysis_id: int) -> None:
    """Send the job to the ``analysis`` queue. The one-command local run has no worker
    (tasks run eagerly, in the request that sent them): there the job runs in a thread
    of its own, so a finished match's last move does not wait for gnubg."""
    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        threading.Thread(
            target=_run_detached, args=(analysis_id,), name="analysis", daemon=True
        ).start()
        return
    background.task(RUN_TASK).delay(analysis_id)


def _run_detached(analysis_id: int) -> None:  # pragma: no cover - the local run only
    try:
        analysis_run(analysis_id=analysis_id)
    except Exception:
        log.exception("analysis %s failed", analysis_id)
    finally:
        connection.close()


#: The stable failure codes and what a person reads for them.
def failure_reason(code: str, detail: str = "") -> str:
    reasons = {
        "timeout": _("The analysis took longer than its time limit."),
        "killed": _("The analysis was stopped before it finished."),
        "worker_lost": _("The analysis was stopped before it finished."),
        "out_of_memory": _("The analysis ran out of memory."),
        "gnubg_missing": _("GNU Backgammon is not installed on the server."),
        "gnubg_refused": _("GNU Backgammon could not read this match."),
        "statistics_unreadable": _("GNU Backgammon's statistics of this match could not be read."),
        "decision_mismatch": _(
            "GNU Backgammon's reading of this match does not agree with the stored games."
        ),
        "no_moves": _("This match has no moves to analyse."),
    }
    if code in reasons:
        return str(reasons[code])
    if code == "gnubg_error":
        return _("GNU Backgammon stopped with an error: %(detail)s") % {"detail": detail[:500]}
    return detail or _("The analysis failed (%(code)s).") % {"code": code}


@contextmanager
def _run_lock(analysis_id: int) -> Iterator[bool]:
    """Hold the job's advisory lock for the run (``False``: a live run holds it)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [LOCK_SPACE, analysis_id])
        held = bool(cursor.fetchone()[0])
    try:
        yield held
    finally:
        if held:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [LOCK_SPACE, analysis_id])


def _lock_free(analysis_id: int) -> bool:
    """Whether no live run holds the job (tried and released at once)."""
    with _run_lock(analysis_id) as held:
        return held


def _claim(analysis_id: int) -> tuple[MatchAnalysis, str] | None:
    """Take the job for this run, or ``None`` when there is nothing to run. Called with
    the advisory lock held, so a job found ``running`` is one whose run died."""
    with transaction.atomic():
        analysis = MatchAnalysis.objects.select_for_update().filter(pk=analysis_id).first()
        if analysis is None or analysis.status in (
            MatchAnalysis.Status.DONE,
            MatchAnalysis.Status.FAILED,
        ):
            return None
        if analysis.status == MatchAnalysis.Status.RUNNING and analysis.attempts >= MAX_RUNS:
            _fail(analysis, "worker_lost", "")
            return None
        token = uuid.uuid4().hex
        MatchAnalysis.objects.filter(pk=analysis_id).update(
            status=MatchAnalysis.Status.RUNNING,
            attempts=F("attempts") + 1,
            run_token=token,
            started_at=timezone.now(),
            progress=0,
            version=F("version") + 1,
        )
        analysis.refresh_from_db()
        return analysis, token


def _fail(analysis: MatchAnalysis, code: str, detail: str) -> None:
    MatchAnalysis.objects.filter(pk=analysis.pk).update(
        status=MatchAnalysis.Status.FAILED,
        failure_code=code[:40],
        failure_reason=failure_reason(code, detail),
        run_token="",
        finished_at=timezone.now(),
        version=F("version") + 1,
    )


def _give_up_or_again(analysis_id: int, token: str, code: str, detail: str) -> None:
    """After a run cut short: queue the job again (its second run) or fail it."""
    with transaction.atomic():
        analysis = (
            MatchAnalysis.objects.select_for_update()
            .filter(pk=analysis_id, run_token=token, status=MatchAnalysis.Status.RUNNING)
            .first()
        )
        if analysis is None:
            return  # no longer ours (the sweep or another run took it)
        if analysis.attempts < MAX_RUNS:
            MatchAnalysis.objects.filter(pk=analysis_id).update(
                status=MatchAnalysis.Status.QUEUED,
                run_token="",
                progress=0,
                failure_code=code[:40],
                failure_reason=failure_reason(code, detail),
                version=F("version") + 1,
            )
            transaction.on_commit(lambda: _send(analysis_id))
        else:
            _fail(analysis, code, detail)


def _checker_plays(match: Match) -> int:
    return GameAction.objects.filter(game__match=match, kind="play").count()


def analysis_run(*, analysis_id: int, plies: int | None = None) -> MatchAnalysis | None:
    """Run the analysis ``analysis_id`` with gnubg and store its figures (safe to run
    twice: a done or failed job, or one a live run holds, is left alone). ``plies``
    overrides the job's own for this run (the command's ``--plies``). Returns the job as
    the run left it, ``None`` when a live run holds it."""
    with _run_lock(analysis_id) as held:
        if not held:
            return None
        claimed = _claim(analysis_id)
        if claimed is None:  # done, failed or gone: nothing to run
            return MatchAnalysis.objects.filter(pk=analysis_id).first()
        analysis, token = claimed
        match_id = analysis.match_id
        _touch(match_id)
        if plies is not None and plies != analysis.plies:
            MatchAnalysis.objects.filter(pk=analysis_id).update(plies=plies)
            analysis.plies = plies
        match = analysis.match
        try:
            plays = _checker_plays(match)
            if plays == 0:
                raise GnubgFailure("no_moves", "")
            try:
                # A match lost on time (R12) has no .mat form: its moves are
                # analysed with the last game left unfinished.
                mat_text = match_export_mat(match=match, forfeit_unfinished=True)
            except ValidationFailed as exc:
                raise GnubgFailure(exc.code, str(exc.detail)) from None
            result = gnubg_analyse(
                mat_text=mat_text,
                plies=analysis.plies,
                timeout=analysis_time_limit(moves=plays),
                on_progress=lambda done, total: _progress(
                    analysis_id, token, done, total, match_id
                ),
            )
            store.analysis_store(analysis_id=analysis_id, token=token, result=result)
        except (GnubgFailure, store.MappingFailure) as failure:
            code = failure.code
            detail = failure.detail
            if getattr(failure, "retry", False):
                _give_up_or_again(analysis_id, token, code, detail)
            else:
                with transaction.atomic():
                    row = (
                        MatchAnalysis.objects.select_for_update()
                        .filter(pk=analysis_id, run_token=token)
                        .first()
                    )
                    if row is not None:
                        _fail(row, code, detail)
        except SoftTimeLimitExceeded:
            _give_up_or_again(analysis_id, token, "timeout", "")
        _touch(match_id)
    return MatchAnalysis.objects.filter(pk=analysis_id).first()


def _touch(match_id: int) -> None:
    """Tell the match's live page that its analysis moved (status, progress): a plain
    ``changed`` on the ``match:<id>`` topic (games.play.live)."""
    try:
        publish_match_changed(match_id=match_id)
    except Exception:  # the live page is a courtesy: never fails the job
        log.exception("could not publish match %s", match_id)


def _progress(analysis_id: int, token: str, done: int, total: int, match_id: int) -> None:
    # 100 % is the stored result's: the games analysed take it to 95.
    percent = min(95, int(95 * done / max(total, 1)))
    changed = MatchAnalysis.objects.filter(
        pk=analysis_id, run_token=token, status=MatchAnalysis.Status.RUNNING
    ).update(progress=percent, version=F("version") + 1)
    if changed:
        _touch(match_id)


def analysis_overdue() -> timedelta:
    """How long after its start a running job is surely dead: the longest run's limit
    and the Celery hard limit's margin."""
    return timedelta(seconds=float(settings.ANALYSIS_TIME_LIMIT + settings.ANALYSIS_SWEEP_GRACE))


def analysis_sweep() -> int:
    """Beat's sweep: queue again (or fail, after its second run) every job left
    ``running`` past its time limit whose run holds no lock (its worker died whole).
    Returns how many it handled."""
    cutoff = timezone.now() - analysis_overdue()
    handled = 0
    stale = MatchAnalysis.objects.filter(
        status=MatchAnalysis.Status.RUNNING, started_at__lt=cutoff
    ).values_list("pk", "run_token")
    for analysis_id, token in stale:
        if not _lock_free(analysis_id):
            continue  # a live run: it ends by its own time limit
        _give_up_or_again(analysis_id, token, "worker_lost", "")
        handled += 1
    return handled
