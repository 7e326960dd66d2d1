"""Which test runs where in a parallel run (pytest-xdist, ``-n N``): longest first.

A parallel run lasts as long as its busiest worker. xdist's own schedulers hand out tests
in collection order (``load``) or whole files, most tests first (``loadfile``): a file of
one long test (R14's 500 replays, a match played in two browsers) is handed out last and
then runs alone while the other workers idle. Here the work goes out longest first, the
classic rule for filling N machines (LPT: longest processing time first), so the long
tests run side by side at the start and the short ones fill the gaps at the end.

Terms:

* **weight**: a test's expected seconds (setup, call and teardown), read from
  ``tests/durations.json``, which a run writes when ``TEST_DURATIONS_SAVE=1`` is set
  (``TEST_DURATIONS_SAVE=1 ./dev test``). A test the file does not know weighs
  ``UNKNOWN_BROWSER`` in tests/browser and ``UNKNOWN`` elsewhere. The file only steers
  the order: a stale one makes a run slower, never wrong.
* **unit**: what is handed to one worker at once. A file is one unit (its module
  fixtures are built once), unless it weighs more than ``SPLIT_FILE`` seconds: then each
  of its tests is a unit of its own, so one long file is shared out.
* A worker runs a test only once it knows the one after it (xdist needs the next item
  for teardown), so each worker always holds one more unit than it is running. While it
  runs a long test, the unit behind it is the lightest left (it could not move to an
  idle worker); once the running test is about done, the heaviest left.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from xdist.scheduler import LoadScopeScheduling

DURATIONS = Path(__file__).resolve().parent / "durations.json"
#: Seconds a test not in the file is taken to weigh.
UNKNOWN_BROWSER = 8.0
UNKNOWN = 0.05
#: A file heavier than this (seconds) is handed out test by test.
SPLIT_FILE = 15.0
#: A running test with fewer seconds than this left counts as about done.
ABOUT_DONE = 2.0
#: Durations below this are not written to the file (they weigh UNKNOWN).
KEEP_ABOVE = 0.2
SAVE_VARIABLE = "TEST_DURATIONS_SAVE"
#: ``TEST_SCHEDULE_LOG=<file>``: each hand-out written there (time, worker, weight, unit).
LOG = os.environ.get("TEST_SCHEDULE_LOG", "")


def _weights() -> dict[str, float]:
    try:
        data = json.loads(DURATIONS.read_text())
    except (OSError, ValueError):
        return {}
    return {str(k): float(v) for k, v in data.items()}


def weight(nodeid: str, weights: dict[str, float]) -> float:
    if nodeid in weights:
        return weights[nodeid]
    return UNKNOWN_BROWSER if nodeid.startswith("tests/browser/") else UNKNOWN


def units(collection: list[str], weights: dict[str, float]) -> list[tuple[str, list[str]]]:
    """The collection cut into units, heaviest first (ties in collection order)."""
    files: dict[str, list[str]] = {}
    for nodeid in collection:
        files.setdefault(nodeid.split("::", 1)[0], []).append(nodeid)
    cut: list[tuple[str, list[str]]] = []
    for name, nodeids in files.items():
        if sum(weight(n, weights) for n in nodeids) > SPLIT_FILE:
            cut.extend((nodeid, [nodeid]) for nodeid in nodeids)
        else:
            cut.append((name, nodeids))
    order = {scope: i for i, (scope, _) in enumerate(cut)}
    return sorted(cut, key=lambda unit: (-sum(weight(n, weights) for n in unit[1]), order[unit[0]]))


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """xdist's ``load`` (its default for ``-n``) replaced by the longest-first one."""
    if config.getvalue("dist") != "load":
        return None
    return LongestFirst(config, log)


class LongestFirst(LoadScopeScheduling):  # type: ignore[misc]
    """xdist's scope scheduler with the units cut and ordered here (see the header)."""

    def __init__(self, config: pytest.Config, log: Any = None) -> None:
        super().__init__(config, log)
        self.weights = _weights()
        self.scope_of: dict[str, str] = {}
        self.index_of: dict[str, int] = {}
        self.started: dict[Any, float] = {}

    def _split_scope(self, nodeid: str) -> str:
        return self.scope_of.get(nodeid) or nodeid.split("::", 1)[0]

    def schedule(self) -> None:
        assert self.collection_is_completed
        if self.collection is not None:
            for node in self.nodes:
                self._reschedule(node)
            return
        if not self._check_nodes_have_same_collection():
            self.log("**Different tests collected, aborting run**")
            return
        self.collection = list(next(iter(self.registered_collections.values())))
        if not self.collection:
            return
        self.index_of = {nodeid: i for i, nodeid in enumerate(self.collection)}
        for scope, nodeids in units(self.collection, self.weights):
            for nodeid in nodeids:
                self.scope_of[nodeid] = scope
            self.workqueue[scope] = dict.fromkeys(nodeids, False)
        for node in self.nodes:  # each its heaviest unit first, then one behind it
            self._reschedule(node)
        for node in self.nodes:
            self._reschedule(node)

    def mark_test_complete(self, node: Any, item_index: int, duration: float = 0) -> None:
        self.started[node] = time.monotonic()  # the node's next test begins now
        super().mark_test_complete(node, item_index, duration)

    def _reschedule(self, node: Any) -> None:
        if node.shutting_down:
            return
        if not self.workqueue:
            node.shutdown()
            return
        assigned = self.assigned_work[node]
        for scope in [s for s, unit in assigned.items() if all(unit.values())]:
            del assigned[scope]  # done: no need to look through it again
        pending = [n for unit in assigned.values() for n, done in unit.items() if not done]
        if len(pending) >= 2:
            return  # one running, one known behind it
        lightest = False
        if pending:
            elapsed = time.monotonic() - self.started.get(node, time.monotonic())
            lightest = weight(pending[0], self.weights) - elapsed > ABOUT_DONE
        else:
            self.started[node] = time.monotonic()
        scope, unit = self.workqueue.popitem(last=lightest)
        assigned[scope] = unit
        if LOG:  # when, which worker, what, its weight: where a run's time went
            with open(LOG, "a", encoding="utf-8") as out:
                heft = sum(weight(n, self.weights) for n in unit)
                out.write(f"{time.monotonic():.1f}\t{node.gateway.id}\t{heft:.1f}\t{scope}\n")
        node.send_runtest_some([self.index_of[n] for n, done in unit.items() if not done])


# ------------------------------------------------------------------ writing the weights
_measured: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if os.environ.get(SAVE_VARIABLE):
        _measured[report.nodeid] = _measured.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    """With ``TEST_DURATIONS_SAVE=1``, the run's durations become the weights (in the
    controller, which hears every worker's reports; or in a run without ``-n``)."""
    if not os.environ.get(SAVE_VARIABLE) or hasattr(session.config, "workerinput"):
        return
    if not _measured:
        return
    kept = {k: round(v, 1) for k, v in sorted(_measured.items()) if v >= KEEP_ABOVE}
    DURATIONS.write_text(json.dumps(kept, indent=0, sort_keys=True) + "\n")
