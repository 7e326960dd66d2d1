"""Benchmark: played moves over HTTP against a bare token-authenticated DRF GET.

Run from the repository root: ``python bench/moves.py`` (``--quick`` for a smoke run).
It is not a test. Everything stays on this machine: the only address it talks to is
127.0.0.1 (PostgreSQL on 5432, Redis on 6379 through the server, and the gunicorn it
starts on a free port).

1. Drops and recreates the PostgreSQL database ``bench_moves`` (trust auth, user
   ``postgres``), migrates it with the production settings and seeds it: two users with
   a player and a DRF token per match, and ``--matches-per-client`` started money
   sessions (length 0, so they never end) for each client of each concurrency level,
   through ``games.play.services.match_create``/``match_start`` (the opening state of each
   is handed to the clients, which so start without a GET).
2. Starts ``gunicorn config.wsgi`` (sync workers, 2 x cores + 1, access log off,
   ``config.settings.production``), waits for ``/healthz`` and always stops it at the end
   (also on Ctrl-C or the overall time limit).
3. For 16 and 64 concurrent clients measures, each time after a warm-up and for a fixed
   time, in ``--rounds`` alternating rounds (so that a drift of this shared machine's
   speed hits both alike; the rounds of a row are added up):

   * **bare GET**: ``GET /api/v1/me/`` with ``Authorization: Token <key>``;
   * **moves**: each client owns its matches (both players' tokens) and plays them in
     turn through ``POST /api/v1/games/<id>/actions/``: ``roll``, then ``play`` with the
     first legal play of the roll's answer (by ``position_id``). A roll without a legal
     move passes the turn (the answer names the next actor). When a game ends the client
     goes on with ``next_game`` after one ``GET`` of its state (two when the opening
     roll left the second player to move): these GETs are counted apart ("sync"), not as
     moves. Nobody doubles or resigns. Every 2xx POST is a move; anything else an error.

   Rates count requests completed inside the window; latency is from connect to the
   last byte (gunicorn's sync workers close the connection after every response, so
   every request opens a new TCP connection, as a real client of them would). The
   clients are a closed loop: each sends its next request when the last one is answered,
   so the server is saturated and, by Little's law, mean latency = clients / rate.
4. The client is asyncio with raw HTTP/1.1 on non-blocking sockets (no HTTP library),
   in one process for 16 clients and two for 64; its own CPU time is measured and
   printed next to that of the gunicorn and PostgreSQL processes and the whole machine.

The last line is ``ratio <moves/s / bare GETs/s>`` at 16 clients. The goal (issue 4) is a
ratio of at least 0.5 and a move p99 of at most 30 ms at 16 clients; the summary says
whether this run met it.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import _host  # bench/_host.py: this folder is on sys.path when run as a script
from _httpload import HOST, REQUEST_TIMEOUT, Stats, client_process

ROOT = Path(__file__).resolve().parent.parent
DB_NAME = "bench_moves"
PG_ADMIN_DSN = f"postgresql://postgres@{HOST}:5432/postgres"
DATABASE_URL = f"postgres://postgres@{HOST}:5432/{DB_NAME}"
REDIS_URL = f"redis://{HOST}:6379/14"
CONCURRENCIES = (16, 64)
#: The whole run is stopped (cleanly) after this many seconds.
RUN_LIMIT = 300


# ====================================================================== environment
def server_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings.production",
            "DATABASE_URL": DATABASE_URL,
            "REDIS_URL": REDIS_URL,
            "SECRET_KEY": "bench",
            "ALLOWED_HOSTS": HOST,
            "SECURE_SSL_REDIRECT": "false",
            # Production settings insist on mail and site settings; nothing is sent here.
            "EMAIL_HOST": "127.0.0.1",
            "DEFAULT_FROM_EMAIL": "bench@localhost",
            "SITE_URL": f"http://{HOST}",
            "PYTHONPATH": str(ROOT),
        }
    )
    return env


# ====================================================================== database
def seed(n_matches: int, out: Path) -> None:
    """(Runs in a child process with the production settings.) ``n_matches`` started
    money sessions between fresh users with players and tokens; writes their ids and
    tokens to ``out`` as JSON."""
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from rest_framework.authtoken.models import Token

    from games.engine.actions import state_from_dict
    from games.models import Player
    from games.play import selectors, services

    user_model = get_user_model()
    unusable = make_password(None)  # no hashing per user: seeding stays fast
    users = user_model.objects.bulk_create(
        user_model(username=f"bench{i:04d}", password=unusable) for i in range(2 * n_matches)
    )
    players = Player.objects.bulk_create(
        Player(name=f"Bench Player {i:04d}", user=user) for i, user in enumerate(users)
    )
    tokens = Token.objects.bulk_create(Token(key=Token.generate_key(), user=user) for user in users)
    matches = []
    for i in range(n_matches):
        match = services.match_create(
            player1=players[2 * i], player2=players[2 * i + 1], length=0, created_by=users[2 * i]
        )
        game = services.match_start(match_id=match.pk)
        actor = state_from_dict(game.state).player_to_act
        matches.append(
            {
                "match": match.pk,
                "game": game.pk,
                "tokens": [tokens[2 * i].key, tokens[2 * i + 1].key],
                # The opening state as the API shows it to the player to act, so that
                # the clients start playing at once, without GETs in the measurement.
                "view": selectors.game_view(game=game, viewer_index=actor),
            }
        )
    out.write_text(json.dumps(matches))


def run_checked(args: list[str], what: str) -> None:
    done = subprocess.run(  # noqa: S603 (our own interpreter and files)
        args, cwd=ROOT, env=server_env(), capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{what} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")


def migrate_and_seed(
    script: str,
    workdir: Path,
    n_matches: int,
    run: Callable[[list[str], str], None] = run_checked,
) -> list[dict[str, Any]]:
    """Migrate the benchmark database and seed it by ``script --seed-into`` (a child
    process with the servers' settings, run by ``run``): the seeded matches."""
    run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], "migrate")
    seeded = workdir / "matches.json"
    run(
        [
            sys.executable,
            str(Path(script).resolve()),
            "--seed-into",
            str(seeded),
            "--seed-matches",
            str(n_matches),
        ],
        "seeding",
    )
    return list(json.loads(seeded.read_text()))


