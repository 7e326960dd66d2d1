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


def test_a_process_a_parallel_worker_starts_keeps_the_workers_redis_database():
    """A Celery worker or a command a test starts on the test settings inherits the
    environment: it must use the worker's Redis database, not lower it a second time."""
    import os
    import subprocess
    import sys

    env = {
        **os.environ,
        "PYTEST_XDIST_WORKER": "gw2",
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
    }
    env.pop("REDIS_URL", None)
    env.pop("TESTS_REDIS_WORKER", None)
    child = (
        "import django, subprocess, sys; django.setup(); from django.conf import settings;"
        "print(settings.REDIS_URL); sys.stdout.flush();"
        "subprocess.run([sys.executable, '-c', 'import django; django.setup();"
        " from django.conf import settings; print(settings.REDIS_URL)'], check=True)"
    )
    done = subprocess.run(
        [sys.executable, "-c", child], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["redis://127.0.0.1:6379/13"] * 2
