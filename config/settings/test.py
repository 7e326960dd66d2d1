"""Tests and CI: real PostgreSQL and real Redis, as in production.

Defaults point at the services every project machine runs (PostgreSQL on
127.0.0.1:5432, database ``test``, trust auth; Redis on 127.0.0.1:6379). The tests use
Redis database 15 so that they never touch data of a local run on database 0.

Run in parallel (pytest-xdist, ``-n``), each worker process is a suite of its own:
pytest-django gives worker ``gwN`` the database ``test_<name>_gwN``, and this module
gives it Redis database 15 - N (``redis_for_worker``), so that one worker's throttles,
Celery queues and channel-layer groups (named by row ids, which repeat across the
workers' databases) never reach another's.
"""

import os

from .base import *
from .base import database_from_env, env, redis_channel_layer

DEBUG = False
SECRET_KEY = "test-only-not-secret"  # noqa: S105
ALLOWED_HOSTS = ["testserver", "127.0.0.1", "localhost"]

DATABASES = {"default": database_from_env("postgres://postgres@127.0.0.1:5432/test")}
# Each test opens and closes its own connection; a persistent one would outlive the
# test database that pytest-django creates and drops.
DATABASES["default"]["CONN_MAX_AGE"] = 0


def redis_for_worker(url: str, worker: str) -> str:
    """``url`` with its database number lowered by the xdist worker's index (``gw2``:
    15 -> 13); ``url`` itself outside xdist (``worker`` empty)."""
    if not worker.startswith("gw"):
        return url
    base, _, number = url.rpartition("/")
    database = (int(number or 0) - int(worker[2:])) % 16
    return f"{base}/{database}"


_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
REDIS_URL = env.str("REDIS_URL", default="redis://127.0.0.1:6379/15")
if os.environ.get("TESTS_REDIS_WORKER") != _WORKER:
    REDIS_URL = redis_for_worker(REDIS_URL, _WORKER)
    # What a test starts on these settings (a Celery worker, a manage.py command)
    # inherits the environment: it gets this database as it is, not lowered again.
    os.environ["REDIS_URL"] = REDIS_URL
    os.environ["TESTS_REDIS_WORKER"] = _WORKER
CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = REDIS_URL
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
}

CHANNEL_LAYERS = redis_channel_layer(REDIS_URL)

# Emails land in django.core.mail.outbox (pytest-django empties it for each test).
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

# Hashing passwords slowly is a production virtue and a test-suite cost.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# No collected static files here: WhiteNoise serves them from the app finders instead.
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True
