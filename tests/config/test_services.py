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
