"""The load clients of bench/moves.py (and bench/live.py, which plays the same moves):
raw HTTP/1.1 on plain non-blocking asyncio sockets, a bare-GET client and a move client
that plays its matches in turn, and the entry point of a client process. Each client is
a closed loop; what it saw inside the measurement window is gathered in :class:`Stats`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import socket
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

#: The one address the clients send anything to.
HOST = "127.0.0.1"
#: No single request may take longer than this (then it is an error).
REQUEST_TIMEOUT = 10.0
#: Upper bound of requests per client and measurement, whatever the duration.
MAX_REQUESTS_PER_CLIENT = 100_000


# ====================================================================== HTTP client
def _dechunk(body: bytes) -> bytes:
    out, pos = [], 0
    while True:
        eol = body.index(b"\r\n", pos)
        size = int(body[pos:eol].split(b";")[0], 16)
        if size == 0:
            return b"".join(out)
        out.append(body[eol + 2 : eol + 2 + size])
        pos = eol + 2 + size + 2


async def exchange(port: int, request: bytes) -> tuple[int, bytes]:
    """Send ``request`` on a new connection to 127.0.0.1:``port`` and read the answer
    until the server closes (gunicorn's sync workers always do); (status, body).

    Plain non-blocking sockets with the loop's ``sock_*`` calls: measured at about half
    the client CPU per request of asyncio's transports and protocols."""
    loop = asyncio.get_running_loop()
    chunks = []
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setblocking(False)
        async with asyncio.timeout(REQUEST_TIMEOUT):
            await loop.sock_connect(sock, (HOST, port))
            await loop.sock_sendall(sock, request)
            while chunk := await loop.sock_recv(sock, 65536):
                chunks.append(chunk)
    raw = b"".join(chunks)
    head, _, body = raw.partition(b"\r\n\r\n")
    status = int(head[9:12])
    if b"transfer-encoding: chunked" in head.lower():
        body = _dechunk(body)
    return status, body


def build_request(port: int, method: str, path: str, token: str, payload: Any = None) -> bytes:
    lines = [
        f"{method} {path} HTTP/1.1",
        f"Host: {HOST}:{port}",
        f"Authorization: Token {token}",
        "Accept: application/json",
        "Connection: close",
    ]
    body = b""
    if payload is not None:
        body = json.dumps(payload, separators=(",", ":")).encode()
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


# ====================================================================== load clients
@dataclass
class Stats:
    """What one client process saw inside the window [warm, end] (and errors outside)."""

    warm: float
    end: float
    counts: Counter[str] = field(default_factory=Counter)
    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: Counter[str] = field(default_factory=Counter)
    errors_outside: Counter[str] = field(default_factory=Counter)
    cpu: float = 0.0
    specs: list[Any] = field(default_factory=list)  # the moves clients' matches, updated

    def record(self, kind: str, started: float, ended: float, error: str | None) -> None:
        inside = self.warm <= ended <= self.end
        if error is not None:
            (self.errors if inside else self.errors_outside)[f"{kind}: {error}"] += 1
        elif inside:
            self.counts[kind] += 1
            self.latencies.setdefault(kind, []).append((ended - started) * 1000.0)


async def timed(stats: Stats, kind: str, port: int, request: bytes) -> tuple[int, bytes] | None:
    """One request, recorded under ``kind``; None when it failed (non-2xx or I/O)."""
    started = time.monotonic()
    try:
        status, body = await exchange(port, request)
    except (OSError, TimeoutError, ValueError, IndexError) as exc:
        stats.record(kind, started, time.monotonic(), type(exc).__name__)
        await asyncio.sleep(0.01)
        return None
    ended = time.monotonic()
    if not 200 <= status < 300:
        code = ""
        with contextlib.suppress(ValueError, AttributeError):
            code = " " + str(json.loads(body).get("code", ""))
        stats.record(kind, started, ended, f"HTTP {status}{code}")
        return None
    stats.record(kind, started, ended, None)
    return status, body


async def get_client(port: int, token: str, stats: Stats) -> None:
    request = build_request(port, "GET", "/api/v1/me/", token)
    for _ in range(MAX_REQUESTS_PER_CLIENT):
        if time.monotonic() >= stats.end:
            return
        await timed(stats, "get", port, request)


class MatchPlay:
    """A client's view of one of its matches: whose turn, the version to act on, and
    the legal plays when the actor has dice to play."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.match: int = spec["match"]
        self.tokens: list[str] = spec["tokens"]
        self.game: int | None = spec["game"]
        self.version = 0
        self.actor = 0
        self.phase = ""
        self.plays: list[str] = []
        self.synced = False
        self.failures = 0  # consecutive failed syncs; the match is dropped after 5
        if spec.get("resume"):  # where the previous round left it
            for name, value in spec["resume"].items():
                setattr(self, name, value)
        elif spec.get("view"):
            self.apply(spec["view"])

    def snapshot(self) -> dict[str, Any]:
        names = ("game", "version", "actor", "phase", "plays", "synced", "failures")
        return {name: getattr(self, name) for name in names}

    def apply(self, view: dict[str, Any]) -> None:
        """Take the state from a game view; leaves ``synced`` False when the next step
        needs a GET first (a new game, or plays seen by the wrong player)."""
        self.synced = False
        if view["result"] is not None:
            self.game = view.get("next_game")  # None when a finished game is synced
            return
        self.version = view["version"]
        self.actor = view["player_to_act"]
        self.phase = view["phase"]
        if self.phase == "move":
            if view["you"] != self.actor:
                return
            (entry,) = [a for a in view["legal_actions"] if a["action"] == "play"]
            self.plays = [p["position_id"] for p in entry["plays"]]
            self.synced = bool(self.plays)
        else:
            self.synced = self.phase == "roll"


async def sync(port: int, play: MatchPlay, stats: Stats) -> None:
    """Learn a match's current game state with GETs (counted as "sync")."""
    if play.game is None:
        answer = await timed(
            stats,
            "sync",
            port,
            build_request(port, "GET", f"/api/v1/matches/{play.match}/", play.tokens[0]),
        )
        if answer is None:
            play.failures += 1
            return
        play.game = json.loads(answer[1])["current_game"]
    for viewer in (0, 1):
        answer = await timed(
            stats,
            "sync",
            port,
            build_request(port, "GET", f"/api/v1/games/{play.game}/", play.tokens[viewer]),
        )
        if answer is None:
            play.failures += 1
            return
        view = json.loads(answer[1])
        if view["result"] is not None:  # finished: the match's current game is next
            play.game = None
            play.failures += 1
            return
        play.apply(view)
        if play.synced:
            play.failures = 0
            return
        if not (view["phase"] == "move" and view["player_to_act"] != viewer):
            break  # not a state this benchmark plays (it never doubles or resigns)
    play.failures += 1


async def move_client(
    port: int,
    specs: list[dict[str, Any]],
    stats: Stats,
    on_move: Callable[[dict[str, Any]], None] | None = None,
) -> None:
    """Play the client's matches in turn, one action each, until the window ends.
    ``on_move`` is given the game view of every 2xx answer to a POST (bench/live.py
    learns from it which positions the watchers must be sent)."""
    plays = [MatchPlay(spec) for spec in specs]
    try:
        await _play(port, plays, stats, on_move)
    finally:
        for spec, play in zip(specs, plays, strict=True):
            spec["resume"] = play.snapshot()  # handed back for the next round


async def _play(
    port: int,
    plays: list[MatchPlay],
    stats: Stats,
    on_move: Callable[[dict[str, Any]], None] | None = None,
) -> None:
    for step in range(MAX_REQUESTS_PER_CLIENT):
        if time.monotonic() >= stats.end:
            return
        live = [p for p in plays if p.failures < 5]
        if not live:
            return
        play = live[step % len(live)]
        if not play.synced:
            try:
                await sync(port, play, stats)
            except (ValueError, KeyError, TypeError):
                stats.record("sync", 0.0, time.monotonic(), "unexpected body")
                play.failures += 1
            continue
        if play.phase == "roll":
            payload: dict[str, Any] = {"action": "roll", "version": play.version}
            kind = "move"
        else:
            payload = {"action": "play", "version": play.version, "position_id": play.plays[0]}
            kind = "play"
        request = build_request(
            port, "POST", f"/api/v1/games/{play.game}/actions/", play.tokens[play.actor], payload
        )
        answer = await timed(stats, kind, port, request)
        if answer is None:
            play.synced = False
            continue
        try:
            view = json.loads(answer[1])
            if on_move is not None:
                on_move(view)
            play.apply(view)
        except (ValueError, KeyError, TypeError):
            stats.record(kind, 0.0, time.monotonic(), "unexpected body")
            play.synced = False


async def _client_process_main(
    kind: str, port: int, specs: list[Any], warm: float, end: float
) -> Stats:
    stats = Stats(warm=warm, end=end)
    loop = asyncio.get_running_loop()
    cpu_at_warm: list[float] = []
    loop.call_at(warm, lambda: cpu_at_warm.append(time.process_time()))
    if kind == "get":
        clients = [get_client(port, token, stats) for token in specs]
    else:
        clients = [move_client(port, matches, stats) for matches in specs]
    await asyncio.gather(*clients)
    stats.cpu = time.process_time() - (cpu_at_warm[0] if cpu_at_warm else 0.0)
    stats.specs = specs
    return stats


def client_process(
    conn: Any, kind: str, port: int, specs: list[Any], warm: float, end: float
) -> None:
    """Entry point of a client process (``loop.time()`` is ``time.monotonic()``, the
    same clock in every process, so all processes share one window)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C...
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # ...and ends a late client with SIGTERM
    stats = asyncio.run(_client_process_main(kind, port, specs, warm, end))
    conn.send(stats)
    conn.close()
