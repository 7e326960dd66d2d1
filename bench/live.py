"""Benchmark: live pushes over WebSockets while moves are played over HTTP.

Run from the repository root: ``python bench/live.py`` (``--quick`` for a smoke run).
It is not a test. Everything stays on this machine: the only address it talks to is
127.0.0.1 (PostgreSQL on 5432, Redis on 6379, and the servers it starts on free ports).

1. Drops and recreates the PostgreSQL database ``bench_live``, migrates it with the
   production settings and seeds it as bench/moves.py does (``moves.seed``): 16 started
   money sessions that the clients play, and ``--idle-matches`` more that nobody plays.
   Redis database 13 is the servers' cache, broker and channel layer (flushed before and
   after the run).
2. Starts two ``gunicorn config.wsgi`` (sync workers, 2 x cores + 1 each, as bench/moves.py
   does), one with ``LIVE_PUBLISH=true`` and one with ``LIVE_PUBLISH=false``, and one ASGI
   server for the sockets: ``uvicorn config.asgi:application`` (one process, ``--ws``
   websockets by default, with the deployed flags: permessage-deflate declined unless
   ``--server-deflate``, pings every 20 s) or, with ``--ws-server daphne``, daphne. It
   always stops them (also on Ctrl-C, SIGTERM and at the overall limit).
3. For each size of ``--sizes`` (1,000 and then 5,000 sockets in all): a process opens the
   idle sockets (at most 64 handshakes at once), each watching one of the idle matches
   (spread evenly); they send nothing after the ``watch``. The ASGI server's resident
   memory before the first socket and after each size gives the memory per socket.
4. While they are open, 16 clients play moves over HTTP exactly as bench/moves.py does
   (``_httpload.move_client``: roll, the first legal play by ``position_id``, the next game
   after a GET), one match each, in ``--rounds`` alternating rounds with the push on (the
   first gunicorn) and off (the second). In a push-on round another process holds one
   socket per played match (its opponent's page), opened before the round and closed
   after it. Every 2xx answer to a POST is an action whose event that socket must
   receive: its latency is the time the event arrived minus its ``sent_at`` (the time
   the publisher took it after commit, same clock). An action whose event has not
   arrived 5 s after the round's end is **lost**; the same position twice on one socket
   is a **duplicate**.
5. Unless ``--no-get``: the bare ``GET /api/v1/me/`` of bench/moves.py against the
   gunicorn and against the ASGI server (one process, Django's sync views in its one
   thread for them), alternating, with the sockets still open.

The last line is ``p99_ms <push p99> sockets <n> lost <k> dup <d>`` for the 1,000-socket
size (the first size when it is not in ``--sizes``), lost and dup over the whole run.
The goals (issue 15): push p99 <= 100 ms at 1,000 sockets with 16 clients, none lost or
duplicated; 5,000 sockets in one server process under 2 GB; the move rate with the push
on at least 0.9 x the rate with it off.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import _host  # bench/_host.py, bench/moves.py and the rest: this folder is on sys.path
import _httpload
import moves
from _sockets import LOST_AFTER, SocketProcess, rss_kb

ROOT = Path(__file__).resolve().parent.parent
#: The one address this benchmark sends anything to.
HOST = "127.0.0.1"
DB_NAME = "bench_live"
PG_ADMIN_DSN = f"postgresql://postgres@{HOST}:5432/postgres"
DATABASE_URL = f"postgres://postgres@{HOST}:5432/{DB_NAME}"
REDIS_URL = f"redis://{HOST}:6379/13"
CLIENTS = 16
#: The whole run is stopped (cleanly) after this many seconds.
RUN_LIMIT = 420
#: Goals of issue 15.
GOAL_P99_MS = 100.0
GOAL_RSS_MB = 2048.0
GOAL_RATE_RATIO = 0.9


# ====================================================================== environment
#: The settings module of each ``--layer``.
LAYER_SETTINGS = {
    "pubsub": "config.settings.production",
    "core": "bench.live_core_settings",
}
#: The channel layer the servers use (``--layer``).
LAYER = "pubsub"


def server_env(*, publish: bool = True, conn_max_age: int | None = None) -> dict[str, str]:
    """bench/moves.py's production environment, on this benchmark's database and Redis."""
    env = moves.server_env()
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": LAYER_SETTINGS[LAYER],
            "DATABASE_URL": DATABASE_URL,
            "REDIS_URL": REDIS_URL,
            "LIVE_PUBLISH": "true" if publish else "false",
        }
    )
    if conn_max_age is not None:
        env["CONN_MAX_AGE"] = str(conn_max_age)
    return env


def run_checked(args: list[str], what: str) -> None:
    done = subprocess.run(  # noqa: S603 (our own interpreter and files)
        args, cwd=ROOT, env=server_env(), capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{what} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")


def redis_flush() -> None:
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    try:
        client.flushdb()
    finally:
        client.close()


def raise_nofile() -> int:
    """The soft limit of open files up to the hard one (the servers inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        wanted = 65536 if hard == resource.RLIM_INFINITY else hard
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        soft = wanted
    return soft


def asgi_errors(server: Server) -> int:
    """Exceptions the ASGI server logged so far."""
    try:
        return server.log.read_text(errors="replace").count("Exception in ASGI application")
    except OSError:
        return 0


# ====================================================================== servers
def venv_tool(name: str) -> list[str]:
    tool = Path(sys.executable).parent / name
    return [str(tool)] if tool.exists() else [sys.executable, "-m", name]


@dataclass
class Server(moves.Server):
    """bench/moves.py's server (health check, stop, log) for any command and environment."""

    name: str = "gunicorn"
    command: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)

    def start(self) -> None:
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(  # noqa: S603 (the venv's servers)
                self.command,
                cwd=ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: stopped as a whole
            )

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid


