"""Fixtures of the live tests: WebSocket clients of the real ASGI application
(``config.asgi``) on the real Redis channel layer (``config.settings.test``).

Each test runs its async part with ``run(coro)``; the consumer reads the database from
its own thread, so the tests use ``django_db(transaction=True)``."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from asgiref.sync import async_to_sync

#: Seconds a test waits for a message that should come.
WAIT = 5.0


def run(coro: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    return async_to_sync(coro)()


class Socket:
    """One WebSocket client of ``/ws/live/`` (channels' WebsocketCommunicator)."""

    def __init__(self, user: Any = None, language: str = "") -> None:
        from channels.testing import WebsocketCommunicator

        from config.asgi import application

        headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
        if language:
            headers.append((b"cookie", f"django_language={language}".encode()))
        self.communicator = WebsocketCommunicator(application, "/ws/live/", headers=headers)
        if user is not None:
            self.communicator.scope["user"] = user

    async def open(self) -> Socket:
        # WAIT, not the communicator's default of 1 s: on a busy machine (a parallel run
        # on two cores) opening took longer than that and failed a test that was right.
        connected, _ = await self.communicator.connect(timeout=WAIT)
        assert connected
        return self

    async def send(self, **message: Any) -> None:
        await self.communicator.send_to(text_data=json.dumps(message))

    async def receive(self, timeout: float = WAIT) -> dict[str, Any]:
        return json.loads(await self.communicator.receive_from(timeout=timeout))

    async def nothing(self, timeout: float = 0.3) -> bool:
        return await self.communicator.receive_nothing(timeout=timeout)

    async def until(self, t: str, timeout: float = WAIT) -> dict[str, Any]:
        """The next message of type ``t`` (others before it are skipped)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            message = await self.receive(max(0.01, end - loop.time()))
            if message["t"] == t:
                return message

    async def close(self) -> None:
        await self.communicator.disconnect()


@pytest.fixture
def socket() -> Callable[..., Socket]:
    return Socket
