"""The live publish from many short threads (a server that starts a thread per request:
the live test server, runserver): every message goes out, and no thread's connection is
held against a pool's limit (redis-py's pool stops at 100 connections)."""

from __future__ import annotations

import threading
import time

import redis
from django.conf import settings

from games.live.publish import _PUBSUB

THREADS = 150  # more than redis-py's default pool limit of 100


def test_a_thread_per_request_publishes_every_message():
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    channel = f"{config['prefix']}__group__threads.test"
    listener = redis.Redis.from_url(config["hosts"][0]).pubsub()
    listener.subscribe(channel)
    assert listener.get_message(timeout=2)["type"] == "subscribe"
    try:
        for number in range(THREADS):
            thread = threading.Thread(
                target=_PUBSUB.publish, args=("threads.test", {"type": "t", "n": number})
            )
            thread.start()
            thread.join()
        received = 0
        deadline = time.monotonic() + 10
        while received < THREADS and time.monotonic() < deadline:
            if listener.get_message(timeout=1):
                received += 1
        assert received == THREADS
    finally:
        listener.close()
