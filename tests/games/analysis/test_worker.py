"""A real Celery worker killed (SIGKILL) in the middle of an analysis (issue 28): the job
ends with exactly one stored result -- one analysis done, two players' figures, each
decision once.

Two ways a worker dies: its pool child alone (the worker re-delivers the task, Celery's
``reject_on_worker_lost``, and the next run finds the dead run's lock free), and the
whole worker (Redis keeps the message for its visibility timeout; beat's sweep finds the
job left running and queues it again, and a new worker runs it)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from config.celery import app
from games.analysis import services
from games.models import DecisionAnalysis, MatchAnalysis, PlayerAnalysis
from games.play.interchange import match_import_mat
from tests.games.analysis.gnubgplay import selfplay

ROOT = Path(__file__).resolve().parents[3]


def _worker() -> subprocess.Popen[bytes]:
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": url,
        "REDIS_URL": settings.REDIS_URL,
    }
    return subprocess.Popen(
        [
            *(sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", "analysis"),
            *("--pool", "prefork", "--concurrency", "1", "--without-heartbeat"),
            *("--without-gossip", "--without-mingle", "-l", "warning"),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def _stop(worker: subprocess.Popen[bytes]) -> None:
    if worker.poll() is None:
        os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()


def _wait(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"waited {timeout:.0f} s for {what}")


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def _analysis_running(analysis_id: int) -> bool:
    row = MatchAnalysis.objects.get(pk=analysis_id)
    return row.status == MatchAnalysis.Status.RUNNING


def _queued_match(tmp_path: Path, seed: int) -> MatchAnalysis:
    app.control.purge()  # no message of an earlier test's job
    text = selfplay(tmp_path / "m.mat", length=3, seed=seed)
    match = match_import_mat(text=text, by=None)
    # 2-ply: a few seconds of gnubg, time to kill the worker in the middle.
    return services.analysis_request(match_id=match.pk, plies=2, again=True)


def _exactly_one_result(analysis: MatchAnalysis) -> None:
    rows = MatchAnalysis.objects.filter(match=analysis.match_id)
    assert rows.count() == 1
    done = rows.get()
    assert done.status == MatchAnalysis.Status.DONE, done.failure_reason
    assert done.attempts == 2  # the killed run and the one that finished
    assert PlayerAnalysis.objects.filter(match=analysis.match_id).count() == 2
    decisions = DecisionAnalysis.objects.filter(analysis=done)
    keys = list(decisions.values_list("game_number", "action_seq", "kind"))
    assert keys and len(keys) == len(set(keys))
    # Delivered once more (Redis's visibility timeout, a late duplicate): nothing changes.
    again = services.analysis_run(analysis_id=done.pk)
    assert again is not None and again.version == done.version
    assert DecisionAnalysis.objects.filter(analysis=done).count() == len(keys)


@pytest.mark.django_db(transaction=True)
def test_a_whole_worker_killed_mid_analysis_ends_with_one_result(tmp_path, settings):
    analysis = _queued_match(tmp_path, seed=101)
    worker = _worker()
    try:
        _wait(lambda: _analysis_running(analysis.pk), 60, "the run to start")
        time.sleep(1.0)
        os.killpg(worker.pid, signal.SIGKILL)  # the worker, its pool child and gnubg
        worker.wait()
    finally:
        _stop(worker)
    row = MatchAnalysis.objects.get(pk=analysis.pk)
    assert row.status == MatchAnalysis.Status.RUNNING and row.attempts == 1
    assert not PlayerAnalysis.objects.filter(analysis=row).exists()
    # Beat's sweep, once the run is past its time limit (here: at once).
    settings.ANALYSIS_TIME_LIMIT = 0
    settings.ANALYSIS_SWEEP_GRACE = 0
    _wait(lambda: services._lock_free(analysis.pk), 10, "the dead run's lock to go")
    assert services.analysis_sweep() == 1
    assert MatchAnalysis.objects.get(pk=analysis.pk).status == MatchAnalysis.Status.QUEUED
    worker = _worker()
    try:
        _wait(
            lambda: MatchAnalysis.objects.get(pk=analysis.pk).status == MatchAnalysis.Status.DONE,
            240,
            "the second run",
        )
    finally:
        _stop(worker)
    _exactly_one_result(analysis)


@pytest.mark.django_db(transaction=True)
def test_a_pool_child_killed_mid_analysis_ends_with_one_result(tmp_path):
    analysis = _queued_match(tmp_path, seed=202)
    worker = _worker()
    try:
        _wait(lambda: _analysis_running(analysis.pk), 60, "the run to start")
        time.sleep(1.0)
        child = _wait(lambda: _children(worker.pid), 10, "the pool child")[0]
        os.kill(child, signal.SIGKILL)  # the worker re-delivers the task it held
        _wait(
            lambda: MatchAnalysis.objects.get(pk=analysis.pk).status == MatchAnalysis.Status.DONE,
            240,
            "the re-delivered run",
        )
    finally:
        _stop(worker)
    _exactly_one_result(analysis)
