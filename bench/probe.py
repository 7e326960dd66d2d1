"""The hardening probe of issue 16, kept: the requests that found its defects, sent again to
a running server in production settings, with what each answers now.

Run from the repository root: ``python bench/probe.py``. It is not a test (the tests of
each defect are in tests/); it is the end-to-end look at a real deployment shape:

1. Drops and recreates the PostgreSQL database ``bench_probe`` (127.0.0.1:5432, trust
   auth, user ``postgres``) and Redis database 9, migrates, collects the static files,
   loads the demo club and tournament, and adds the probe's users (a staff user, two
   players and a stranger who plays in nothing), all with ``config.settings.production``.
2. Starts ``gunicorn config.wsgi`` (5 sync workers, the README's 30 s timeout) and sends
   every request through it as the TLS proxy would (``X-Forwarded-Proto: https``).
3. Prints one line per probe: what was sent, the answers (status: count), the time, and
   whether the database changed where it must not. At the end, the 500s and worker
   timeouts the server logged: both must be 0.

The last line is ``failures <n> server_errors <n> timeouts <n>``; all three are 0 when the
server holds (about 6 minutes on a 2-core machine, most of it the set-up).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import _host  # bench/_host.py: this folder is on sys.path when run as a script

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
DB_NAME = "bench_probe"
PG_ADMIN_DSN = f"postgresql://postgres@{HOST}:5432/postgres"
PASSWORD = "probe-password-1"  # noqa: S105 - the probe's own throwaway users


def server_env(port: int) -> dict[str, str]:
    """The environment the README's Production section sets, pointed at this machine."""
    origin = f"https://{HOST}:{port}"
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": f"{HOST},localhost",
        "CSRF_TRUSTED_ORIGINS": origin,
        "DATABASE_URL": f"postgres://postgres@{HOST}:5432/{DB_NAME}",
        "REDIS_URL": f"redis://{HOST}:6379/9",
        "SITE_URL": origin,
        "DEFAULT_FROM_EMAIL": "probe@example.org",
        "EMAIL_HOST": HOST,
        "LOG_LEVEL": "WARNING",
    }


# ====================================================================== seeding (child)
def seed() -> None:
    """In a child process with the server's settings: the probe's users and their
    tokens, printed as JSON."""
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from games.models import Player

    users = get_user_model()
    out: dict[str, Any] = {}
    players = list(Player.objects.filter(user__isnull=True).order_by("id")[:3])
    for key, staff, player in (
        ("staff", True, None),
        ("anna", False, players[0]),
        ("bela", False, players[1]),
        ("stranger", False, players[2]),
    ):
        user = users.objects.create_user(f"probe-{key}", password=PASSWORD, is_staff=staff)
        if player is not None:
            player.user = user
            player.save(update_fields=["user"])
        out[key] = {
            "username": user.username,
            "token": Token.objects.create(user=user).key,
            "player": player.pk if player else None,
            "name": player.name if player else None,
        }
    out["others"] = list(
        Player.objects.exclude(pk__in=[p.pk for p in players]).values_list("pk", flat=True)[:3]
    )
    print(json.dumps(out))


TABLES = (
    "games_match",
    "games_game",
    "games_gameaction",
    "games_player",
    "games_tableclock",
    "chouette_chouettesession",
    "chouette_chouetteparticipant",
)


def counts() -> dict[str, int]:
    """Rows of the tables the probe's refusals must leave as they were."""
    import psycopg

    with psycopg.connect(f"postgresql://postgres@{HOST}:5432/{DB_NAME}") as conn:
        return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}  # noqa: S608


