"""The production recipe, run (issue 30): Debian's nginx with the shipped site
(deploy/nginx/backgammon-club.conf) on loopback, in front of gunicorn and uvicorn started
as their systemd units start them (deploy/systemd), with the production settings
against the test database and Redis.

It checks a page, the API, a static file served by nginx, a WebSocket watch that gets
the push of an action made through the API, and the probe's finding: five clients that
send a declared body at one byte a second no longer keep ``/healthz`` from answering.
The same five sent straight to gunicorn still do, which shows what nginx is for and that
this test can fail.

What differs from an installation, and only that: the site's ports, the static files'
directory (the lines the site file marks ``# SITE:``), plain HTTP (TLS is the host's,
so SECURE_SSL_REDIRECT is off) and collectstatic's storage (Django's manifest storage
without WhiteNoise's compression, which takes a minute on this machine and changes no
file name).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import pwd
import re
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import override_settings
from websockets.sync.client import connect as ws_connect

from games.engine.actions import state_from_dict
from games.engine.position import position_id
from games.play import services
from games.play.dice import ScriptedDice
from tests.factories import UserPlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
NGINX = "/usr/sbin/nginx"  # Debian's nginx (`./dev services` installs it)
INSTALL_VENV_BIN = "/srv/backgammon-club/.venv/bin/"
HOST = "127.0.0.1"
#: gunicorn's sync workers, as README's 2-core machine runs them; as many slow clients.
WORKERS = 5
#: Seconds /healthz may take while the slow clients trickle (it takes milliseconds).
HEALTHZ_WITHIN = 2.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _exec_start(unit: str) -> list[str]:
    """The unit's ExecStart command, its continuation lines joined."""
    text = (DEPLOY / "systemd" / unit).read_text(encoding="utf-8").replace("\\\n", " ")
    line = next(line for line in text.splitlines() if line.startswith("ExecStart="))
    return shlex.split(line.removeprefix("ExecStart="))


def _from_venv(command: list[str]) -> list[str]:
    """The unit's command with this checkout's venv instead of the installation's."""
    assert command[0].startswith(INSTALL_VENV_BIN), command
    program = Path(sys.executable).parent / command[0].removeprefix(INSTALL_VENV_BIN)
    return [str(program), *command[1:]]


def _site_on_loopback(*, nginx: int, gunicorn: int, uvicorn: int, static: Path) -> str:
    """The shipped site with its marked values changed for loopback, and nothing else."""
    text = (DEPLOY / "nginx" / "backgammon-club.conf").read_text(encoding="utf-8")
    changes = {
        "listen 80;": f"listen {HOST}:{nginx};",
        "server 127.0.0.1:8000;": f"server {HOST}:{gunicorn};",
        "server 127.0.0.1:8001;": f"server {HOST}:{uvicorn};",
        "alias /srv/backgammon-club/staticfiles/;": f"alias {static}/;",
    }
    for old, new in changes.items():
        assert text.count(old) == 1, f"the site file should have one {old!r}"
        (line,) = [line for line in text.splitlines() if old in line]
        assert "# SITE:" in line, f"{old!r} should be marked as the installation's value"
        text = text.replace(old, new)
    return text


def _nginx_conf(prefix: Path, site: Path) -> str:
    """A main nginx.conf in a temporary prefix: Debian's, less what needs root."""
    user = pwd.getpwuid(os.geteuid()).pw_name  # ignored (a warning) unless run as root
    temp = "\n".join(
        f"    {kind}_temp_path {prefix / kind};" for kind in ("client_body", "proxy", "fastcgi")
    )
    return f"""daemon off;
worker_processes 1;
user {user};
pid {prefix / "nginx.pid"};
error_log {prefix / "error.log"} warn;
events {{ worker_connections 256; }}
http {{
    sendfile on;
    tcp_nopush on;
    types_hash_max_size 2048;
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log {prefix / "access.log"};
    gzip on;
{temp}
    uwsgi_temp_path {prefix / "uwsgi"};
    scgi_temp_path {prefix / "scgi"};
    include {site};
}}
"""


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> object:
        return json.loads(self.body)


def _request(
    port: int,
    method: str,
    path: str,
    *,
    body: object = None,
    token: str = "",
    timeout: float = 10.0,
) -> Answer:
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    headers = {"Accept-Language": "en"}
    if token:
        headers["Authorization"] = f"Token {token}"
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    try:
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        return Answer(
            response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        )
    finally:
        conn.close()