def gunicorn_server(workdir: Path, workers: int, *, publish: bool) -> Server:
    port = _host.free_port(HOST)
    command = [
        *venv_tool("gunicorn"),
        "config.wsgi",
        "--workers",
        str(workers),
        "--worker-class",
        "sync",
        "--bind",
        f"{HOST}:{port}",
        "--error-logfile",
        "-",
        "--log-level",
        "warning",
        "--no-control-socket",  # two gunicorns at once would share ~/.gunicorn's socket
    ]  # no --access-logfile: the access log stays off
    suffix = "on" if publish else "off"
    return Server(
        port=port,
        workers=workers,
        log=workdir / f"gunicorn-push-{suffix}.log",
        name=f"gunicorn (push {suffix})",
        command=command,
        env=server_env(publish=publish),
    )


def ws_server(
    workdir: Path,
    kind: str,
    ws_impl: str,
    *,
    deflate: bool = False,
    conn_max_age: int | None = None,
    name: str = "",
) -> Server:
    port = _host.free_port(HOST)
    if kind == "uvicorn":
        command = [
            *venv_tool("uvicorn"),
            "config.asgi:application",
            "--host",
            HOST,
            "--port",
            str(port),
            "--ws",
            ws_impl,
            # As deploy/systemd/backgammon-club-uvicorn@.service runs it: permessage-deflate
            # declined (--server-deflate accepts it, as uvicorn does by default), pings 20 s.
            "--ws-per-message-deflate",
            "true" if deflate else "false",
            "--ws-ping-interval",
            "20",
            "--ws-ping-timeout",
            "20",
            "--lifespan",
            "on",
            "--no-access-log",
            "--log-level",
            "warning",
            "--backlog",
            "4096",
            "--timeout-graceful-shutdown",
            "3",
        ]
    else:
        command = [
            *venv_tool("daphne"),
            "-b",
            HOST,
            "-p",
            str(port),
            "-v",
            "0",
            "config.asgi:application",
        ]
    name = name or kind
    return Server(
        port=port,
        workers=1,
        log=workdir / f"{name.replace(' ', '-')}.log",
        name=name,
        command=command,
        env=server_env(conn_max_age=conn_max_age),
    )


# ====================================================================== move clients
#: (match, game number, game version, time.monotonic() of the answer) of a 2xx POST.
Ack = tuple[int, int, int, float]


