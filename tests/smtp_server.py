"""A real SMTP server on 127.0.0.1 (a free port, a thread) that records the sessions and
messages it receives, and can hang up after a number of messages, as servers with an
idle or per-session limit do, or answer "try again later" to the first senders, as a
busy or greylisting server does."""

from __future__ import annotations

import socketserver
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass
class SmtpServer:
    port: int = 0
    #: Close the session after this many messages (``None``: never).
    hang_up_after: int | None = None
    #: Answer this many ``MAIL FROM`` with ``451`` (a transient refusal) before accepting.
    refuse_first: int = 0
    refused: int = 0
    sessions: int = 0
    messages: list[tuple[list[str], bytes]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


@contextmanager
def smtp_server(*, hang_up_after: int | None = None, refuse_first: int = 0) -> Iterator[SmtpServer]:
    state = SmtpServer(hang_up_after=hang_up_after, refuse_first=refuse_first)

    class Session(socketserver.StreamRequestHandler):
        def handle(self) -> None:
            with state.lock:
                state.sessions += 1
            self.wfile.write(b"220 test-smtp ESMTP\r\n")
            recipients: list[str] = []
            sent = 0
            while line := self.rfile.readline():
                verb = line[:4].upper()
                if verb in (b"EHLO", b"HELO"):
                    self.wfile.write(b"250-test-smtp\r\n250 8BITMIME\r\n")
                elif verb == b"MAIL":
                    recipients = []
                    with state.lock:
                        refuse = state.refused < state.refuse_first
                        state.refused += refuse
                    if refuse:
                        self.wfile.write(b"451 4.3.0 try again later\r\n")
                    else:
                        self.wfile.write(b"250 OK\r\n")
                elif verb == b"RCPT":
                    recipients.append(line.split(b":", 1)[1].strip().strip(b"<>").decode())
                    self.wfile.write(b"250 OK\r\n")
                elif verb == b"DATA":
                    self.wfile.write(b"354 go on\r\n")
                    body = b""
                    while (data := self.rfile.readline()) and data != b".\r\n":
                        body += data
                    with state.lock:
                        state.messages.append((recipients, body))
                    self.wfile.write(b"250 OK queued\r\n")
                    sent += 1
                    if state.hang_up_after is not None and sent >= state.hang_up_after:
                        return  # the server hangs up without a word
                elif verb == b"QUIT":
                    self.wfile.write(b"221 bye\r\n")
                    return
                else:
                    self.wfile.write(b"250 OK\r\n")

    class Server(socketserver.ThreadingTCPServer):
        daemon_threads = True
        allow_reuse_address = True

    server = Server(("127.0.0.1", 0), Session)
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