class SlowClients:
    """``count`` authenticated POSTs that declare a body of ``length`` bytes and send it
    one byte a second (the probe's attack), until closed."""

    def __init__(self, port: int, path: str, token: str, count: int = WORKERS, length: int = 300):
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nAuthorization: Token {token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n"
        ).encode()
        self.sockets = [socket.create_connection((HOST, port), timeout=5) for _ in range(count)]
        for s in self.sockets:
            s.sendall(head)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._trickle, daemon=True)
        self.thread.start()

    def _trickle(self) -> None:
        while not self.stop.wait(1.0):
            for s in self.sockets:
                with contextlib.suppress(OSError):
                    s.sendall(b" ")  # JSON whitespace: a body that is never finished

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        for s in self.sockets:
            s.close()


class Processes:
    """The servers this test starts, each in its own process group; all stopped at the end."""

    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.started: list[tuple[str, subprocess.Popen[bytes]]] = []

    def start(self, name: str, command: list[str], env: dict[str, str]) -> None:
        with (self.logs / f"{name}.log").open("wb") as log:
            process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.started.append((name, process))

    def check_running(self) -> None:
        for name, process in self.started:
            assert process.poll() is None, f"{name} exited:\n{self.log(name)}"

    def log(self, name: str) -> str:
        return (self.logs / f"{name}.log").read_text(errors="replace")[-4000:]

    def stop(self) -> None:
        for _name, process in reversed(self.started):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for _name, process in reversed(self.started):
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(5)


@pytest.fixture
def processes(tmp_path: Path) -> Iterator[Processes]:
    running = Processes(tmp_path)
    try:
        yield running
    finally:
        running.stop()


def _server_env(static: Path) -> dict[str, str]:
    """The production settings (config.settings.production) against the test database
    and the test Redis; the values an operator writes in the environment file."""
    db = connection.settings_dict
    from django.conf import settings

    keep = {"PATH", "HOME", "LANG", "LC_ALL", "TMPDIR"}
    return {k: v for k, v in os.environ.items() if k in keep} | {
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": "deploy-test-4Jq9sV2mX7cT1wN8bR5kH3pL6yF0gD_aZ-eU9iO2rT4yU6iO8pA1",
        "ALLOWED_HOSTS": HOST,
        "DATABASE_URL": (
            f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
        ),
        "REDIS_URL": settings.REDIS_URL,
        "SITE_URL": f"http://{HOST}",
        "DEFAULT_FROM_EMAIL": "club@example.org",
        "EMAIL_HOST": HOST,
        "STATIC_ROOT": str(static),
        # nginx here speaks plain HTTP; TLS is the host's (the site file says how).
        "SECURE_SSL_REDIRECT": "false",
        "WEB_CONCURRENCY": str(WORKERS),
    }


def _collect_static(static: Path) -> None:
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    with override_settings(STATIC_ROOT=str(static), STORAGES=storages):
        call_command("collectstatic", "--noinput", verbosity=0)


