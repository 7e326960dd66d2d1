"""The production stack as deploy/ runs it, started on loopback for a benchmark.

Each server's command is read from its systemd unit in deploy/systemd (``ExecStart``, with
the unit's ``Environment=`` defaults and ``%i``/``%H`` filled in, the installation's venv
replaced by this checkout's), so a benchmark runs what an installation runs: gunicorn
with deploy/gunicorn.conf.py, uvicorn with the unit's flags, the Celery workers of the
queues the units name, and beat. nginx runs deploy/nginx/backgammon-club.conf with the
values it marks ``# SITE:`` changed for loopback ports (as tests/deploy/test_nginx_recipe.py
does), and for several nodes one ``server`` line per node in each upstream.

Used by bench/capacity.py (run as a script, so this folder is on ``sys.path``).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shlex
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import _host

ROOT = _host.ROOT
DEPLOY = ROOT / "deploy"
HOST = "127.0.0.1"
NGINX = "/usr/sbin/nginx"  # Debian's nginx (`./dev services` installs it)
INSTALL_VENV_BIN = "/srv/backgammon-club/.venv/bin/"


def unit_command(unit: str, **subs: str) -> list[str]:
    """The unit's ExecStart, continuation lines joined, ``${VAR}`` from its
    ``Environment=`` lines, ``%i``/``%H`` from ``subs`` (``i``, ``H``), this checkout's venv."""
    text = (DEPLOY / "systemd" / unit).read_text(encoding="utf-8").replace("\\\n", " ")
    lines = text.splitlines()
    env = {}
    for line in lines:
        if line.startswith("Environment="):
            name, _, value = line.removeprefix("Environment=").partition("=")
            env[name] = value
    exec_line = next(line for line in lines if line.startswith("ExecStart="))
    words = shlex.split(exec_line.removeprefix("ExecStart="))
    out = []
    for word in words:
        word = re.sub(r"\$\{(\w+)\}", lambda m: env[m.group(1)], word)
        for key, value in subs.items():
            word = word.replace(f"%{key}", value)
        out.append(word)
    assert out[0].startswith(INSTALL_VENV_BIN), out
    return [str(Path(sys.executable).parent / out[0].removeprefix(INSTALL_VENV_BIN)), *out[1:]]


