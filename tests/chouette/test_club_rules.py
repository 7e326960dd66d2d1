"""Chouette club rules of issue 19 on PostgreSQL: proxies for an absent member's cube
decisions, the rotation variants through the services, and splitting a chouette of eight
into two; each through the services (refusals change nothing), the API and the pages."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db.models import Sum
from django.urls import reverse

from chouette import rules, selectors
from chouette.models import ChouetteEvent, ChouetteLine, ChouetteParticipant, ChouetteSession
from chouette.services.common import ledger_of, may_write
from chouette.services.games import game_record, game_undo_last
from chouette.services.proxies import participant_proxy_set
from chouette.services.seating import session_sit_out
from chouette.services.sessions import session_create, session_end, session_split
from chouette.services.summary import session_totals
from games.errors import Conflict, PermissionDenied, ValidationFailed
from tests.chouette.factories import players, scorekeeper, simple_entry, snapshot
from tests.factories import UserFactory, UserPlayerFactory, api_client

pytestmark = pytest.mark.django_db

EIGHT = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal")


def _session(names=EIGHT, *, profile=None, by=None, **kwargs) -> tuple[ChouetteSession, dict]:
    """A session seated in the order of ``names`` (the first in the box)."""
    cast = players(names)
    session = session_create(
        by=by or scorekeeper(),
        name=kwargs.pop("name", "Péntek"),
        player_ids=[cast[n].pk for n in names],
        order=[cast[n].pk for n in names],
        profile=profile,
        **kwargs,
    )
    return session, cast


def _ids(cast, *names):
    return [cast[n].pk for n in names]


# ====================================================================== proxies
def test_proxy_set_show_and_clear() -> None:
    session, cast = _session(("Ann", "Bob", "Cy", "Dee"))
    creator = session.created_by
    version = session.version
    row = participant_proxy_set(
        session_id=session.pk,
        by=cast["Cy"].user,  # the player themself
        player_id=cast["Cy"].pk,
        proxy_id=cast["Dee"].pk,
        expected_version=version,
    )
    assert row.proxy_id == cast["Dee"].pk
    session.refresh_from_db()
    assert session.version == version + 1
    assert selectors.session_proxies(session) == {cast["Cy"].pk: cast["Dee"].pk}
    board = selectors.scoreboard(session_id=session.pk)
    cy = next(s for s in board.seats if s.player_id == cast["Cy"].pk)
    assert (cy.proxy_id, cy.proxy_name) == (cast["Dee"].pk, "Dee")
    # A writer (the scorekeeper) clears it; no event, no line: the ledger is untouched.
    participant_proxy_set(session_id=session.pk, by=creator, player_id=cast["Cy"].pk, proxy_id=None)
    assert selectors.session_proxies(session) == {}
    assert not ChouetteEvent.objects.filter(session=session).exists()


@pytest.mark.parametrize(
    ("player", "proxy", "code", "error"),
    [
        ("Cy", "Cy", "proxy_self", ValidationFailed),
        ("Cy", "Out", "proxy_not_in_session", ValidationFailed),
        ("Out", "Cy", "not_a_participant", ValidationFailed),
        ("Cy", "Bob", "proxy_chained", Conflict),  # Bob is away himself
        ("Ann", "Dee", "proxy_chained", Conflict),  # Ann answers for Bob
        ("Cy", True, "invalid_player", ValidationFailed),
        ("Cy", "1", "invalid_player", ValidationFailed),
    ],
)
def test_proxy_refusals_change_nothing(player, proxy, code: str, error) -> None:
    session, cast = _session(("Ann", "Bob", "Cy", "Dee"))
    cast["Out"] = UserPlayerFactory(name="Out")
    participant_proxy_set(
        session_id=session.pk,
        by=session.created_by,
        player_id=cast["Bob"].pk,
        proxy_id=cast["Ann"].pk,
    )
    before = snapshot()
    with pytest.raises(error) as err:
        participant_proxy_set(
            session_id=session.pk,
            by=session.created_by,
            player_id=cast[player].pk,
            proxy_id=cast[proxy].pk if isinstance(proxy, str) and proxy in cast else proxy,
        )
    assert err.value.code == code
    assert snapshot() == before


def test_proxy_who_may() -> None:
    session, cast = _session(("Ann", "Bob", "Cy", "Dee"))
    stranger = UserPlayerFactory(name="Idegen").user
    before = snapshot()
    for user, code in ((stranger, "not_in_session"), (None, "not_logged_in")):
        with pytest.raises(PermissionDenied) as err:
            participant_proxy_set(
                session_id=session.pk, by=user, player_id=cast["Cy"].pk, proxy_id=cast["Dee"].pk
            )
        assert err.value.code == code
    # Another player of the session (a writer), the box included, names nobody's proxy
    # but their own (R13 online): 403 proxy_not_yours, nothing written.
    for other in ("Ann", "Bob"):
        with pytest.raises(PermissionDenied) as err:
            participant_proxy_set(
                session_id=session.pk,
                by=cast[other].user,
                player_id=cast["Cy"].pk,
                proxy_id=cast["Dee"].pk,
            )
        assert err.value.code == "proxy_not_yours"
    assert snapshot() == before
    with pytest.raises(Conflict) as stale:
        participant_proxy_set(
            session_id=session.pk,
            by=cast["Cy"].user,  # the player themself
            player_id=cast["Cy"].pk,
            proxy_id=cast["Dee"].pk,
            expected_version=session.version + 7,
        )
    assert stale.value.code == "stale_version"
    # The player themself, the scorekeeper and staff may.
    for user in (cast["Cy"].user, scorekeeper(), UserFactory(is_staff=True)):
        participant_proxy_set(
            session_id=session.pk, by=user, player_id=cast["Cy"].pk, proxy_id=cast["Dee"].pk
        )
        assert selectors.session_proxies(session) == {cast["Cy"].pk: cast["Dee"].pk}
        participant_proxy_set(
            session_id=session.pk, by=user, player_id=cast["Cy"].pk, proxy_id=None
        )
    session_end(session_id=session.pk, by=session.created_by)
    before = snapshot()
    with pytest.raises(Conflict) as ended:
        participant_proxy_set(
            session_id=session.pk, by=cast["Cy"].user, player_id=cast["Cy"].pk, proxy_id=None
        )
    assert ended.value.code == "session_ended"
    assert snapshot() == before


def test_proxy_on_the_database_refuses_self() -> None:
    from django.db import IntegrityError, transaction

    session, cast = _session(("Ann", "Bob", "Cy"))
    with pytest.raises(IntegrityError), transaction.atomic():
        ChouetteParticipant.objects.filter(session=session, player=cast["Cy"]).update(
            proxy=cast["Cy"]
        )


def test_proxy_page_and_api() -> None:
    session, cast = _session(("Ann", "Bob", "Cy", "Dee"))
    base = f"/api/v1/chouette/sessions/{session.pk}"
    # Ann names nobody's proxy but her own: 403 proxy_not_yours.
    refused = api_client(cast["Ann"].user).post(
        f"{base}/proxy/", {"player": cast["Cy"].pk, "proxy": cast["Dee"].pk}, format="json"
    )
    assert refused.status_code == 403 and refused.json()["code"] == "proxy_not_yours"
    client = api_client(cast["Cy"].user)
    response = client.post(
        f"{base}/proxy/", {"player": cast["Cy"].pk, "proxy": cast["Dee"].pk}, format="json"
    )
    assert response.status_code == 200, response.content
    cy = next(p for p in response.json()["players"] if p["player"] == cast["Cy"].pk)
    assert (cy["proxy"], cy["proxy_name"]) == (cast["Dee"].pk, "Dee")
    before = snapshot()
    refused = api_client(cast["Dee"].user).post(
        f"{base}/proxy/", {"player": cast["Dee"].pk, "proxy": cast["Cy"].pk}, format="json"
    )
    assert refused.status_code == 409 and refused.json()["code"] == "proxy_chained"
    assert client.post(f"{base}/proxy/", {"player": "x"}, format="json").status_code == 400
    assert api_client().post(f"{base}/proxy/", {}, format="json").status_code == 401
    stranger = api_client(UserFactory())
    response = stranger.post(
        f"{base}/proxy/", {"player": cast["Dee"].pk, "proxy": None}, format="json"
    )
    assert response.status_code == 403
    assert snapshot() == before

    # The page: "Cy (proxy: Dee)" on the scoreboard; Ann's form offers only Ann, and a
    # post for Cy is refused; Cy's form clears it.
    url = reverse("chouette:proxy", kwargs={"session_id": session.pk})
    ann = _web(cast["Ann"].user)
    page = ann.get(reverse("chouette:scoreboard", kwargs={"session_id": session.pk}))
    assert "(proxy: Dee)" in page.text and 'id="proxy-form"' in page.text
    form = page.text[page.text.index('id="proxy-player"') :]
    form = form[: form.index("</select>")]
    assert f'value="{cast["Ann"].pk}"' in form and f'value="{cast["Cy"].pk}"' not in form
    session.refresh_from_db()
    response = ann.post(
        url,
        {"player": cast["Cy"].pk, "proxy": "", "expected_version": session.version},
        follow=True,
    )
    assert "may name their proxy" in response.text
    assert selectors.session_proxies(session) == {cast["Cy"].pk: cast["Dee"].pk}
    web = _web(cast["Cy"].user)
    response = web.post(
        url,
        {"player": cast["Cy"].pk, "proxy": "", "expected_version": session.version},
        follow=True,
    )
    assert "Cy takes their own cube decisions again." in response.text
    assert selectors.session_proxies(session) == {}
    response = web.post(url, {"player": cast["Cy"].pk, "proxy": cast["Cy"].pk}, follow=True)
    assert "nobody is their own proxy" in response.text
    assert web.post(url, {"player": "x"}).status_code == 302
    assert selectors.session_proxies(session) == {}


def _web(user):
    from django.test import Client

    client = Client()
    client.cookies["django_language"] = "en"
    client.force_login(user)
    return client


# ====================================================================== rotation variants
def _line_names(session: ChouetteSession, cast) -> list[str]:
    session.refresh_from_db()
    names = {p.pk: n for n, p in cast.items()}
    seating = session.seating
    return [names[seating["box"]]] + [names[p] for p in seating["line"]]


def test_double_stand_up_through_the_services() -> None:
    session, cast = _session(
        ("Ann", "Bob", "Cy", "Dee"), profile={"kind": "individual", "rotation": "double_stand_up"}
    )
    # Ann in the box beats Bob (cube 1) but drops Cy's and Dee's doubles: net -1.
    entry = {
        "box": cast["Ann"].pk,
        "captain": cast["Bob"].pk,
        "members": [
            {"player": cast["Bob"].pk, "cube": 1, "fate": "took"},
            {"player": cast["Cy"].pk, "cube": 2, "fate": "box_dropped"},
            {"player": cast["Dee"].pk, "cube": 2, "fate": "box_dropped"},
        ],
        "winner": "box",
        "kind": "single",
    }
    game_record(session_id=session.pk, by=session.created_by, entry=entry)
    assert _line_names(session, cast) == ["Cy", "Dee", "Bob", "Ann"]  # both stood up
    assert session_totals(session)[cast["Ann"].pk] == -1
    # Undo restores the seating exactly.
    game_undo_last(session_id=session.pk, by=session.created_by)
    assert _line_names(session, cast) == ["Ann", "Bob", "Cy", "Dee"]


def test_rotation_variants_in_the_form_and_the_api() -> None:
    user = scorekeeper()
    web = _web(user)
    page = web.get(reverse("chouette:session-list"))
    for variant in rules.ROTATION_VARIANTS:
        assert f'value="{variant}"' in page.text and f'data-rotation="{variant}"' in page.text
    assert "both stand up" in page.text
    cast = players(("Ann", "Bob", "Cy"), with_login=False)
    response = web.post(
        reverse("chouette:session-create"),
        {
            "name": "Hétfő",
            "players": [p.pk for p in cast.values()],
            "kind": "classic",
            "rotation": "net_profit_decides",
            "automatic_doubles": "0",
            "backgammon_value": "3",
            "split_min_players": "9",
            "currency": "HUF",
        },
    )
    assert response.status_code == 302, response.content
    session = ChouetteSession.objects.get(name="Hétfő")
    assert session.profile["rotation"] == "net_profit_decides"
    assert session.profile["split_min_players"] == 9
    client = api_client(user)
    created = client.post(
        "/api/v1/chouette/sessions/",
        {
            "name": "API",
            "seating": [p.pk for p in cast.values()],
            "profile": {"rotation": "double_stand_up"},
        },
        format="json",
    )
    assert created.status_code == 201 and created.json()["profile"]["rotation"] == "double_stand_up"
    before = snapshot()
    refused = client.post(
        "/api/v1/chouette/sessions/",
        {"name": "API", "seating": [p.pk for p in cast.values()], "profile": {"rotation": "x"}},
        format="json",
    )
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_rotation"
    assert snapshot() == before


# ====================================================================== split
def _ledger_sums(session: ChouetteSession) -> int:
    return (
        ChouetteLine.objects.filter(session=session, event__undone=False).aggregate(
            total=Sum("points")
        )["total"]
        or 0
    )


def test_split_by_default_every_second_player_of_the_line() -> None:
    session, cast = _session(stake_per_point=Decimal("100"), currency="HUF")
    creator = session.created_by
    game_record(session_id=session.pk, by=creator, entry=simple_entry(session))
    session.refresh_from_db()
    totals_before = session_totals(session)
    participant_proxy_set(  # inside the movers: goes with them
        session_id=session.pk, by=creator, player_id=cast["Cy"].pk, proxy_id=cast["Eve"].pk
    )
    participant_proxy_set(  # across the halves: cleared
        session_id=session.pk, by=creator, player_id=cast["Ann"].pk, proxy_id=cast["Flo"].pk
    )
    session.refresh_from_db()
    new = session_split(
        session_id=session.pk,
        by=creator,
        player_ids_to_move=None,
        name="Péntek (2)",
        expected_version=session.version,
    )
    # After the first game (the team won) Bob had the box, Cy was captain: every second
    # player of the line from the captain moves.
    session.refresh_from_db()
    assert _line_names(session, cast) == ["Bob", "Dee", "Flo", "Hal"]
    assert _line_names(new, cast) == ["Cy", "Eve", "Gus", "Ann"]
    assert set(session.seating["out"]) == set(_ids(cast, "Cy", "Eve", "Gus", "Ann"))
    assert new.profile == session.profile and new.split_from_id == session.pk
    assert (new.stake_per_point, new.currency) == (Decimal("100.00"), "HUF")
    assert new.start_seating == new.seating and new.rolls == [] and not new.rolled_by_server
    # The totals stay in the original's ledger, still zero-sum; the new one is at zero.
    assert session_totals(session) == totals_before
    assert _ledger_sums(session) == 0
    assert set(session_totals(new).values()) == {0}
    assert ledger_of(session).seating.to_dict() == session.seating
    assert selectors.session_proxies(session) == {}
    assert selectors.session_proxies(new) == {cast["Cy"].pk: cast["Eve"].pk}


def test_split_chosen_players_and_proxies() -> None:
    session, cast = _session()
    creator = session.created_by
    for player, proxy in (("Cy", "Dee"), ("Ann", "Flo"), ("Gus", "Bob")):
        participant_proxy_set(
            session_id=session.pk, by=creator, player_id=cast[player].pk, proxy_id=cast[proxy].pk
        )
    new = session_split(
        session_id=session.pk,
        by=creator,
        player_ids_to_move=_ids(cast, "Hal", "Dee", "Ann", "Cy"),
        name="Második asztal",
    )
    # The box moved: the captain (Bob) took it here; the movers sit in their old order.
    assert _line_names(new, cast) == ["Ann", "Cy", "Dee", "Hal"]
    assert _line_names(session, cast) == ["Bob", "Eve", "Flo", "Gus"]
    assert selectors.session_proxies(new) == {cast["Cy"].pk: cast["Dee"].pk}
    assert selectors.session_proxies(session) == {cast["Gus"].pk: cast["Bob"].pk}
    # Four seat changes (sit out) in the original's log, nothing in the new one's.
    kinds = list(ChouetteEvent.objects.filter(session=session).values_list("kind", "data__action"))
    assert kinds == [("seat_change", "sit_out")] * 4
    assert not ChouetteEvent.objects.filter(session=new).exists()
    # The players who moved may write to the new session; one who stayed may not.
    assert may_write(cast["Hal"].user, new)
    assert not may_write(cast["Bob"].user, new)


@pytest.mark.parametrize(
    ("names", "move", "code", "error"),
    [
        (EIGHT[:7], None, "split_too_few_players", Conflict),
        (EIGHT, ["Bob", "Cy"], "split_side_too_small", ValidationFailed),
        (
            EIGHT,
            ["Bob", "Cy", "Dee", "Eve", "Flo", "Gus"],
            "split_side_too_small",
            ValidationFailed,
        ),
        (EIGHT, ["Bob", "Cy", "Bob"], "duplicate_player", ValidationFailed),
        (EIGHT, ["Bob", "Cy", "Idegen"], "split_not_seated", ValidationFailed),
        (EIGHT, ["Bob", "Cy", True], "invalid_player", ValidationFailed),
        (EIGHT, ["Bob", "Cy", None], "invalid_player", ValidationFailed),
        (EIGHT, "Bob", "invalid_player", ValidationFailed),
    ],
)
def test_split_refusals_change_nothing(names, move, code: str, error) -> None:
    session, cast = _session(names)
    cast["Idegen"] = UserPlayerFactory(name="Idegen")
    if isinstance(move, list):
        move = [cast[m].pk if isinstance(m, str) else m for m in move]
    before = snapshot()
    with pytest.raises(error) as err:
        session_split(
            session_id=session.pk, by=session.created_by, player_ids_to_move=move, name="Új"
        )
    assert err.value.code == code
    assert snapshot() == before


def test_split_who_may_and_when() -> None:
    session, cast = _session()
    before = snapshot()
    stranger = UserPlayerFactory(name="Idegen").user
    with pytest.raises(PermissionDenied):
        session_split(session_id=session.pk, by=stranger, player_ids_to_move=None, name="Új")
    with pytest.raises(ValidationFailed) as named:
        session_split(
            session_id=session.pk, by=session.created_by, player_ids_to_move=None, name=" "
        )
    assert named.value.code == "invalid_name"
    with pytest.raises(Conflict) as stale:
        session_split(
            session_id=session.pk,
            by=cast["Ann"].user,
            player_ids_to_move=None,
            name="Új",
            expected_version=session.version + 1,
        )
    assert stale.value.code == "stale_version"
    # Eight seated, one sitting out: seven seated is too few.
    session_sit_out(session_id=session.pk, by=session.created_by, player_id=cast["Hal"].pk)
    before = snapshot()
    with pytest.raises(Conflict) as few:
        session_split(
            session_id=session.pk, by=cast["Ann"].user, player_ids_to_move=None, name="Új"
        )
    assert few.value.code == "split_too_few_players"
    assert "8 seated players" in few.value.detail
    assert snapshot() == before
    # A profile that splits from six.
    six, _cast = _session(
        ("Ida", "Jon", "Kai", "Lea", "Max", "Ned"), profile={"split_min_players": 6}
    )
    new = session_split(session_id=six.pk, by=six.created_by, player_ids_to_move=None, name="Kettő")
    assert len(new.seating["line"]) == 2


def test_split_api() -> None:
    session, cast = _session()
    base = f"/api/v1/chouette/sessions/{session.pk}"
    client = api_client(cast["Bob"].user)
    before = snapshot()
    for body, status, code in (
        ({"name": "Új", "players": [cast["Bob"].pk]}, 400, "split_side_too_small"),
        ({"players": None}, 400, "invalid"),
        ({"name": "Új", "players": ["x"]}, 400, "invalid"),
        ({"name": "Új", "expected_version": 99}, 409, "stale_version"),
    ):
        response = client.post(f"{base}/split/", body, format="json")
        assert response.status_code == status, response.content
        assert response.json()["code"] == code
    assert api_client().post(f"{base}/split/", {"name": "x"}, format="json").status_code == 401
    stranger = api_client(UserFactory())
    assert stranger.post(f"{base}/split/", {"name": "x"}, format="json").status_code == 403
    assert snapshot() == before
    response = client.post(
        f"{base}/split/", {"name": "Új", "expected_version": session.version}, format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["split_from"] == session.pk and body["name"] == "Új"
    assert [s["name"] for s in body["seating"]["seats"]] == ["Bob", "Dee", "Flo", "Hal"]
    original = client.get(f"{base}/").json()
    assert original["split_from"] is None
    assert {s["name"] for s in original["seating"]["seats"] if s["role"] == "out"} == {
        "Bob",
        "Dee",
        "Flo",
        "Hal",
    }


def test_split_page() -> None:
    session, cast = _session()
    web = _web(cast["Ann"].user)
    url = reverse("chouette:scoreboard", kwargs={"session_id": session.pk})
    page = web.get(url)
    assert 'id="split-session"' in page.text
    # The default movers are checked: Bob, Dee, Flo, Hal (every second of the line).
    for name in ("Bob", "Dee", "Flo", "Hal"):
        assert f'value="{cast[name].pk}" id="split-move-{cast[name].pk}" checked' in page.text
    assert f'id="split-move-{cast["Cy"].pk}">' in page.text
    split = reverse("chouette:split", kwargs={"session_id": session.pk})
    refused = web.post(
        split,
        {"name": "Új", "move": [cast["Bob"].pk], "expected_version": session.version},
        follow=True,
    )
    assert "Each half of a split chouette needs three players or more." in refused.text
    response = web.post(
        split,
        {
            "name": "Új asztal",
            "move": _ids(cast, "Cy", "Eve", "Gus"),
            "expected_version": session.version,
        },
    )
    new = ChouetteSession.objects.get(name="Új asztal")
    assert response.status_code == 302 and response.url == reverse(
        "chouette:scoreboard", kwargs={"session_id": new.pk}
    )
    page = web.get(url)
    assert "Split into:" in page.text and "Új asztal" in page.text
    assert 'id="split-session"' not in page.text  # five seated now
    other = _web(cast["Cy"].user).get(response.url)
    assert "Split from:" in other.text
    # A session below eight shows no split form.
    small, small_cast = _session(("Ida", "Jon", "Kai"))
    page = _web(small_cast["Ida"].user).get(
        reverse("chouette:scoreboard", kwargs={"session_id": small.pk})
    )
    assert 'id="split-session"' not in page.text
