"""The table clock API: public reading computed at the server's time, logged-in users
create, the creator and directors operate; refusals carry stable codes and, for a 409,
the clock as it is now. Time is injected through ``games.wallclock.now``."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import TableClock
from tests.factories import UserFactory
from tests.wall import T0

pytestmark = pytest.mark.django_db


def _client(user=None) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}", HTTP_ACCEPT_LANGUAGE="en")
    return client


@pytest.fixture
def owner():
    return _client(UserFactory(username="anna"))


def _create(client, **extra):
    body = {"label": "Table 7", "player1_name": "Anna", "player2_name": "Bence", **extra}
    return client.post("/api/v1/table-clocks/", body, format="json")


def _post(client, clock_id, action, **body):
    return client.post(f"/api/v1/table-clocks/{clock_id}/{action}/", body, format="json")


def test_create_needs_a_login_and_valid_settings(wall, owner):
    assert _create(_client(), clock="seed002").status_code == 401
    refused = _create(owner, clock="no-such-clock")
    assert (refused.status_code, refused.json()["code"]) == (400, "invalid_clock")
    refused = _create(owner, clock={"delay_ms": 1000, "reserve_ms": -5})
    assert (refused.status_code, refused.json()["code"]) == (400, "invalid_clock")
    assert TableClock.objects.count() == 0
    created = _create(owner, clock="usbgf", match_length=7, score=[3, 2])
    assert created.status_code == 201, created.json()
    body = created.json()
    assert body["status"] == "ready"
    assert body["players"] == [{"name": "Anna", "player": None}, {"name": "Bence", "player": None}]
    assert (body["preset"], body["match_length"], body["reserves_ms"]) == (
        "usbgf",
        7,
        [540_000] * 2,
    )
    assert body["settings"]["delay_ms"] == body["delay_ms"] == 12_000
    assert (body["running"], body["delay_left_ms"], body["deadline"]) == (None, None, None)


def test_reading_is_public_and_computed_at_the_servers_time(wall, owner):
    clock_id = _create(owner, clock="seed002").json()["id"]
    assert _post(owner, clock_id, "start", player=0).status_code == 200
    wall.advance(seconds=15)  # the 11 s delay, then 4 s of reserve
    body = _client().get(f"/api/v1/table-clocks/{clock_id}/").json()
    assert datetime.fromisoformat(body["server_time"]) == T0 + timedelta(seconds=15)
    assert (body["status"], body["version"], body["running"], body["turn"]) == ("running", 1, 0, 0)
    assert (body["delay_left_ms"], body["reserves_ms"]) == (0, [86_000, 90_000])
    assert datetime.fromisoformat(body["deadline"]) == T0 + timedelta(seconds=101)
    assert body["flagged"] is None
    listed = _client().get("/api/v1/table-clocks/").json()
    assert [c["id"] for c in listed] == [clock_id]
    assert listed[0]["reserves_ms"] == [86_000, 90_000]
    assert _client().get("/api/v1/table-clocks/?status=finished").json() == []
    missing = _client().get(f"/api/v1/table-clocks/{clock_id + 100}/")
    assert (missing.status_code, missing.json()["code"]) == (404, "table_clock_not_found")


def test_taps_switch_the_clock_and_refusals_carry_the_current_clock(wall, owner):
    clock_id = _create(owner, clock="seed002").json()["id"]
    started = _post(owner, clock_id, "start", player=0, version=0).json()
    wall.advance(seconds=20)
    tapped = _post(owner, clock_id, "tap", player=0, version=started["version"])
    assert tapped.status_code == 200, tapped.json()
    body = tapped.json()
    assert (body["running"], body["version"], body["delay_left_ms"]) == (1, 2, 11_000)
    assert body["reserves_ms"] == [81_000, 90_000]
    # A second tablet (or a double tap) with the old version.
    stale = _post(owner, clock_id, "tap", player=1, version=1)
    assert stale.status_code == 409
    assert (stale.json()["code"], stale.json()["version"]) == ("stale_version", 2)
    assert stale.json()["clock"]["running"] == 1
    # The half whose clock is not running.
    wrong = _post(owner, clock_id, "tap", player=0, version=2)
    assert (wrong.status_code, wrong.json()["code"]) == (409, "not_your_clock")
    assert wrong.json()["clock"]["version"] == 2
    assert TableClock.objects.get(pk=clock_id).version == 2
    missing_version = _post(owner, clock_id, "tap", player=1)
    assert (missing_version.status_code, missing_version.json()["code"]) == (400, "invalid")


def test_only_the_creator_and_directors_operate(wall, owner):
    clock_id = _create(owner, clock="wbgf-speed").json()["id"]
    assert _post(_client(), clock_id, "start", player=0).status_code == 401
    stranger = _post(_client(UserFactory(username="bence")), clock_id, "start", player=0)
    assert (stranger.status_code, stranger.json()["code"]) == (403, "not_clock_operator")
    director = _client(UserFactory(username="director", is_staff=True))
    assert _post(director, clock_id, "start", player=1).json()["running"] == 1
    wall.advance(seconds=4)
    paused = _post(director, clock_id, "pause", version=1).json()
    assert (paused["status"], paused["running"], paused["turn"]) == ("paused", None, 1)
    assert paused["delay_left_ms"] == 5_000
    again = _post(director, clock_id, "pause")
    assert (again.status_code, again.json()["code"]) == (409, "clock_paused")
    wall.advance(minutes=5)
    resumed = _post(owner, clock_id, "resume", version=2).json()
    assert (resumed["status"], resumed["running"], resumed["delay_left_ms"]) == (
        "running",
        1,
        5_000,
    )
    finished = _post(director, clock_id, "finish").json()
    assert finished["status"] == "finished"
    assert _client().get("/api/v1/table-clocks/").json() == []


def test_a_read_after_the_deadline_records_the_flag(wall, owner):
    clock_id = _create(owner, clock={"delay_ms": 2_000, "reserve_ms": 3_000}).json()["id"]
    _post(owner, clock_id, "start", player=1)
    wall.advance(seconds=6)
    body = _client().get(f"/api/v1/table-clocks/{clock_id}/").json()
    assert (body["status"], body["flagged"], body["reserves_ms"]) == ("flagged", 1, [3_000, 0])
    clock = TableClock.objects.get(pk=clock_id)
    assert (clock.status, clock.flagged_index, clock.version) == ("flagged", 1, 2)
    tap = _post(owner, clock_id, "tap", player=1, version=2)
    assert (tap.status_code, tap.json()["code"]) == (409, "clock_flagged")


def test_the_table_clock_api_is_in_the_openapi_schema():
    schema = _client().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path in (
        "/api/v1/table-clocks/",
        "/api/v1/table-clocks/{clock_id}/",
        "/api/v1/table-clocks/{clock_id}/start/",
        "/api/v1/table-clocks/{clock_id}/tap/",
        "/api/v1/table-clocks/{clock_id}/pause/",
        "/api/v1/table-clocks/{clock_id}/resume/",
        "/api/v1/table-clocks/{clock_id}/finish/",
    ):
        assert path in schema["paths"], path
    tap = schema["paths"]["/api/v1/table-clocks/{clock_id}/tap/"]["post"]
    assert {"200", "409"} <= set(tap["responses"])
    assert "TableClockOutput" in schema["components"]["schemas"]