def _wait_until(what: str, ready, processes: Processes, seconds: float = 45.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        processes.check_running()
        try:
            if ready():
                return
        except OSError:
            pass
        time.sleep(0.3)
    pytest.fail(f"{what} did not come up in {seconds:.0f} s")


def _started_match():
    p1, p2 = UserPlayerFactory(), UserPlayerFactory()
    from rest_framework.authtoken.models import Token

    tokens = [Token.objects.create(user=p.user).key for p in (p1, p2)]
    match = services.match_create(player1=p1, player2=p2, length=3)
    game = services.match_start(match_id=match.pk, dice=ScriptedDice((3, 1)))
    return match, game, tokens


def test_nginx_site_serves_pages_api_sockets_and_static_and_holds_slow_bodies(
    tmp_path: Path, processes: Processes
) -> None:
    assert Path(NGINX).exists(), "Debian's nginx is missing: ./dev services installs it"
    match, game, tokens = _started_match()
    static = tmp_path / "static"
    _collect_static(static)
    ports = {"nginx": _free_port(), "gunicorn": _free_port(), "uvicorn": _free_port()}
    env = _server_env(static)

    gunicorn = _from_venv(_exec_start("backgammon-club-gunicorn.service"))
    processes.start(
        "gunicorn", gunicorn, env | {"GUNICORN_CMD_ARGS": f"--bind {HOST}:{ports['gunicorn']}"}
    )
    uvicorn = [
        str(ports["uvicorn"]) if word == "%i" else word
        for word in _from_venv(_exec_start("backgammon-club-uvicorn@.service"))
    ]
    processes.start("uvicorn", uvicorn, env)

    prefix = tmp_path / "nginx"
    prefix.mkdir()
    site = prefix / "backgammon-club.conf"
    site.write_text(
        _site_on_loopback(
            nginx=ports["nginx"],
            gunicorn=ports["gunicorn"],
            uvicorn=ports["uvicorn"],
            static=static,
        )
    )
    conf = prefix / "nginx.conf"
    conf.write_text(_nginx_conf(prefix, site))
    nginx = [NGINX, "-p", str(prefix), "-c", str(conf), "-e", str(prefix / "error.log")]
    tested = subprocess.run([*nginx, "-t"], capture_output=True, text=True, check=False)
    assert tested.returncode == 0, tested.stderr
    processes.start("nginx", nginx, env)

    _wait_until(
        "gunicorn behind nginx",
        lambda: _request(ports["nginx"], "GET", "/healthz", timeout=2).status == 200,
        processes,
    )
    _wait_until(
        "uvicorn",
        lambda: _request(ports["uvicorn"], "GET", "/healthz", timeout=2).status == 200,
        processes,
    )
    port = ports["nginx"]

    # A page, rendered by the production settings.
    page = _request(port, "GET", "/")
    assert page.status == 200, page.body[:500]
    assert page.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    html = page.body.decode()

    # A static file the page names (hashed by collectstatic), served by nginx itself.
    found = re.search(r'/static/[^"]+\.[0-9a-f]{12}\.(?:css|js)', html)
    assert found, "the page names no hashed static file"
    asset = _request(port, "GET", found.group(0))
    assert asset.status == 200
    assert asset.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert asset.body == (static / found.group(0).removeprefix("/static/")).read_bytes()

    # The API, with a token.
    me = _request(port, "GET", "/api/v1/me/", token=tokens[0])
    assert me.status == 200, me.body[:500]
    assert me.headers["content-type"] == "application/json"
    assert isinstance(me.json(), dict)

    # A WebSocket watch through nginx: the watching frame, then the push of a play that
    # gunicorn commits (through Redis to uvicorn, through nginx to the socket).
    state = state_from_dict(game.state)
    mover = tokens[state.player_to_act]
    play = state.legal_plays()[0]
    with ws_connect(
        f"ws://{HOST}:{port}/ws/live/", origin=f"http://{HOST}:{port}", open_timeout=10
    ) as ws:
        topic = f"match:{match.pk}"
        ws.send(json.dumps({"op": "watch", "topic": topic, "since": [1, game.version]}))
        watching = json.loads(ws.recv(timeout=10))
        assert watching == {"t": "watching", "topic": topic, "pos": [1, game.version]}
        acted = _request(
            port,
            "POST",
            f"/api/v1/games/{game.pk}/actions/",
            token=mover,
            body={
                "version": game.version,
                "action": "play",
                "position_id": position_id(play.result),
            },
        )
        assert acted.status == 200, acted.body[:500]
        event = json.loads(ws.recv(timeout=10))
        assert event["t"] == "event" and event["kind"] == "play", event
        assert event["pos"] == [1, game.version + 1]

    # A body over the site's client_max_body_size (1 MiB: the largest .mat upload fits)
    # is refused by nginx as soon as it is declared.
    with socket.create_connection((HOST, port), timeout=10) as s:
        s.sendall(
            f"POST /api/v1/games/{game.pk}/actions/ HTTP/1.1\r\nHost: {HOST}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {2 * 1024 * 1024}\r\n\r\n".encode()
        )
        assert s.recv(64).startswith(b"HTTP/1.1 413 ")

    # The probe's finding: five slow bodies through nginx, /healthz answers at once.
    actions = f"/api/v1/games/{game.pk}/actions/"
    slow = SlowClients(port, actions, tokens[0])
    try:
        time.sleep(2.5)  # each has sent its headers and a couple of body bytes
        started = time.monotonic()
        try:
            health = _request(port, "GET", "/healthz", timeout=10)
        except TimeoutError:
            pytest.fail("/healthz went unanswered through nginx behind five slow clients")
        took = time.monotonic() - started
    finally:
        slow.close()
    assert health.status == 200
    assert took < HEALTHZ_WITHIN, f"/healthz took {took:.1f} s behind five slow clients"

    # The same five straight at gunicorn hold all its workers: /healthz gets no answer.
    direct = ports["gunicorn"]
    assert _request(direct, "GET", "/healthz", timeout=5).status == 200
    slow = SlowClients(direct, actions, tokens[0])
    try:
        time.sleep(2.5)
        with pytest.raises(TimeoutError):
            _request(direct, "GET", "/healthz", timeout=3)
    finally:
        slow.close()
    # ...until they go away.
    _wait_until(
        "gunicorn after the slow clients left",
        lambda: _request(direct, "GET", "/healthz", timeout=2).status == 200,
        processes,
        seconds=15,
    )
    processes.check_running()