# ====================================================================== server
@dataclass
class Server:
    port: int
    workers: int
    log: Path
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        gunicorn = Path(sys.executable).parent / "gunicorn"
        command = [str(gunicorn)] if gunicorn.exists() else [sys.executable, "-m", "gunicorn"]
        command += [
            "config.wsgi",
            "--workers",
            str(self.workers),
            "--worker-class",
            "sync",
            "--bind",
            f"{HOST}:{self.port}",
            "--error-logfile",
            "-",
            "--log-level",
            "warning",
        ]  # no --access-logfile: the access log stays off
        # gunicorn's own log and Django's (4xx warnings, 5xx tracebacks) go to one file.
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(  # noqa: S603 (the venv's gunicorn)
                command,
                cwd=ROOT,
                env=server_env(),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: stopped as a whole
            )

    def wait_healthy(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        last = "no answer"
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise SystemExit(f"gunicorn exited ({self.process.returncode}):\n{self.log_tail()}")
            try:
                conn = http.client.HTTPConnection(HOST, self.port, timeout=2)
                conn.request("GET", "/healthz", headers={"Host": HOST})
                response = conn.getresponse()
                body = response.read()
                conn.close()
                if response.status == 200:
                    return
                last = f"{response.status} {body[:200]!r}"
            except OSError as exc:
                last = repr(exc)
            time.sleep(0.2)
        raise SystemExit(f"/healthz did not answer 200 in {timeout:.0f} s: {last}")

    def stop(self) -> None:
        process = self.process
        if process is None or process.poll() is not None:
            return
        process.terminate()  # gunicorn's graceful stop: the master stops its workers
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)

    def log_tail(self, lines: int = 30) -> str:
        """The last lines of the server's log, without WhiteNoise's warning that
        ``collectstatic`` was not run (the API serves no static files)."""
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return ""
        kept = [
            line
            for line in text.splitlines()
            if "No directory at:" not in line and "mw_instance = middleware(" not in line
        ]
        return "\n".join(kept[-lines:])


