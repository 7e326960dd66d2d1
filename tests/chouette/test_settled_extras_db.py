"""Settlements and extras on PostgreSQL: the service, the API (400 with the rules' codes,
nothing written; what the games list returns; the schema) and the pages (the game entry's
settled points and extra rows, the games list, a player's own page).

The session (classic): Bob box, Ann captain, then Cy, Eve, Dee. The game: Ann settled for
+2 on the cube at 1, the others took; the box won a gammon (-2 each); Cy took an extra
from Eve at 2 for a price of 1 (Cy 1 - 4 = -3); Dee an even extra from Bob at 1 (-2)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from chouette.models import ChouetteEvent, ChouetteLine
from chouette.services.common import ledger_of
from chouette.services.games import game_record, game_undo_last
from chouette.services.summary import session_totals
from tests.chouette.factories import players, session_with, simple_entry, snapshot
from tests.factories import api_client

pytestmark = pytest.mark.django_db

EXPECTED = {"Bob": 4 + 2, "Ann": 2, "Cy": -2 - 3, "Eve": -2 + 3, "Dee": -2 - 2}


@pytest.fixture
def table():
    cast = players()
    session = session_with(cast)
    return cast, session


def _entry(cast: dict[str, Any], session) -> dict[str, Any]:
    entry = simple_entry(session, winner="box", kind="gammon")
    ann = cast["Ann"].pk
    entry["members"] = [
        {**m, "fate": "settled", "settled": 2} if m["player"] == ann else m
        for m in entry["members"]
    ]
    entry["extras"] = [
        {"taker": cast["Cy"].pk, "giver": cast["Eve"].pk, "stake": 2, "price": 1},
        {"taker": cast["Dee"].pk, "giver": cast["Bob"].pk, "stake": 1},
    ]
    return entry


def _by_name(cast: dict[str, Any], points: dict[int, int]) -> dict[str, int]:
    return {n: points[p.pk] for n, p in cast.items() if p.pk in points}


# ============================================================================ service
def test_a_game_with_a_settlement_and_extras_is_recorded(table) -> None:
    cast, session = table
    event = game_record(session_id=session.pk, by=session.created_by, entry=_entry(cast, session))
    lines = dict(ChouetteLine.objects.filter(event=event).values_list("player_id", "points"))
    assert _by_name(cast, lines) == EXPECTED
    assert sum(lines.values()) == 0
    stored = event.data
    assert stored["members"][0] == {
        "player": cast["Ann"].pk,
        "cube": 1,
        "fate": "settled",
        "beavers": 0,
        "raccoons": 0,
        "settled": 2,
    }
    assert all("settled" not in m for m in stored["members"][1:])
    assert stored["extras"][1] == {
        "taker": cast["Dee"].pk,
        "giver": cast["Bob"].pk,
        "stake": 1,
        "price": 0,
    }
    session.refresh_from_db()
    # Ann settled for +2: she beat the box and takes it; Cy is captain.
    assert session.seating["box"] == cast["Ann"].pk
    assert session.seating["line"][0] == cast["Cy"].pk
    # The ledger replays from what was stored.
    assert _by_name(cast, ledger_of(session).totals_dict()) == EXPECTED
    # Undo takes the extras back with the game.
    game_undo_last(session_id=session.pk, by=session.created_by)
    assert set(session_totals(session).values()) == {0}


def test_an_old_style_entry_is_stored_as_before(table) -> None:
    _cast, session = table
    event = game_record(session_id=session.pk, by=session.created_by, entry=simple_entry(session))
    assert "extras" not in event.data
    assert all(
        set(m) == {"player", "cube", "fate", "beavers", "raccoons"} for m in event.data["members"]
    )


# ============================================================================ API
def _base(session) -> str:
    return f"/api/v1/chouette/sessions/{session.pk}"


def test_the_api_records_and_returns_settlements_and_extras(table) -> None:
    cast, session = table
    client = api_client(cast["Ann"].user)
    preview = client.post(
        f"{_base(session)}/games/preview/", {"entry": _entry(cast, session)}, format="json"
    )
    assert preview.status_code == 200, preview.content
    points = {p["name"]: p["points"] for p in preview.json()["points"]}
    assert points == EXPECTED
    recorded = client.post(
        f"{_base(session)}/games/", {"entry": _entry(cast, session)}, format="json"
    )
    assert recorded.status_code == 201, recorded.content
    body = recorded.json()
    ann = next(m for m in body["members"] if m["name"] == "Ann")
    assert ann["fate"] == "settled" and ann["settled"] == 2 and ann["points"] == 2
    assert next(m for m in body["members"] if m["name"] == "Cy")["settled"] is None
    assert body["extras"] == [
        {
            "taker": cast["Cy"].pk,
            "taker_name": "Cy",
            "giver": cast["Eve"].pk,
            "giver_name": "Eve",
            "stake": 2,
            "price": 1,
            "points": -3,
        },
        {
            "taker": cast["Dee"].pk,
            "taker_name": "Dee",
            "giver": cast["Bob"].pk,
            "giver_name": "Bob",
            "stake": 1,
            "price": 0,
            "points": -2,
        },
    ]
    listed = api_client().get(f"{_base(session)}/games/").json()["results"][0]
    assert listed["extras"] == body["extras"]
    detail = api_client().get(f"{_base(session)}/").json()
    assert detail["games"][0]["extras"] == body["extras"]
    # A game without extras lists none.
    session.refresh_from_db()
    client.post(f"{_base(session)}/games/", {"entry": simple_entry(session)}, format="json")
    assert api_client().get(f"{_base(session)}/games/").json()["results"][0]["extras"] == []


def _member(entry: dict[str, Any], player: int, **change: Any) -> dict[str, Any]:
    entry["members"] = [{**m, **change} if m["player"] == player else m for m in entry["members"]]
    return entry


def _bad(cast: dict[str, Any], session, case: str) -> dict[str, Any]:
    entry = _entry(cast, session)
    ann, cy, eve, bob = (cast[n].pk for n in ("Ann", "Cy", "Eve", "Bob"))
    if case == "out_of_bounds":
        return _member(entry, ann, settled=4)  # cube 1: at most 3
    if case == "missing":
        return _member(entry, ann, settled=None)
    if case == "without_fate":
        return _member(entry, cy, settled=1)
    if case == "beyond_cube":  # classic: the team cube stayed at 1
        return _member(entry, ann, cube=2)
    extra = entry["extras"][0]
    changes = {
        "not_in_game": {"giver": 999999},
        "same_player": {"giver": cy},
        "taker_box": {"taker": bob, "giver": eve},
        "price": {"price": 2},
        "above_max": {"stake": 128},
    }
    if case in changes:
        entry["extras"] = [{**extra, **changes[case]}]
        return entry
    if case == "no_result":  # Ann settled, the others dropped: who gave up is not known
        entry["winner"] = entry["kind"] = None
        for p in (cy, eve, cast["Dee"].pk):
            _member(entry, p, cube=2, fate="dropped")
        return entry
    if case == "stake_zero":
        entry["extras"] = [{**extra, "stake": 0}]
        return entry
    if case == "too_many":
        entry["extras"] = [extra] * 33
        return entry
    raise AssertionError(case)


@pytest.mark.parametrize(
    ("case", "code"),
    [
        ("out_of_bounds", "settlement_out_of_bounds"),
        ("missing", "settlement_missing"),
        ("without_fate", "settlement_without_fate"),
        ("beyond_cube", "settled_beyond_cube"),
        ("not_in_game", "extra_not_in_game"),
        ("same_player", "extra_same_player"),
        ("taker_box", "extra_taker_not_member"),
        ("price", "invalid_extra_price"),
        ("above_max", "extra_stake_above_max"),
        ("no_result", "extra_without_result"),
        ("stake_zero", "invalid"),
        ("too_many", "invalid"),
    ],
)
@pytest.mark.parametrize("endpoint", ["games/", "games/preview/"])
def test_bad_settlements_and_extras_are_400_and_change_nothing(
    table, case: str, code: str, endpoint: str
) -> None:
    cast, session = table
    before = snapshot()
    response = api_client(cast["Ann"].user).post(
        f"{_base(session)}/{endpoint}", {"entry": _bad(cast, session, case)}, format="json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["code"] == code
    assert response.json()["detail"]
    assert snapshot() == before


def test_the_schema_says_what_settled_and_extras_mean(client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    components = schema["components"]["schemas"]
    for name in ("MemberInput", "MemberOutput"):
        text = components[name]["properties"]["settled"]["description"]
        assert "settled" in text and "backgammon value" in text, name
    fates = components["ChouetteFateEnum"]["enum"]
    assert "settled" in fates
    entry = components["EntryInput"]["properties"]["extras"]
    assert "side bets" in entry["description"] and "Jacoby" in entry["description"]
    assert set(components["ExtraInput"]["properties"]) == {"taker", "giver", "stake", "price"}
    assert "extras" in components["GameOutput"]["properties"]
    assert "points" in components["ExtraOutput"]["properties"]


# ============================================================================ pages
@pytest.fixture
def en(client):
    client.cookies["django_language"] = "en"
    return client


def _post(cast: dict[str, Any], session, action: str, **override: str) -> dict[str, str]:
    post = {
        "action": action,
        "expected_version": str(session.version),
        "box": str(cast["Bob"].pk),
        "captain": str(cast["Ann"].pk),
        "winner": "box",
        "kind": "gammon",
    }
    for n in ("Ann", "Cy", "Eve", "Dee"):
        post[f"cube-{cast[n].pk}"] = "1"
        post[f"fate-{cast[n].pk}"] = "took"
        post[f"settled-{cast[n].pk}"] = ""
    post[f"fate-{cast['Ann'].pk}"] = "settled"
    post[f"settled-{cast['Ann'].pk}"] = "2"
    post.update(
        {
            "extra_rows": "3",
            "extra-0-taker": str(cast["Cy"].pk),
            "extra-0-giver": str(cast["Eve"].pk),
            "extra-0-stake": "2",
            "extra-0-price": "1",
            "extra-1-taker": str(cast["Dee"].pk),
            "extra-1-giver": str(cast["Bob"].pk),
            "extra-1-stake": "1",
            "extra-1-price": "0",
            # A row left empty is no extra.
            "extra-2-taker": "",
            "extra-2-giver": "",
            "extra-2-stake": "2",
            "extra-2-price": "1",
        }
    )
    post.update(override)
    return post


def test_the_game_entry_with_a_settlement_and_extras(en, table) -> None:
    cast, session = table
    en.force_login(cast["Ann"].user)
    url = reverse("chouette:game-entry", kwargs={"session_id": session.pk})
    page = en.get(url)
    assert page.status_code == 200
    assert f'name="settled-{cast["Cy"].pk}"' in page.text
    assert '<option value="settled">settled</option>' in page.text
    assert 'id="add-extra"' in page.text and 'data-extra="0"' not in page.text
    # Add an extra: the form again with one more row, nothing checked or saved.
    added = en.post(url, {**_post(cast, session, "add_extra"), "extra_rows": "0"})
    assert added.status_code == 200
    assert 'data-extra="0"' in added.text and 'data-extra="1"' not in added.text
    assert 'name="extra-0-stake" value="2"' in added.text
    assert 'value="2"' in added.text
    assert ChouetteEvent.objects.count() == 0
    # Preview: the points with the settlement and extras, said in words.
    preview = en.post(url, _post(cast, session, "preview"))
    assert preview.status_code == 200, preview.text
    assert 'id="preview-notes"' in preview.text
    assert "Ann settled for +2" in preview.text
    assert "Cy&#x27;s extra from Eve at 2: -3 for Cy" in preview.text
    assert 'class="num preview-points">+6<' in preview.text  # Bob
    assert 'data-extra="2"' in preview.text  # the rows as typed
    assert ChouetteEvent.objects.count() == 0
    # A settlement beyond the cube: refused with the rules' words, nothing saved.
    bad = en.post(url, _post(cast, session, "save", **{f"settled-{cast['Ann'].pk}": "9"}))
    assert bad.status_code == 400
    assert "at most the member&#x27;s cube times the backgammon value" in bad.text
    missing = en.post(url, _post(cast, session, "save", **{"extra-0-giver": ""}))
    assert missing.status_code == 400
    assert ChouetteEvent.objects.count() == 0
    # Typed with a sign, as people say it ("+2"; a phone's minus sign U+2212 too).
    minus_two = "\u22122"
    signed = en.post(
        url, _post(cast, session, "preview", **{f"settled-{cast['Ann'].pk}": minus_two})
    )
    assert signed.status_code == 200 and "Ann settled for -2" in signed.text
    saved = en.post(url, _post(cast, session, "save", **{f"settled-{cast['Ann'].pk}": "+2"}))
    assert saved.status_code == 302
    points = dict(ChouetteLine.objects.values_list("player_id", "points"))
    assert _by_name(cast, points) == EXPECTED
    # The games list says them.
    board = en.get(reverse("chouette:scoreboard", kwargs={"session_id": session.pk}))
    assert "Ann settled for +2" in board.text
    assert "Dee&#x27;s extra from Bob at 1: -2 for Dee" in board.text
    # A player's own page: their settlement, their extras from their side.
    me = en.get(reverse("chouette:me", kwargs={"session_id": session.pk}))
    assert 'id="me-last-notes"' in me.text and "you settled for +2" in me.text
    en.force_login(cast["Eve"].user)
    me = en.get(reverse("chouette:me", kwargs={"session_id": session.pk}))
    assert "extra with Cy at 2: +3" in me.text
    en.force_login(cast["Ann"].user)


def test_the_games_list_without_settlements_says_nothing_more(en, table) -> None:
    cast, session = table
    game_record(session_id=session.pk, by=session.created_by, entry=simple_entry(session))
    board = en.get(reverse("chouette:scoreboard", kwargs={"session_id": session.pk}))
    assert "game-note" not in board.text
    en.force_login(cast["Ann"].user)
    me = en.get(reverse("chouette:me", kwargs={"session_id": session.pk}))
    assert "me-last-notes" not in me.text
