"""Publishing to the channel layer, after commit.

Services call :func:`publish_events` (a versioned topic's events) and :func:`touch` (an
unversioned topic changed). Both wait for the current transaction to commit
(``transaction.on_commit``; outside a transaction that is at once), then send:

* to channels_redis's pub/sub layer (production, the tests) with one synchronous
  ``PUBLISH`` from the committing thread (:class:`_PubSubDirect`, which says why);
* to any other layer through this process's *publisher*, one asyncio event loop that
  sends the messages in the order they were handed over. For the in-memory layer of the
  one-command run that loop is the ASGI server's own (it registers itself,
  :func:`serve_loop`), whose queues belong to it; otherwise a daemon thread started on
  first use, so that the layer's connections live as long as the process (calling the
  layer through ``async_to_sync`` would open a new event loop, and connection, for every
  message). The publisher coalesces ``touch``: a topic already waiting to be sent is not
  queued again.

The page's client coalesces what it receives too (static/games/live.js), so a
director's burst of twenty results costs each open wall a fetch or two, not twenty.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import os
import threading
import time
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import transaction

from games.live.topics import Event, topic_group

log = logging.getLogger(__name__)

#: Seconds a process that exits waits for its last messages to be sent.
EXIT_FLUSH_SECONDS = 2.0


def enabled() -> bool:
    return bool(getattr(settings, "LIVE_PUBLISH", True))


def publish_events(topic: str, events: Sequence[Event]) -> None:
    """Send ``events`` (dicts with ``pos`` and ``prev``) of versioned ``topic`` to its
    followers once the current transaction commits."""
    if not events or not enabled():
        return
    group = topic_group(topic)
    items = [dict(e, topic=topic) for e in events]

    def send() -> None:
        now = time.time() * 1000
        for item in items:
            item["sent_at"] = now  # commit time, for the latency bench/live.py measures
            _send(group, {"type": "live.event", "event": item}, coalesce=False)

    transaction.on_commit(send)


def touch(*topics: str) -> None:
    """Tell the followers of each of ``topics`` that it changed, once the current
    transaction commits."""
    if not topics or not enabled():
        return
    wanted = tuple(dict.fromkeys(topics))

    def send() -> None:
        for topic in wanted:
            _send(topic_group(topic), {"type": "live.changed", "topic": topic}, coalesce=True)

    transaction.on_commit(send)


def _send(group: str, message: dict[str, Any], *, coalesce: bool) -> None:
    if _PUBSUB.usable():
        _PUBSUB.publish(group, message)
    else:
        _PUBLISHER.put(group, message, coalesce=coalesce)


class _PubSubDirect:
    """channels_redis's pub/sub layer, published to without an event loop.

    Its ``group_send`` is one ``PUBLISH`` of the serialized message on the group's
    channel; a synchronous Redis connection does the same from the request's thread for
    about a tenth of a millisecond, where handing the message to an event loop in
    another thread cost the web worker 1.5 ms of CPU per move, the two threads taking
    turns at the GIL (bench/live.py: push on 0.72 to 0.86 of the move rate with the push
    off). The command goes straight down a redis-py ``Connection`` of this thread (made
    as the URL's connection pool makes one: its address, password, database and TLS): the client
    object's pool, retries and instrumentation around one command were two thirds of its
    CPU (0.29 ms of a move's 5.5 ms in-process profile, bench/README.md). The channel's
    name follows the layer's own ``_get_group_channel_name``
    (``<prefix>__group__<group>``); the tests in tests/games/live receive through the real layer,
    so a release that renames it fails them. A Redis that does not answer loses the
    message, never the request: the followers' replay finds the event in the log, and the
    next message connects again."""

    BACKEND = "channels_redis.pubsub.RedisPubSubChannelLayer"

    def __init__(self) -> None:
        self._pool: Any = None
        self._pid = 0
        self._layer: Any = None
        self._prefix = ""
        self._local = threading.local()  # a Connection is one thread's at a time

    def usable(self) -> bool:
        config = (getattr(settings, "CHANNEL_LAYERS", {}) or {}).get("default", {})
        return config.get("BACKEND") == self.BACKEND

    def _connection(self) -> Any:
        if self._pool is None or self._pid != os.getpid():
            import redis
            from channels.layers import get_channel_layer

            config = settings.CHANNEL_LAYERS["default"].get("CONFIG", {})
            (host,) = config["hosts"]
            url = host if isinstance(host, str) else host["address"]
            self._pool = redis.ConnectionPool.from_url(
                url, socket_timeout=1.0, socket_connect_timeout=1.0
            )
            self._prefix = config.get("prefix", "asgi")
            self._layer = get_channel_layer()
            self._local = threading.local()  # a forked child connects anew
            self._pid = os.getpid()
        conn = getattr(self._local, "connection", None)
        if conn is None:
            # Made as the pool would make it, but not counted by the pool: a connection
            # of the pool is never given back here, and a server that starts a thread
            # per request (the live test server, runserver) would reach the pool's
            # max_connections ("Too many connections"). This one closes its socket when
            # its thread ends and the thread's locals go.
            conn = self._local.connection = self._pool.connection_class(
                **self._pool.connection_kwargs
            )
        return conn

    def publish(self, group: str, message: dict[str, Any]) -> None:
        conn = None
        try:
            conn = self._connection()
            # Connects when not connected; the answer (how many received it) is read so
            # that the next command's answer is its own.
            conn.send_command(
                "PUBLISH", f"{self._prefix}__group__{group}", self._layer.serialize(message)
            )
            conn.read_response()
        except Exception:
            if conn is not None:
                conn.disconnect()  # whatever state it was left in: the next connects anew
            log.exception("live: could not publish to %s", group)


_PUBSUB = _PubSubDirect()


def serve_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Called by the ASGI application (``config.asgi``) in the server's event loop. With
    the in-memory layer (the one-command run) this process publishes from that loop from
    now on: its queues belong to it. Any other layer is left to the publisher's own
    thread, which also outlives the short loops of tests' WebSocket clients."""
    if _in_memory_layer():
        _PUBLISHER.use_loop(loop)


def _in_memory_layer() -> bool:
    layers = getattr(settings, "CHANNEL_LAYERS", {}) or {}
    return str(layers.get("default", {}).get("BACKEND", "")).endswith("InMemoryChannelLayer")


def flush(timeout: float = EXIT_FLUSH_SECONDS) -> bool:
    """Wait until everything handed over so far was sent (tests, exiting processes)."""
    return _PUBLISHER.flush(timeout)


class _Publisher:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queue: asyncio.Queue[tuple[str, dict[str, Any]]] | None = None
        self._pid = 0
        self._waiting: set[str] = set()  # coalesced groups queued and not yet sent
        self._unsent = 0
        self._idle = threading.Condition(self._lock)

    # ---------------------------------------------------------------- the loop
    def use_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        with self._lock:
            if self._loop is loop and self._pid == os.getpid():
                return
            self._start_in(loop)

    def _start_in(self, loop: asyncio.AbstractEventLoop) -> None:
        # Under the lock. Messages still queued on a previous loop are sent from there.
        self._loop = loop
        self._pid = os.getpid()
        ready = threading.Event()

        def start() -> None:
            self._queue = asyncio.Queue()
            loop.create_task(self._drain(self._queue))
            ready.set()

        if _running_loop() is loop:
            start()
        else:
            loop.call_soon_threadsafe(start)
            ready.wait(5)

    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        # Under the lock. A forked child (gunicorn, Celery prefork) starts its own.
        if self._loop is None or self._pid != os.getpid() or self._loop.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="live-publisher", daemon=True).start()
            self._unsent = 0
            self._waiting.clear()
            self._start_in(loop)
        return self._loop  # type: ignore[return-value]

    # ---------------------------------------------------------------- sending
    def put(self, group: str, message: dict[str, Any], *, coalesce: bool) -> None:
        with self._lock:
            if coalesce:
                if group in self._waiting:
                    return
                self._waiting.add(group)
            loop = self._ensure_loop()
            queue = self._queue
            self._unsent += 1
        item = (group, message)
        if _running_loop() is loop:
            queue.put_nowait(item)  # type: ignore[union-attr]
        else:
            loop.call_soon_threadsafe(queue.put_nowait, item)  # type: ignore[union-attr]

    async def _drain(self, queue: asyncio.Queue[tuple[str, dict[str, Any]]]) -> None:
        from channels.layers import get_channel_layer

        layer = get_channel_layer()
        while True:
            group, message = await queue.get()
            if message["type"] == "live.changed":
                with self._lock:
                    self._waiting.discard(group)
            try:
                if layer is not None:
                    await layer.group_send(group, message)
            except Exception:
                # A push that fails is not retried: the follower's next event (a gap)
                # or its reconnect replays what it missed from the database.
                log.exception("live: could not publish to %s", group)
            finally:
                with self._lock:
                    self._unsent -= 1
                    if self._unsent <= 0:
                        self._idle.notify_all()

    def flush(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self._lock:
            if self._pid != os.getpid():
                return True
            while self._unsent > 0:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._idle.wait(left)
        return True


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


_PUBLISHER = _Publisher()
atexit.register(flush)
