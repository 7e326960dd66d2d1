"""The notifications API: the requester's list (newest first, unread count), mark read,
channel choices per kind; refusals as {"code", "detail"}, also in the OpenAPI schema."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.notifications.services import notify
from tests.factories import UserFactory, UserPlayerFactory

pytestmark = pytest.mark.django_db


def _client(user) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}", HTTP_ACCEPT_LANGUAGE="en")
    return client


@pytest.fixture
def anna():
    return UserPlayerFactory(name="Anna")


@pytest.fixture
def api(anna):
    return _client(anna.user)


def _notify(recipient, subject, kind="double_offered"):
    return notify(
        recipient=recipient,
        kind=kind,
        subject=subject,
        context={"match": 3, "opponent": "Bence", "cube": 2},
    )


def test_the_list_is_the_requesters_newest_first_with_the_unread_count(api, anna):
    first = _notify(anna, "game:1:v1")
    second = _notify(anna, "game:1:v5")
    _notify(UserPlayerFactory(), "game:1:v1")
    api.post(f"/api/v1/notifications/{first.pk}/read/")
    body = api.get("/api/v1/notifications/").json()
    assert body["count"] == 2 and body["unread_count"] == 1
    assert [n["id"] for n in body["results"]] == [second.pk, first.pk]
    item = body["results"][0]
    assert item["kind"] == "double_offered"
    assert item["subject"] == "game:1:v5"
    assert item["title"] == "Bence doubles"
    assert item["body"] == "Bence offers the cube at 2: take or drop."
    assert item["url"] == "/matches/3/"
    assert item["read"] is False and item["read_at"] is None
    assert body["results"][1]["read"] is True


def test_unread_only_and_paging(api, anna):
    for n in range(5):
        _notify(anna, f"game:1:v{n}")
    body = api.get("/api/v1/notifications/?limit=2").json()
    assert len(body["results"]) == 2 and body["count"] == 5 and body["next"]
    api.post("/api/v1/notifications/read-all/")
    body = api.get("/api/v1/notifications/?unread=true").json()
    assert body == {"count": 0, "unread_count": 0, "next": None, "previous": None, "results": []}


def test_mark_read(api, anna):
    notification = _notify(anna, "game:1:v1")
    response = api.post(f"/api/v1/notifications/{notification.pk}/read/")
    assert response.status_code == 200
    assert response.json()["read"] is True
    again = api.post(f"/api/v1/notifications/{notification.pk}/read/")
    assert again.json()["read_at"] == response.json()["read_at"]


def test_another_players_notification_is_not_found(api):
    theirs = _notify(UserPlayerFactory(), "game:1:v1")
    response = api.post(f"/api/v1/notifications/{theirs.pk}/read/")
    assert response.status_code == 404
    assert response.json() == {
        "code": "notification_not_found",
        "detail": "There is no notification with this id.",
    }


def test_mark_all_read(api, anna):
    for n in range(3):
        _notify(anna, f"game:1:v{n}")
    response = api.post("/api/v1/notifications/read-all/")
    assert response.json() == {"marked": 3, "unread_count": 0}


def test_channels_get_and_put(api, anna):
    body = api.get("/api/v1/notifications/channels/").json()
    assert body["channels"]["your_turn"] == []
    assert body["channels"]["lost_on_time"] == ["in_app", "email"]
    assert body["available_channels"] == ["in_app", "email", "webhook"]
    kinds = {k["code"]: k for k in body["kinds"]}
    assert kinds["win_claimable"]["label"] == "Win on time to claim"
    assert kinds["double_offered"]["default_channels"] == ["in_app"]

    response = api.put(
        "/api/v1/notifications/channels/",
        {"channels": {"your_turn": ["email", "in_app"], "time_low": []}},
        format="json",
    )
    assert response.status_code == 200
    assert response.json()["channels"]["your_turn"] == ["in_app", "email"]
    assert response.json()["channels"]["time_low"] == []
    anna.refresh_from_db()
    assert anna.notification_channels == {"your_turn": ["in_app", "email"], "time_low": []}


@pytest.mark.parametrize(
    ("channels", "code"),
    [
        ({"no_such_kind": []}, "unknown_notification_kind"),
        ({"your_turn": ["fax"]}, "unknown_notification_channel"),
        ({"your_turn": "email"}, "invalid"),
        ("email", "invalid"),
    ],
)
def test_channels_refused_change_nothing(api, anna, channels, code):
    if isinstance(channels, dict):
        channels = {"time_low": ["email"], **channels}  # a valid entry first: not kept either
    response = api.put("/api/v1/notifications/channels/", {"channels": channels}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert response.json()["detail"]
    anna.refresh_from_db()
    assert anna.notification_channels == {}


def test_login_and_a_player_are_required():
    anonymous = APIClient()
    response = anonymous.get("/api/v1/notifications/")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    response = _client(UserFactory()).get("/api/v1/notifications/channels/")
    assert response.status_code == 403
    assert response.json()["code"] == "no_player"


def test_an_account_without_a_player_reads_an_empty_list():
    """Issue 30, the probe: staff without a player got 403 ``no_player`` reading their
    notifications. They have none: an empty page. Choosing channels (stored on the
    player) stays refused."""
    for user in (UserFactory(is_staff=True), UserFactory()):
        response = _client(user).get("/api/v1/notifications/")
        assert response.status_code == 200
        assert response.json() == {
            "count": 0,
            "unread_count": 0,
            "next": None,
            "previous": None,
            "results": [],
        }
        assert _client(user).get("/api/v1/notifications/?unread=true").json()["results"] == []


def test_the_schema_describes_the_endpoints_and_their_errors(api):
    schema = api.get("/api/schema/", {"format": "json"}).json()
    paths = schema["paths"]
    for path in (
        "/api/v1/notifications/",
        "/api/v1/notifications/{notification_id}/read/",
        "/api/v1/notifications/read-all/",
        "/api/v1/notifications/channels/",
    ):
        assert path in paths, path
    read = paths["/api/v1/notifications/{notification_id}/read/"]["post"]["responses"]
    error = read["404"]["content"]["application/json"]["schema"]["$ref"]
    assert error == "#/components/schemas/ErrorOutput"
    assert set(schema["components"]["schemas"]["ErrorOutput"]["properties"]) == {"code", "detail"}
    assert "400" in paths["/api/v1/notifications/channels/"]["put"]["responses"]
    listed = paths["/api/v1/notifications/"]["get"]["responses"]["200"]
    ref = listed["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    assert "unread_count" in schema["components"]["schemas"][ref]["properties"]
