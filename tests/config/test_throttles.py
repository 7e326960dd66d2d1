"""Issue 30, the production probe: the throttles' count is atomic (50 attempts at once,
exactly the limit through), every throttle of the project counts that way, and while
Redis does not answer the throttled endpoints and pages answer 503 (the API's
``{"code": "service_unavailable", "detail"}``, the pages a page saying so), never 500.

Real Redis (the tests' database, settings: CACHES); "Redis down" is the cache pointed
at a closed port on this machine, never the shared Redis stopped."""

from __future__ import annotations

import socket
import threading
import uuid
from typing import Any

import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import URLPattern, URLResolver, get_resolver

from config.security import LoginThrottle, TokenThrottle
from games.api.throttles import AtomicRateThrottle
from tests.factories import UserFactory, api_client

LOCMEM = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


class Clock:
    """The throttle's timer, moved by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class ThreeAMinute(AtomicRateThrottle):
    """The counter under test: 3 a minute for one key (``throttle_`` keys are swept
    after each test by tests/conftest.py)."""

    rate = "3/minute"
    scope = "unit"

    def __init__(self, ident: str, clock: Any = None) -> None:
        super().__init__()
        self.ident = ident
        if clock is not None:
            self.timer = clock

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.ident}


def _closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (the kernel's free one, let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _redis_down():
    url = f"redis://127.0.0.1:{_closed_port()}/0"
    return override_settings(
        CACHES={
            "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}
        }
    )


def _at_once(count: int, attempt) -> list[Any]:
    """``attempt(i)`` in ``count`` threads released together by a barrier."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(i: int) -> None:
        barrier.wait()
        results[i] = attempt(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


# ---------------------------------------------------------------- the counter
@pytest.mark.parametrize("caches", ["redis", "locmem"])
def test_the_counter_allows_the_rate_in_any_window_and_says_how_long_to_wait(caches, db):
    """DRF's rule, kept: at most 3 in any 60 s, a refused attempt is not counted, and
    the wait is the time until the oldest counted attempt leaves the window."""
    with override_settings(**({"CACHES": LOCMEM} if caches == "locmem" else {})):
        clock, ident = Clock(), uuid.uuid4().hex

        def attempt() -> tuple[bool, float | None]:
            throttle = ThreeAMinute(ident, clock)
            return throttle.allow_request(None, None), throttle.wait()

        assert [attempt() for _ in range(3)] == [(True, None)] * 3
        clock.now += 20
        assert attempt() == (False, pytest.approx(40))
        clock.now += 39
        assert attempt() == (False, pytest.approx(1))  # refused ones did not count
        clock.now += 1.5  # the first three are out of the window
        assert [attempt()[0] for _ in range(4)] == [True, True, True, False]
        assert ThreeAMinute(uuid.uuid4().hex, clock).allow_request(None, None)  # another key
        # An attempt that read the clock before the oldest counted one (attempts at once
        # in several processes) waits at most the window.
        clock.now -= 5
        assert attempt() == (False, pytest.approx(60))


def test_the_counter_lets_exactly_the_rate_through_at_once(db):
    """50 attempts of one key released together against Redis: DRF's get-then-set let
    several read the same history (6 of 50 through a limit of 3, tried); the count
    decided in one step lets exactly 3 through."""
    ident = uuid.uuid4().hex
    allowed = _at_once(50, lambda _i: ThreeAMinute(ident).allow_request(None, None))
    assert allowed.count(True) == 3 and allowed.count(False) == 47


def test_the_counter_keeps_its_attempts_in_redis(db):
    from django.core.cache import caches

    ident = uuid.uuid4().hex
    assert ThreeAMinute(ident).allow_request(None, None)
    backend = caches["default"]
    client = backend._cache.get_client(write=True)
    key = backend.make_and_validate_key(f"throttle_unit_{ident}")
    assert client.zcard(key) == 1 and 0 < client.ttl(key) <= 60


def _views() -> list[Any]:
    """Every DRF view class the URLs route to."""
    found = []

    def walk(patterns: list[Any]) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns)
            elif isinstance(pattern, URLPattern) and hasattr(pattern.callback, "cls"):
                found.append(pattern.callback.cls)

    walk(get_resolver().url_patterns)
    return found


def test_every_throttle_of_the_project_counts_atomically():
    """The API's throttled views (the token, password reset, check-in, chouette join,
    analysis) and the pages' throttles (login, the reset per e-mail address, the codes
    typed on pages) all derive from the atomic base;
    no default throttle is configured behind their back."""
    from chouette.throttles import JoinThrottle
    from config.passwords import PasswordResetEmailThrottle, PasswordResetThrottle
    from games.analysis.api import AnalysisThrottle
    from tournaments.throttles import CheckInThrottle

    assert not settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_CLASSES")
    throttled = {t for view in _views() for t in getattr(view, "throttle_classes", [])}
    assert {TokenThrottle, JoinThrottle, CheckInThrottle, AnalysisThrottle} <= throttled
    assert PasswordResetThrottle in throttled
    pages = {LoginThrottle, PasswordResetEmailThrottle}
    for throttle in throttled | pages:
        assert issubclass(throttle, AtomicRateThrottle), throttle
    scopes = {t.scope for t in throttled | pages}
    assert scopes == set(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"])


# ---------------------------------------------------------------- Redis down
@pytest.mark.django_db
def test_the_token_endpoint_answers_503_while_redis_is_down():
    """The probe: 500 while Redis was down (the throttle raised). Now the API's 503."""
    UserFactory(username="anna")
    with _redis_down():
        response = api_client().post(
            "/api/v1/auth/token/", {"username": "anna", "password": "jelszo-123"}, format="json"
        )
    assert response.status_code == 503
    body = response.json()
    assert body["code"] == "service_unavailable" and body["detail"]
    # Back up: the same request gets its token.
    again = api_client().post(
        "/api/v1/auth/token/", {"username": "anna", "password": "jelszo-123"}, format="json"
    )
    assert again.status_code == 200


@pytest.mark.django_db
def test_the_chouette_join_api_answers_503_while_redis_is_down():
    with _redis_down():
        response = api_client().post(
            "/api/v1/chouette/join/", {"code": "ABCDEF", "name": "X"}, format="json"
        )
    assert response.status_code == 503
    assert response.json()["code"] == "service_unavailable"


@pytest.mark.django_db
def test_the_login_page_answers_a_503_page_while_redis_is_down(client):
    UserFactory(username="anna")
    client.cookies["django_language"] = "en"
    assert client.get("/accounts/login/").status_code == 200  # reading it needs no Redis
    with _redis_down():
        response = client.post("/accounts/login/", {"username": "anna", "password": "jelszo-123"})
    assert response.status_code == 503
    page = response.content.decode()
    assert "Not available right now" in page and 'data-testid="unavailable"' in page
    assert "Please try again in a minute" in page
    assert "_auth_user_id" not in client.session  # nothing was done


@pytest.mark.django_db
def test_the_login_page_says_so_in_hungarian(client):
    with _redis_down():
        response = client.post("/accounts/login/", {"username": "anna", "password": "x"})
    assert response.status_code == 503
    assert 'lang="hu"' in response.content.decode()
    assert "Not available right now" not in response.content.decode()