# ====================================================================== HTTP
class Client:
    """A tiny HTTP client with the proxy's header and its own cookies (the session
    cookie is Secure, which urllib's cookie jar would never send over plain HTTP)."""

    def __init__(self, base: str, token: str | None = None) -> None:
        self.base = base
        self.token = token
        self.cookies: dict[str, str] = {}

    def request(
        self,
        method: str,
        path: str,
        *,
        body: bytes | None = None,
        content_type: str = "application/json",
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        request = urllib.request.Request(self.base + path, data=body, method=method)  # noqa: S310
        request.add_header("X-Forwarded-Proto", "https")
        request.add_header("Referer", self.base.replace("http://", "https://") + "/")
        if body is not None:
            request.add_header("Content-Type", content_type)
        if self.token:
            request.add_header("Authorization", f"Token {self.token}")
        if self.cookies:
            request.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        for key, value in (headers or {}).items():
            request.add_header(key, value)
        opener = urllib.request.build_opener(_NoRedirect)
        try:
            with opener.open(request, timeout=60) as response:
                status, head, data = response.status, response.headers, response.read()
        except urllib.error.HTTPError as exc:
            status, head, data = exc.code, exc.headers, exc.read()
        for cookie in head.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return status, dict(head.items()), data

    def json(self, method: str, path: str, payload: Any = None) -> tuple[int, Any]:
        body = None if payload is None else json.dumps(payload).encode()
        status, _, data = self.request(method, path, body=body)
        try:
            return status, json.loads(data)
        except ValueError:
            return status, data[:200]

    def csrf(self, path: str) -> str:
        _, _, data = self.request("GET", path)
        found = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', data)
        assert found, f"no CSRF token on {path}"
        return found.group(1).decode()

    def form(self, path: str, fields: dict[str, str]) -> tuple[int, bytes]:
        fields = {"csrfmiddlewaretoken": self.csrf(path), **fields}
        body = urllib.parse.urlencode(fields).encode()
        status, _, data = self.request(
            "POST", path, body=body, content_type="application/x-www-form-urlencoded"
        )
        return status, data

    def login(self, username: str) -> None:
        status, _ = self.form("/accounts/login/", {"username": username, "password": PASSWORD})
        assert status == 302, f"login of {username} answered {status}"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


# ====================================================================== the probes
FAILURES: list[str] = []


def report(name: str, ok: bool, observed: str, seconds: float | None = None) -> None:
    took = f" {seconds:6.2f} s" if seconds is not None else " " * 9
    print(f"{'ok  ' if ok else 'FAIL'}{took}  {name}: {observed}", flush=True)
    if not ok:
        FAILURES.append(name)


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def unchanged(before: dict[str, int]) -> bool:
    return counts() == before


def probe_import(base: str, users: dict[str, Any]) -> None:
    # bench/mat_import.py reads the limits from the app: Django set up as the server is.
    os.environ.update(ENV)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    import random

    from mat_import import session_text  # bench/mat_import.py: the limits' worst files

    from games.engine.game import apply_result, new_game
    from games.engine.match import MatchState
    from games.engine.matfile.record import build_record
    from games.engine.matfile.write import export_mat
    from games.engine.rules import RuleOptions
    from games.engine.selfplay import random_game

    rng = random.Random(16)
    options, match = RuleOptions(), MatchState.money()
    logs = []

    def session(games: int) -> str:
        nonlocal match
        while len(logs) < games:
            state, log = random_game(new_game(options, match), rng)
            assert state.result is not None
            match = apply_result(match, state.result)
            logs.append(log)
        return export_mat(build_record(("Anna", "Bela"), 0, logs, options=options))

    # The probe's file: a money session of about 1.97 MB (the size the probe sent).
    sample = session(100)
    big = session(int(100 * 1_970_000 / len(sample)) + 1)
    anna = Client(base)
    anna.login(users["anna"]["username"])
    before = counts()
    (status, _), seconds = timed(
        lambda: anna.form("/matches/import/", {"text": big, "player1": users["anna"]["name"]})
    )
    report(
        f"1. a {len(big) / 1e6:.2f} MB .mat money session of {len(logs):,} games",
        status == 400 and unchanged(before) and seconds < 2,
        f"{status}, nothing written",
        seconds,
    )
    worst = session_text(doubles=False)
    staff = Client(base)
    staff.login(users["staff"]["username"])
    (status, _), seconds = timed(lambda: staff.form("/matches/import/", {"text": worst}))
    report(
        f"1. the largest file the limits admit ({len(worst) / 1e3:.0f} kB)",
        status == 302 and seconds < 2,
        f"{status}",
        seconds,
    )
    small = export_mat(
        build_record(("Xavier Stranger", "Yolanda Other"), 0, logs[:2], options=options)
    )
    stranger = Client(base)
    stranger.login(users["stranger"]["username"])
    before = counts()
    status, data = stranger.form("/matches/import/", {"text": small})
    report(
        "5. a stranger imports a match of two others",
        status == 403 and unchanged(before),
        f"{status} {_code(data)}, nothing written",
    )
    status, data = anna.form("/matches/import/", {"text": small, "player1": "A" * 100})
    report("7. a name of 100 characters in an import", status == 400, f"{status} {_code(data)}")


def _json_code(data: bytes) -> str:
    try:
        return str(json.loads(data).get("code"))
    except (ValueError, AttributeError):
        return f"not JSON: {data[:40]!r}"


def _code(data: bytes) -> str:
    found = re.search(rb'data-code="([a-z_]+)"', data)
    return found.group(1).decode() if found else "-"


def probe_json(base: str, users: dict[str, Any]) -> None:
    deep = ("[" * 1000 + "]" * 1000).encode()
    for path, token in (
        ("/api/v1/auth/token/", None),
        ("/api/v1/matches/", users["anna"]["token"]),
        ("/api/v1/table-clocks/", users["anna"]["token"]),
        ("/api/v1/chouette/sessions/", users["anna"]["token"]),
    ):
        status, _, data = Client(base, token).request("POST", path, body=deep)
        report(
            f"2. JSON nested 1,000 deep to {path}", status == 400, f"{status} {_json_code(data)}"
        )
    statuses: Counter[int] = Counter()
    for path in (
        "/api/v1/players/",
        "/api/v1/ratings/",
        "/api/v1/events/",
        "/api/v1/notifications/",
    ):
        for limit in ("9223372036854775808", "100000", "-1"):
            status, body = Client(base, users["anna"]["token"]).json("GET", f"{path}?limit={limit}")
            statuses[status] += 1
            rows = body.get("results", []) if isinstance(body, dict) else body
            if status == 200 and len(rows) > 200:
                statuses[-1] += 1  # a page over the cap
    report(
        "2. ?limit= 2**63, 100000 and -1 on four paginated lists",
        set(statuses) <= {200, 400},
        ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())),
    )


