"""Benchmark: clocks flagged by real Celery workers, against an empty Celery ETA task.

Run from the repository root: ``python bench/clocks.py`` (``--quick`` for a smoke run).
It is not a test. Everything stays on this machine: the only address it talks to is
127.0.0.1 (PostgreSQL on 5432, Redis on 6379, and the SMTP sink it starts itself).

For 1,000 and then 10,000 clocks (``--quick``: 200 and 1,000 over 20 s), each size
from scratch:

1. **Database** (once per run). It drops and recreates the PostgreSQL database
   ``bench_clocks`` (trust auth, user ``postgres``) and migrates it with the production
   settings, then adds one thing the app does not have: a trigger that sends
   ``NOTIFY bench_flag, '<game id>'`` for every ``timeout`` row of the action log. A
   NOTIFY is delivered when its transaction commits, so this process, which LISTENs,
   learns when each flag became visible in the database.
2. **Workers.** Redis database 12 (not 15, the tests', nor 14, ``bench/moves.py``'s) is
   flushed; it is the broker. As the README's production set-up does, it starts
   ``celery -A config worker -Q celery`` (the clock timers and sweeps; prefork, 2 x
   cores processes, the configured prefetch and late acks), ``celery -A config worker -Q
   notifications`` (the sends; ``--mail-concurrency``; at a lower CPU share,
   ``--mail-nice``) and ``celery -A config beat`` (the clock sweeper every 2 s, the app's
   backstop; its schedule file in a temporary directory). Both workers get ``--include
   bench.clockbench_tasks``: the empty task, and notes of when each task started and
   ended and (clock worker only) of long garbage collections (see that module). By
   default every player has an email address, as members do, so each flag also makes
   two email deliveries (``lost_on_time`` and ``win_claimable`` default to in-app and
   email); a small SMTP sink on 127.0.0.1 (a child process) receives and counts the
   mails. ``--no-email``: players without addresses.
3. **Seeding** (a child process with the worker's settings). One seed-002 match (to 7
   points, claim required: the issue's club clock, 11 s delay + 1:30 reserve) is created
   and started through ``games.play.services`` (with its ETA timer switched off in that
   process only); its game is the template of N - 1 copies made with ``bulk_create``
   (users, players, matches, games and their opening-roll log rows), each in its own
   match between its own two players. The services would take minutes for 10,000
   matches; the copies differ from real games only in their ids.
4. **Arming** (another child, once the worker is ready). Each game gets a deadline
   drawn uniformly at random (seeded) over ``--spread`` seconds (60), starting
   ``--lead`` seconds after arming (10 + 1 per 1,000 clocks: time to enqueue and for
   the worker to take every task in; the run prints how early it had them). Its clock
   is the running player's turn that started ``delay + reserve`` before that deadline,
   with a reserve of half ``NOTIFICATION_TIME_LOW_MS`` (under the "time running low"
   threshold, so the deadline is the game's only alarm), and
   ``games.play.clock.clock_columns`` computes the stored columns from it (``clock``,
   ``deadline_at``, ``alarm_at`` = the deadline, ``armed_version`` = the version); one
   ``UPDATE`` writes them all. Then, as ``clocks.arm_on_commit`` does after an action,
   one ``games.game_clock_alarm`` task per game is sent with its ETA at the deadline,
   and ``--empty`` (1,000) empty ETA tasks over the same window: all in ETA order, from
   that one process, so the worker holds them all at once, as it would in a club.
5. **Measuring.** It waits until the last deadline plus ``--grace`` seconds (8: four
   sweeps), then, while flags are missing (a backlog), up to ``--drain`` (60) seconds
   more within the run's time limit, printing progress every 20 s. Then it stops beat
   and the worker (which puts back the tasks it held) and counts, from the database:
   **double** = games with more than one ``timeout`` row (or a second NOTIFY); games
   with none are **late** when their timer task was still in the broker (the backlog
   had not reached them) and **lost** when it was not. Flag latency is from the planned
   deadline to

   * **committed**: the NOTIFY's arrival here, i.e. the flag is visible in the database
     (the issue's "flagged in the database"; the headline figure);
   * **recorded**: the ``timeout`` row's ``created_at``, the flag service's clock
     reading (when the task began to act), before the lock, the writes and the commit.

   A game never flagged counts as infinitely late, so a backlog shows in the p99
   (``inf``) rather than shrinking the sample. Beside them: how late the ETA task that
   flagged started and how long it ran, which flags the sweeper made instead (the ETA
   task then finds the version moved: "stale"), the empty ETA task's lateness in the
   same run, the notifications, deliveries and mails the flags made, the CPU used over
   the window (the worker's main and pool processes, beat, PostgreSQL, Redis (shared
   with anyone else using it), the SMTP sink, this process, the rest of the machine,
   the hypervisor's steal) and per flag, and the worker's garbage collections of 20 ms
   or more. PostgreSQL's CPU is that of the live backends of ``bench_clocks`` plus the
   backends that exited meanwhile, of any database: Celery's Django fix-up closes the
   worker's connection before and after every task, so its backends live a few ms. The
   raw latencies and task notes are left in ``latencies-<size>.json`` next to the logs.

``--settings MODULE`` runs the worker, beat and the children with another settings
module (one that imports ``config.settings.production`` and changes it, on
``PYTHONPATH``), to measure a proposed change without editing the app.

Everything started is stopped at the end, also on Ctrl-C, SIGTERM and the overall limit
of 360 s; ``bench_clocks`` is dropped unless ``--keep-db``, Redis database 12 flushed.

The last line is ``p99_ms <committed p99> lost <n> double <n>`` for the largest size.
The goal (issue 5) is a p99 of at most 50 ms at 10,000 clocks, none lost, none flagged
twice; the summary says whether this run met it.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import _host  # bench/_host.py and the rest: this folder is on sys.path when run as a script
from _clockprocs import (
    DB_NAME,
    HOST,
    NOTIFY_CHANNEL,
    PG_BENCH_DSN,
    CeleryProcess,
    FlagListener,
    SmtpSink,
)
from _clockreport import SizeResult, ms_text, percentile, report
from _clockseed import child_arm, child_seed

ROOT = Path(__file__).resolve().parent.parent
PG_ADMIN_DSN = f"postgresql://postgres@{HOST}:5432/postgres"
DATABASE_URL = f"postgres://postgres@{HOST}:5432/{DB_NAME}"
#: Not 15 (the test suite's) nor 14 (bench/moves.py's).
REDIS_URL = f"redis://{HOST}:6379/12"
#: The whole run is stopped (cleanly) after this many seconds.
RUN_LIMIT = 360
#: The worker's, beat's and the children's settings (``--settings`` changes it).
SETTINGS = {"module": "config.settings.production"}
GOAL_P99_MS = 50.0
GOAL_SIZE = 10_000
#: Seconds kept for stopping the workers and counting, at the end of the time budget.
CLEANUP_RESERVE = 40
PROGRESS_EVERY = 20.0


# ====================================================================== environment
def server_env(smtp_port: int | None = None) -> dict[str, str]:
    """The environment of the worker, beat and the seeding children: production
    settings on the benchmark's database and Redis database; mail to the sink."""
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": SETTINGS["module"],
            "DATABASE_URL": DATABASE_URL,
            "REDIS_URL": REDIS_URL,
            "SECRET_KEY": "bench",
            "ALLOWED_HOSTS": HOST,
            "SECURE_SSL_REDIRECT": "false",
            "EMAIL_HOST": HOST,
            # No sink (--no-email): nobody has an address, so nothing is ever sent.
            "EMAIL_PORT": str(smtp_port or 25),
            "EMAIL_USE_TLS": "false",
            "DEFAULT_FROM_EMAIL": "bench@localhost",
            "SITE_URL": f"http://{HOST}",
            "PYTHONPATH": os.pathsep.join(
                p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p
            ),
        }
    )
    return env


