"""The suite runs against the real services (non-negotiable 3): PostgreSQL and Redis."""

import pytest
import redis
from django.conf import settings
from django.db import connection


@pytest.mark.django_db
def test_suite_runs_on_postgresql():
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        (version,) = cursor.fetchone()
    assert version.startswith("PostgreSQL")


def test_suite_talks_to_a_real_redis():
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.set("tests:ping", "pong", ex=10)
    assert client.get("tests:ping") == b"pong"


def test_parallel_workers_get_redis_databases_of_their_own():
    from config.settings.test import redis_for_worker

    assert redis_for_worker("redis://127.0.0.1:6379/15", "") == "redis://127.0.0.1:6379/15"
    assert redis_for_worker("redis://127.0.0.1:6379/15", "gw0") == "redis://127.0.0.1:6379/15"
    assert redis_for_worker("redis://127.0.0.1:6379/15", "gw3") == "redis://127.0.0.1:6379/12"
    assert redis_for_worker("redis://127.0.0.1:6379/1", "gw2") == "redis://127.0.0.1:6379/15"


def test_the_live_channels_are_named_by_redis_database():
    """Pub/sub ignores the database number: without the database in the channels'
    prefix, two sites (or test workers) on one Redis would hear each other's events."""
    from config.settings.base import redis_channel_layer

    def prefix(url: str) -> str:
        return redis_channel_layer(url)["default"]["CONFIG"]["prefix"]

    assert prefix("redis://127.0.0.1:6379/15") == "live15"
    assert prefix("redis://127.0.0.1:6379") == "live0"
    assert prefix("redis://:secret@redis.example:6379/3?ssl_cert_reqs=none") == "live3"
    assert prefix("unix:///run/redis.sock?db=2") == "live2"
    assert prefix(settings.REDIS_URL) != prefix("redis://127.0.0.1:6379/0")