def probe_bruteforce(base: str, users: dict[str, Any]) -> None:
    for name, send in (
        (
            "token endpoint",
            lambda c: c.json(
                "POST", "/api/v1/auth/token/", {"username": "probe-bela", "password": "wrong"}
            )[0],
        ),
        (
            "login page",
            # Another username: the token endpoint's failures locked probe-bela out here too.
            lambda c: c.form("/accounts/login/", {"username": "nobody", "password": "x"})[0],
        ),
    ):
        client = Client(base)
        statuses, seconds = timed(
            lambda send=send, client=client: Counter(send(client) for _ in range(120))
        )
        report(
            f"3. 120 wrong passwords at the {name}",
            statuses.get(429, 0) >= 100,
            ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())),
            seconds,
        )


def probe_clock(base: str, users: dict[str, Any]) -> None:
    anna = Client(base, users["anna"]["token"])
    before = counts()
    huge = {"delay_ms": 1000, "reserve_ms": 10**15}
    status, body = anna.json(
        "POST",
        "/api/v1/matches/",
        {
            "player1": users["anna"]["player"],
            "player2": users["bela"]["player"],
            "length": 3,
            "clock": huge,
            "start": True,
        },
    )
    report(
        "4. a match with a reserve of 10**15 ms, started",
        status == 400 and unchanged(before),
        f"{status} {body.get('code') if isinstance(body, dict) else body}, nothing written",
    )
    status, body = anna.json(
        "POST",
        "/api/v1/table-clocks/",
        {"label": "Table 1", "player1_name": "Anna", "player2_name": "Béla", "clock": huge},
    )
    report(
        "4. a table clock with a reserve of 10**15 ms",
        status == 400 and unchanged(before),
        f"{status} {body.get('code') if isinstance(body, dict) else body}, nothing written",
    )


def probe_chouette(base: str, users: dict[str, Any]) -> None:
    stranger = Client(base, users["stranger"]["token"])
    before = counts()
    status, body = stranger.json(
        "POST",
        "/api/v1/chouette/sessions/",
        {"name": "Not mine", "players": users["others"], "stake_per_point": "100"},
    )
    report(
        "10. a stranger starts a chouette of three others",
        status == 403 and unchanged(before),
        f"{status} {body.get('code') if isinstance(body, dict) else body}, nothing written",
    )
    anna = Client(base, users["anna"]["token"])
    status, body = anna.json(
        "POST",
        "/api/v1/chouette/sessions/",
        {"name": "Anna's table", "players": [users["anna"]["player"], *users["others"][:2]]},
    )
    ok = status == 201 and body.get("created_by") is not None
    if ok:
        _, detail = anna.json("GET", f"/api/v1/chouette/sessions/{body['id']}/")
        ok = detail.get("created_by") == body["created_by"]
    report("12. a member starts one: created_by in create and detail", ok, f"{status}")


def probe_headers(base: str, users: dict[str, Any]) -> None:
    status, head, _ = Client(base).request("GET", "/")
    hsts, csp = head.get("Strict-Transport-Security", ""), head.get("Content-Security-Policy", "")
    report(
        "11. HSTS and CSP on the home page", bool(hsts and csp), f"{status}; {hsts}; {csp[:60]}…"
    )
    status, head, data = Client(base).request("GET", "/api/v1/matches/abc/")
    report(
        "11. /api/v1/matches/abc/ answers JSON",
        status == 404 and head.get("Content-Type", "").startswith("application/json"),
        f"{status} {_json_code(data)}",
    )
    body = json.dumps({"label": "x" * 3_000_000}).encode()
    status, head, data = Client(base, users["anna"]["token"]).request(
        "POST", "/api/v1/table-clocks/", body=body
    )
    report(
        "11. a 3 MB JSON body",
        status == 413 and head.get("Content-Type", "").startswith("application/json"),
        f"{status} {_json_code(data)}",
    )


