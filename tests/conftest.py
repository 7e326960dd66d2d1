"""Suite-wide fixtures and the pytest header that says which services the tests hit."""

from __future__ import annotations

import pytest

# Parallel runs (pytest-xdist): one migrated template database, copied by each worker.
pytest_plugins = ["tests.parallel", "tests.schedule"]


def pytest_report_header(config: pytest.Config) -> list[str]:
    """Name the database and Redis the suite runs against, from the live servers."""
    import django
    from django.conf import settings

    django.setup()
    db = settings.DATABASES["default"]
    lines = [
        f"database: {db['ENGINE'].rsplit('.', 1)[-1]} {db.get('HOST', '')}:{db.get('PORT', '')}"
    ]
    try:
        import psycopg

        with psycopg.connect(
            host=db["HOST"], port=db["PORT"], user=db["USER"], dbname=db["NAME"], connect_timeout=3
        ) as conn:
            lines.append(f"database server: {conn.execute('SELECT version()').fetchone()[0]}")
    except Exception as exc:  # the header must not hide the real failure in the tests
        lines.append(f"database server: unreachable ({type(exc).__name__})")
    try:
        import redis

        info = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=3).info("server")
        lines.append(f"redis: {settings.REDIS_URL} (Redis {info['redis_version']})")
    except Exception as exc:
        lines.append(f"redis: {settings.REDIS_URL} unreachable ({type(exc).__name__})")
    return lines


def _register_hypothesis_profiles() -> None:
    """``ci`` (chosen by .ci/run with HYPOTHESIS_PROFILE=ci) derandomizes the property
    tests so a CI run is reproducible; developers' runs keep exploring new examples."""
    import os

    from hypothesis import settings

    settings.register_profile("ci", derandomize=True, print_blob=True)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


_register_hypothesis_profiles()


@pytest.fixture
def wall(monkeypatch):
    """The app's wall clock, frozen at ``tests.wall.T0`` and moved by ``advance()``."""
    from tests.wall import Wall

    return Wall(monkeypatch)


@pytest.fixture(autouse=True)
def _fresh_throttles(request):
    """The API's throttles count in the real Redis cache (settings: CACHES), which
    outlives a test: after each test that could have made a request, the throttles'
    keys go (not the Celery broker's or the channel layer's in the same database).
    Pure tests (tests/games/engine, no database) leave Redis alone."""
    yield
    uses_server = request.node.get_closest_marker("django_db") is not None or bool(
        {"db", "transactional_db", "client", "live_server"} & set(request.fixturenames)
    )
    if not uses_server:
        return
    from django.conf import settings

    if "django.core.cache.backends.redis" not in settings.CACHES["default"]["BACKEND"]:
        return
    from django.core.cache import cache

    client = cache._cache.get_client(write=True)
    keys = list(client.scan_iter(match="*throttle_*", count=1000))
    if keys:
        client.delete(*keys)