async def _moves_main(
    port: int, specs: list[Any], warm: float, end: float, acked: list[Ack]
) -> _httpload.Stats:
    stats = _httpload.Stats(warm=warm, end=end)
    loop = asyncio.get_running_loop()
    cpu_at_warm: list[float] = []
    loop.call_at(warm, lambda: cpu_at_warm.append(time.process_time()))

    def on_move(view: dict[str, Any]) -> None:
        acked.append((view["match"], view["number"], view["version"], time.monotonic()))

    await asyncio.gather(*(_httpload.move_client(port, m, stats, on_move) for m in specs))
    stats.cpu = time.process_time() - (cpu_at_warm[0] if cpu_at_warm else 0.0)
    stats.specs = specs
    return stats


def move_process(conn: Any, port: int, specs: list[Any], warm: float, end: float) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    acked: list[Ack] = []
    stats = asyncio.run(_moves_main(port, specs, warm, end, acked))
    conn.send((stats, acked))
    conn.close()


# ====================================================================== rounds
@dataclass
class Round:
    publish: bool
    sockets: int
    seconds: float
    stats: _httpload.Stats
    cores: dict[str, float]
    latencies: list[float] = field(default_factory=list)  # ms, actions inside the window
    acked: int = 0
    lost: int = 0
    dup: int = 0
    extra: int = 0  # events no POST was answered for: each new game's opening roll
    replayed: int = 0  # events read back from the log after a gap (timed from their row)
    other: Counter[str] = field(default_factory=Counter)
    watch_errors: Counter[str] = field(default_factory=Counter)
    waited_ms: float = 0.0

    @property
    def moves(self) -> int:
        return self.stats.counts["move"] + self.stats.counts["play"]

    @property
    def rate(self) -> float:
        return self.moves / self.seconds

    def move_latencies(self) -> list[float]:
        return self.stats.latencies.get("move", []) + self.stats.latencies.get("play", [])


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def cpu_groups(pids: dict[str, int]) -> _host.Groups:
    def groups(table: list[_host.ProcRow]) -> dict[str, dict[int, int]]:
        found = {
            name: {pid: t for pid, _, ppid, t, _ in table if master in (pid, ppid)}
            for name, master in pids.items()
        }
        found["postgres"] = _host.database_backends(table, DB_NAME)
        found["redis"] = {pid: t for pid, comm, _, t, _ in table if comm.startswith("redis-server")}
        return found

    return groups


def run_round(
    *,
    publish: bool,
    gunicorn: Server,
    ws: Server,
    watcher: SocketProcess,
    specs: list[Any],
    sockets: int,
    warmup: float,
    duration: float,
) -> Round:
    matches = [spec["match"] for client in specs for spec in client]
    watch_errors: Counter[str] = Counter()
    if publish:
        opened = watcher.call("watch", matches)
        watch_errors = opened["errors"]
    context = multiprocessing.get_context("fork")
    start = time.monotonic() + 0.3
    warm, end = start + warmup, start + warmup + duration
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=move_process, args=(sender, gunicorn.port, specs, warm, end))
    groups = cpu_groups({"gunicorn": gunicorn.pid, "ws": ws.pid, "watcher": watcher.pid})
    try:
        process.start()
        sender.close()
        time.sleep(max(0.0, warm - time.monotonic()))
        before = _host.CpuSample.take(groups)
        time.sleep(max(0.0, end - time.monotonic()))
        cores = _host.CpuSample.take(groups).cores_since(before, duration)
        if not receiver.poll(_httpload.REQUEST_TIMEOUT + 5):
            raise SystemExit("the move client process did not report")
        stats, acked = receiver.recv()
        process.join(5)
    finally:
        if process.is_alive():
            process.terminate()
            process.join(5)
    specs[:] = stats.specs  # the matches' states, for the next round
    result = Round(
        publish=publish,
        sockets=sockets,
        seconds=duration,
        stats=stats,
        cores=cores,
        acked=len(acked),
        watch_errors=watch_errors,
    )
    if not publish:
        return result
    expected: dict[int, set[tuple[int, ...]]] = {m: set() for m in matches}
    inside: dict[int, set[tuple[int, ...]]] = {m: set() for m in matches}
    for match, number, version, at in acked:
        expected[match].add((number, version))
        if warm <= at <= end:
            inside[match].add((number, version))
    deadline = time.time() + (end + LOST_AFTER - time.monotonic())
    got = watcher.call("collect", (expected, deadline), timeout=LOST_AFTER + 60)
    result.other = got["other"]
    result.replayed = result.other.pop("replayed", 0)
    result.waited_ms = got["waited_ms"]
    for match in matches:
        received: Counter[tuple[int, ...]] = Counter()
        for pos, sent_at, at_ms in got["seen"][match]:
            received[pos] += 1
            if sent_at is not None and received[pos] == 1 and pos in inside[match]:
                result.latencies.append(at_ms - sent_at)
        result.dup += sum(n - 1 for n in received.values())
        result.lost += len(expected[match] - set(received))
        result.extra += len(set(received) - expected[match])
    return result


