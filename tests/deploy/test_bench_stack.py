"""bench/capacity.py runs deploy/'s recipe by reading it (bench/_stack.py): each server's
command from its systemd unit, the nginx site with one server per node in each upstream.
A change to the units or the site that the benchmark can no longer read fails here, in a
second, rather than in a quarter-hour benchmark run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))  # the bench modules import each other by name

import _stack  # noqa: E402


@pytest.mark.parametrize(
    ("unit", "program"),
    [
        ("backgammon-club-gunicorn.service", "gunicorn"),
        ("backgammon-club-uvicorn@.service", "uvicorn"),
        ("backgammon-club-celery.service", "celery"),
        ("backgammon-club-notifications.service", "celery"),
        ("backgammon-club-beat.service", "celery"),
    ],
)
def test_each_unit_gives_a_command_of_this_checkout(unit: str, program: str) -> None:
    command = _stack.unit_command(unit, i="8123", H="host")
    assert command[0] == str(Path(sys.executable).parent / program)
    assert Path(command[0]).exists()
    assert not any("${" in word or "%i" in word or "%H" in word for word in command), command
    if program == "uvicorn":
        assert "8123" in command and "config.asgi:application" in command


def test_the_site_with_two_nodes_is_one_nginx_accepts(tmp_path: Path) -> None:
    assert Path(_stack.NGINX).exists(), "Debian's nginx is missing: ./dev services installs it"
    nodes = [
        _stack.Node(n, None, None, http_port=9000 + n, ws_port=9100 + n)  # type: ignore[arg-type]
        for n in (1, 2)
    ]
    nginx = _stack.Nginx(prefix=tmp_path)
    site = nginx.site(nodes)
    assert "server 127.0.0.1:9001; server 127.0.0.1:9002;" in site
    assert "server 127.0.0.1:9101; server 127.0.0.1:9102;" in site
    assert site.count("X-Bench-Upstream") == 1
    command = nginx.configure(nodes)
    done = subprocess.run([*command, "-t"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
