"""Issue 16, found by a probe of the server: who may start a chouette session and record
into it (a member of the session, the club's scorekeeper, staff; defect 10), and the
creator named in every answer of the API (defect 12)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from chouette.models import ChouetteSession
from chouette.services.common import may_write
from chouette.services.sessions import session_create
from games.errors import PermissionDenied
from tests.chouette.factories import players, scorekeeper, session_with, simple_entry, snapshot
from tests.factories import UserFactory, UserPlayerFactory, api_client

pytestmark = pytest.mark.django_db

SESSIONS = "/api/v1/chouette/sessions/"


def _body(cast, names=("Ann", "Bob", "Cy"), **extra):
    return {
        "name": "Dave owes Alice",
        "players": [cast[n].pk for n in names],
        "rolls": [{"player": cast[n].pk, "rolls": [6 - i]} for i, n in enumerate(names)],
        "stake_per_point": "100.00",
        "currency": "EUR",
        **extra,
    }


# ====================================================================== defect 10
def test_a_stranger_cannot_start_a_session_of_other_members() -> None:
    cast = players(("Ann", "Bob", "Cy"))
    stranger = UserPlayerFactory(name="Dave").user
    no_player = UserFactory()
    before = snapshot()
    for user in (stranger, no_player):
        response = api_client(user).post(SESSIONS, _body(cast), format="json")
        assert response.status_code == 403, response.content
        assert response.json()["code"] == "not_in_session"
        assert "scorekeeper" in response.json()["detail"]
    assert snapshot() == before
    with pytest.raises(PermissionDenied) as refused:
        session_create(by=stranger, name="Péntek", player_ids=[p.pk for p in cast.values()])
    assert refused.value.code == "not_in_session"
    assert snapshot() == before


def test_a_member_the_scorekeeper_and_staff_may_start_a_session() -> None:
    cast = players(("Ann", "Bob", "Cy"))
    keeper = scorekeeper()
    staff = UserFactory(is_staff=True)
    for user in (cast["Ann"].user, keeper, staff):
        response = api_client(user).post(SESSIONS, _body(cast), format="json")
        assert response.status_code == 201, response.content
    assert ChouetteSession.objects.count() == 3


def test_the_scorekeeper_permission_is_granted_through_a_group_too() -> None:
    from django.contrib.auth.models import Group, Permission

    cast = players(("Ann", "Bob", "Cy"))
    group = Group.objects.create(name="Scorekeepers")
    group.permissions.add(Permission.objects.get(codename="keep_score"))
    user = UserFactory()
    user.groups.add(group)
    response = api_client(user).post(SESSIONS, _body(cast), format="json")
    assert response.status_code == 201, response.content


def test_a_stranger_cannot_record_into_a_session_even_one_they_created() -> None:
    """The creator alone no longer counts: a scorekeeper who lost the permission (or a
    session started before this rule by someone not in it) may not record stakes."""
    cast = players()
    keeper = scorekeeper()
    session = session_with(cast, by=keeper)
    keeper = get_user_model().objects.get(pk=keeper.pk)
    keeper.user_permissions.clear()
    keeper = get_user_model().objects.get(pk=keeper.pk)  # no cached permissions
    before = snapshot()
    response = api_client(keeper).post(
        f"{SESSIONS}{session.pk}/games/", {"entry": simple_entry(session)}, format="json"
    )
    assert response.status_code == 403, response.content
    assert response.json()["code"] == "not_in_session"
    assert snapshot() == before
    assert not may_write(keeper, session)
    assert may_write(cast["Ann"].user, session)


def test_the_page_shows_the_refusal_keeps_the_form_and_writes_nothing(client) -> None:
    client.cookies["django_language"] = "en"
    cast = players(("Anna", "Béla", "Cili"), with_login=False)
    client.force_login(UserPlayerFactory(name="Dave").user)
    response = client.post(
        reverse("chouette:session-create"),
        {
            "name": "Dave owes Alice",
            "players": [p.pk for p in cast.values()],
            "stake_per_point": "2400",
            "currency": "EUR",
            "kind": "classic",
            "rotation": "standard",
            "automatic_doubles": "0",
            "backgammon_value": "3",
        },
    )
    assert response.status_code == 403
    assert "You may start a session only if you play in it" in response.text
    assert 'value="Dave owes Alice"' in response.text  # what was typed stays
    assert ChouetteSession.objects.count() == 0


# ====================================================================== defect 12
def test_every_answer_names_the_creator() -> None:
    cast = players(("Ann", "Bob", "Cy"))
    ann = cast["Ann"].user
    created = api_client(ann).post(SESSIONS, _body(cast), format="json")
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["created_by"] == ann.pk
    detail = api_client().get(f"{SESSIONS}{body['id']}/").json()
    assert detail["created_by"] == ann.pk
    [listed] = api_client().get(SESSIONS).json()
    assert listed["created_by"] == ann.pk
    session = ChouetteSession.objects.get()
    joined = api_client(ann).post(
        f"{SESSIONS}{session.pk}/join/", {"player": UserPlayerFactory().pk}, format="json"
    )
    assert joined.status_code == 200 and joined.json()["created_by"] == ann.pk


def test_a_stranger_on_a_session_page_is_told_who_may_write(client) -> None:
    client.cookies["django_language"] = "en"
    session = session_with(players())
    client.force_login(UserPlayerFactory(name="Dave").user)
    before = snapshot()
    for response in (
        client.get(reverse("chouette:game-entry", kwargs={"session_id": session.pk})),
        client.post(reverse("chouette:undo", kwargs={"session_id": session.pk})),
        client.post(reverse("chouette:end", kwargs={"session_id": session.pk})),
    ):
        assert response.status_code == 403
        assert "the club&#x27;s scorekeeper and staff may do this" in response.text
    assert snapshot() == before
