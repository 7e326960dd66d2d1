"""GET /healthz: 200 when the database and Redis answer, 503 naming what does not."""

import pytest
from django.db import connection
from django.test import override_settings


@pytest.mark.django_db
def test_healthz_is_ok_when_database_and_redis_answer(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["failing"] == []
    assert body["database"]["status"] == "ok"
    assert body["database"]["vendor"] == "postgresql"
    assert body["redis"]["status"] == "ok"


@pytest.mark.django_db
def test_healthz_names_redis_when_it_does_not_answer(client):
    # Port 1 on loopback: nothing listens there, the connection is refused at once.
    with override_settings(REDIS_URL="redis://127.0.0.1:1/0"):
        response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["redis"]
    assert body["redis"]["status"] == "down"
    assert body["database"]["status"] == "ok"


@pytest.mark.django_db(transaction=True)
def test_healthz_names_the_database_when_it_does_not_answer(client):
    # A real refused connection, not a mock: point the live connection at a dead port.
    original_port = connection.settings_dict["PORT"]
    connection.close()
    connection.settings_dict["PORT"] = "1"
    try:
        response = client.get("/healthz")
    finally:
        connection.close()
        connection.settings_dict["PORT"] = original_port
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["database"]
    assert body["database"]["status"] == "down"
    assert body["redis"]["status"] == "ok"


def test_healthz_refuses_writes(client):
    assert client.post("/healthz").status_code == 405


def test_the_favicon_is_an_empty_answer_that_sets_no_cookie(client) -> None:
    """A browser's first request for /favicon.ico must not set a new CSRF cookie (a 404
    page would), racing the page it loads alongside."""
    response = client.get("/favicon.ico")
    assert response.status_code == 204 and not response.content
    assert "csrftoken" not in response.cookies
