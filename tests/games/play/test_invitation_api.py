"""Invitations through the API (issue 18): creating a match you play in invites the
other player, who accepts (the match starts) or declines; the sender may withdraw; each
refusal has its status and code and changes nothing; the schema lists it all."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

from games.models import Game, Match, MatchInvitation
from tests.factories import PlayerFactory, UserFactory, UserPlayerFactory, api_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna():
    return UserPlayerFactory(name="Anna")


@pytest.fixture
def bence():
    return UserPlayerFactory(name="Bence")


def _create(client, a, b, **extra):
    return client.post(
        "/api/v1/matches/", {"player1": a.pk, "player2": b.pk, "length": 5, **extra}, format="json"
    )


def _answer(client, invitation_id, answer):
    return client.post(f"/api/v1/invitations/{invitation_id}/{answer}/")


def _state():
    return (
        list(Match.objects.values_list("pk", "status").order_by("pk")),
        list(MatchInvitation.objects.values_list("pk", "status").order_by("pk")),
        Game.objects.count(),
    )


def test_creating_a_match_invites_the_opponent_who_accepts(anna, bence):
    created = _create(api_client(anna.user), anna, bence, clock="usbgf")
    assert created.status_code == 201, created.json()
    match = created.json()
    assert match["status"] == "waiting" and match["current_game"] is None
    invitation = match["invitation"]
    assert invitation["status"] == "pending"
    assert (invitation["inviter"]["id"], invitation["invitee"]["id"]) == (anna.pk, bence.pk)

    # Both see it among their invitations; a stranger sees none.
    for who in (anna, bence):
        listed = api_client(who.user).get("/api/v1/invitations/?status=pending").json()
        assert [i["id"] for i in listed] == [invitation["id"]]
        assert listed[0]["match"] == match["id"] and listed[0]["length"] == 5
    assert api_client(UserPlayerFactory().user).get("/api/v1/invitations/").json() == []

    # The start endpoint does not pass the invitation by.
    refused = api_client(anna.user).post(f"/api/v1/matches/{match['id']}/start/")
    assert (refused.status_code, refused.json()["code"]) == (409, "invitation_pending")

    accepted = _answer(api_client(bence.user), invitation["id"], "accept")
    assert accepted.status_code == 200, accepted.json()
    body = accepted.json()
    assert body["status"] == "accepted" and body["answered_at"] is not None
    game = api_client(bence.user).get(f"/api/v1/games/{body['current_game']}/").json()
    assert game["match"] == match["id"] and game["number"] == 1
    detail = api_client(anna.user).get(f"/api/v1/matches/{match['id']}/").json()
    assert detail["status"] == "playing" and detail["invitation"]["status"] == "accepted"


def test_declining_and_withdrawing(anna, bence):
    first = _create(api_client(anna.user), anna, bence).json()
    declined = _answer(api_client(bence.user), first["invitation"]["id"], "decline")
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    assert declined.json()["current_game"] is None
    called_off = api_client(anna.user).get(f"/api/v1/matches/{first['id']}/").json()
    assert called_off["status"] == "cancelled"
    assert [m["id"] for m in api_client().get("/api/v1/matches/?status=cancelled").json()] == [
        first["id"]
    ]

    # Bence invites back (player 2 of his own match), then takes it back.
    second = _create(api_client(bence.user), anna, bence).json()
    assert second["invitation"]["inviter"]["id"] == bence.pk
    withdrawn = _answer(api_client(bence.user), second["invitation"]["id"], "withdraw")
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"


def test_refusals_have_their_codes_and_change_nothing(anna, bence):
    nobody = PlayerFactory(name="Cili")  # no login
    invitation = _create(api_client(anna.user), anna, bence).json()["invitation"]
    stranger = UserPlayerFactory(name="Dénes")
    before = _state()
    cases = [
        (_create(api_client(anna.user), anna, nobody), 400, "opponent_no_login"),
        (_create(api_client(anna.user), anna, stranger, start=True), 400, "invitation_required"),
        (_create(api_client(anna.user), anna, bence), 409, "invitation_exists"),
        (_create(api_client(bence.user), bence, anna), 409, "invitation_exists"),
        (_create(api_client(stranger.user), anna, bence), 403, "not_a_player"),
        (_answer(api_client(anna.user), invitation["id"], "accept"), 403, "not_invited"),
        (_answer(api_client(stranger.user), invitation["id"], "decline"), 403, "not_invited"),
        (_answer(api_client(bence.user), invitation["id"], "withdraw"), 403, "not_inviter"),
        (_answer(api_client(bence.user), 999_999, "accept"), 404, "invitation_not_found"),
        (_answer(api_client(UserFactory()), invitation["id"], "accept"), 403, "no_player"),
        (_answer(api_client(), invitation["id"], "accept"), 401, "not_authenticated"),
        (api_client().get("/api/v1/invitations/"), 401, "not_authenticated"),
        (api_client(bence.user).get("/api/v1/invitations/?status=maybe"), 400, "invalid_status"),
    ]
    for response, status, code in cases:
        assert (response.status_code, response.json()["code"]) == (status, code), response.json()
        assert response.json()["detail"]
    # The conflict names the open invitation.
    assert _create(api_client(anna.user), anna, bence).json()["invitation"] == invitation["id"]
    assert _state() == before
    # Answered once: the second answer is a conflict that says how it was answered.
    assert _answer(api_client(bence.user), invitation["id"], "accept").status_code == 200
    again = _answer(api_client(bence.user), invitation["id"], "decline")
    assert (again.status_code, again.json()["code"]) == (409, "invitation_answered")
    assert again.json()["status"] == "accepted"


def test_staff_may_arrange_a_match_between_two_others(anna, bence):
    staff = UserFactory(username="director", is_staff=True)
    UserPlayerFactory(name="Igazgató", user=staff)  # staff who play too
    arranged = _create(api_client(staff), anna, PlayerFactory(name="Cili"), start=True)
    assert arranged.status_code == 201, arranged.json()
    assert arranged.json()["status"] == "playing" and arranged.json()["invitation"] is None


def test_staff_without_a_player_may_arrange_a_match_between_two_others(anna, bence):
    """Issue 30, the probe: staff with no player of their own got 403 ``no_player``
    here, though the README says staff may arrange a match between two others."""
    staff = api_client(UserFactory(username="director", is_staff=True))
    arranged = _create(staff, anna, bence, start=True)
    assert arranged.status_code == 201, arranged.json()
    assert arranged.json()["status"] == "playing" and arranged.json()["invitation"] is None
    waiting = _create(staff, anna, PlayerFactory(name="Cili"))
    assert waiting.status_code == 201 and waiting.json()["status"] == "waiting"
    # Refusals keep their codes and leave nothing behind.
    before = _state()
    same = _create(staff, anna, anna)
    assert (same.status_code, same.json()["code"]) == (400, "same_player")
    bot = PlayerFactory(name="gnubg", bot="gnubg")
    refused = _create(staff, anna, bot)
    assert (refused.status_code, refused.json()["code"]) == (400, "bot_invitation_only")
    assert _state() == before


def test_a_user_without_a_player_who_is_not_staff_still_gets_no_player(anna, bence):
    response = _create(api_client(UserFactory()), anna, bence)
    assert (response.status_code, response.json()["code"]) == (403, "no_player")


def test_the_schema_lists_the_invitation_operations_and_refusals():
    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    assert {"400", "401", "403", "409"} <= set(paths["/api/v1/matches/"]["post"]["responses"])
    for answer in ("accept", "decline", "withdraw"):
        operation = paths[f"/api/v1/invitations/{{invitation_id}}/{answer}/"]["post"]
        assert {"200", "401", "403", "404", "409"} <= set(operation["responses"])
    listed = paths["/api/v1/invitations/"]["get"]
    assert [p["name"] for p in listed["parameters"]] == ["status"]
