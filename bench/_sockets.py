"""The WebSocket side of bench/live.py: a process of ``/ws/live/`` clients
(:class:`SocketHost`) -- idle sockets that watch a match and then only answer the
server's pings, and watchers that record every event with its arrival time -- and the
parent's handle on it (:class:`SocketProcess`), driven by commands over a pipe.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import signal
import time
from collections import Counter
from typing import Any

#: An acknowledged action whose event has not arrived this long after the round is lost.
LOST_AFTER = 5.0
#: WebSocket handshakes (and watches) in flight at once while the idle sockets open.
OPEN_CONCURRENCY = 64
#: Sockets closed at once at the end (see SocketHost._close).
CLOSE_BATCH = 50


def rss_kb(pid: int) -> int:
    """Resident memory of process ``pid`` in kB (VmRSS)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class SocketHost:
    """(In its own process.) WebSocket clients of ``/ws/live/``: idle sockets that watch
    and then only answer the server's pings, and watchers that record every event."""

    def __init__(self, conn: Any, url: str, origin: str, compression: str | None) -> None:
        self.conn = conn
        self.url = url
        self.origin = origin
        self.compression = compression
        self.idle: list[Any] = []
        self.watchers: list[tuple[Any, asyncio.Task[None]]] = []
        self.seen: dict[int, list[tuple[tuple[int, ...], float | None, float]]] = {}
        self.other: Counter[str] = Counter()

    async def serve(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                command, arg = await loop.run_in_executor(None, self.conn.recv)
                if command == "stop":
                    return
                self.conn.send(await getattr(self, f"do_{command}")(arg))
        finally:
            await self._close([ws for ws, _ in self.watchers] + self.idle)

    async def _open(self, topic: str) -> Any:
        from websockets.asyncio.client import connect

        ws = await connect(
            self.url,
            origin=self.origin,  # type: ignore[arg-type]
            compression=self.compression,
            proxy=None,  # never a proxy from the environment: loopback only
            open_timeout=30,
            ping_interval=None,  # the server pings; the library answers
            close_timeout=2,
        )
        try:
            await ws.send(json.dumps({"op": "watch", "topic": topic}))
            async with asyncio.timeout(30):
                answer = json.loads(await ws.recv())
            if answer.get("t") != "watching":
                raise RuntimeError(f"not watching: {answer}")
        except BaseException:
            await ws.close()
            raise
        return ws

    async def do_idle(self, topics: list[str]) -> dict[str, Any]:
        limit = asyncio.Semaphore(OPEN_CONCURRENCY)
        errors: Counter[str] = Counter()

        async def one(topic: str) -> None:
            async with limit:
                try:
                    self.idle.append(await self._open(topic))
                except Exception as exc:  # counted and shown
                    errors[f"{type(exc).__name__}: {str(exc)[:80]}"] += 1

        began = time.monotonic()
        await asyncio.gather(*(one(t) for t in topics))
        return {
            "open": len(self.idle),
            "errors": errors,
            "seconds": time.monotonic() - began,
            "rss_kb": rss_kb(os.getpid()),
        }

    async def do_close_idle(self, _: Any) -> int:
        await self._close(self.idle)
        self.idle = []
        return 0

    async def do_watch(self, matches: list[int]) -> dict[str, Any]:
        errors: Counter[str] = Counter()
        self.seen = {m: [] for m in matches}
        self.other = Counter()

        async def one(match: int) -> None:
            try:
                ws = await self._open(f"match:{match}")
            except Exception as exc:
                errors[f"{type(exc).__name__}: {str(exc)[:80]}"] += 1
                return
            task = asyncio.get_running_loop().create_task(self._read(ws, self.seen[match]))
            self.watchers.append((ws, task))

        await asyncio.gather(*(one(m) for m in matches))
        return {"open": len(self.watchers), "errors": errors}

    async def _read(self, ws: Any, sink: list[tuple[tuple[int, ...], float | None, float]]) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in ws:
                now = time.time() * 1000.0
                message = json.loads(raw)
                if message.get("t") == "event":
                    # A replayed event (read back from the log after a gap) has no
                    # sent_at; its log row's time ("at", before the commit) stands in.
                    sent_at = message.get("sent_at")
                    if sent_at is None:
                        self.other["replayed"] += 1
                        sent_at = message.get("at")
                    sink.append((tuple(message["pos"]), sent_at, now))
                else:
                    self.other[str(message.get("t"))] += 1
        except ConnectionClosed:
            self.other["closed by the server"] += 1

    async def do_collect(
        self, arg: tuple[dict[int, set[tuple[int, ...]]], float]
    ) -> dict[str, Any]:
        """Wait until every expected position arrived or the deadline (wall clock) passed;
        close the watchers; what each received."""
        expected, deadline = arg
        while time.time() < deadline:
            if all(
                wanted <= {pos for pos, _, _ in self.seen.get(match, [])}
                for match, wanted in expected.items()
            ):
                break
            await asyncio.sleep(0.05)
        waited_ms = (time.time() - (deadline - LOST_AFTER)) * 1000.0
        watchers, self.watchers = self.watchers, []
        for _, task in watchers:
            task.cancel()
        await self._close([ws for ws, _ in watchers])
        return {"seen": self.seen, "other": self.other, "waited_ms": waited_ms}

    @staticmethod
    async def _close(sockets: list[Any]) -> None:
        async def close(ws: Any) -> None:
            with contextlib.suppress(Exception):
                await ws.close()

        # A few at a time: each close is a group_discard in the server, and a burst of
        # more than 100 at once overflows the Redis pool of the channel layer there.
        for i in range(0, len(sockets), CLOSE_BATCH):
            await asyncio.gather(*(close(ws) for ws in sockets[i : i + CLOSE_BATCH]))


def socket_process(conn: Any, url: str, origin: str, compression: str | None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C...
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # ...and ends a late one with SIGTERM
    asyncio.run(SocketHost(conn, url, origin, compression).serve())


class SocketProcess:
    """The parent's handle on a :class:`SocketHost` process."""

    def __init__(self, url: str, origin: str, compression: str | None) -> None:
        context = multiprocessing.get_context("fork")
        self.conn, child = context.Pipe()
        self.process = context.Process(
            target=socket_process, args=(child, url, origin, compression), daemon=True
        )
        self.process.start()
        child.close()

    @property
    def pid(self) -> int:
        assert self.process.pid is not None
        return self.process.pid

    def call(self, command: str, arg: Any = None, timeout: float = 150.0) -> Any:
        self.conn.send((command, arg))
        if not self.conn.poll(timeout):
            raise SystemExit(f"the socket process did not answer {command!r} in {timeout:.0f} s")
        return self.conn.recv()

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.send(("stop", None))
        self.process.join(10)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(5)
