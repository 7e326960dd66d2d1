"""bench/clocks.py's figures of one size (:class:`SizeResult`) and their report: flag
latency percentiles and spread, the log row's time, the task's start and run time, the
sweeper's flags, the empty task's lateness, notifications and mails, CPU per process
group and per flag, the worker's long garbage collections, and the verdict lines.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Any


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms_text(value: float) -> str:
    """``12.3ms``; ``inf`` for a flag that never came."""
    if value != value or value in (float("inf"), float("-inf")):  # nan, inf
        return str(value)
    return f"{value:.1f}ms" if value < 10_000 else f"{value / 1000:.1f}s"


def spread_text(values: list[float]) -> str:
    return (
        f"p50 {percentile(values, 0.5):6.1f}  p99 {percentile(values, 0.99):6.1f}"
        f"  max {max(values, default=float('nan')):7.1f} ms"
    )


@dataclass
class SizeResult:
    size: int
    committed: list[float]  # ms after the deadline, per flagged game
    recorded: list[float]
    task_start: list[float]  # ETA tasks that flagged: start - deadline
    task_run: list[float]  # ... and how long they ran
    empty: list[float]  # empty ETA tasks: start - ETA
    empty_sent: int
    lost: int
    late: int  # not flagged by the end, the timer still in the broker
    waited: float  # seconds after the last deadline the run ended
    unseen: int  # flags whose NOTIFY did not arrive (their row's time stands in)
    double: int
    early: int
    by_sweeper: int
    outcomes: Counter[str]
    sweeps: list[dict[str, Any]]
    notifications: Counter[str]
    deliveries: Counter[str]
    mails: Counter[str]
    deliver_run: list[float]
    cores: dict[str, float]
    window: float
    seed_s: float
    enqueue_s: float
    lead_s: float
    taken_before_s: float | None
    worker_rss_mb: float
    gc_main: list[tuple[float, float]] = field(default_factory=list)  # (s after t0, ms)
    gc_pool: list[tuple[float, float]] = field(default_factory=list)
    worker_errors: list[str] = field(default_factory=list)

    @property
    def p99(self) -> float:
        return percentile(self.committed, 0.99)


def report(r: SizeResult, args: argparse.Namespace) -> None:
    n = r.size
    pad = " " * 15
    print(
        f"[{n:>5} clocks] flag latency, deadline -> committed: {spread_text(r.committed)}"
        f"  (n={len(r.committed)}; unflagged = inf)"
    )
    print(f"{pad}deadline -> log row's created_at: {spread_text(r.recorded)}")
    flagged = n - r.late - r.lost
    print(
        f"{pad}not flagged {r.waited:.0f} s after the last deadline: {r.late + r.lost}"
        f" (timer still queued {r.late}, lost {r.lost}); double {r.double}; before the"
        f" deadline {r.early}; flagged by the ETA task {flagged - r.by_sweeper}, by the"
        f" sweeper {r.by_sweeper}" + (f"; no NOTIFY seen for {r.unseen}" if r.unseen else "")
    )
    print(f"{pad}ETA flag task started after the deadline: {spread_text(r.task_start)}")
    print(f"{pad}ETA flag task ran (lock, flag, log, notify, commit): {spread_text(r.task_run)}")
    outcomes = ", ".join(f"{k} {v}" for k, v in sorted(r.outcomes.items()))
    sweep_runs = [s["run_ms"] for s in r.sweeps]
    sweep_counts: Counter[str] = Counter()
    for s in r.sweeps:
        if isinstance(s["result"], dict):
            sweep_counts.update(s["result"])
    print(
        f"{pad}timer task outcomes: {outcomes or 'none'}; sweeps {len(r.sweeps)}"
        f" (max {max(sweep_runs, default=0):.0f} ms, flagged {sweep_counts['flagged']},"
        f" armed {sweep_counts['armed']})"
    )
    print(
        f"{pad}empty ETA task lateness: {spread_text(r.empty)}"
        f"  (n={len(r.empty)} of {r.empty_sent})"
    )
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(r.notifications.items())) or "none"
    mails = sum(r.mails.values())
    repeated = sum(c - 1 for c in r.mails.values() if c > 1)
    deliveries = ", ".join(f"{k} {v}" for k, v in sorted(r.deliveries.items())) or "none"
    mail_text = (
        f"; mails received {mails} (repeated {repeated}), sends ran {spread_text(r.deliver_run)}"
        if args.email
        else " (players without email: --no-email)"
    )
    print(f"{pad}notifications: {kinds}; deliveries: {deliveries}{mail_text}")
    c = r.cores
    ours = sum(c[k] for k in ("worker", "mailer", "beat", "postgres", "redis", "sink", "bench"))
    rest = max(0.0, c["machine"] - c["steal"] - ours)
    print(
        f"{pad}CPU cores over {r.window:.0f} s: worker {c['worker']:.2f}"
        f" (main process {c['worker main']:.2f}, {args.concurrency} pool processes"
        f" {c['worker'] - c['worker main']:.2f}), notifications worker {c['mailer']:.2f},"
        f" beat {c['beat']:.2f},"
        f" postgres {c['postgres']:.2f}, redis {c['redis']:.2f}, smtp sink {c['sink']:.2f},"
        f" bench {c['bench']:.2f},"
        f" rest {rest:.2f} (kernel, other processes); machine {c['machine']:.2f}"
        f" of {os.cpu_count()} busy (steal {c['steal']:.2f})"
    )
    if flagged:
        per_flag = {k: c[k] * r.window * 1000 / flagged for k in ("worker", "mailer", "postgres")}
        print(
            f"{pad}CPU per flag (all their work over the window / flags): worker"
            f" {per_flag['worker']:.1f} ms + notifications worker {per_flag['mailer']:.1f} ms"
            f" + postgres {per_flag['postgres']:.1f} ms;"
            f" {flagged / r.window:.0f} flags/s over the window"
        )
    taken = (
        f"{r.taken_before_s:.1f} s before the first deadline"
        if r.taken_before_s is not None
        else "NOT before the first deadline"
    )
    print(
        f"{pad}the worker held every ETA task {taken} (lead {r.lead_s:.0f} s);"
        f" its main process then used {r.worker_rss_mb:.0f} MB"
    )
    for name, pauses in (("main process", r.gc_main), ("pool processes", r.gc_pool)):
        if pauses:
            at, longest = max(pauses, key=lambda p: p[1])
            print(
                f"{pad}worker {name}: {len(pauses)} garbage collections of 20 ms or more,"
                f" the longest {longest:.0f} ms ({at:.0f} s after the first deadline)"
            )
    if r.worker_errors:
        print(f"{pad}worker/beat log errors: {len(r.worker_errors)}, e.g.:")
        for line in r.worker_errors[:5]:
            print(f"{pad}  {line[:200]}")
    sys.stdout.flush()
