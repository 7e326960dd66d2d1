"""What the benchmarks share about this machine: re-running under the project's
virtualenv, free ports, the benchmark database, and CPU accounting from ``/proc``.

Imported by ``bench/moves.py`` and ``bench/clocks.py`` (run as scripts, so this folder
is on ``sys.path``)."""

from __future__ import annotations

import os
import socket
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
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
def proc_table() -> list[tuple[int, str, int, int, int]]:
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
