"""bench/capacity.py's load generator: one process holds the players of its share of the
matches, each with a browser-like socket on ``/ws/live/`` watching its match, and plays
them at human pace over the REST API.

The parent drives it over a pipe (:class:`ClientProcess`): ``open`` the sockets of more
matches, ``play`` a step (every player acts 2-6 s after it may, from a seeded schedule;
actions retried on a connection error or a 502/503/504 with the same version, so a
retry can never act twice), ``collect`` what the sockets received. Times are wall-clock
(``time.time()``), the clock of the ``sent_at`` the server puts in each push. A request
gets no answer only after ``REQUEST_TIMEOUT`` (then the match syncs by GET, no retry).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import random
import signal
import time
from collections import Counter
from datetime import datetime
from typing import Any

import _httpload as httpload  # bench/moves.py's raw HTTP requests, a match's state from the answers

#: WebSocket handshakes (and watches) in flight at once in one process.
OPEN_CONCURRENCY = 64
#: A retried action (connection error, 502/503/504) is tried this often at most.
ATTEMPTS = 10
RETRY_STATUSES = (502, 503, 504)
#: Seconds a request may wait for its answer (nginx's proxy_read_timeout is 60).
REQUEST_TIMEOUT = 65.0
#: Think time of a human player, seconds (each action after the answer that allowed it).
THINK = (2.0, 6.0)


def think(rng: random.Random) -> float:
    return rng.uniform(*THINK)


class Watcher:
    """One player's socket on its match: reconnects as static/games/live.js does (back-off
    1 s doubling to 15 s, with jitter) and says the last position it has, so that the
    server replays what it missed."""

    def __init__(self, match: int, player: int) -> None:
        self.match, self.player = match, player
        self.pos: list[int] | None = None
        self.received: Counter[tuple[int, int]] = Counter()
        self.nodes: Counter[tuple[tuple[int, int], str]] = Counter()
        self.node = ""
        self.ws: Any = None
        self.ready = asyncio.Event()

    async def connect(self, url: str, origin: str, sink: Client | None = None) -> None:
        from websockets.asyncio.client import connect

        ws = await connect(
            url,
            origin=origin,  # type: ignore[arg-type]
            compression=None,  # the production uvicorn turns permessage-deflate off
            proxy=None,
            open_timeout=30,
            ping_interval=None,  # the server pings; the library answers
            close_timeout=2,
        )
        try:
            await ws.send(
                json.dumps({"op": "watch", "topic": f"match:{self.match}", "since": self.pos})
            )
            async with asyncio.timeout(30):
                while True:  # a replay's events come before "watching"
                    message = json.loads(await ws.recv())
                    if message.get("t") == "watching":
                        break
                    self.on_message(message, sink)  # a replay: counted, not timed
        except BaseException:
            await ws.close()
            raise
        if self.pos is None:
            self.pos = message.get("pos")
        # The upstream that took it (nginx lists a dead one it tried first before it).
        self.node = ws.response.headers.get("X-Bench-Upstream", "").split(",")[-1].strip()
        self.ws = ws
        self.ready.set()

    def on_message(self, message: dict[str, Any], sink: Client | None) -> None:
        if message.get("t") != "event":
            if sink is not None:
                sink.other[str(message.get("t"))] += 1
            return
        now = time.time() * 1000.0
        pos = (message["pos"][0], message["pos"][1])
        self.received[pos] += 1
        self.nodes[pos, self.node] += 1
        if self.pos is None or list(pos) > self.pos:
            self.pos = list(pos)
        if sink is None:
            return
        sent_at = message.get("sent_at")
        if sent_at is None:
            sink.replayed += 1
        elif message.get("player") != self.player and sent_at >= sink.t0 * 1000:
            sink.push_ms.append(now - sent_at)
        if message.get("kind") == "timeout":
            at = sent_at if sent_at is not None else message.get("at")
            sink.timeouts.append((self.match, message.get("player"), list(pos), at))

    async def run(self, client: Client) -> None:
        from websockets.exceptions import ConnectionClosed

        backoff = 1.0
        while True:
            try:
                async for raw in self.ws:
                    self.on_message(json.loads(raw), client)
            except ConnectionClosed:
                pass
            dropped = time.time()
            client.drops += 1
            while True:
                await asyncio.sleep(backoff * random.uniform(0.75, 1.25))
                backoff = min(backoff * 2, 15.0)
                try:
                    await self.connect(client.url, client.origin, client)
                except Exception as exc:
                    client.other[f"reconnect failed: {type(exc).__name__}"] += 1
                    continue
                client.reconnects.append(time.time() - dropped)
                backoff = 1.0
                break


class Driver:
    """A match's two players acting through the API (bench/_httpload.py's ``MatchPlay`` keeps
    its state from the answers)."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.play = httpload.MatchPlay(spec)
        self.deadline_ms: float | None = None


