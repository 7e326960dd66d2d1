"""Issue 16, defect 11: production sends HSTS, every response a Content-Security-Policy,
and ``manage.py check --deploy`` is clean with the settings the environment file template
(deploy/backgammon-club.env.example) tells an operator to set."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _production_env() -> dict[str, str]:
    """The variables the environment file template (deploy/backgammon-club.env.example,
    which README's "Production" section points at) sets, with a value for each one it
    leaves to the operator (``...``)."""
    template = (ROOT / "deploy" / "backgammon-club.env.example").read_text(encoding="utf-8")
    env: dict[str, str] = {}
    for line in template.splitlines():
        if line.startswith("#") or "=" not in line:
            continue
        name, _, value = line.partition("=")
        env[name.strip()] = value.strip()
    fill = {
        "SECRET_KEY": "x7Lq2vP9mK4tR8wZ1cF6hJ3nB5sD0gY_aE-uI9oQ2rT4yU6iO8pA1sD3fG5hJ7kL9",
        "DATABASE_URL": "postgres://club:secret@127.0.0.1:5432/club",
        "EMAIL_HOST_USER": "club",
        "EMAIL_HOST_PASSWORD": "secret",
    }
    for name, value in env.items():
        if "..." in value:
            env[name] = fill[name]
    return env


def test_the_environment_file_names_the_production_settings():
    env = _production_env()
    assert env["DJANGO_SETTINGS_MODULE"] == "config.settings.production"
    assert {"SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL"} <= set(env)


def test_check_deploy_is_clean_with_the_environment_file_template():
    keep = {"PATH", "HOME", "LANG", "LC_ALL", "TMPDIR"}
    env = {k: v for k, v in os.environ.items() if k in keep} | _production_env()
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "System check identified no issues" in output, output
    assert "WARNINGS" not in output


def test_production_sends_hsts_for_a_year_by_default():
    env = _production_env()
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_SSL_REDIRECT,"
        " s.TRUSTED_PROXY_COUNT, s.REST_FRAMEWORK['NUM_PROXIES'])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={"PATH": os.environ["PATH"]} | env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.split()[-5:] == ["31536000", "True", "True", "1", "1"]


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/api/v1/players/", "/no-such-page/"])
def test_every_response_carries_the_content_security_policy(client, path):
    response = client.get(path)
    policy = response["Content-Security-Policy"]
    directives = {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"] == ["'self'"]  # no inline script, no eval
    assert directives["style-src"] == ["'self'"]
    assert directives["connect-src"] == ["'self'"]  # the live WebSocket is same-origin
    assert directives["object-src"] == ["'none'"]
    assert directives["frame-ancestors"] == ["'none'"]


def _permissions_policy(response) -> dict[str, list[str]]:
    """The Permissions-Policy header as ``{feature: [allowlist]}``."""
    policy: dict[str, list[str]] = {}
    for part in response["Permissions-Policy"].split(","):
        feature, _, allow = part.strip().partition("=")
        assert allow.startswith("(") and allow.endswith(")"), part
        policy[feature] = allow[1:-1].split()
    return policy


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/", "/accounts/login/", "/api/v1/players/", "/api/v1/matches/999999/", "/healthz"]
)
def test_every_response_carries_the_permissions_policy(client, path):
    """Issue 30: the probe found no Permissions-Policy. Pages, API answers (an error
    too) and the health check deny the features the club never uses."""
    policy = _permissions_policy(client.get(path))
    for feature in ("camera", "microphone", "geolocation", "payment", "usb", "serial", "hid"):
        assert policy[feature] == [], feature
    assert "interest-cohort" in policy and "browsing-topics" in policy


def test_the_permissions_policy_keeps_what_the_table_clock_uses(client):
    """The table clock fills the screen and keeps it awake (static/games/tableclock.js):
    those two features stay allowed for our own origin, and only those."""
    script = (ROOT / "static" / "games" / "tableclock.js").read_text(encoding="utf-8")
    assert "requestFullscreen" in script and "wakeLock" in script
    from django.conf import settings

    allowed = {f for f, allow in settings.PERMISSIONS_POLICY.items() if allow}
    assert allowed == {"fullscreen", "screen-wake-lock"}
    assert settings.PERMISSIONS_POLICY["fullscreen"] == ["self"]


@pytest.mark.django_db
def test_hsts_is_sent_when_production_settings_are_in_force(client, settings):
    settings.SECURE_HSTS_SECONDS = 31_536_000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    response = client.get("/healthz", secure=True)
    assert response["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"


@pytest.mark.django_db
def test_the_api_docs_page_runs_no_inline_script(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    scripts = re.findall(r"<script\b([^>]*)>", html)
    assert scripts and all("src=" in attributes for attributes in scripts), scripts
    setup = client.get("/api/docs/?script=")
    assert setup.status_code == 200 and "SwaggerUIBundle" in setup.content.decode()


INLINE_HANDLER = re.compile(r"""\son[a-z]+\s*=\s*["']""", re.IGNORECASE)
INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)


def test_no_template_has_inline_script_or_event_handler():
    """The policy allows no inline script: every template keeps its code in static/."""
    found = []
    for template in sorted((ROOT / "templates").rglob("*.html")):
        text = template.read_text(encoding="utf-8")
        for pattern in (INLINE_SCRIPT, INLINE_HANDLER):
            found += [f"{template.relative_to(ROOT)}: {m.group(0)}" for m in pattern.finditer(text)]
        if "<style" in text:
            found.append(f"{template.relative_to(ROOT)}: <style>")
    assert found == []