def report_round(r: Round, number: int) -> None:
    lat = r.move_latencies()
    line = (
        f"  round {number}, push {'on ' if r.publish else 'off'}: {r.rate:6.1f} moves/s"
        f" (HTTP p50 {pct(lat, 0.5):5.1f} p99 {pct(lat, 0.99):5.1f} ms, errors"
        f" {sum(r.stats.errors.values())})"
    )
    if r.publish:
        line += (
            f"; push p50 {pct(r.latencies, 0.5):5.1f} p99 {pct(r.latencies, 0.99):5.1f}"
            f" max {max(r.latencies, default=float('nan')):6.1f} ms over {len(r.latencies)},"
            f" lost {r.lost} dup {r.dup} (acked {r.acked}, opening rolls {r.extra})"
        )
    print(line, flush=True)
    c = r.cores
    print(
        f"           CPU cores: client {r.stats.cpu / r.seconds:.2f}, gunicorn {c['gunicorn']:.2f},"
        f" {'ws server'} {c['ws']:.2f}, watcher {c['watcher']:.2f}, postgres"
        f" {c['postgres']:.2f}, redis {c['redis']:.2f} (all its clients); machine"
        f" {c['machine']:.2f} of {os.cpu_count()} (steal {c['steal']:.2f})",
        flush=True,
    )
    problems = (
        r.watch_errors
        + r.stats.errors
        + Counter({f"watcher got {k}": n for k, n in r.other.items()})
    )
    if problems or r.replayed:
        print(f"           also: {dict(problems)}; replayed events {r.replayed}", flush=True)


@dataclass
class Phase:
    sockets: int
    open_seconds: float
    open_errors: Counter[str]
    rss_kb: int
    holder_rss_kb: int
    rounds: list[Round] = field(default_factory=list)

    def on(self) -> list[Round]:
        return [r for r in self.rounds if r.publish]

    def off(self) -> list[Round]:
        return [r for r in self.rounds if not r.publish]

    @staticmethod
    def rate(rounds: list[Round]) -> float:
        return sum(r.moves for r in rounds) / sum(r.seconds for r in rounds)

    def latencies(self) -> list[float]:
        return [v for r in self.on() for v in r.latencies]

    def lost(self) -> int:
        return sum(r.lost for r in self.on())

    def dup(self) -> int:
        return sum(r.dup for r in self.on())


# ====================================================================== bare GET
def compare_get(
    servers: list[Server], tokens: list[str], rounds: int, warmup: float, duration: float
) -> dict[str, moves.Result]:
    """bench/moves.py's bare GET against each of ``servers``, alternating."""
    parts: dict[str, list[moves.Result]] = {s.name: [] for s in servers}
    for _ in range(rounds):
        for server in servers:
            parts[server.name].append(
                moves.measure("get", server.port, tokens, 1, warmup, duration / rounds, server.pid)
            )
    return {name: moves.Result.combine(p) for name, p in parts.items()}