# ====================================================================== CPU accounting
def cpu_groups(master: int) -> _host.Groups:
    """The process groups whose CPU the run reports: gunicorn (master and workers) and
    the database's backends."""

    def groups(table: list[_host.ProcRow]) -> dict[str, dict[int, int]]:
        return {
            "gunicorn": {
                pid: ticks for pid, _, ppid, ticks, _ in table if pid == master or ppid == master
            },
            "postgres": _host.database_backends(table, DB_NAME),
        }

    return groups


# ====================================================================== measurements
@dataclass
class Result:
    kind: str
    clients: int
    procs: int
    seconds: float
    counts: Counter[str]
    latencies: dict[str, list[float]]
    errors: Counter[str]
    errors_outside: Counter[str]
    client_cpu: float  # cores
    cores: dict[str, float]

    @classmethod
    def combine(cls, parts: list[Result]) -> Result:
        """The rounds of one row as one result (time-weighted CPU figures)."""
        seconds = sum(p.seconds for p in parts)
        counts: Counter[str] = Counter()
        errors: Counter[str] = Counter()
        outside: Counter[str] = Counter()
        latencies: dict[str, list[float]] = {}
        for part in parts:
            counts.update(part.counts)
            errors.update(part.errors)
            outside.update(part.errors_outside)
            for k, values in part.latencies.items():
                latencies.setdefault(k, []).extend(values)
        return cls(
            kind=parts[0].kind,
            clients=parts[0].clients,
            procs=parts[0].procs,
            seconds=seconds,
            counts=counts,
            latencies=latencies,
            errors=errors,
            errors_outside=outside,
            client_cpu=sum(p.client_cpu * p.seconds for p in parts) / seconds,
            cores={k: sum(p.cores[k] * p.seconds for p in parts) / seconds for k in parts[0].cores},
        )

    def rate(self, *kinds: str) -> float:
        return sum(self.counts[k] for k in kinds) / self.seconds

    def percentile(self, q: float, *kinds: str) -> float:
        values = sorted(v for k in kinds for v in self.latencies.get(k, []))
        if not values:
            return float("nan")
        return values[min(len(values) - 1, int(q * len(values)))]


def measure(
    kind: str, port: int, specs: list[Any], procs: int, warmup: float, duration: float, master: int
) -> Result:
    context = multiprocessing.get_context("fork")
    start = time.monotonic() + 0.3  # let the processes start
    warm, end = start + warmup, start + warmup + duration
    workers = []
    try:
        for i in range(procs):
            receiver, sender = context.Pipe(duplex=False)
            process = context.Process(
                target=client_process, args=(sender, kind, port, specs[i::procs], warm, end)
            )
            process.start()
            sender.close()
            workers.append((process, receiver))
        time.sleep(max(0.0, warm - time.monotonic()))
        before = _host.CpuSample.take(cpu_groups(master))
        time.sleep(max(0.0, end - time.monotonic()))
        cores = _host.CpuSample.take(cpu_groups(master)).cores_since(before, duration)
        results: list[Stats] = []
        for process, receiver in workers:
            if not receiver.poll(REQUEST_TIMEOUT + 5):
                raise SystemExit(f"a client process did not report ({kind})")
            results.append(receiver.recv())
            process.join(5)
        for i, stats in enumerate(results):
            specs[i::procs] = stats.specs  # the matches' states, for the next round
    finally:
        for process, _ in workers:
            if process.is_alive():
                process.terminate()
                process.join(5)
    counts: Counter[str] = Counter()
    latencies: dict[str, list[float]] = {}
    errors: Counter[str] = Counter()
    outside: Counter[str] = Counter()
    for stats in results:
        counts.update(stats.counts)
        errors.update(stats.errors)
        outside.update(stats.errors_outside)
        for k, values in stats.latencies.items():
            latencies.setdefault(k, []).extend(values)
    return Result(
        kind=kind,
        clients=len(specs),
        procs=procs,
        seconds=duration,
        counts=counts,
        latencies=latencies,
        errors=errors,
        errors_outside=outside,
        client_cpu=sum(s.cpu for s in results) / duration,
        cores=cores,
    )


