"""Issue 16, defect 3: brute force at the login page and the token endpoint.

django-axes (the real one, with its database handler, as in production) locks a username
at an address out after AXES_FAILURE_LIMIT failures; the token endpoint is throttled per
address in the real Redis cache. Every refusal is a 429, and a refused attempt computes
no password hash: :class:`CountingHasher` counts them (the test settings' MD5 hasher,
counted).
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.hashers import MD5PasswordHasher

from tests.factories import UserFactory, api_client

pytestmark = pytest.mark.django_db
PASSWORD = "jelszo-123"  # tests.factories.UserFactory
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


class CountingHasher(MD5PasswordHasher):
    """The MD5 hasher, counting every hash it computes (checking or making one)."""

    computed = 0

    def encode(self, password, salt):
        CountingHasher.computed += 1
        return super().encode(password, salt)


@pytest.fixture
def hashes(settings):
    settings.PASSWORD_HASHERS = ["tests.config.test_bruteforce.CountingHasher"]
    CountingHasher.computed = 0

    class Counter:
        def reset(self):
            CountingHasher.computed = 0

        @property
        def computed(self):
            return CountingHasher.computed

    return Counter()


@pytest.fixture
def anna(hashes):
    user = UserFactory(username="anna")
    hashes.reset()
    return user


def _rate(scope):
    """Requests a minute the ``scope`` throttle allows (20 when none is set)."""
    rates = settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {})
    return int(rates.get(scope, "20/minute").split("/")[0])


def _login(client, password, username="anna"):
    return client.post("/accounts/login/", {"username": username, "password": password}, **EN)


def test_the_login_page_locks_a_username_out_after_the_failure_limit(client, anna, hashes):
    limit = settings.AXES_FAILURE_LIMIT
    for _attempt in range(limit - 1):
        response = _login(client, "wrong")
        assert response.status_code == 200  # the form again, with its error
    assert hashes.computed == limit - 1
    locked = _login(client, "wrong")  # the limit-th failure: locked from now on
    assert locked.status_code == 429
    # ...even with the right password, and without hashing it.
    hashes.reset()
    refused = _login(client, PASSWORD)
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) == settings.AXES_COOLOFF_TIME.total_seconds()
    html = refused.content.decode()
    assert "Too many login attempts" in html and 'data-testid="lockout"' in html
    assert hashes.computed == 0
    assert "_auth_user_id" not in client.session
    # Another username from the same address is not locked (username + address).
    UserFactory(username="bence")
    assert _login(client, PASSWORD, username="bence").status_code == 302


def test_the_lockout_page_speaks_hungarian_too(client, anna):
    for _attempt in range(settings.AXES_FAILURE_LIMIT):
        response = client.post(
            "/accounts/login/", {"username": "anna", "password": "x"}, HTTP_ACCEPT_LANGUAGE="hu"
        )
    assert response.status_code == 429
    assert '<html lang="hu">' in response.content.decode()


def test_a_success_before_the_limit_starts_the_count_again(client, anna):
    for _attempt in range(settings.AXES_FAILURE_LIMIT - 1):
        _login(client, "wrong")
    assert _login(client, PASSWORD).status_code == 302
    client.logout()
    for _attempt in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _login(client, "wrong").status_code == 200


def _token(client, password, username="anna"):
    return client.post(
        "/api/v1/auth/token/", {"username": username, "password": password}, format="json"
    )


def test_the_token_endpoint_counts_failures_for_axes_and_locks_out(anna, hashes):
    client = api_client()
    limit = settings.AXES_FAILURE_LIMIT
    for _attempt in range(limit - 1):
        assert _token(client, "wrong").status_code == 400
    locked = _token(client, "wrong")
    assert locked.status_code == 429
    hashes.reset()
    refused = _token(client, PASSWORD)
    assert refused.status_code == 429
    assert refused.json()["code"] == "locked_out" and refused.json()["detail"]
    assert int(refused["Retry-After"]) == settings.AXES_COOLOFF_TIME.total_seconds()
    assert hashes.computed == 0
    # The page shares the count: the same username is locked out there too.
    assert _login(api_client(), PASSWORD).status_code == 429


def test_the_token_endpoint_is_throttled_per_address_before_any_hash(hashes):
    """Many usernames from one address: axes locks none of them, the throttle stops
    the address. The throttled request never reaches the password check."""
    client = api_client()
    rate = _rate("auth_token")
    for n in range(rate):
        assert _token(client, "wrong", username=f"guess{n}").status_code == 400
    assert hashes.computed == rate  # Django hashes for an unknown user too (timing)
    throttled = _token(client, "wrong", username="guess-last")
    assert throttled.status_code == 429
    assert throttled.json()["code"] == "throttled"
    assert 0 < int(throttled["Retry-After"]) <= 60
    assert hashes.computed == rate
    # Another address is not throttled.
    other = client.post(
        "/api/v1/auth/token/",
        {"username": "x", "password": "y"},
        format="json",
        REMOTE_ADDR="10.0.0.9",
    )
    assert other.status_code == 400


def test_the_right_password_still_gets_a_token(anna):
    response = _token(api_client(), PASSWORD)
    assert response.status_code == 200 and response.json()["token"]


def test_the_throttle_counts_in_the_redis_cache():
    assert settings.CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache"


def test_the_login_page_is_throttled_per_address_before_any_hash(client, hashes):
    """Password spraying: one address, a new username each time. axes locks none of
    them; the page's throttle stops the address, without hashing."""
    rate = _rate("login")
    for n in range(rate):
        assert _login(client, "wrong", username=f"guess{n}").status_code == 200
    assert hashes.computed == rate
    throttled = _login(client, "wrong", username="guess-last")
    assert throttled.status_code == 429
    assert 0 < int(throttled["Retry-After"]) <= 60
    assert "Too many login attempts from your address" in throttled.content.decode()
    assert hashes.computed == rate
    # Reading the page is not counted, and another address may still log in.
    assert client.get("/accounts/login/").status_code == 200
    UserFactory(username="bence")
    other = client.post(
        "/accounts/login/",
        {"username": "bence", "password": PASSWORD},
        REMOTE_ADDR="10.0.0.9",
    )
    assert other.status_code == 302


def test_the_admin_login_shares_the_lockout(client, anna, hashes):
    anna.is_staff = True
    anna.save()
    for _attempt in range(settings.AXES_FAILURE_LIMIT):
        _login(client, "wrong")
    hashes.reset()
    response = client.post(
        "/admin/login/", {"username": "anna", "password": PASSWORD, "next": "/admin/"}, **EN
    )
    assert response.status_code == 429
    assert hashes.computed == 0
    assert "_auth_user_id" not in client.session