def run_checked(args: list[str], what: str) -> None:
    done = subprocess.run(  # noqa: S603 (our own interpreter and files)
        args, cwd=ROOT, env=server_env(), capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{what} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")


def run_child(*args: str, what: str) -> None:
    """This script again, in a child process (``--child ...``) with the server's env."""
    run_checked([sys.executable, str(Path(__file__).resolve()), *args], what)


# ====================================================================== database
def install_flag_trigger() -> None:
    """NOTIFY ``bench_flag`` with the game id for every ``timeout`` log row (only in
    ``bench_clocks``; delivered to listeners when the flag's transaction commits)."""
    import psycopg

    with psycopg.connect(PG_BENCH_DSN, autocommit=True) as conn:
        conn.execute(
            "CREATE FUNCTION bench_flag_notify() RETURNS trigger LANGUAGE plpgsql AS $$"
            f" BEGIN PERFORM pg_notify('{NOTIFY_CHANNEL}', NEW.game_id::text); RETURN NULL;"
            " END $$"
        )
        conn.execute(
            "CREATE TRIGGER bench_flag_notify AFTER INSERT ON games_gameaction"
            " FOR EACH ROW WHEN (NEW.kind = 'timeout') EXECUTE FUNCTION bench_flag_notify()"
        )


# ====================================================================== CPU accounting
def cpu_groups(
    roots: dict[str, int | None],
) -> _host.Groups:
    """The process groups whose CPU the run reports: each root's tree, this process, the
    worker's main process, the database and Redis."""

    def groups(table: list[_host.ProcRow]) -> dict[str, dict[int, int]]:
        found = {name: _host.tree_ticks(table, pid) for name, pid in roots.items()}
        found["bench"] = {pid: t for pid, _, _, t, _ in table if pid == os.getpid()}
        main = roots.get("worker")
        found["worker main"] = {pid: t for pid, _, _, t, _ in table if pid == main}
        # The live backends of bench_clocks, plus every backend that exited meanwhile
        # (the postmaster's children's time, any database: Celery's worker opens and
        # closes a connection per task, so most of its backends live a few ms).
        comms = {pid: comm for pid, comm, _, _, _ in table}
        found["postgres"] = _host.database_backends(table, DB_NAME)
        for pid, comm, ppid, _, children in table:
            if comm.startswith("postgres") and not comms.get(ppid, "").startswith("postgres"):
                found["postgres"][-pid] = children  # the postmaster's reaped backends
        found["redis"] = {pid: t for pid, comm, _, t, _ in table if comm.startswith("redis-server")}
        return found

    return groups


def rss_mb(pid: int | None) -> float:
    if pid is None:
        return 0.0
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


# ====================================================================== one size
def pending_timers(broker: Any) -> set[int]:
    """Game ids of the ``games.game_clock_alarm`` tasks left in the broker: queued, or
    taken by a worker and not acknowledged (a stopped worker puts those back)."""
    raws = list(broker.lrange("celery", 0, -1))
    raws += [json.dumps(json.loads(v)[0]) for v in broker.hvals("unacked")]
    found = set()
    for raw in raws:
        with contextlib.suppress(ValueError, KeyError, TypeError, IndexError):
            message = json.loads(raw)
            if message["headers"]["task"] != "games.game_clock_alarm":
                continue
            body = message["body"]
            if message["properties"].get("body_encoding") == "base64":
                body = base64.b64decode(body)
            found.add(int(json.loads(body)[0][0]))
    return found


def run_size(
    size: int, tag: str, args: argparse.Namespace, workdir: Path, listener: FlagListener
) -> SizeResult:
    import psycopg
    import redis

    broker = redis.Redis.from_url(REDIS_URL)
    broker.flushdb()
    sink = SmtpSink(_host.free_port(HOST)) if args.email else None
    env = server_env(sink.port if sink else None)
    gc_dir = workdir / f"gc-{size}"
    gc_dir.mkdir()
    env["CLOCKBENCH_GC_DIR"] = str(gc_dir)  # see bench/clockbench_tasks.py
    worker = CeleryProcess(
        [
            "worker",
            "--loglevel",
            "INFO",
            "--pool",
            "prefork",
            "--concurrency",
            str(args.concurrency),
            "--queues",
            "celery",
            "--include",
            "bench.clockbench_tasks",
            "--hostname",
            f"clockbench{tag}@%h",
        ],
        workdir / f"worker-{size}.log",
        env,
    )
    # The sends, as production runs them (README): their own worker on their own queue,
    # at a lower CPU priority than the clocks. No garbage-collection notes from it.
    mailer = CeleryProcess(
        [
            "worker",
            "--loglevel",
            "INFO",
            "--pool",
            "prefork",
            "--concurrency",
            str(args.mail_concurrency),
            "--queues",
            "notifications",
            "--include",
            "bench.clockbench_tasks",
            "--hostname",
            f"clockbenchmail{tag}@%h",
        ],
        workdir / f"mailer-{size}.log",
        {k: v for k, v in env.items() if k != "CLOCKBENCH_GC_DIR"},
        nice=args.mail_nice,
    )
    beat = CeleryProcess(
        [
            "beat",
            "--loglevel",
            "INFO",
            "--schedule",
            str(workdir / f"beat-schedule-{size}"),
            "--pidfile",
            str(workdir / f"beat-{size}.pid"),
        ],
        workdir / f"beat-{size}.log",
        env,
    )
    lead_s = args.lead if args.lead is not None else 10.0 + size / 1000
    try:
        if sink:
            sink.start()
        worker.start()
        mailer.start()
        beat.start()
        seeded = workdir / f"games-{size}.json"
        run_child(
            "--child",
            "seed",
            "--size",
            str(size),
            "--tag",
            tag,
            "--out",
            str(seeded),
            *([] if args.email else ["--no-email"]),
            what="seeding",
        )
        seed_s = json.loads(seeded.read_text())["seconds"]
        worker.wait_for(" ready.")
        mailer.wait_for(" ready.")
        beat.wait_for("beat: Starting")
        planned = workdir / f"plan-{size}.json"
        run_child(
            "--child",
            "arm",
            "--games",
            str(seeded),
            "--spread",
            str(args.spread),
            "--lead",
            str(lead_s),
            "--empty",
            str(args.empty),
            "--seed",
            str(size),
            "--out",
            str(planned),
            what="arming",
        )
        plan = json.loads(planned.read_text())
        deadlines = {int(g): int(d) for g, d in plan["deadlines"]}
        t0 = plan["t0_ms"] / 1000.0
        last = max(deadlines.values()) / 1000.0
        # When has the worker taken every message off the queue (ETA tasks included)?
        taken_before = None
        while time.time() < t0:
            if broker.llen("celery") == 0:
                taken_before = t0 - time.time()
                break
            time.sleep(0.05)
        worker_rss = rss_mb(worker.process.pid if worker.process else None)
        print(
            f"[{size:>5} clocks] seeded in {seed_s:.1f} s; {size} timers + {plan['empties']}"
            f" empty ETA tasks enqueued in {plan['enqueue_s']:.1f} s; deadlines from"
            f" {t0 - time.time():.1f} s from now over {args.spread:g} s",
            flush=True,
        )
        time.sleep(max(0.0, t0 - time.time()))
        roots = {
            "worker": worker.pid,
            "mailer": mailer.pid,
            "beat": beat.pid,
            "sink": sink.process.pid if sink and sink.process else None,
        }
        before = _host.CpuSample.take(cpu_groups(roots))
        began = time.monotonic()
        end = last + args.grace
        # Past the grace, wait on while flags are missing (a backlog drains), up to the
        # drain limit and within the run's time budget.
        drain_end = min(end + args.drain, args.budget_end - CLEANUP_RESERVE)
        progress_at = time.time() + PROGRESS_EVERY
        while True:
            now = time.time()
            flagged = sum(1 for g in deadlines if g in listener.first)
            if now >= end and (flagged >= size or now >= drain_end):
                break
            if now >= progress_at:
                due = sum(1 for d in deadlines.values() if d <= now * 1000)
                print(
                    f"{' ' * 15}... {now - t0:3.0f} s after the first deadline:"
                    f" {flagged} flagged of {due} due",
                    flush=True,
                )
                progress_at += PROGRESS_EVERY
            time.sleep(0.25)
        window = time.monotonic() - began
        waited = time.time() - last
        cores = _host.CpuSample.take(cpu_groups(roots)).cores_since(before, window)
    finally:
        beat.stop()
        worker.stop()
        mailer.stop()
        mails = sink.stop() if sink else Counter()
    # The timers still waiting when the worker stopped (it puts back what it held).
    pending = pending_timers(broker)

    # ---------------------------------------------------------------- counting
    ids = list(deadlines)
    with psycopg.connect(PG_BENCH_DSN) as conn:
        rows = conn.execute(
            "SELECT game_id, count(*), min(created_at) FROM games_gameaction"
            " WHERE kind = 'timeout' AND game_id = ANY(%s) GROUP BY game_id",
            [ids],
        ).fetchall()
        subjects = [f"game:{g}" for g in ids]
        notifications = Counter(
            dict(
                conn.execute(
                    "SELECT kind, count(*) FROM games_notification WHERE subject = ANY(%s)"
                    " GROUP BY kind",
                    [subjects],
                ).fetchall()
            )
        )
        deliveries = Counter(
            dict(
                conn.execute(
                    "SELECT d.status, count(*) FROM games_notificationdelivery d"
                    " JOIN games_notification n ON n.id = d.notification_id"
                    " WHERE n.subject = ANY(%s) GROUP BY d.status",
                    [subjects],
                ).fetchall()
            )
        )
    timeouts = {game_id: (count, created.timestamp()) for game_id, count, created in rows}
    unflagged = {g for g in ids if g not in timeouts}
    # Not flagged by the end: still waiting in the broker (a backlog: late) or lost.
    late = len(unflagged & pending)
    lost = len(unflagged - pending)
    double = sum(1 for count, _ in timeouts.values() if count > 1)
    double = max(double, sum(1 for g in ids if listener.repeats.get(g)))
    # A game not flagged by the end counts as infinitely late, so that a backlog shows
    # in the percentiles instead of being left out of them.
    inf = float("inf")
    recorded = [(timeouts[g][1] * 1000 - d) if g in timeouts else inf for g, d in deadlines.items()]
    committed = []
    unseen = 0
    for g, d in deadlines.items():
        if g in listener.first:
            committed.append(listener.first[g] * 1000 - d)
        elif g in timeouts:  # flagged, but its NOTIFY never came: the row's time
            unseen += 1
            committed.append(timeouts[g][1] * 1000 - d)
        else:
            committed.append(inf)
    early = sum(1 for v in recorded if v < 0)

    empty = [float(v) * 1000 for v in broker.lrange("clockbench:empty", 0, -1)]
    outcomes: Counter[str] = Counter()
    task_start, task_run, deliver_run, sweeps = [], [], [], []
    flagged_by_task = set()
    for raw in broker.lrange("clockbench:tasks", 0, -1):
        note = json.loads(raw)
        if note["task"] == "games.game_clock_alarm":
            game_id = int(note["args"][0])
            outcome = str(note["result"]) if note["state"] == "SUCCESS" else note["state"]
            outcomes[outcome] += 1
            if outcome == "flagged" and game_id in deadlines:
                flagged_by_task.add(game_id)
                task_start.append(note["start"] * 1000 - deadlines[game_id])
                task_run.append((note["end"] - note["start"]) * 1000)
        elif note["task"] == "games.sweep_clock_alarms":
            sweeps.append(
                {"run_ms": (note["end"] - note["start"]) * 1000, "result": note["result"]}
            )
        else:
            deliver_run.append((note["end"] - note["start"]) * 1000)
    by_sweeper = sum(1 for g in timeouts if g not in flagged_by_task)
    # Long garbage collections in the worker's processes, inside the measured window.
    gc_main, gc_pool = [], []
    for path in gc_dir.glob("gc-*.jsonl"):
        for line in path.read_text().splitlines():
            note = json.loads(line)
            if t0 <= note["at"] <= t0 + window:
                pause = (note["at"] - t0, note["s"] * 1000)
                (gc_main if note["pid"] == worker.pid else gc_pool).append(pause)
    # The raw figures, for a closer look: ms after the planned deadline, per game.
    (workdir / f"latencies-{size}.json").write_text(
        json.dumps(
            {
                "deadline_ms": deadlines,
                "committed_ms": dict(zip(deadlines, committed, strict=True)),
                "recorded_ms": dict(zip(deadlines, recorded, strict=True)),
                "raw_tasks": [json.loads(raw) for raw in broker.lrange("clockbench:tasks", 0, -1)],
            },
            default=str,
        )
    )
    broker.flushdb()
    errors = [
        line
        for line in worker.log_lines() + mailer.log_lines() + beat.log_lines()
        if " ERROR/" in line or "CRITICAL/" in line or line.startswith("Traceback")
    ]
    return SizeResult(
        size=size,
        committed=committed,
        recorded=recorded,
        task_start=task_start,
        task_run=task_run,
        empty=empty,
        empty_sent=plan["empties"],
        lost=lost,
        late=late,
        waited=waited,
        unseen=unseen,
        double=double,
        early=early,
        by_sweeper=by_sweeper,
        outcomes=outcomes,
        sweeps=sweeps,
        notifications=notifications,
        deliveries=deliveries,
        mails=mails,
        deliver_run=deliver_run,
        cores=cores,
        window=window,
        seed_s=seed_s,
        enqueue_s=plan["enqueue_s"],
        lead_s=lead_s,
        taken_before_s=taken_before,
        worker_rss_mb=worker_rss,
        gc_main=gc_main,
        gc_pool=gc_pool,
        worker_errors=errors,
    )


# ====================================================================== main
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="smoke run: 200 and 1,000 clocks over 20 s"
    )
    parser.add_argument("--sizes", help="comma-separated clock counts (default 1000,10000)")
    parser.add_argument("--spread", type=float, help="seconds the deadlines spread over (60)")
    parser.add_argument(
        "--lead", type=float, help="seconds from arming to the first deadline (10 + 1/1,000)"
    )
    parser.add_argument("--grace", type=float, help="seconds after the last deadline (8)")
    parser.add_argument(
        "--drain",
        type=float,
        default=60.0,
        help="after the grace, seconds to wait on for missing flags (a backlog) (60)",
    )
    parser.add_argument("--empty", type=int, help="empty ETA tasks per size (1,000)")
    parser.add_argument("--concurrency", type=int, default=2 * (os.cpu_count() or 1))
    parser.add_argument(
        "--mail-concurrency",
        type=int,
        default=os.cpu_count() or 1,
        help="pool processes of the notifications worker (cores)",
    )
    parser.add_argument(
        "--mail-nice",
        type=int,
        default=10,
        help="niceness of the notifications worker (10; 0: the clocks' priority)",
    )
    parser.add_argument(
        "--email",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="players have email addresses and a local SMTP sink receives the mails",
    )
    parser.add_argument(
        "--settings",
        default=SETTINGS["module"],
        help="the settings module of the worker, beat and seeding: to try a proposed change"
        " (a module that imports config.settings.production and alters it; put its"
        " directory on PYTHONPATH)",
    )
    parser.add_argument("--keep-db", action="store_true", help="leave bench_clocks in place")
    # Internal: the seeding and arming children.
    parser.add_argument("--child", choices=("seed", "arm"), help=argparse.SUPPRESS)
    parser.add_argument("--size", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--tag", help=argparse.SUPPRESS)
    parser.add_argument("--games", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    SETTINGS["module"] = args.settings

    if args.child == "seed":
        child_seed(args.size, args.tag, args.email, Path(args.out))
        return 0
    if args.child == "arm":
        child_arm(
            Path(args.games),
            int(args.spread * 1000),
            int(args.lead * 1000),
            args.empty,
            args.seed,
            Path(args.out),
        )
        return 0

    if args.sizes:
        sizes = [int(s) for s in args.sizes.split(",")]
    else:
        sizes = [200, 1000] if args.quick else [1000, GOAL_SIZE]
    args.spread = args.spread or (20.0 if args.quick else 60.0)
    args.grace = args.grace if args.grace is not None else (6.0 if args.quick else 8.0)
    args.empty = args.empty if args.empty is not None else (200 if args.quick else 1000)
    if args.quick and args.lead is None:
        args.lead = 6.0

    # Ctrl-C and SIGTERM stop the run cleanly: the finally clauses stop the worker, beat
    # and the sink.
    began = _host.start_run(RUN_LIMIT, load_effect="delays the workers and scatters the figures")
    args.budget_end = time.time() + RUN_LIMIT
    workdir = Path(tempfile.mkdtemp(prefix="bench-clocks-"))
    listener = FlagListener()
    results: list[SizeResult] = []
    try:
        _host.database_recreate(PG_ADMIN_DSN, DB_NAME)
        run_checked([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], "migrate")
        install_flag_trigger()
        listener.start()
        print(
            f"bench/clocks.py: celery worker (prefork, {args.concurrency} processes) + beat,"
            f" settings {args.settings}, PostgreSQL {DB_NAME}, Redis {REDIS_URL}; seed-002 clocks,"
            f" claim required; deadlines over {args.spread:g} s; mail"
            f" {'to a local SMTP sink' if args.email else 'off (no addresses)'};"
            f" logs in {workdir}; setup {time.monotonic() - began:.1f} s",
            flush=True,
        )
        for number, size in enumerate(sizes):
            result = run_size(size, str(number), args, workdir, listener)
            results.append(result)
            report(result, args)
    except KeyboardInterrupt:
        print("interrupted: workers stopped", file=sys.stderr)
        return 130
    except _host.RunLimitExceeded as exc:
        print(f"stopped: {exc}", file=sys.stderr)
        return 1
    finally:
        signal.alarm(0)
        listener.close()
        with contextlib.suppress(Exception):
            import redis

            redis.Redis.from_url(REDIS_URL).flushdb()
        if not args.keep_db:
            with contextlib.suppress(Exception):
                _host.database_drop(PG_ADMIN_DSN, DB_NAME)

    print("summary (flag latency = deadline -> flag committed; empty = empty ETA task lateness)")
    print(
        f"{'clocks':>6}  {'p50':>7}  {'p99':>7}  {'max':>7}  {'lost':>4}  {'late':>5}"
        f"  {'double':>6}"
        f"  {'sweeper':>7}  {'empty p50':>9}  {'empty p99':>9}  {'worker':>6}  {'postgres':>8}"
        f"  {'machine':>7}"
    )
    for r in results:
        top = max(r.committed, default=float("nan"))
        print(
            f"{r.size:>6}  {ms_text(percentile(r.committed, 0.5)):>7}  {ms_text(r.p99):>7}"
            f"  {ms_text(top):>7}  {r.lost:>4}  {r.late:>5}"
            f"  {r.double:>6}"
            f"  {r.by_sweeper:>7}  {ms_text(percentile(r.empty, 0.5)):>9}"
            f"  {ms_text(percentile(r.empty, 0.99)):>9}  {r.cores['worker']:6.2f}"
            f"  {r.cores['postgres']:8.2f}  {r.cores['machine']:7.2f}"
        )
    largest = results[-1]
    met = (
        largest.size >= GOAL_SIZE
        and largest.p99 <= GOAL_P99_MS
        and largest.lost == 0
        and largest.double == 0
    )
    scope = "" if largest.size >= GOAL_SIZE else f" (this run's largest is {largest.size})"
    print(
        f"goal at {GOAL_SIZE:,} clocks (p99 <= {GOAL_P99_MS:.0f} ms, none lost, none double)"
        f"{scope}: {'MET' if met else 'NOT MET'} (p99 {largest.p99:.1f} ms, lost {largest.lost},"
        f" double {largest.double}); total run {time.monotonic() - began:.0f} s"
    )
    print(f"p99_ms {largest.p99:.1f} lost {largest.lost} double {largest.double}")
    return 0


if __name__ == "__main__":
    _host.ensure_venv(__file__, "BENCH_CLOCKS_REEXEC")
    sys.exit(main())