def _errors_text(result: Result) -> str:
    total = sum(result.errors.values())
    text = f"errors {total}"
    if total:
        text += " (" + ", ".join(f"{k} x{n}" for k, n in result.errors.most_common()) + ")"
    if result.errors_outside:
        text += (
            f"; {sum(result.errors_outside.values())} more in warm-up/drain ("
            + ", ".join(f"{k} x{n}" for k, n in result.errors_outside.most_common())
            + ")"
        )
    return text


def _cpu_text(result: Result) -> str:
    c = result.cores
    other = c["machine"] - c["steal"] - result.client_cpu - c["gunicorn"] - c["postgres"]
    return (
        f"CPU cores: client {result.client_cpu:.2f} ({result.procs} proc), "
        f"gunicorn {c['gunicorn']:.2f}, postgres {c['postgres']:.2f}, "
        f"rest {max(0.0, other):.2f} (kernel, other processes); "
        f"machine {c['machine']:.2f} of {os.cpu_count()} busy (hypervisor steal {c['steal']:.2f})"
    )


def report_round(result: Result, number: int) -> None:
    kinds = ("get",) if result.kind == "get" else ("move", "play")
    what = "bare GET" if result.kind == "get" else "moves   "
    p50, p99 = result.percentile(0.5, *kinds), result.percentile(0.99, *kinds)
    print(
        f"  round {number}, {result.clients:>2} clients, {what}: {result.rate(*kinds):7.1f}/s"
        f"  p50 {p50:5.1f} ms  p99 {p99:5.1f} ms  errors {sum(result.errors.values())}"
        f"  machine {result.cores['machine']:.2f} cores busy",
        flush=True,
    )


def report(result: Result) -> None:
    n = result.clients
    if result.kind == "get":
        print(
            f"[{n:>2} clients] bare GET /api/v1/me/: {result.rate('get'):7.1f} req/s"
            f"  p50 {result.percentile(0.50, 'get'):5.1f} ms"
            f"  p99 {result.percentile(0.99, 'get'):5.1f} ms  {_errors_text(result)}"
        )
    else:
        print(
            f"[{n:>2} clients] moves (POST actions): {result.rate('move', 'play'):7.1f} moves/s"
            f" ({result.rate('play'):.1f} plays/s + {result.rate('move'):.1f} rolls/s)"
            f"  p50 {result.percentile(0.50, 'move', 'play'):5.1f} ms"
            f"  p99 {result.percentile(0.99, 'move', 'play'):5.1f} ms  {_errors_text(result)}"
        )
        print(
            f"             rolls p50/p99 {result.percentile(0.5, 'move'):.1f}/"
            f"{result.percentile(0.99, 'move'):.1f} ms, plays p50/p99 "
            f"{result.percentile(0.5, 'play'):.1f}/{result.percentile(0.99, 'play'):.1f} ms;"
            f" sync GETs (new games) {result.rate('sync'):.1f}/s"
        )
    print(f"             {_cpu_text(result)}", flush=True)