def probe_names(base: str, users: dict[str, Any]) -> None:
    anna = Client(base, users["anna"]["token"])
    before = counts()
    statuses = Counter(
        anna.json(
            "POST",
            "/api/v1/table-clocks/",
            {"label": "Table 9", "player1_name": name, "player2_name": "Béla"},
        )[0]
        for name in ("\u200b", "Anna\u202eBéla", "\u2066x\u2069")
    )
    report(
        "13. table clocks named by a zero-width space or a direction override",
        set(statuses) == {400} and unchanged(before),
        ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())) + ", nothing written",
    )


def probe_concurrency(base: str, users: dict[str, Any]) -> None:
    anna = Client(base, users["anna"]["token"])
    status, match = anna.json(
        "POST",
        "/api/v1/matches/",
        {"player1": users["anna"]["player"], "player2": users["bela"]["player"], "length": 1},
    )
    assert status == 201, (status, match)
    game_id = match.get("current_game", None)
    if game_id is None:
        _, detail = anna.json("GET", f"/api/v1/matches/{match['id']}/")
        game_id = detail["current_game"]
    _, game = anna.json("GET", f"/api/v1/games/{game_id}/")
    mover = users["anna"] if game["player_to_act"] == 0 else users["bela"]
    client_token = mover["token"]
    _, game = Client(base, client_token).json("GET", f"/api/v1/games/{game_id}/")
    version = game["version"]
    # The opening roll is the server's; the first to act moves: one of its legal plays,
    # sent 50 times at once for the same version (one must win, the rest get 409).
    legal = {a["action"]: a for a in game.get("legal_actions") or []}
    action = "play"
    payload = {"action": "play", "version": version, "play": legal["play"]["plays"][0]["play"]}
    results: list[int] = []

    def send() -> None:
        results.append(
            Client(base, client_token).json("POST", f"/api/v1/games/{game_id}/actions/", payload)[0]
        )

    threads = [threading.Thread(target=send) for _ in range(50)]
    (_, seconds) = timed(lambda: ([t.start() for t in threads], [t.join() for t in threads]))
    statuses = Counter(results)
    report(
        f"50 concurrent '{action}' at one game version",
        statuses.get(200, 0) + statuses.get(201, 0) == 1 and set(statuses) <= {200, 201, 409},
        ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())),
        seconds,
    )


# ====================================================================== main
ENV: dict[str, str] = {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.seed:
        seed()
        return
    _host.ensure_venv(__file__, "PROBE_IN_VENV")
    os.chdir(ROOT)
    port = _host.free_port(HOST)
    ENV.update(server_env(port))
    _host.database_recreate(PG_ADMIN_DSN, DB_NAME)
    subprocess.run(["redis-cli", "-n", "9", "FLUSHDB"], check=True, capture_output=True)  # noqa: S607
    manage = [sys.executable, "manage.py"]
    for step in (
        ["migrate", "--noinput", "-v", "0"],
        ["collectstatic", "--noinput", "-v", "0"],
        ["load_demo_club"],
        ["load_demo_tournament"],
    ):
        subprocess.run([*manage, *step], env=ENV, check=True, capture_output=True)  # noqa: S603
    seeded = subprocess.run(  # noqa: S603
        [sys.executable, __file__, "--seed"], env=ENV, check=True, capture_output=True
    )
    users = json.loads(seeded.stdout.decode().strip().splitlines()[-1])
    log = Path(tempfile.mkdtemp(prefix="probe-")) / "gunicorn.log"
    gunicorn = Path(sys.executable).parent / "gunicorn"
    with log.open("wb") as out:
        server = subprocess.Popen(  # noqa: S603
            [
                str(gunicorn),
                "config.wsgi",
                "--workers",
                "5",
                "--timeout",
                "30",
                "--bind",
                f"{HOST}:{port}",
            ],
            env=ENV,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://{HOST}:{port}"
    try:
        for _ in range(100):
            try:
                Client(base).request("GET", "/healthz")
                break
            except OSError:
                time.sleep(0.2)
        for probe in (
            probe_import,
            probe_json,
            probe_bruteforce,
            probe_clock,
            probe_chouette,
            probe_headers,
            probe_names,
            probe_concurrency,
        ):
            probe(base, users)
    finally:
        server.terminate()
        server.wait(timeout=30)
        _host.database_drop(PG_ADMIN_DSN, DB_NAME)
    text = log.read_text(errors="replace")
    errors = text.count("Internal Server Error")
    timeouts = text.count("WORKER TIMEOUT")
    print(f"server log {log}: {errors} server errors, {timeouts} worker timeouts")
    print(f"failures {len(FAILURES)} server_errors {errors} timeouts {timeouts}")
    sys.exit(1 if FAILURES or errors or timeouts else 0)


if __name__ == "__main__":
    main()