class Client:
    def __init__(self, conn: Any, port: int, url: str, origin: str) -> None:
        self.conn, self.port, self.url, self.origin = conn, port, url, origin
        self.drivers: dict[int, Driver] = {}
        self.watchers: dict[int, tuple[Watcher, Watcher]] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.reset(0.0)

    def reset(self, t0: float) -> None:
        self.t0 = t0
        self.action_ms: list[float] = []
        self.push_ms: list[float] = []
        self.errors: Counter[str] = Counter()
        self.other: Counter[str] = Counter()
        self.acks: list[tuple[int, int, int]] = []
        self.flags: list[dict[str, Any]] = []
        self.timeouts: list[tuple[int, int, list[int], float]] = []
        self.reconnects: list[float] = []
        self.drops = self.replayed = self.retried = self.found_done = self.syncs = 0

    async def serve(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                command, arg = await loop.run_in_executor(None, self.conn.recv)
                if command == "stop":
                    return
                self.conn.send(await getattr(self, f"do_{command}")(arg))
        finally:
            for task in self.tasks:
                task.cancel()
            sockets = [w.ws for pair in self.watchers.values() for w in pair if w.ws]
            for i in range(0, len(sockets), 50):  # a burst of closes overflows the layer's pool
                await asyncio.gather(*(_close(ws) for ws in sockets[i : i + 50]))

    async def do_open(self, specs: list[dict[str, Any]]) -> dict[str, Any]:
        limit = asyncio.Semaphore(OPEN_CONCURRENCY)
        errors: Counter[str] = Counter()
        began = time.monotonic()

        async def one(watcher: Watcher) -> None:
            async with limit:
                for _ in range(3):
                    try:
                        await watcher.connect(self.url, self.origin)
                        self.tasks.append(asyncio.create_task(watcher.run(self)))
                        return
                    except Exception as exc:
                        errors[f"{type(exc).__name__}: {str(exc)[:60]}"] += 1

        new = []
        for spec in specs:
            self.drivers[spec["match"]] = Driver(spec)
            pair = (Watcher(spec["match"], 0), Watcher(spec["match"], 1))
            self.watchers[spec["match"]] = pair
            new += pair
        await asyncio.gather(*(one(w) for w in new))
        nodes = Counter(w.node for w in new)
        return {"errors": errors, "seconds": time.monotonic() - began, "nodes": nodes}

    # ------------------------------------------------------------------ playing
    async def do_play(self, arg: dict[str, Any]) -> dict[str, Any]:
        self.reset(arg["t0"])
        cpu0 = time.process_time()
        stats = httpload.Stats(warm=0.0, end=float("inf"))  # its window: monotonic, all of it
        await asyncio.gather(
            *(
                self.drive(
                    self.drivers[m], start, arg["end"], arg["seed"], arg["abandon"].get(m), stats
                )
                for m, start in arg["starts"].items()
            )
        )
        self.syncs = stats.counts["sync"]
        self.errors.update(stats.errors)
        return {
            "cpu": time.process_time() - cpu0,
            "specs": {m: self.drivers[m].play.snapshot() for m in arg["starts"]},
        }

    async def drive(
        self,
        driver: Driver,
        turn_start: float,
        end: float,
        seed: int,
        abandon_at: float | None,
        stats: httpload.Stats,
    ) -> None:
        play = driver.play
        rng = random.Random(f"{seed}:{play.match}")
        next_at = turn_start + think(rng)
        partner_acted = False
        while True:
            if not play.synced:
                try:
                    await httpload.sync(self.port, play, stats)
                except (ValueError, KeyError, TypeError):
                    self.errors["sync: unexpected body"] += 1
                if not play.synced:
                    await asyncio.sleep(1.0)
                    if time.time() >= end:
                        return
                    continue
                next_at = max(next_at, time.time() + think(rng))
                partner_acted = False
            if (
                abandon_at is not None
                and partner_acted
                and play.phase == "roll"
                and time.time() >= abandon_at
            ):
                # This player walks away: the server must flag them at the deadline.
                self.flags.append(
                    {"match": play.match, "player": play.actor, "deadline_ms": driver.deadline_ms}
                )
                play.synced = False
                play.game = None  # the next step starts from the match's state
                return
            wait = next_at - time.time()
            if next_at >= end:
                return
            if wait > 0:
                await asyncio.sleep(wait)
            actor = play.actor
            if play.phase == "roll":
                payload: dict[str, Any] = {"action": "roll", "version": play.version}
            else:
                payload = {"action": "play", "version": play.version, "position_id": play.plays[0]}
            try:
                view = await self.act(play, payload)
            except Exception as exc:  # counted; one match's surprise must not stop the rest
                self.errors[f"{payload['action']}: {type(exc).__name__}"] += 1
                view = None
            if view is None:
                play.synced = False
                continue
            clock = view.get("clock") or {}
            if clock.get("deadline"):
                driver.deadline_ms = datetime.fromisoformat(clock["deadline"]).timestamp() * 1000
            play.apply(view)
            partner_acted = play.synced and play.actor != actor
            next_at = time.time() + think(rng)

    async def act(self, play: httpload.MatchPlay, payload: dict[str, Any]) -> dict[str, Any] | None:
        """One action, retried with the same version after a failure that may not have
        reached the database; the answer's game view, or None (then the match is synced)."""
        path = f"/api/v1/games/{play.game}/actions/"
        request = httpload.build_request(self.port, "POST", path, play.tokens[play.actor], payload)
        first = time.monotonic()
        for attempt in range(ATTEMPTS):
            if attempt:
                self.retried += 1
                await asyncio.sleep(0.5)
            try:
                status, body = await httpload.exchange(self.port, request)
            except TimeoutError:
                # No answer in REQUEST_TIMEOUT: not retried (a browser waits; retrying what a
                # saturated server is still working on only adds to its queue): synced.
                waited = httpload.REQUEST_TIMEOUT
                self.errors[f"{payload['action']}: no answer in {waited:.0f} s"] += 1
                return None
            except (OSError, ValueError, IndexError) as exc:
                self.errors[f"{payload['action']}: {type(exc).__name__}"] += 1
                continue
            if status in RETRY_STATUSES:
                self.errors[f"{payload['action']}: HTTP {status}"] += 1
                continue
            if 200 <= status < 300:
                try:
                    view = json.loads(body)
                    ack = (view["match"], view["number"], view["version"])
                except (ValueError, KeyError, TypeError):
                    # The node died while nginx passed the answer on: the status came,
                    # the body did not. Committed, but not an acknowledged action here.
                    self.errors[f"{payload['action']}: 2xx with a cut body"] += 1
                    return None
                self.action_ms.append((time.monotonic() - first) * 1000.0)
                self.acks.append(ack)
                return dict(view)
            code = ""
            with contextlib.suppress(ValueError, AttributeError):
                code = str(json.loads(body).get("code", ""))
            if attempt and code == "stale_version":
                self.found_done += 1  # an earlier attempt was committed: never twice
            else:
                self.errors[f"{payload['action']}: HTTP {status} {code}"] += 1
            return None
        return None

    # ------------------------------------------------------------------ counting
    async def do_collect(self, arg: tuple[list[tuple[int, int, int]], float]) -> dict[str, Any]:
        """Wait until every acknowledged action's event reached both players' sockets or
        the deadline passed; what this step's sockets received."""
        acks, deadline = arg
        mine = [a for a in acks if a[0] in self.watchers]

        def missing() -> int:
            return sum(1 for m, n, v in mine for w in self.watchers[m] if not w.received[n, v])

        while missing() and time.time() < deadline:
            await asyncio.sleep(0.1)
        lost = dup = 0
        per_node: Counter[str] = Counter()
        both_nodes = 0
        for m, n, v in mine:
            nodes = set()
            for w in self.watchers[m]:
                count = w.received[n, v]
                lost += count == 0
                dup += max(0, count - 1)
                for (pos, node), k in w.nodes.items():
                    if pos == (n, v):
                        per_node[node] += k
                        nodes.add(node)
            both_nodes += len(nodes) > 1
        return {
            "lost": lost,
            "dup": dup,
            "per_node": per_node,
            "both_nodes": both_nodes,
            "events": len(mine),
            "action_ms": self.action_ms,
            "push_ms": self.push_ms,
            "errors": self.errors,
            "other": self.other,
            "acks": self.acks,
            "flags": self.flags,
            "timeouts": self.timeouts,
            "reconnects": self.reconnects,
            "drops": self.drops,
            "replayed": self.replayed,
            "retried": self.retried,
            "found_done": self.found_done,
            "syncs": self.syncs,
            "sockets": Counter(w.node for pair in self.watchers.values() for w in pair),
        }


async def _close(ws: Any) -> None:
    with contextlib.suppress(Exception):
        await ws.close()


def _main(conn: Any, port: int, url: str, origin: str) -> None:
    # A request waits as long as nginx does (proxy_read_timeout 60 s, then 504), not
    # bench/moves.py's 10 s.
    httpload.REQUEST_TIMEOUT = REQUEST_TIMEOUT
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C...
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # ...and ends a late one with SIGTERM
    asyncio.run(Client(conn, port, url, origin).serve())


class ClientProcess:
    """The parent's handle on one :class:`Client` process."""

    def __init__(self, port: int, url: str, origin: str) -> None:
        context = multiprocessing.get_context("fork")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_main, args=(child, port, url, origin), daemon=True)
        self.process.start()
        child.close()

    @property
    def pid(self) -> int:
        assert self.process.pid is not None
        return self.process.pid

    def send(self, command: str, arg: Any = None) -> None:
        self.conn.send((command, arg))

    def receive(self, timeout: float = 300.0) -> Any:
        if not self.conn.poll(timeout):
            raise SystemExit(f"a client process did not answer in {timeout:.0f} s")
        return self.conn.recv()

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.send("stop")
        self.process.join(15)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(5)