# ====================================================================== main
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="smoke run: one round, 1 s warm-up + 3 s per row"
    )
    parser.add_argument(
        "--duration", type=float, help="seconds measured per row, all rounds (default 10)"
    )
    parser.add_argument(
        "--rounds",
        type=int,
        help="GET and moves alternate in this many rounds per concurrency, so that a drift"
        " of the machine's speed hits both alike (default 2)",
    )
    parser.add_argument(
        "--warmup", type=float, help="seconds of warm-up before each measurement (default 1.5)"
    )
    parser.add_argument("--matches-per-client", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1)
    parser.add_argument("--keep-db", action="store_true", help="leave bench_moves in place")
    parser.add_argument("--seed-into", help=argparse.SUPPRESS)  # internal: the seeding child
    parser.add_argument("--seed-matches", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.seed_into:
        seed(args.seed_matches, Path(args.seed_into))
        return 0

    duration = args.duration or (3.0 if args.quick else 10.0)
    warmup = args.warmup if args.warmup is not None else (1.0 if args.quick else 1.5)
    rounds = max(1, args.rounds or (1 if args.quick else 2))
    per_client = args.matches_per_client
    n_matches = sum(CONCURRENCIES) * per_client

    # Ctrl-C and SIGTERM stop the run cleanly: the finally clause below stops gunicorn.
    began = _host.start_run(RUN_LIMIT, load_effect="lowers and scatters the figures")
    workdir = Path(tempfile.mkdtemp(prefix="bench-moves-"))
    server = Server(port=_host.free_port(HOST), workers=args.workers, log=workdir / "gunicorn.log")
    results: dict[tuple[str, int], Result] = {}
    try:
        _host.database_recreate(PG_ADMIN_DSN, DB_NAME)
        matches = migrate_and_seed(__file__, workdir, n_matches)
        server.start()
        server.wait_healthy()
        assert server.process is not None
        print(
            f"bench/moves.py: gunicorn config.wsgi, {args.workers} sync workers on {HOST}:"
            f"{server.port}, production settings, PostgreSQL {DB_NAME} ({n_matches} started money"
            f" matches, {per_client} per client); per row {rounds} x ({warmup:g} s warm-up +"
            f" {duration / rounds:g} s); setup {time.monotonic() - began:.1f} s",
            flush=True,
        )
        offset = 0
        for clients in CONCURRENCIES:
            procs = 1 if clients <= 16 else 2
            mine = matches[offset : offset + clients * per_client]
            offset += clients * per_client
            specs = {
                "get": [m["tokens"][0] for m in mine[:clients]],
                "moves": [mine[i::clients] for i in range(clients)],
            }
            parts: dict[str, list[Result]] = {"get": [], "moves": []}
            for number in range(1, rounds + 1):
                for kind in ("get", "moves"):
                    part = measure(
                        kind,
                        server.port,
                        specs[kind],
                        procs,
                        warmup,
                        duration / rounds,
                        server.process.pid,
                    )
                    parts[kind].append(part)
                    if rounds > 1:
                        report_round(part, number)
            for kind in ("get", "moves"):
                results[kind, clients] = Result.combine(parts[kind])
                report(results[kind, clients])
    except KeyboardInterrupt:
        print("interrupted: stopping gunicorn", file=sys.stderr)
        return 130
    except _host.RunLimitExceeded as exc:
        print(f"stopped: {exc}", file=sys.stderr)
        return 1
    finally:
        signal.alarm(0)
        server.stop()
        tail = server.log_tail(15)
        if tail:
            print(f"gunicorn log tail ({server.log}):\n{tail}", file=sys.stderr)
        if not args.keep_db:
            with contextlib.suppress(Exception):
                _host.database_drop(PG_ADMIN_DSN, DB_NAME)

    print("summary")
    print(
        f"{'clients':>7}  {'GET/s':>8}  {'GET p99':>8}  {'moves/s':>8}  {'plays/s':>8}"
        f"  {'move p50':>8}  {'move p99':>8}  {'errors':>6}  {'ratio':>5}"
    )
    for clients in CONCURRENCIES:
        get, moves = results["get", clients], results["moves", clients]
        errors = sum(get.errors.values()) + sum(moves.errors.values())
        ratio = moves.rate("move", "play") / get.rate("get") if get.rate("get") else 0.0
        print(
            f"{clients:>7}  {get.rate('get'):8.1f}  {get.percentile(0.99, 'get'):6.1f}ms"
            f"  {moves.rate('move', 'play'):8.1f}  {moves.rate('play'):8.1f}"
            f"  {moves.percentile(0.5, 'move', 'play'):6.1f}ms"
            f"  {moves.percentile(0.99, 'move', 'play'):6.1f}ms  {errors:>6}  {ratio:5.2f}"
        )
    get16, moves16 = results["get", 16], results["moves", 16]
    ratio16 = moves16.rate("move", "play") / get16.rate("get")
    p99 = moves16.percentile(0.99, "move", "play")
    met = ratio16 >= 0.5 and p99 <= 30.0
    print(
        f"goal at 16 clients (ratio >= 0.50 and move p99 <= 30 ms): "
        f"{'MET' if met else 'NOT MET'} (ratio {ratio16:.2f}, move p99 {p99:.1f} ms);"
        f" total run {time.monotonic() - began:.0f} s"
    )
    print(f"ratio {ratio16:.2f}")
    return 0


if __name__ == "__main__":
    _host.ensure_venv(__file__, "BENCH_MOVES_REEXEC")
    sys.exit(main())
