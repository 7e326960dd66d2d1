"""The processes bench/clocks.py runs beside its Celery worker and beat, and their
handles: an SMTP sink on 127.0.0.1 that counts the mails (:class:`SmtpSink`), the
listener of the flag trigger's NOTIFY (:class:`FlagListener`) and the Celery processes
themselves (:class:`CeleryProcess`: start, wait until ready, stop, log).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import _host  # bench/_host.py: this folder is on sys.path when run as a script

#: The one address this benchmark sends anything to.
HOST = "127.0.0.1"
DB_NAME = "bench_clocks"
PG_BENCH_DSN = f"postgresql://postgres@{HOST}:5432/{DB_NAME}"
#: The channel of the trigger's NOTIFY for every timeout row (clocks.install_flag_trigger).
NOTIFY_CHANNEL = "bench_flag"


def smtp_sink_main(port: int, conn: Any) -> None:
    """(Child process.) A minimal SMTP server on 127.0.0.1:``port`` that accepts every
    mail and counts them per recipient; on any message from ``conn`` it sends the
    counts back and stops."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    counts: Counter[str] = Counter()

    async def session(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        recipients: list[str] = []
        writer.write(b"220 bench-sink ESMTP\r\n")
        try:
            while line := await reader.readline():
                verb = line[:4].upper()
                if verb in (b"EHLO", b"HELO"):
                    writer.write(b"250-bench-sink\r\n250 8BITMIME\r\n")
                elif verb == b"MAIL":
                    recipients = []
                    writer.write(b"250 OK\r\n")
                elif verb == b"RCPT":
                    address = line.split(b":", 1)[1].strip().strip(b"<>").decode(errors="replace")
                    recipients.append(address.split(">")[0])
                    writer.write(b"250 OK\r\n")
                elif verb == b"DATA":
                    writer.write(b"354 go on\r\n")
                    await writer.drain()
                    while (data := await reader.readline()) and data != b".\r\n":
                        pass
                    counts.update(recipients)
                    writer.write(b"250 OK queued\r\n")
                elif verb == b"QUIT":
                    writer.write(b"221 bye\r\n")
                    break
                else:  # RSET, NOOP, ...
                    writer.write(b"250 OK\r\n")
                await writer.drain()
        except (ConnectionError, IndexError):
            pass
        finally:
            writer.close()

    async def main() -> None:
        loop = asyncio.get_running_loop()
        stop = loop.create_future()
        loop.add_reader(conn.fileno(), lambda: stop.done() or stop.set_result(None))
        server = await asyncio.start_server(session, HOST, port, backlog=512)
        async with server:
            await stop
        conn.recv()
        conn.send(dict(counts))

    asyncio.run(main())


@dataclass
class SmtpSink:
    port: int
    process: Any = None
    conn: Any = None

    def start(self) -> None:
        context = multiprocessing.get_context("fork")
        self.conn, theirs = context.Pipe()
        self.process = context.Process(target=smtp_sink_main, args=(self.port, theirs))
        self.process.start()
        theirs.close()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection((HOST, self.port), 1):
                return
            time.sleep(0.05)
        raise SystemExit("the SMTP sink did not start")

    def stop(self) -> Counter[str]:
        """Stop the sink; the mails it received per recipient."""
        counts: Counter[str] = Counter()
        if self.process is None:
            return counts
        with contextlib.suppress(OSError, EOFError):
            self.conn.send("stop")
            if self.conn.poll(10):
                counts.update(self.conn.recv())
        self.process.join(5)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(5)
        self.process = None
        return counts


# ====================================================================== flag listener
class FlagListener:
    """LISTENs for the trigger's NOTIFYs in a thread: when each game's flag committed."""

    def __init__(self) -> None:
        self.first: dict[int, float] = {}
        self.repeats: Counter[int] = Counter()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._conn: Any = None

    def start(self) -> None:
        import psycopg

        self._conn = psycopg.connect(PG_BENCH_DSN, autocommit=True)
        self._conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
        self._thread = threading.Thread(target=self._run, name="flag-listener", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            for note in self._conn.notifies(timeout=0.25):
                arrived = time.time()
                game_id = int(note.payload)
                if game_id in self.first:
                    self.repeats[game_id] += 1
                else:
                    self.first[game_id] = arrived

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()


# ====================================================================== Celery processes
@dataclass
class CeleryProcess:
    """``celery -A config <args>`` in its own process group, its output in ``log``."""

    args: list[str]
    log: Path
    env: dict[str, str]
    process: subprocess.Popen[bytes] | None = None
    nice: int = 0  # a niceness above 0 runs it through nice(1), which execs: same pid

    def start(self) -> None:
        celery = Path(sys.executable).parent / "celery"
        command = [str(celery)] if celery.exists() else [sys.executable, "-m", "celery"]
        if self.nice:
            command = ["nice", "-n", str(self.nice), *command]
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(  # noqa: S603 (the venv's celery)
                [*command, "-A", "config", *self.args],
                cwd=_host.ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: stopped as a whole
            )
        if self.nice:
            # A new session is a new scheduler autogroup (kernel.sched_autogroup_enabled),
            # and CPU is shared between autogroups by their own niceness, not their
            # processes': without this, nice(1) would change nothing against the clock
            # worker. (A systemd unit gets the same with its own cgroup and CPUWeight.)
            with contextlib.suppress(OSError):
                Path(f"/proc/{self.process.pid}/autogroup").write_text(str(self.nice))

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def wait_for(self, text: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise SystemExit(f"celery {self.args[0]} exited:\n{self.log_tail()}")
            with contextlib.suppress(OSError):
                if text in self.log.read_text(errors="replace"):
                    return
            time.sleep(0.1)
        raise SystemExit(f"celery {self.args[0]} did not say {text!r} in {timeout:.0f} s")

    def stop(self) -> None:
        """Warm shutdown (SIGTERM), then SIGKILL to whatever is left of the group."""
        process = self.process
        if process is None:
            return
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=5)
        # Pool children outlive a killed main process: end what is left of the group.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)

    def log_lines(self) -> list[str]:
        try:
            return self.log.read_text(errors="replace").splitlines()
        except OSError:
            return []

    def log_tail(self, lines: int = 20) -> str:
        return "\n".join(self.log_lines()[-lines:])
