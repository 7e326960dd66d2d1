"""The sign-up's API (issue 30): ``POST /api/v1/auth/signup/`` with the page's rules and
throttle, and staff's ``GET /api/v1/signups/`` and approve/refuse with the version check.
Every refusal has its stable code and leaves the database as it was."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail

from games.models import Player, SignUp
from games.players.signup import mails, services
from tests.factories import PlayerFactory, UserFactory, UserPlayerFactory, api_client

pytestmark = pytest.mark.django_db

PASSWORD = "Backgammon-2025-tavasz"
User = get_user_model()
BODY = {
    "name": "Szabó Lili",
    "username": "lili",
    "email": "lili@example.org",
    "password": PASSWORD,
}


def _post(body, client=None):
    return (client or api_client()).post("/api/v1/auth/signup/", body, format="json")


def _confirm_last():
    token = re.search(r"/accounts/signup/confirm/(\S+)/", mail.outbox[-1].body).group(1)
    ident, version = mails.confirmation_read(token)
    return services.signup_confirm(signup_id=ident, version=version, site_url="x").signup


def _state():
    return (
        sorted(User.objects.values_list("username", "is_active")),
        sorted(SignUp.objects.values_list("state", "version")),
        sorted(Player.objects.values_list("name", "user_id")),
    )


def test_sign_up_answers_202_and_mails_the_link() -> None:
    services.club_settings_set_signup(mode="open")
    answer = _post(BODY)
    assert answer.status_code == 202, answer.json()
    assert answer.json()["state"] == "confirmation_sent"
    assert SignUp.objects.get().username == "lili"
    assert mail.outbox[0].to == ["lili@example.org"]


def test_an_address_already_used_gets_the_same_answer() -> None:
    services.club_settings_set_signup(mode="open")
    UserFactory(username="old", email="lili@example.org")
    answer = _post(BODY)
    assert answer.status_code == 202 and answer.json()["state"] == "confirmation_sent"
    assert not SignUp.objects.exists()
    assert "old" in mail.outbox[0].body


@pytest.mark.parametrize(
    ("change", "status", "code"),
    [
        ({"name": "\u202eAnna"}, 400, "invalid_name"),
        ({"username": "a b"}, 400, "invalid_username"),
        ({"email": "nope"}, 400, "invalid_email"),
        ({"password": "1234"}, 400, "invalid_password"),
        ({"claim": True}, 400, "nothing_to_claim"),
        ({"username": "Taken"}, 409, "username_taken"),
        ({"name": "kovacs anna"}, 409, "name_taken"),
        ({"password": None}, 400, "invalid"),
    ],
)
def test_refusals_have_their_codes_and_change_nothing(change, status, code) -> None:
    services.club_settings_set_signup(mode="open")
    UserFactory(username="taken")
    PlayerFactory(name="Kovács Anna")
    before = _state()
    answer = _post({**BODY, **change})
    assert answer.status_code == status, answer.json()
    assert answer.json()["code"] == code
    assert _state() == before and mail.outbox == []


def test_the_claim_is_offered_by_its_answer() -> None:
    services.club_settings_set_signup(mode="open")
    PlayerFactory(name="Kovács Anna")
    answer = _post({**BODY, "name": "Kovács Anna"}).json()
    assert answer["code"] == "name_taken" and answer["claimable"] is True
    assert _post({**BODY, "name": "Kovács Anna", "claim": True}).status_code == 202
    assert SignUp.objects.get().claim.name == "Kovács Anna"


def test_closed_sign_up_is_403() -> None:
    answer = _post(BODY)
    assert answer.status_code == 403 and answer.json()["code"] == "signup_closed"
    assert not User.objects.exists()


def test_sign_up_is_throttled_per_address_429() -> None:
    services.club_settings_set_signup(mode="open")
    rate = int(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["signup"].split("/")[0])
    client = api_client()
    for i in range(rate):
        assert _post({**BODY, "username": "a b"}, client).status_code == 400, i
    refused = _post(BODY, client)
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled"
    assert int(refused["Retry-After"]) > 0
    assert not SignUp.objects.exists()


@pytest.fixture
def staff():
    return api_client(UserFactory(username="boss", is_staff=True))


def test_staff_list_the_waiting_sign_ups_with_the_claimed_players_record(staff) -> None:
    services.club_settings_set_signup(mode="approved")
    anna = PlayerFactory(name="Kovács Anna", rating=1700, experience=40)
    _post({**BODY, "name": "Kovács Anna", "claim": True})
    _confirm_last()
    _post({**BODY, "name": "Nagy Ödön", "username": "odon", "email": "o@example.org"})
    listed = staff.get("/api/v1/signups/").json()
    (row,) = listed["results"]  # the unconfirmed one is not waiting
    assert row["claim"]["id"] == anna.pk and row["claim"]["rating"] == "1700.00"
    assert row["claim"]["experience"] == 40 and row["state"] == "waiting"
    unconfirmed = staff.get("/api/v1/signups/?state=unconfirmed").json()["results"]
    assert [r["username"] for r in unconfirmed] == ["odon"] and unconfirmed[0]["claim"] is None
    bad = staff.get("/api/v1/signups/?state=maybe")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_state"


def test_the_list_and_decisions_are_for_staff_only() -> None:
    services.club_settings_set_signup(mode="approved")
    _post(BODY)
    signup = _confirm_last()
    member = api_client(UserPlayerFactory().user)
    before = _state()
    assert api_client().get("/api/v1/signups/").status_code == 401
    assert member.get("/api/v1/signups/").status_code == 403
    refused = member.post(f"/api/v1/signups/{signup.pk}/approve/", {}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "permission_denied"
    assert _state() == before


def test_approve_then_again_is_409_and_changes_nothing(staff) -> None:
    services.club_settings_set_signup(mode="approved")
    _post(BODY)
    signup = _confirm_last()
    stale = staff.post(
        f"/api/v1/signups/{signup.pk}/approve/", {"version": signup.version + 5}, format="json"
    )
    assert stale.status_code == 409 and stale.json()["code"] == "stale_signup"
    assert stale.json()["version"] == signup.version
    done = staff.post(
        f"/api/v1/signups/{signup.pk}/approve/", {"version": signup.version}, format="json"
    )
    assert done.status_code == 200 and done.json()["state"] == "approved"
    assert done.json()["player"] == User.objects.get(username="lili").player.pk
    before = _state()
    again = staff.post(f"/api/v1/signups/{signup.pk}/refuse/", {}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "signup_not_waiting"
    assert _state() == before
    missing = staff.post("/api/v1/signups/999999/approve/", {}, format="json")
    assert missing.status_code == 404 and missing.json()["code"] == "signup_not_found"


def test_refuse_deletes_the_login(staff) -> None:
    services.club_settings_set_signup(mode="approved")
    _post(BODY)
    signup = _confirm_last()
    done = staff.post(
        f"/api/v1/signups/{signup.pk}/refuse/", {"version": signup.version}, format="json"
    )
    assert done.status_code == 200 and done.json()["state"] == "refused"
    assert not User.objects.filter(username="lili").exists()


def test_the_schema_has_the_sign_up_endpoints() -> None:
    schema = api_client().get("/api/schema/?format=json").json()
    for path in (
        "/api/v1/auth/signup/",
        "/api/v1/signups/",
        "/api/v1/signups/{signup_id}/approve/",
        "/api/v1/signups/{signup_id}/refuse/",
    ):
        assert path in schema["paths"], path
    assert "429" in schema["paths"]["/api/v1/auth/signup/"]["post"]["responses"]


def test_resend_answers_the_same_for_any_address_and_is_throttled(wall) -> None:
    services.club_settings_set_signup(mode="open")
    _post(BODY)
    wall.advance(seconds=61)
    client = api_client()
    known = client.post("/api/v1/auth/signup/resend/", {"email": "lili@example.org"})
    unknown = client.post("/api/v1/auth/signup/resend/", {"email": "who@example.org"})
    assert known.status_code == unknown.status_code == 202
    assert known.json() == unknown.json()
    assert [m.to for m in mail.outbox] == [["lili@example.org"]] * 2
    missing = client.post("/api/v1/auth/signup/resend/", {}, format="json")
    assert missing.status_code == 400 and missing.json()["code"] == "invalid"
    rate = int(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["signup"].split("/")[0])
    for _i in range(rate - 4):  # one sign-up and three resends counted already
        client.post("/api/v1/auth/signup/resend/", {"email": "who@example.org"})
    refused = client.post("/api/v1/auth/signup/resend/", {"email": "lili@example.org"})
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"
