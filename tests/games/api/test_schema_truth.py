"""The schema says what the server does (issue 16, "Keep the probe"): the refusals each
operation can give are declared, and a query value out of its declared choices is
refused with 400 ``invalid_<name>`` instead of being ignored. The schemathesis run
(tests/games/api/test_schemathesis.py) checks the same over every operation; these name the
cases it found."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

from tests.factories import UserPlayerFactory, api_client
from tests.tournaments.factories import EventFactory, flight_with, rated_players

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def paths():
    return SchemaGenerator().get_schema(request=None, public=True)["paths"]


def _statuses(paths, path, method):
    return set(paths[path][method]["responses"])


@pytest.mark.parametrize(
    ("path", "method", "declared"),
    [
        # a detail read: not found, and a token that is not valid
        ("/api/v1/games/{game_id}/", "get", {"200", "401", "404"}),
        ("/api/v1/players/{player_id}/", "get", {"200", "401", "404"}),
        # a write with a body: its refusals, the size limit and the media types
        ("/api/v1/matches/", "post", {"201", "400", "401", "403", "409", "413", "415"}),
        ("/api/v1/auth/token/", "post", {"200", "400", "401", "413", "415"}),
        # the version check of a game action and the start of a started match
        ("/api/v1/games/{game_id}/actions/", "post", {"200", "400", "403", "404", "409"}),
        ("/api/v1/matches/{match_id}/start/", "post", {"201", "401", "403", "404", "409"}),
        # a filter refuses values out of its choices
        ("/api/v1/ratings/", "get", {"200", "400"}),
        ("/api/v1/matches/", "get", {"200", "400"}),
    ],
)
def test_the_schema_declares_the_refusals(paths, path, method, declared):
    assert declared <= _statuses(paths, path, method)


def test_a_public_read_declares_no_permission_refusal(paths):
    assert "403" not in _statuses(paths, "/api/v1/players/", "get")
    assert "413" not in _statuses(paths, "/api/v1/players/", "get")


def test_a_declared_refusal_is_the_error_shape(paths):
    body = paths["/api/v1/games/{game_id}/"]["get"]["responses"]["404"]
    assert body["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ErrorOutput"
    }


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("/api/v1/matches/?status=nope", "invalid_status"),
        ("/api/v1/table-clocks/?status=nope", "invalid_status"),
        ("/api/v1/chouette/sessions/?status=nope", "invalid_status"),
        ("/api/v1/notifications/?unread=maybe", "invalid_unread"),
    ],
)
def test_a_filter_value_out_of_its_choices_is_refused(url, code):
    response = api_client(UserPlayerFactory().user).get(url)
    assert response.status_code == 400
    assert response.json()["code"] == code


def test_the_known_filter_values_still_work():
    client = api_client(UserPlayerFactory().user)
    for url in (
        "/api/v1/matches/?status=playing",
        "/api/v1/table-clocks/?status=all",
        "/api/v1/chouette/sessions/?status=ended",
        "/api/v1/notifications/?unread=true",
        "/api/v1/notifications/?unread=0",
    ):
        assert client.get(url).status_code == 200, url


def test_the_finishing_order_refuses_an_unknown_format():
    event = EventFactory()
    flight = flight_with(event, rated_players(4))
    client = api_client()
    url = f"/api/v1/flights/{flight.pk}/finishing-order/"
    assert client.get(f"{url}?as=xml").json()["code"] == "invalid_as"
    assert client.get(f"{url}?as=csv")["Content-Type"].startswith("text/csv")


def test_the_channels_refuse_a_form_and_change_nothing():
    """A form cannot carry the ``{kind: [channel, ...]}`` object: its JSON text in a form
    field was read as no choice at all and accepted (every choice reset)."""
    player = UserPlayerFactory()
    client = api_client(player.user)
    client.put(
        "/api/v1/notifications/channels/", {"channels": {"your_turn": ["in_app"]}}, format="json"
    )
    response = client.put(
        "/api/v1/notifications/channels/",
        {"channels": '{"your_turn": []}'},
        format="multipart",
    )
    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"
    got = client.get("/api/v1/notifications/channels/").json()["channels"]
    assert got["your_turn"] == ["in_app"]
