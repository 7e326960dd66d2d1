"""Benchmark: an open-loop club night. N clocked matches played at human pace through the
production stack, then the same on two web nodes behind nginx with one node killed.

Run from the repository root: ``python bench/capacity.py`` (``--quick`` for a smoke run).
It is not a test. Everything stays on this machine: the only address it talks to is
127.0.0.1 (PostgreSQL on 5432, Redis on 6379, and the servers it starts on free ports).

1. **Database.** Drops and recreates ``bench_capacity``, migrates it with the production
   settings and seeds (a child process, ``games.play.services``) the largest step's number
   of started money sessions with a clock: 12 s delay (the USBGF delay) and a 20 s
   reserve, a flag ends the game (no claim). Every player has a user and a DRF token.
   Redis database 11 is the stack's cache, broker and channel layer (flushed before and
   after). Unless ``--keep-db``, ``bench_capacity`` is dropped at the end.
2. **Stack** (bench/_stack.py), as deploy/ runs it, each command read from its systemd
   unit: gunicorn (deploy/gunicorn.conf.py) and uvicorn for each node, Celery's clock worker
   (queue celery), its notifications worker and beat, and Debian's nginx with the shipped
   site in front (its ``# SITE:`` values on loopback; a bench-only header names the node a
   socket landed on). Everything is stopped at the end, also on Ctrl-C, SIGTERM and at the
   overall limit (``--limit``).
3. **Players** (bench/_capacity_client.py, ``--procs`` processes). Each player has a socket
   on ``/ws/live/`` through nginx watching its match. Players act through ``POST
   /api/v1/games/<id>/actions/`` as bench/moves.py's clients do (roll, then the first legal
   play by ``position_id``), each action 2-6 s after the answer that allowed it (the roll
   after the turn began, the play after the roll's answer), from ``random.Random(seed)``:
   about one action per match every 4 s, whatever the server's speed (open loop).
4. **Steps** (``--steps``, default 100, 250, 500, 1000 matches, ``--duration`` s each).
   Before a step the running clocks of its matches are (re)started at the step's start,
   staggered over 4 s (one ``UPDATE`` of the clock columns, as bench/clocks.py arms its
   clocks); after it they are parked (no deadline, no alarm) so that nothing flags
   between steps. ``--abandon`` of the step's matches (2 %) have a player who walks away
   at a seeded moment: when their turn comes they never act, and the server must flag
   them at the deadline their opponent's last answer showed.
5. **Figures per step.** Action latency p50/p99 (first attempt sent -> 2xx answer, with
   any retries); push latency p99 (the event's ``sent_at``, the publisher's clock when the
   transaction committed, -> the opponent's socket received it; replayed events are not
   timed); **lost** (an acknowledged action whose event did not reach one of the match's
   two sockets within ``LOST_AFTER`` s) and **dup** (an event twice on one socket); clocks
   **flagged late**: an abandoned turn flagged more than ``FLAG_TOLERANCE_MS`` after its
   deadline (the flag's commit: its push's ``sent_at``) or not at all, and **wrong** flags:
   a flag on a player who did not walk away, or an action refused ``out_of_time``; errors;
   the CPU of each process group. The capacity is the largest step with action p99 <=
   100 ms and push p99 <= 200 ms.
6. **Two nodes** (``--two-node N``, 0 to skip): two gunicorn and two uvicorn behind the
   one nginx (two servers in each upstream, no sticky sessions), N matches for
   ``--duration`` s; halfway through node 2's gunicorn and uvicorn are killed (SIGKILL).
   Clients retry an action that failed on the connection or with 502/503/504 with the
   same version (a retry of one that was committed gets 409 ``stale_version``: never
   twice); sockets reconnect through nginx and replay from their last position. It
   reports deliveries per node, lost and duplicated events, and from the database that
   every acknowledged action is in the action log (**lost actions**).

The last line is ``capacity_n <N> action_p99_ms <v> push_p99_ms <v> lost <n> dup <n>`` (the
figures at that N; lost and dup over the whole run, events and actions).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import _host  # bench/_host.py and the other bench modules: this folder is on sys.path

HOST = "127.0.0.1"
DB_NAME = "bench_capacity"
PG_ADMIN_DSN = f"postgresql://postgres@{HOST}:5432/postgres"
PG_DSN = f"postgresql://postgres@{HOST}:5432/{DB_NAME}"
REDIS_URL = f"redis://{HOST}:6379/11"
CLOCK = {"delay_ms": 12_000, "reserve_ms": 20_000}
GOAL_ACTION_P99 = 100.0
GOAL_PUSH_P99 = 200.0
#: An acknowledged action whose event has not reached a socket this long after the step is lost.
LOST_AFTER = 6.0
#: A flag committed later than this after its deadline is late. Beat's sweep (every 2 s) is
#: the backstop of the ETA timers, so a flag only the sweep made counts as late.
FLAG_TOLERANCE_MS = 1000.0
#: Seconds after a step's start between which the abandoning players walk away (their
#: turn then comes within 12 s, their flag 32 s later: inside a step of 55 s or more).
ABANDON_WINDOW = (2.0, 8.0)
FAR_FUTURE_MS = 4_102_444_800_000  # 2100-01-01: a parked clock's turn has not begun


def server_env() -> dict[str, str]:
    import moves

    env = moves.server_env()
    env.update(
        {
            # production's: the live channels' prefix names Redis database 11
            # (config.settings.base.redis_channel_layer), apart from other runs' pushes
            "DJANGO_SETTINGS_MODULE": "config.settings.production",
            "DATABASE_URL": f"postgres://postgres@{HOST}:5432/{DB_NAME}",
            "REDIS_URL": REDIS_URL,
        }
    )
    return env


# ====================================================================== database
def seed(n: int, out: Path) -> None:
    """(Child process, production settings.) ``n`` clocked money sessions, started; their
    ids, tokens and opening views to ``out``."""
    sys.path.insert(0, str(_host.ROOT))
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from rest_framework.authtoken.models import Token

    from games.engine.actions import state_from_dict
    from games.models import Player
    from games.play import selectors, services

    settings.GAMES_CLOCK_TIMERS = False  # the clocks are started (armed) per step
    user_model = get_user_model()
    unusable = make_password(None)
    users = user_model.objects.bulk_create(
        user_model(username=f"cap{i:05d}", password=unusable) for i in range(2 * n)
    )
    players = Player.objects.bulk_create(
        Player(name=f"Capacity {i:05d}", user=u) for i, u in enumerate(users)
    )
    tokens = Token.objects.bulk_create(Token(key=Token.generate_key(), user=u) for u in users)
    matches = []
    for i in range(n):
        match = services.match_create(
            player1=players[2 * i],
            player2=players[2 * i + 1],
            length=0,
            clock=CLOCK,
            timeout_claim=False,
            created_by=users[2 * i],
        )
        game = services.match_start(match_id=match.pk)
        actor = state_from_dict(game.state).player_to_act
        view = selectors.game_view(game=game, viewer_index=actor)
        view.pop("clock", None)  # datetimes; the clients need the turn only
        matches.append(
            {
                "match": match.pk,
                "game": game.pk,
                "tokens": [tokens[2 * i].key, tokens[2 * i + 1].key],
                "view": view,
            }
        )
    out.write_text(json.dumps(matches, default=str))


def clocks_arm(starts: dict[int, float]) -> None:
    """Start the running clock of each match's current game at ``starts[match]`` (wall
    seconds): the turn's start, deadline and alarm (the deadline: the reserve is under the
    low-time threshold) written as the services write them, marked armed so that the sweep
    does not arm them (the first action does)."""
    import psycopg

    values = [(m, int(t * 1000)) for m, t in starts.items()]
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.cursor().executemany(
            "UPDATE games_game g"
            " SET clock = jsonb_set(g.clock, '{turn_started_ms}', to_jsonb(%s::bigint)),"
            " deadline_at = to_timestamp((%s + (g.clock->'settings'->>'delay_ms')::bigint"
            " + (g.clock->'reserves'->>((g.clock->>'running')::int))::bigint) / 1000.0),"
            " alarm_at = to_timestamp((%s + (g.clock->'settings'->>'delay_ms')::bigint"
            " + (g.clock->'reserves'->>((g.clock->>'running')::int))::bigint) / 1000.0),"
            " armed_version = g.version"
            " WHERE g.match_id = %s AND NOT g.is_over AND g.clock->>'running' IS NOT NULL",
            [(ts, ts, ts, m) for m, ts in values],
        )


def clocks_park() -> None:
    """Between steps: no clock runs down (its turn begins in 2100), no alarm is due; an
    ETA task still queued finds nothing due."""
    import psycopg

    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(
            "UPDATE games_game"
            " SET clock = jsonb_set(clock, '{turn_started_ms}', to_jsonb(%s::bigint)),"
            " deadline_at = NULL, alarm_at = NULL, armed_version = NULL"
            " WHERE NOT is_over AND clock->>'running' IS NOT NULL",
            [FAR_FUTURE_MS],
        )


def logged_actions(since: float) -> tuple[set[tuple[int, int, int]], list[tuple[int, int, float]]]:
    """From the action log: every (match, game number, seq), and the timeouts logged since
    ``since`` (match, flagged player, created_at in ms)."""
    import psycopg

    with psycopg.connect(PG_DSN) as conn:
        rows = conn.execute(
            "SELECT g.match_id, g.number, a.seq"
            " FROM games_gameaction a JOIN games_game g ON g.id = a.game_id"
        ).fetchall()
        flags = conn.execute(
            "SELECT g.match_id, a.player_index, extract(epoch FROM a.created_at) * 1000"
            " FROM games_gameaction a JOIN games_game g ON g.id = a.game_id"
            " WHERE a.kind = 'timeout' AND a.created_at >= to_timestamp(%s)",
            [since],
        ).fetchall()
    return {(m, n, s) for m, n, s in rows}, [(m, p, float(t)) for m, p, t in flags]


# ====================================================================== CPU
def cpu_groups(roots: dict[str, int], clients: list[int]) -> _host.Groups:
    def groups(table: list[_host.ProcRow]) -> dict[str, dict[int, int]]:
        found = {name: _host.tree_ticks(table, pid) for name, pid in roots.items()}
        found["clients"] = {pid: t for pid, _, _, t, _ in table if pid in clients}
        found["bench"] = {pid: t for pid, _, _, t, _ in table if pid == os.getpid()}
        found["postgres"] = _host.database_backends(table, DB_NAME)
        found["redis"] = {p: t for p, comm, _, t, _ in table if comm.startswith("redis-server")}
        return found

    return groups


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


# ====================================================================== a step
@dataclass
class Step:
    n: int
    nodes: int
    seconds: float
    killed: bool = False
    actions: int = 0
    action_ms: list[float] = field(default_factory=list)
    push_ms: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    other: Counter[str] = field(default_factory=Counter)
    lost: int = 0
    dup: int = 0
    events: int = 0
    per_node: Counter[str] = field(default_factory=Counter)
    both_nodes: int = 0
    sockets: Counter[str] = field(default_factory=Counter)
    lost_actions: int = 0
    acks: int = 0
    flags_expected: int = 0
    flags_judged: int = 0
    flags_late: int = 0
    flags_wrong: int = 0
    flag_ms: list[float] = field(default_factory=list)
    reconnects: list[float] = field(default_factory=list)
    drops: int = 0
    replayed: int = 0
    retried: int = 0
    found_done: int = 0
    syncs: int = 0
    client_cpu: float = 0.0
    sockets_named: dict[str, int] = field(default_factory=dict)
    per_node_named: dict[str, int] = field(default_factory=dict)
    cores: dict[str, float] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return (
            "1 node" if self.nodes == 1 else f"{self.nodes} nodes{', kill' if self.killed else ''}"
        )

    @property
    def met(self) -> bool:
        return (
            pct(self.action_ms, 0.99) <= GOAL_ACTION_P99
            and pct(self.push_ms, 0.99) <= GOAL_PUSH_P99
        )


def run_step(
    n: int,
    specs: list[dict[str, Any]],
    clients: list[Any],
    groups: _host.Groups,
    args: argparse.Namespace,
    nodes: int,
    kill: Any = None,
) -> Step:
    rng = random.Random(f"{args.seed}:step:{n}:{nodes}")
    mine = specs[:n]
    t0 = time.time() + 1.0
    end = t0 + args.duration
    starts = {s["match"]: t0 + rng.uniform(0.0, 4.0) for s in mine}
    chosen = rng.sample(sorted(starts), k=round(args.abandon * n))
    lo, hi = ABANDON_WINDOW
    abandon = {m: t0 + rng.uniform(lo, hi) for m in chosen}
    clocks_arm(starts)
    for i, client in enumerate(clients):
        part = {m: t for j, (m, t) in enumerate(starts.items()) if j % len(clients) == i}
        client.send(
            "play",
            {"t0": t0, "end": end, "seed": args.seed, "starts": part, "abandon": abandon},
        )
    time.sleep(max(0.0, t0 - time.time()))
    before = _host.CpuSample.take(groups)
    began = time.monotonic()
    if kill is not None:
        time.sleep(max(0.0, t0 + args.duration / 2 - time.time()))
        kill()
    time.sleep(max(0.0, end - time.time()))
    cores = _host.CpuSample.take(groups).cores_since(before, time.monotonic() - began)
    played = [c.receive(timeout=args.duration + 120) for c in clients]
    step = Step(n=n, nodes=nodes, seconds=args.duration, killed=kill is not None, cores=cores)
    step.client_cpu = sum(p["cpu"] for p in played) / args.duration
    for p in played:
        for spec in mine:
            if spec["match"] in p["specs"]:
                spec["resume"] = p["specs"][spec["match"]]
    # Each client reports its actions; then each waits, until LOST_AFTER s after the step,
    # for the events of every acknowledged action on its matches' sockets.
    for c in clients:
        c.send("collect", ([], 0.0))
    got = [c.receive(timeout=60) for c in clients]
    for g in got:
        step.action_ms += g["action_ms"]
        step.push_ms += g["push_ms"]
        step.errors.update(g["errors"])
        step.other.update(g["other"])
        step.sockets.update(g["sockets"])
        step.reconnects += g["reconnects"]
        for name in ("drops", "replayed", "retried", "found_done", "syncs"):
            setattr(step, name, getattr(step, name) + g[name])
    acks = [tuple(a) for g in got for a in g["acks"]]
    for c in clients:
        c.send("collect", (acks, end + LOST_AFTER))
    for g in (c.receive(timeout=LOST_AFTER + 60) for c in clients):
        step.lost += g["lost"]
        step.dup += g["dup"]
        step.events += g["events"]
        step.both_nodes += g["both_nodes"]
        step.per_node.update(g["per_node"])
    step.acks = len(acks)
    step.actions = len(step.action_ms)
    logged, timeouts = logged_actions(t0 - 1.0)
    step.lost_actions = sum(1 for a in acks if a not in logged)
    judge_flags(
        step,
        [f for g in got for f in g["flags"]],
        [t for g in got for t in g["timeouts"]],
        timeouts,
        end,
    )
    clocks_park()
    return step


def judge_flags(
    step: Step,
    expected: list[dict[str, Any]],
    pushed: list[tuple[int, int, list[int], float]],
    logged: list[tuple[int, int, float]],
    end: float,
) -> None:
    """Late and wrong flags (see the module's docstring)."""
    step.flags_expected = len(expected)
    left = {f["match"] for f in expected}  # a match left flags on and on: none is wrong
    committed = {}
    for match, player, _pos, at in pushed:
        committed.setdefault((match, player), at)
    for match, player, at in logged:
        committed.setdefault((match, player), at)
        step.flags_wrong += match not in left
    step.flags_wrong += sum(n for k, n in step.errors.items() if "out_of_time" in k)
    for flag in expected:
        deadline = flag["deadline_ms"]
        if deadline is None or deadline > (end - 1.0) * 1000:
            continue  # due after the step: parked, not judged
        step.flags_judged += 1
        at = committed.get((flag["match"], flag["player"]))
        if at is None:
            step.flags_late += 1
            continue
        step.flag_ms.append(at - deadline)
        step.flags_late += at - deadline > FLAG_TOLERANCE_MS


# ====================================================================== reporting
def _cpu_text(step: Step) -> str:
    c = step.cores
    named = {k: v for k, v in sorted(c.items()) if k not in ("machine", "steal", "clients")}
    parts = ", ".join(f"{k} {v:.2f}" for k, v in named.items())
    ours = sum(named.values()) + step.client_cpu
    return (
        f"CPU cores: clients {step.client_cpu:.2f}, {parts};"
        f" rest {max(0.0, c['machine'] - c['steal'] - ours):.2f} (kernel, other processes);"
        f" machine {c['machine']:.2f} of {os.cpu_count()} (steal {c['steal']:.2f})"
    )


def report_step(step: Step) -> None:
    rate = step.actions / step.seconds
    flags = (
        f"flags: {step.flags_expected} walked away, {step.flags_judged} judged,"
        f" late {step.flags_late}, wrong {step.flags_wrong}"
    )
    if step.flag_ms:
        flags += (
            f" (after the deadline p50 {pct(step.flag_ms, 0.5):.0f} max {max(step.flag_ms):.0f} ms)"
        )
    print(
        f"[{step.n} matches, {step.label}] actions {step.actions} ({rate:.1f}/s)"
        f" p50 {pct(step.action_ms, 0.5):.1f} p99 {pct(step.action_ms, 0.99):.1f} ms;"
        f" push p50 {pct(step.push_ms, 0.5):.1f} p99 {pct(step.push_ms, 0.99):.1f} ms over"
        f" {len(step.push_ms)}; events {step.events} lost {step.lost} dup {step.dup};"
        f" actions not in the log {step.lost_actions}; {'MET' if step.met else 'NOT MET'}",
        flush=True,
    )
    print(f"    {flags}; syncs (GETs) {step.syncs}", flush=True)
    errors = sum(step.errors.values())
    if errors or step.other:
        shown = ", ".join(f"{k} x{n}" for k, n in step.errors.most_common(8))
        print(f"    errors {errors} ({shown}); socket messages {dict(step.other)}", flush=True)
    if step.nodes > 1:
        recon = step.reconnects
        print(
            f"    sockets by node {step.sockets_named}; deliveries by node {step.per_node_named};"
            f" events with sockets on both nodes {step.both_nodes}; sockets dropped {step.drops},"
            f" reconnected {len(recon)} (p50 {pct(recon, 0.5):.2f}"
            f" max {max(recon, default=0):.2f} s),"
            f" events replayed {step.replayed}; actions retried {step.retried}, of which found"
            f" committed {step.found_done}",
            flush=True,
        )
    print(f"    {_cpu_text(step)}", flush=True)


# ====================================================================== main
def run_checked(args: list[str], what: str) -> None:
    import subprocess

    done = subprocess.run(  # noqa: S603 (our own interpreter and files)
        args, cwd=_host.ROOT, env=server_env(), capture_output=True, text=True, check=False
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


class Phase:
    """Web nodes, nginx and the client processes of one phase; all stopped by ``stop``."""

    def __init__(self, count: int, args: argparse.Namespace, workdir: Path) -> None:
        import _stack
        from _capacity_client import ClientProcess

        self.args = args
        env = server_env()
        self.nodes = [_stack.web_node(i + 1, env, workdir, args.workers) for i in range(count)]
        self.nginx = _stack.Nginx(prefix=workdir / f"nginx-{count}")
        self.nginx.prefix.mkdir()
        self.clients: list[Any] = []
        for node in self.nodes:
            for proc in node.procs:
                proc.start()
        for node in self.nodes:
            node.gunicorn.wait_http(node.http_port)
            node.uvicorn.wait_http(node.ws_port)
        self.nginx.start(self.nodes, env)
        port = self.nginx.port
        url, origin = f"ws://{HOST}:{port}/ws/live/", f"http://{HOST}:{port}"
        self.clients = [ClientProcess(port, url, origin) for _ in range(args.procs)]
        self.opened = 0
        self.node_of = {f"{HOST}:{n.ws_port}": f"node {n.number}" for n in self.nodes}

    def open(self, specs: list[dict[str, Any]], n: int) -> None:
        p = len(self.clients)
        for i, client in enumerate(self.clients):
            client.send(
                "open", [s for j, s in enumerate(specs) if self.opened <= j < n and j % p == i]
            )
        got = [c.receive(timeout=120 + 0.2 * n) for c in self.clients]
        errors = sum((g["errors"] for g in got), Counter())
        seconds = max(g["seconds"] for g in got)
        nodes = sum((g["nodes"] for g in got), Counter())
        print(
            f"opened {2 * (n - self.opened)} sockets in {seconds:.1f} s,"
            f" errors {sum(errors.values())} {dict(errors) or ''}; by node {self.named(nodes)}",
            flush=True,
        )
        self.opened = n

    def named(self, counts: Counter[str]) -> dict[str, int]:
        """Counts by upstream address as counts by node."""
        named: Counter[str] = Counter()
        for address, n in counts.items():
            named[self.node_of.get(address, address or "?")] += n
        return dict(named)

    def groups(self, celery: list[Any]) -> _host.Groups:
        roots = {}
        for node in self.nodes:
            roots[f"gunicorn{node.number}"] = node.gunicorn.pid
            roots[f"uvicorn{node.number}"] = node.uvicorn.pid
        for proc in celery:
            roots[proc.name.removeprefix("celery-")] = proc.pid
        assert self.nginx.proc is not None
        roots["nginx"] = self.nginx.proc.pid
        return cpu_groups(roots, [c.pid for c in self.clients])

    def step(
        self, n: int, specs: list[dict[str, Any]], celery: list[Any], kill: Any = None
    ) -> Step:
        count = len(self.nodes)
        done = run_step(n, specs, self.clients, self.groups(celery), self.args, count, kill=kill)
        done.sockets_named = self.named(done.sockets)
        done.per_node_named = self.named(done.per_node)
        report_step(done)
        return done

    def kill_node_2(self) -> None:
        node = self.nodes[1]
        node.gunicorn.kill()
        node.uvicorn.kill()
        print(
            f"    killed node 2 (gunicorn {node.gunicorn.pid}, uvicorn {node.uvicorn.pid}):"
            " SIGKILL to each process group",
            flush=True,
        )

    def stop(self) -> None:
        for client in self.clients:
            client.stop()
        if self.nginx.proc is not None:
            self.nginx.proc.stop(timeout=5)
        for node in self.nodes:
            for proc in node.procs:
                proc.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help="smoke run: 20 and 50 matches, 45 s each; two nodes with 30, the kill step only",
    )
    parser.add_argument(
        "--steps", help="matches per step, comma-separated (default 100,250,500,1000)"
    )
    parser.add_argument("--duration", type=float, help="seconds per step (default 60; --quick 45)")
    parser.add_argument(
        "--two-node",
        type=int,
        help="matches of the two-node run, 0: none (default 200; --quick 30)",
    )
    parser.add_argument(
        "--abandon", type=float, default=0.02, help="share of matches with a player who walks away"
    )
    parser.add_argument("--seed", type=int, default=31, help="seed of the players' schedule")
    parser.add_argument("--procs", type=int, default=2, help="client processes (default 2)")
    parser.add_argument(
        "--workers", type=int, help="gunicorn workers per node (default: deploy/gunicorn.conf.py's)"
    )
    parser.add_argument("--limit", type=int, default=1500, help="overall time limit, seconds")
    parser.add_argument("--keep-db", action="store_true", help=f"leave {DB_NAME} in place")
    parser.add_argument("--seed-into", help=argparse.SUPPRESS)
    parser.add_argument("--seed-matches", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.seed_into:
        seed(args.seed_matches, Path(args.seed_into))
        return 0
    steps = [
        int(x) for x in (args.steps or ("20,50" if args.quick else "100,250,500,1000")).split(",")
    ]
    args.duration = args.duration or (45.0 if args.quick else 60.0)
    two = args.two_node if args.two_node is not None else (30 if args.quick else 200)

    import _stack
    import live

    began = _host.start_run(args.limit, load_effect="raises the latencies")
    live.raise_nofile()
    workdir = Path(tempfile.mkdtemp(prefix="bench-capacity-"))
    celery: list[_stack.Proc] = []
    phase: Phase | None = None
    results: list[Step] = []
    try:
        _host.database_recreate(PG_ADMIN_DSN, DB_NAME)
        redis_flush()
        run_checked([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], "migrate")
        seeded = workdir / "matches.json"
        total = max([*steps, two])
        run_checked(
            [
                sys.executable,
                str(Path(__file__).resolve()),
                "--seed-into",
                str(seeded),
                "--seed-matches",
                str(total),
            ],
            "seeding",
        )
        specs = json.loads(seeded.read_text())
        clocks_park()
        celery = _stack.celery_procs(server_env(), workdir)
        for proc in celery:
            proc.start()
        for proc in celery:
            proc.wait_for("beat: Starting" if "beat" in proc.name else " ready.")
        print(
            f"bench/capacity.py: {total} clocked money sessions seeded"
            f" ({CLOCK['delay_ms'] // 1000} s delay + {CLOCK['reserve_ms'] // 1000} s reserve);"
            f" steps {steps} x {args.duration:g} s, two nodes {two or 'skipped'};"
            f" {args.procs} client processes; seed {args.seed}; logs in {workdir};"
            f" setup {time.monotonic() - began:.0f} s",
            flush=True,
        )
        phase = Phase(1, args, workdir)
        for n in steps:
            phase.open(specs, n)
            results.append(phase.step(n, specs, celery))
        phase.stop()
        phase = None
        if two:
            try:
                phase = Phase(2, args, workdir)
                phase.open(specs, two)
                if not args.quick:  # both nodes up all along: every event on both, once
                    results.append(phase.step(two, specs, celery))
                results.append(phase.step(two, specs, celery, kill=phase.kill_node_2))
            except SystemExit as exc:  # the one-node figures are still worth their summary
                print(f"the two-node run failed: {exc}", flush=True)
    except KeyboardInterrupt:
        print("interrupted: stopping everything", file=sys.stderr)
        return 130
    except _host.RunLimitExceeded as exc:
        print(f"stopped: {exc}", file=sys.stderr)
        return 1
    finally:
        signal.alarm(0)
        if phase is not None:
            phase.stop()
        for proc in celery:
            proc.stop()
        with contextlib.suppress(Exception):
            redis_flush()
        if not args.keep_db:
            with contextlib.suppress(Exception):
                _host.database_drop(PG_ADMIN_DSN, DB_NAME)

    print("summary")
    print(
        f"{'matches':>7} {'nodes':>13} {'act/s':>6} {'act p50':>7} {'act p99':>7}"
        f" {'push p99':>8} {'lost':>4} {'dup':>3} {'late':>4} {'wrong':>5} {'errors':>6}  goals"
    )
    for s in results:
        print(
            f"{s.n:>7} {s.label:>13} {s.actions / s.seconds:6.1f} {pct(s.action_ms, 0.5):7.1f}"
            f" {pct(s.action_ms, 0.99):7.1f} {pct(s.push_ms, 0.99):8.1f}"
            f" {s.lost + s.lost_actions:>4} {s.dup:>3} {s.flags_late:>4}"
            f" {s.flags_wrong:>5} {sum(s.errors.values()):>6}  {'MET' if s.met else 'NOT MET'}"
        )
    single = [s for s in results if s.nodes == 1]
    passed = [s for s in single if s.met]
    best = max(passed, key=lambda s: s.n) if passed else single[0]
    capacity = best.n if passed else 0
    print(
        f"capacity: {capacity} matches ({2 * capacity} players) with action p99 <="
        f" {GOAL_ACTION_P99:.0f} ms and push p99 <= {GOAL_PUSH_P99:.0f} ms on one node;"
        f" total run {time.monotonic() - began:.0f} s"
    )
    lost = sum(s.lost + s.lost_actions for s in results)
    dup = sum(s.dup for s in results)
    print(
        f"capacity_n {capacity} action_p99_ms {pct(best.action_ms, 0.99):.1f}"
        f" push_p99_ms {pct(best.push_ms, 0.99):.1f} lost {lost} dup {dup}"
    )
    return 0


if __name__ == "__main__":
    _host.ensure_venv(__file__, "BENCH_CAPACITY_REEXEC")
    sys.exit(main())