@dataclass
class Proc:
    """One server in its own process group, its output in ``log``."""

    name: str
    command: list[str]
    env: dict[str, str]
    log: Path
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(  # noqa: S603 (the venv's servers, nginx)
                self.command,
                cwd=ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL to the whole group at once (a node that dies)."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self, timeout: float = 20.0) -> None:
        """SIGTERM (each server's graceful stop), then SIGKILL to what is left of the group."""
        process = self.process
        if process is None:
            return
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=timeout)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=5)

    def wait_for(self, text: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive():
                raise SystemExit(f"{self.name} exited:\n{self.tail()}")
            with contextlib.suppress(OSError):
                if text in self.log.read_text(errors="replace"):
                    return
            time.sleep(0.2)
        raise SystemExit(f"{self.name} did not say {text!r} in {timeout:.0f} s:\n{self.tail()}")

    def wait_http(self, port: int, timeout: float = 120.0) -> None:
        import http.client

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive():
                raise SystemExit(f"{self.name} exited:\n{self.tail()}")
            with contextlib.suppress(OSError):
                conn = http.client.HTTPConnection(HOST, port, timeout=2)
                conn.request("GET", "/healthz", headers={"Host": HOST})
                if conn.getresponse().status == 200:
                    return
            time.sleep(0.3)
        raise SystemExit(f"{self.name}: /healthz on {port} did not answer in {timeout:.0f} s")

    def tail(self, lines: int = 20) -> str:
        try:
            text = self.log.read_text(errors="replace").splitlines()
        except OSError:
            return ""
        kept = [x for x in text if "No directory at:" not in x and "mw_instance" not in x]
        return "\n".join(kept[-lines:])


@dataclass
class Node:
    """One web node: gunicorn (pages, API) and uvicorn (the sockets), each on its port."""

    number: int
    gunicorn: Proc
    uvicorn: Proc
    http_port: int
    ws_port: int

    @property
    def procs(self) -> list[Proc]:
        return [self.gunicorn, self.uvicorn]


def web_node(number: int, env: dict[str, str], logs: Path, workers: int | None) -> Node:
    http_port, ws_port = _host.free_port(HOST), _host.free_port(HOST)
    genv = env | {"GUNICORN_CMD_ARGS": f"--bind {HOST}:{http_port}"}
    if workers:
        genv["WEB_CONCURRENCY"] = str(workers)
    gunicorn = Proc(
        f"gunicorn-{number}",
        unit_command("backgammon-club-gunicorn.service"),
        genv,
        logs / f"gunicorn-{number}.log",
    )
    uvicorn = Proc(
        f"uvicorn-{number}",
        unit_command("backgammon-club-uvicorn@.service", i=str(ws_port)),
        env,
        logs / f"uvicorn-{number}.log",
    )
    return Node(number, gunicorn, uvicorn, http_port, ws_port)


def celery_procs(env: dict[str, str], logs: Path) -> list[Proc]:
    """The clock worker (queue celery), the notifications worker (a flag sends notices) and
    beat (the clock sweep every 2 s). The bot and analysis queues have no work here."""
    procs = []
    for unit, name in (
        ("backgammon-club-celery.service", "celery-clock"),
        ("backgammon-club-notifications.service", "celery-notifications"),
    ):
        command = unit_command(unit, H=f"bench-capacity-{os.getpid()}")
        procs.append(Proc(name, command, env, logs / f"{name}.log"))
    beat = unit_command("backgammon-club-beat.service")
    beat = [str(logs / "beat-schedule") if "celerybeat-schedule" in w else w for w in beat]
    procs.append(Proc("celery-beat", beat, env, logs / "celery-beat.log"))
    return procs


@dataclass
class Nginx:
    """Debian's nginx with the shipped site on loopback in a temporary prefix."""

    prefix: Path
    port: int = field(default_factory=lambda: _host.free_port(HOST))
    proc: Proc | None = None

    def site(self, nodes: list[Node]) -> str:
        text = (DEPLOY / "nginx" / "backgammon-club.conf").read_text(encoding="utf-8")
        static = self.prefix / "static"
        static.mkdir(exist_ok=True)
        changes = {
            "listen 80;": f"listen {HOST}:{self.port} backlog=4096;",
            "server 127.0.0.1:8000;": " ".join(f"server {HOST}:{n.http_port};" for n in nodes),
            "server 127.0.0.1:8001;": " ".join(f"server {HOST}:{n.ws_port};" for n in nodes),
            "alias /srv/backgammon-club/staticfiles/;": f"alias {static}/;",
        }
        for old, new in changes.items():
            (line,) = [x for x in text.splitlines() if old in x]
            assert "# SITE:" in line, old
            text = text.replace(old, new)
        # Bench only: which node a socket landed on (the upstream's address), so that the
        # run can count every event on the sockets of both nodes.
        marker = "proxy_pass http://backgammon_club_ws;"
        assert text.count(marker) == 1
        return text.replace(
            marker, marker + "\n        add_header X-Bench-Upstream $upstream_addr always;"
        )

    def configure(self, nodes: list[Node]) -> list[str]:
        """Write the site and a main nginx.conf into the prefix; the command that runs them."""
        p = self.prefix
        site = p / "backgammon-club.conf"
        site.write_text(self.site(nodes))
        user = pwd.getpwuid(os.geteuid()).pw_name
        temp = "\n".join(
            f"    {k}_temp_path {p / k};" for k in ("client_body", "proxy", "fastcgi", "uwsgi")
        )
        # Debian's nginx.conf less what needs root; worker_connections raised as the site's
        # comment says a big club must (each live socket counts twice).
        (p / "nginx.conf").write_text(
            f"daemon off;\nworker_processes auto;\nuser {user};\npid {p / 'nginx.pid'};\n"
            f"error_log {p / 'error.log'} warn;\nworker_rlimit_nofile 65536;\n"
            "events { worker_connections 16384; }\nhttp {\n    sendfile on;\n"
            "    tcp_nopush on;\n    types_hash_max_size 2048;\n"
            "    include /etc/nginx/mime.types;\n    default_type application/octet-stream;\n"
            f"    access_log off;\n    gzip on;\n{temp}\n    scgi_temp_path {p / 'scgi'};\n"
            f"    include {site};\n}}\n"
        )
        return [NGINX, "-p", str(p), "-c", str(p / "nginx.conf"), "-e", str(p / "error.log")]

    def start(self, nodes: list[Node], env: dict[str, str]) -> None:
        command = self.configure(nodes)
        tested = subprocess.run(  # noqa: S603
            [*command, "-t"], capture_output=True, text=True, check=False
        )
        if tested.returncode != 0:
            raise SystemExit(f"nginx -t failed:\n{tested.stderr}")
        self.proc = Proc("nginx", command, env, self.prefix / "nginx.out")
        self.proc.start()
        self.proc.wait_http(self.port)
