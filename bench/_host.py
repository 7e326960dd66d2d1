"""What the benchmarks share about this machine: re-running under the project's
virtualenv, free ports, the benchmark database, and CPU accounting from ``/proc``.

Imported by the benchmarks (``bench/moves.py``, ``bench/clocks.py``, ``bench/capacity.py``,
...; run as scripts, so this folder is on ``sys.path``)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class RunLimitExceeded(Exception):
    """The run went on past its overall limit (:func:`start_run`)."""


CLK_TCK = os.sysconf("SC_CLK_TCK")


def ensure_venv(script: str, marker: str) -> None:
    """Re-run ``script`` under the project's virtualenv when started with another Python
    (the plain ``python`` may lack Django, Celery and psycopg). ``marker`` names the
    environment variable that stops a second re-run."""
    venv = ROOT / ".venv"
    python = venv / "bin" / "python"
    if os.environ.get(marker) or not python.exists():
        return
    if Path(sys.prefix).resolve() == venv.resolve():
        return
    os.environ[marker] = "1"
    os.execv(python, [str(python), str(Path(script).resolve()), *sys.argv[1:]])  # noqa: S606


def free_port(host: str) -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


# ====================================================================== database
def database_recreate(admin_dsn: str, name: str) -> None:
    import psycopg

    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")


def database_drop(admin_dsn: str, name: str) -> None:
    import psycopg

    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


# ====================================================================== CPU accounting
#: One process of :func:`proc_table`: (pid, comm, ppid, own ticks, reaped children's ticks).
ProcRow = tuple[int, str, int, int, int]


def proc_table() -> list[ProcRow]:
    """(pid, comm, ppid, utime + stime, cutime + cstime) of every process, in ticks (the
    last: its children that exited and were waited for)."""
    rows = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                raw = f.read().decode(errors="replace")
        except OSError:
            continue
        comm = raw[raw.index("(") + 1 : raw.rindex(")")]
        fields = raw[raw.rindex(")") + 2 :].split()
        own = int(fields[11]) + int(fields[12])
        rows.append((int(entry), comm, int(fields[1]), own, int(fields[13]) + int(fields[14])))
    return rows


def serves_database(pid: int, name: str) -> bool:
    """A PostgreSQL backend connected to database ``name`` (its title names it)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f" {name} ".encode() in f.read()
    except OSError:
        return False


def machine_ticks() -> tuple[int, int, int]:
    """(busy, stolen, total) ticks of all CPUs; stolen = taken by the hypervisor."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    total = sum(values[:8])
    idle = values[3] + values[4]
    return total - idle, values[7], total


def machine_busy(seconds: float = 1.0) -> float:
    """Cores busy on the whole machine over ``seconds`` (others' load before a run)."""
    busy0, _, total0 = machine_ticks()
    time.sleep(seconds)
    busy1, _, total1 = machine_ticks()
    return (os.cpu_count() or 1) * (busy1 - busy0) / max(1, total1 - total0)


def warn_if_busy() -> None:
    """Say so when other load on this machine would slow a benchmark's figures."""
    busy = machine_busy()
    if busy > 0.25:
        print(
            f"warning: {busy:.2f} of {os.cpu_count()} cores were busy before the run started:"
            " other load on this machine slows the figures down",
            flush=True,
        )


def database_backends(table: list[ProcRow], name: str) -> dict[int, int]:
    """Ticks of the live PostgreSQL backends connected to database ``name``."""
    return {
        pid: ticks
        for pid, comm, _, ticks, _ in table
        if comm.startswith("postgres") and serves_database(pid, name)
    }


def tree_ticks(table: list[ProcRow], root: int | None) -> dict[int, int]:
    """Ticks of ``root`` and all its descendants."""
    if root is None:
        return {}
    members = {root}
    grew = True
    while grew:
        grew = False
        for pid, _, ppid, _, _ in table:
            if ppid in members and pid not in members:
                members.add(pid)
                grew = True
    return {pid: ticks for pid, _, _, ticks, _ in table if pid in members}


#: How a benchmark picks its groups of processes from :func:`proc_table`.
Groups = Callable[[list[ProcRow]], dict[str, dict[int, int]]]


@dataclass
class CpuSample:
    """CPU ticks at one moment: of named groups of processes (``{name: {pid: ticks}}``,
    chosen by the benchmark from :func:`proc_table`) and of the whole machine."""

    groups: dict[str, dict[int, int]]
    busy: int
    steal: int
    total: int

    @classmethod
    def take(cls, groups: Groups) -> CpuSample:
        busy, steal, total = machine_ticks()
        return cls(groups(proc_table()), busy, steal, total)

    def cores_since(self, before: CpuSample, seconds: float) -> dict[str, float]:
        """Cores each group used since ``before``, and the whole machine's busy and stolen
        cores (``machine``, ``steal``)."""

        def delta(now: dict[int, int], then: dict[int, int]) -> float:
            ticks = sum(t - then.get(pid, 0) for pid, t in now.items())
            return ticks / CLK_TCK / seconds

        cpus = os.cpu_count() or 1
        total = self.total - before.total
        cores = {
            name: delta(pids, before.groups.get(name, {})) for name, pids in self.groups.items()
        }
        cores["machine"] = cpus * (self.busy - before.busy) / total if total else 0.0
        cores["steal"] = cpus * (self.steal - before.steal) / total if total else 0.0
        return cores


def start_run(limit: int, *, load_effect: str) -> float:
    """Begin a benchmark run: stop it with :class:`RunLimitExceeded` after ``limit``
    seconds; let Ctrl-C (even when started in the background, where SIGINT comes ignored)
    and SIGTERM stop it cleanly through the caller's ``finally`` clauses; warn when the
    machine was busy before the run (``load_effect``: what that does to the figures).
    Returns the run's start (``time.monotonic()``)."""

    def on_alarm(signum: int, frame: object) -> None:
        raise RunLimitExceeded(f"the run took longer than {limit} s")

    signal.signal(signal.SIGALRM, on_alarm)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    signal.alarm(limit)
    began = time.monotonic()
    idle_check = machine_busy()
    if idle_check > 0.25:
        print(
            f"warning: {idle_check:.2f} of {os.cpu_count()} cores were busy before the run"
            f" started: other load on this machine {load_effect}",
            flush=True,
        )
    return began


#: The project's root (the bench scripts import it as Django's code).
ROOT = Path(__file__).resolve().parent.parent
#: The superuser's maintenance database, for creating and dropping a bench database.
PG_ADMIN_DSN = "postgresql://postgres@127.0.0.1:5432/postgres"


def django_setup(db_name: str) -> None:
    """Django on the bench database ``db_name`` (PostgreSQL on 127.0.0.1) with the test
    settings: the production ones need collected static files to render a page; the
    database and the code path are the same."""
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{db_name}",
            "REDIS_URL": "redis://127.0.0.1:6379/14",
        }
    )
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


@contextlib.contextmanager
def django_bench_database(db_name: str, *, keep: bool = False) -> Iterator[None]:
    """A fresh bench database ``db_name`` with Django set up on it (:func:`django_setup`);
    dropped afterwards unless ``keep``, whatever the bench raised."""
    database_recreate(PG_ADMIN_DSN, db_name)
    try:
        django_setup(db_name)
        yield
    finally:
        if not keep:
            from django.db import connections

            connections.close_all()
            database_drop(PG_ADMIN_DSN, db_name)
