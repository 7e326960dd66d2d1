"""Worker side of ``bench/clocks.py``: loaded only by the worker that benchmark starts
(``celery -A config worker --include bench.clockbench_tasks``), never by the app.

* ``clockbench.empty_eta``: the yardstick, an ETA task that does nothing but note how
  late it started (``time.time()`` at its start minus the ETA it was given).
* Signal handlers that note, for the app's clock tasks (``games.game_clock_alarm``,
  ``games.sweep_clock_alarms``) and the notification sends
  (``games.notification_deliver``), when each started and ended and what it returned:
  the benchmark splits a flag's latency into "the ETA task started late" and "the task
  took long", and tells the flags of the ETA tasks from those of the sweeper.
* A garbage-collector callback that notes each collection of 20 ms or more in any of
  the worker's processes (the main process holds every ETA task in memory, so a full
  collection there is long, and no due task is handed to the pool meanwhile).

The empty task's lateness and the task notes are one ``RPUSH`` each to the benchmark's
Redis database, made after the task's own work (the empty task takes its reading
first): about 0.1 ms more per task, outside what is measured. Garbage collections go to
one JSON-lines file per process in ``$CLOCKBENCH_GC_DIR`` (a collection can interrupt
this module's own Redis call, so not Redis).
"""

from __future__ import annotations

import gc
import json
import os
import time
from typing import Any

import redis
from celery import signals
from django.conf import settings

from config.celery import app

#: Redis lists the benchmark reads (in its own Redis database, flushed before each run).
EMPTY_KEY = "clockbench:empty"
TASKS_KEY = "clockbench:tasks"
#: The folder the collections are noted in, one file per process (set by the benchmark).
GC_DIR_ENV = "CLOCKBENCH_GC_DIR"
#: Collections at least this long are noted (seconds).
GC_NOTED = 0.020
WATCHED = frozenset(
    {"games.game_clock_alarm", "games.sweep_clock_alarms", "games.notification_deliver"}
)

_client: redis.Redis | None = None
_client_pid = 0
_started: dict[str, float] = {}


def _redis() -> redis.Redis:
    """One connection per pool process (made after the fork, never shared)."""
    global _client, _client_pid
    if _client is None or _client_pid != os.getpid():
        _client = redis.Redis.from_url(settings.REDIS_URL)
        _client_pid = os.getpid()
    return _client


@app.task(name="clockbench.empty_eta", ignore_result=True)
def empty_eta(eta: float) -> None:
    """Note how late this ETA task started (``eta``: its ETA as a Unix time)."""
    late = time.time() - eta
    _redis().rpush(EMPTY_KEY, f"{late:.6f}")


@signals.task_prerun.connect
def _task_started(task_id: str | None = None, task: Any = None, **_: Any) -> None:
    if task_id is not None and task is not None and task.name in WATCHED:
        _started[task_id] = time.time()


@signals.task_postrun.connect
def _task_ended(
    task_id: str | None = None,
    task: Any = None,
    args: Any = None,
    retval: Any = None,
    state: str | None = None,
    **_: Any,
) -> None:
    started = _started.pop(task_id or "", None)
    if started is None:
        return
    ended = time.time()
    result = retval if isinstance(retval, str | int | dict | type(None)) else repr(retval)
    note = {
        "task": task.name,
        "args": list(args or ()),
        "start": started,
        "end": ended,
        "state": state,
        "result": result,
    }
    _redis().rpush(TASKS_KEY, json.dumps(note, default=str))


_gc_started = 0.0


def _gc_callback(phase: str, info: dict[str, Any]) -> None:
    global _gc_started
    if phase == "start":
        _gc_started = time.perf_counter()
        return
    took = time.perf_counter() - _gc_started
    folder = os.environ.get(GC_DIR_ENV)
    if took >= GC_NOTED and folder:
        # A file, not Redis: a collection may interrupt this module's own Redis call.
        note = {"pid": os.getpid(), "gen": info.get("generation"), "at": time.time(), "s": took}
        with open(os.path.join(folder, f"gc-{os.getpid()}.jsonl"), "a") as f:
            f.write(json.dumps(note) + "\n")


gc.callbacks.append(_gc_callback)
