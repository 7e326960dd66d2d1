"""The suite run in parallel (pytest-xdist, ``-n N``): one migrated database, cloned.

Each xdist worker is a suite of its own, with its own PostgreSQL database and its own
Redis database (``config.settings.test``). pytest-django would have every worker build
its database by running all the migrations, at the same time, on a machine with fewer
cores than workers: about a minute of the run's start. Instead the controller migrates
one template database before the workers start (``pytest_configure``), and each worker
copies it (``CREATE DATABASE ... TEMPLATE``, a file copy inside PostgreSQL) as
``test_<name>_gwN``, dropped again when the worker ends.

The template is exactly what the migrations make (RunSQL triggers and data migrations
included), so a worker's database is the one pytest-django would have made. Without
``-n`` (or with ``-n 0``) none of this runs: pytest-django makes ``test_<name>`` as usual.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

#: The environment variable that tells the workers the template's name.
TEMPLATE_VARIABLE = "TESTS_TEMPLATE_DATABASE"
ROOT = Path(__file__).resolve().parent.parent


def _database() -> dict[str, Any]:
    from django.conf import settings

    return dict(settings.DATABASES["default"])


def _admin(database: dict[str, Any]) -> Any:
    """A connection to the server's maintenance database, outside any transaction."""
    import psycopg

    return psycopg.connect(
        host=database["HOST"],
        port=database["PORT"],
        user=database["USER"],
        password=database.get("PASSWORD") or None,
        dbname="postgres",
        autocommit=True,
        connect_timeout=10,
    )


def _drop(cursor: Any, name: str) -> None:
    cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _copy(cursor: Any, template: str, name: str) -> None:
    """``CREATE DATABASE name TEMPLATE template``, again while PostgreSQL says another
    worker's copy holds the template (a copy needs it to itself for a moment)."""
    import time

    import psycopg

    for attempt in range(40):
        try:
            cursor.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
            return
        except psycopg.errors.ObjectInUse:
            if attempt == 39:
                raise
            time.sleep(0.25)


def _is_controller(config: pytest.Config) -> bool:
    return (
        not hasattr(config, "workerinput")
        and bool(getattr(config.option, "numprocesses", None))
        and not config.option.collectonly
    )


def pytest_configure(config: pytest.Config) -> None:
    """In the xdist controller: migrate the template the workers will copy."""
    if not _is_controller(config):
        return
    database = _database()
    if "postgresql" not in database["ENGINE"]:
        return  # another engine: every worker migrates its own, as pytest-django does
    template = f"test_{database['NAME']}_template"
    with _admin(database) as admin:
        _drop(admin, template)
        admin.execute(f'CREATE DATABASE "{template}"')
    password = f":{quote(database['PASSWORD'])}" if database.get("PASSWORD") else ""
    url = (
        f"postgres://{quote(database['USER'])}{password}@{database['HOST']}:"
        f"{database['PORT']}/{template}"
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings.test"},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise pytest.UsageError(f"migrating the template database failed:\n{done.stderr}")
    os.environ[TEMPLATE_VARIABLE] = template  # the workers inherit it
    config.add_cleanup(lambda: _drop_template(database, template))


def _drop_template(database: dict[str, Any], template: str) -> None:
    with _admin(database) as admin:
        _drop(admin, template)


if os.environ.get("PYTEST_XDIST_WORKER") and os.environ.get(TEMPLATE_VARIABLE):

    @pytest.fixture(scope="session")
    def django_db_setup(django_test_environment: None, django_db_blocker: Any) -> Iterator[None]:
        """This worker's database: a copy of the controller's migrated template
        (replaces pytest-django's fixture of the same name, which would migrate)."""
        from django.conf import settings
        from django.db import connections

        database = _database()
        name = f"test_{database['NAME']}_{os.environ['PYTEST_XDIST_WORKER']}"
        with django_db_blocker.unblock(), _admin(database) as admin:
            _drop(admin, name)
            _copy(admin, os.environ[TEMPLATE_VARIABLE], name)
        original = database["NAME"]
        connection = connections["default"]
        connection.close()
        # As django.db.backends.base.creation.create_test_db does: every later
        # connection, and every subprocess a test starts from settings, uses the copy.
        settings.DATABASES["default"]["NAME"] = connection.settings_dict["NAME"] = name
        yield
        with django_db_blocker.unblock():
            connection.close()
            settings.DATABASES["default"]["NAME"] = connection.settings_dict["NAME"] = original
            with _admin(database) as admin:
                _drop(admin, name)
