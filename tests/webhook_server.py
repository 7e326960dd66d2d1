"""A real HTTP server on 127.0.0.1 (a free port, a thread) that records the webhook
posts it receives and answers with scripted statuses."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    raw: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.raw)


@dataclass
class WebhookServer:
    url: str
    #: Statuses to answer with, in turn; once used up, every answer is ``default``.
    statuses: list[int] = field(default_factory=list)
    default: int = 200
    received: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def next_status(self) -> int:
        with self.lock:
            return self.statuses.pop(0) if self.statuses else self.default


@contextmanager
def webhook_server(statuses: list[int] | None = None) -> Iterator[WebhookServer]:
    state: WebhookServer

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with state.lock:
                state.received.append(Received(self.path, dict(self.headers.items()), raw))
            status = state.next_status()
            body = b"ok" if status < 400 else b"no, thank you"
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # quiet test output

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state = WebhookServer(url=f"http://127.0.0.1:{server.server_port}/hook")
    state.statuses = list(statuses or [])
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