# ====================================================================== main
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help="smoke run: 200 and 1,000 sockets, one round each way of 1 s + 3 s",
    )
    parser.add_argument(
        "--sizes", help="sockets open in all at each size, comma-separated (default 1000,5000)"
    )
    parser.add_argument(
        "--rounds", type=int, help="rounds with the push on and off alternating (default 2)"
    )
    parser.add_argument(
        "--duration", type=float, help="seconds measured per round (default 5; --quick 3)"
    )
    parser.add_argument("--warmup", type=float, help="seconds of warm-up per round (default 1.5)")
    parser.add_argument(
        "--idle-matches", type=int, default=250, help="matches the idle sockets watch (default 250)"
    )
    parser.add_argument(
        "--ws-server", choices=("uvicorn", "daphne"), default="uvicorn", help="the ASGI server"
    )
    parser.add_argument(
        "--ws-impl",
        choices=("websockets", "websockets-sansio", "wsproto"),
        default="websockets-sansio",
        help="uvicorn's --ws (default websockets-sansio, as deployed)",
    )
    parser.add_argument(
        "--no-deflate",
        action="store_true",
        help="the clients do not offer permessage-deflate (browsers do; by default so do we)",
    )
    parser.add_argument(
        "--server-deflate",
        action="store_true",
        help="uvicorn accepts permessage-deflate (its default; the deployed server declines it)",
    )
    parser.add_argument(
        "--layer",
        choices=sorted(LAYER_SETTINGS),
        default="pubsub",
        help="channels_redis layer: pubsub (the project's settings) or core"
        " (bench/live_core_settings.py)",
    )
    parser.add_argument("--no-get", action="store_true", help="skip the bare GET comparison")
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1)
    parser.add_argument("--keep-db", action="store_true", help="leave bench_live in place")
    parser.add_argument("--seed-into", help=argparse.SUPPRESS)  # internal: the seeding child
    parser.add_argument("--seed-matches", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.seed_into:
        moves.seed(args.seed_matches, Path(args.seed_into))
        return 0

    sizes = [int(s) for s in (args.sizes or ("200,1000" if args.quick else "1000,5000")).split(",")]
    rounds = max(1, args.rounds or (1 if args.quick else 2))
    duration = args.duration or (3.0 if args.quick else 5.0)
    warmup = args.warmup if args.warmup is not None else (1.0 if args.quick else 1.5)
    goal_size = 1000 if 1000 in sizes else sizes[0]
    global LAYER
    LAYER = args.layer

    began = _host.start_run(RUN_LIMIT, load_effect="lowers and scatters the figures")
    nofile = raise_nofile()
    if nofile < max(sizes) + 1000:
        raise SystemExit(f"open files limited to {nofile}: too few for {max(sizes)} sockets")
    workdir = Path(tempfile.mkdtemp(prefix="bench-live-"))
    servers: list[Server] = []
    holder: SocketProcess | None = None
    watcher: SocketProcess | None = None
    phases: list[Phase] = []
    gets: dict[str, moves.Result] = {}
    ws_errors_before_get = 0
    try:
        _host.database_recreate(PG_ADMIN_DSN, DB_NAME)
        redis_flush()
        matches = moves.migrate_and_seed(
            __file__, workdir, CLIENTS + args.idle_matches, run=run_checked
        )
        played, idle = matches[:CLIENTS], matches[CLIENTS:]
        push_on = gunicorn_server(workdir, args.workers, publish=True)
        push_off = gunicorn_server(workdir, args.workers, publish=False)
        ws = ws_server(workdir, args.ws_server, args.ws_impl, deflate=args.server_deflate)
        servers = [push_on, push_off, ws]
        for server in servers:
            server.start()
        for server in servers:
            server.wait_healthy()
        url = f"ws://{HOST}:{ws.port}/ws/live/"
        origin = f"http://{HOST}:{ws.port}"
        compression = None if args.no_deflate else "deflate"
        holder = SocketProcess(url, origin, compression)
        watcher = SocketProcess(url, origin, compression)
        impl = f" --ws {args.ws_impl}" if args.ws_server == "uvicorn" else ""
        print(
            f"bench/live.py: {args.ws_server}{impl} (1 process) for /ws/live/ on {HOST}:{ws.port};"
            f" 2 x gunicorn config.wsgi ({args.workers} sync workers each, LIVE_PUBLISH true and"
            f" false); production settings, PostgreSQL {DB_NAME},"
            f" Redis db 13 (channels_redis {args.layer}"
            f" layer); {CLIENTS} clients, {args.idle_matches} idle matches; permessage-deflate"
            f" {'not offered' if args.no_deflate else 'offered'}"
            f" ({'accepted' if args.server_deflate else 'declined'} by the server);"
            f" open files {nofile};"
            f" per size {rounds} x (push on, push off) of {warmup:g} s warm-up + {duration:g} s;"
            f" logs in {workdir}; setup {time.monotonic() - began:.1f} s",
            flush=True,
        )
        # Warm the server's socket path (imports, pools) before the baseline.
        warmed = holder.call("idle", [f"match:{m['match']}" for m in idle[:20]])
        holder.call("close_idle")
        if warmed["errors"]:
            raise SystemExit(f"cannot open sockets: {dict(warmed['errors'])}\n{ws.log_tail()}")
        time.sleep(1.0)
        rss0 = rss_kb(ws.pid)
        print(f"{args.ws_server} resident memory before the idle sockets: {rss0 / 1024:.1f} MB")
        specs = [[m] for m in played]  # one match per client
        opened = 0
        for size in sizes:
            topics = [f"match:{idle[i % len(idle)]['match']}" for i in range(opened, size)]
            got = holder.call("idle", topics, timeout=60 + 0.1 * len(topics))
            opened = got["open"]
            time.sleep(1.0)
            phase = Phase(
                sockets=opened,
                open_seconds=got["seconds"],
                open_errors=got["errors"],
                rss_kb=rss_kb(ws.pid),
                holder_rss_kb=got["rss_kb"],
            )
            phases.append(phase)
            print(
                f"[{size} sockets] opened {len(topics)} more in {got['seconds']:.1f} s"
                f" ({len(topics) / max(got['seconds'], 1e-9):.0f}/s), {opened} open,"
                f" errors {sum(got['errors'].values())} {dict(got['errors']) or ''};"
                f" {args.ws_server} RSS {phase.rss_kb / 1024:.1f} MB"
                f" ({(phase.rss_kb - rss0) / max(opened, 1):.1f} kB a socket);"
                f" the client process {phase.holder_rss_kb / 1024:.0f} MB",
                flush=True,
            )
            for number in range(1, rounds + 1):
                for publish in (True, False):
                    r = run_round(
                        publish=publish,
                        gunicorn=push_on if publish else push_off,
                        ws=ws,
                        watcher=watcher,
                        specs=specs,
                        sockets=opened,
                        warmup=warmup,
                        duration=duration,
                    )
                    phase.rounds.append(r)
                    report_round(r, number)
            phase.rss_kb = max(phase.rss_kb, rss_kb(ws.pid))
        if not args.no_get:
            ws_errors_before_get = asgi_errors(ws)
            # Django under ASGI runs each request's sync code in a new thread, and a
            # persistent connection per thread is never reused: CONN_MAX_AGE=60 would
            # exhaust PostgreSQL's connections. So the HTTP server is another process.
            http_asgi = ws_server(
                workdir, args.ws_server, args.ws_impl, conn_max_age=0, name=f"{args.ws_server} HTTP"
            )
            servers.append(http_asgi)
            http_asgi.start()
            http_asgi.wait_healthy()
            tokens = [m["tokens"][0] for m in played]
            gets = compare_get([push_on, http_asgi], tokens, rounds, warmup, 2 * duration)
        else:
            ws_errors_before_get = asgi_errors(ws)
    except KeyboardInterrupt:
        print("interrupted: stopping the servers", file=sys.stderr)
        return 130
    except _host.RunLimitExceeded as exc:
        print(f"stopped: {exc}", file=sys.stderr)
        return 1
    finally:
        signal.alarm(0)
        for sockets in (watcher, holder):
            if sockets is not None:
                sockets.stop()
        for server in servers:
            server.stop()
        for server in servers:
            tail = server.log_tail(10)
            if tail:
                print(f"{server.name} log tail ({server.log}):\n{tail}", file=sys.stderr)
        with contextlib.suppress(Exception):
            redis_flush()
        if not args.keep_db:
            with contextlib.suppress(Exception):
                _host.database_drop(PG_ADMIN_DSN, DB_NAME)

    print("summary")
    print(
        f"{'sockets':>7}  {'open/s':>6}  {'RSS MB':>7}  {'kB/sock':>7}  {'push p50':>8}"
        f"  {'p99':>6}  {'max':>6}  {'events':>6}  {'lost':>4}  {'dup':>3}  {'on/s':>6}"
        f"  {'off/s':>6}  {'on/off':>6}"
    )
    previous = 0
    for phase in phases:
        lat = phase.latencies()
        on, off = Phase.rate(phase.on()), Phase.rate(phase.off())
        open_rate = (phase.sockets - previous) / max(phase.open_seconds, 1e-9)
        previous = phase.sockets
        print(
            f"{phase.sockets:>7}  {open_rate:>6.0f}"
            f"  {phase.rss_kb / 1024:7.1f}  {(phase.rss_kb - rss0) / max(phase.sockets, 1):7.1f}"
            f"  {pct(lat, 0.5):6.1f}ms  {pct(lat, 0.99):4.1f}ms"
            f"  {max(lat, default=float('nan')):4.0f}ms"
            f"  {len(lat):>6}  {phase.lost():>4}  {phase.dup():>3}  {on:6.1f}  {off:6.1f}"
            f"  {on / off if off else float('nan'):6.2f}"
        )
    for name, result in gets.items():
        print(
            f"bare GET /api/v1/me/ on {name}: {result.rate('get'):.1f}/s"
            f"  p50 {result.percentile(0.5, 'get'):.1f} ms"
            f"  p99 {result.percentile(0.99, 'get'):.1f} ms"
            f"  errors {sum(result.errors.values())}"
        )
    print(
        f"{args.ws_server} logged {ws_errors_before_get} exceptions in ASGI application during the"
        " socket phases"
    )
    lost = sum(p.lost() for p in phases)
    dup = sum(p.dup() for p in phases)
    goal = next(p for p in phases if p.sockets >= goal_size or p is phases[-1])
    p99 = pct(goal.latencies(), 0.99)
    biggest = phases[-1]
    met = p99 <= GOAL_P99_MS and lost == 0 and dup == 0
    print(
        f"goal: push p99 <= {GOAL_P99_MS:.0f} ms at {goal_size} sockets with {CLIENTS} clients,"
        f" none lost or duplicated: {'MET' if met else 'NOT MET'} (p99 {p99:.1f} ms, lost {lost},"
        f" dup {dup})"
    )
    rss_mb = biggest.rss_kb / 1024
    print(
        f"goal: {biggest.sockets} sockets in one server process under {GOAL_RSS_MB:.0f} MB:"
        f" {'MET' if rss_mb < GOAL_RSS_MB and biggest.sockets >= 5000 else 'NOT MET'}"
        f" ({rss_mb:.0f} MB)"
    )
    on, off = Phase.rate(goal.on()), Phase.rate(goal.off())
    ratio = on / off if off else 0.0
    print(
        f"goal: move rate with the push >= {GOAL_RATE_RATIO} x without, at {goal.sockets} sockets:"
        f" {'MET' if ratio >= GOAL_RATE_RATIO else 'NOT MET'} ({on:.1f} / {off:.1f} = {ratio:.2f});"
        f" total run {time.monotonic() - began:.0f} s"
    )
    for phase in phases:
        if phase is not goal:
            print(
                f"at {phase.sockets} sockets: push p99 {pct(phase.latencies(), 0.99):.1f} ms,"
                f" RSS {phase.rss_kb / 1024:.0f} MB"
            )
    print(f"p99_ms {p99:.1f} sockets {goal.sockets} lost {lost} dup {dup}")
    return 0


if __name__ == "__main__":
    _host.ensure_venv(__file__, "BENCH_LIVE_REEXEC")
    sys.exit(main())
