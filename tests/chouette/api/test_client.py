"""The API a scorekeeping client needs (issue 19, item 6), on PostgreSQL: a session
started from a known seating order, the answer to recording (and undoing) a game with
the new totals, seating and version, the games paged, names beside every id, and what
``cube`` means for a member who dropped (in the schema, and settled through the API)."""

from __future__ import annotations

import pytest

from chouette.models import ChouetteSession
from chouette.services.games import game_record, game_undo_last
from tests.chouette.factories import players, scorekeeper, session_with, simple_entry, snapshot
from tests.factories import api_client

pytestmark = pytest.mark.django_db

SESSIONS = "/api/v1/chouette/sessions/"


@pytest.fixture
def cast():
    return players()


@pytest.fixture
def keeper():
    return scorekeeper()


def _ids(cast, *names):
    return [cast[n].pk for n in names]


# ---------------------------------------------------------------- seating order
def test_a_session_starts_from_a_known_seating_order(cast, keeper) -> None:
    order = _ids(cast, "Dee", "Cy", "Ann", "Bob")
    response = api_client(keeper).post(
        SESSIONS, {"name": "Asztal", "seating": order}, format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["seating"]["box"] == cast["Dee"].pk and body["seating"]["box_name"] == "Dee"
    assert body["seating"]["line"] == order[1:]
    assert body["seating"]["captain_name"] == "Cy"
    assert [s["name"] for s in body["seating"]["seats"]] == ["Dee", "Cy", "Ann", "Bob"]
    assert body["rolls"] == [] and body["rolled_by_server"] is False
    assert body["start_seating"] == {"box": order[0], "line": order[1:], "out": []}
    session = ChouetteSession.objects.get(pk=body["id"])
    joined = list(session.participants.order_by("order").values_list("player_id", flat=True))
    assert joined == order
    # players given as well: the same players in any order
    again = api_client(keeper).post(
        SESSIONS,
        {"name": "Asztal 2", "players": sorted(order), "seating": order},
        format="json",
    )
    assert again.status_code == 201, again.content
    assert again.json()["seating"]["line"] == order[1:]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ("rolls_too", 400, "seating_and_rolls"),
        ("other_players", 400, "seating_does_not_match_players"),
        ("duplicate", 400, "duplicate_player"),
        ("unknown", 404, "player_not_found"),
        ("two", 400, "too_few_players"),
        ("neither", 400, "players_missing"),
        ("not_ids", 400, "invalid"),
    ],
)
def test_a_bad_seating_order_is_refused_and_changes_nothing(cast, keeper, body, status, code):
    order = _ids(cast, "Ann", "Bob", "Cy")
    bodies = {
        "rolls_too": {
            "seating": order,
            "rolls": [{"player": p, "rolls": [r]} for p, r in zip(order, (6, 4, 2), strict=True)],
        },
        "other_players": {"seating": order, "players": _ids(cast, "Ann", "Bob", "Dee")},
        "duplicate": {"seating": [*order, order[0]]},
        "unknown": {"seating": [*order, 999999]},
        "two": {"seating": order[:2]},
        "neither": {},
        "not_ids": {"seating": ["Ann", "Bob", "Cy"]},
    }
    before = snapshot()
    response = api_client(keeper).post(SESSIONS, {"name": "Rossz", **bodies[body]}, format="json")
    assert response.status_code == status, response.content
    assert response.json()["code"] == code and response.json()["detail"]
    assert snapshot() == before


def test_a_stranger_may_not_start_a_seated_session_of_others(cast) -> None:
    from tests.factories import UserPlayerFactory

    stranger = UserPlayerFactory(name="Idegen").user
    before = snapshot()
    response = api_client(stranger).post(
        SESSIONS, {"name": "X", "seating": _ids(cast, "Ann", "Bob", "Cy")}, format="json"
    )
    assert response.status_code == 403 and response.json()["code"] == "not_in_session"
    assert snapshot() == before


# ---------------------------------------------------------------- record, undo
def test_recording_a_game_answers_the_new_totals_seating_and_version(cast, keeper) -> None:
    session = session_with(cast, by=keeper)
    client = api_client(keeper)
    base = f"{SESSIONS}{session.pk}"
    entry = simple_entry(session, winner="box", kind="gammon")
    response = client.post(f"{base}/games/", {"entry": entry}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    detail = client.get(f"{base}/").json()
    assert body["version"] == detail["version"]
    assert body["seating"] == detail["seating"]
    assert {t["player"]: t["points"] for t in body["totals"]} == {
        p["player"]: p["total"] for p in detail["players"]
    }
    assert {t["name"] for t in body["totals"]} == set(cast)
    assert sum(t["points"] for t in body["totals"]) == 0
    assert body["game_count"] == 1 and body["number"] == 1
    # Bob was box and won a gammon against four members at cube 1: +8; he stays box.
    totals = {t["name"]: t["points"] for t in body["totals"]}
    assert totals == {"Bob": 8, "Ann": -2, "Cy": -2, "Eve": -2, "Dee": -2}
    assert body["seating"]["box_name"] == "Bob" and body["seating"]["captain_name"] == "Cy"
    assert body["box_name"] == "Bob" and body["captain_name"] == "Ann"
    assert [m["name"] for m in body["members"]] == ["Ann", "Cy", "Eve", "Dee"]
    assert {p["name"]: p["points"] for p in body["points"]} == totals

    undone = client.post(f"{base}/undo/", {"expected_version": body["version"]}, format="json")
    assert undone.status_code == 200, undone.content
    back = undone.json()
    assert back["undone"] is True and back["number"] == 1 and back["game_count"] == 0
    assert back["version"] == body["version"] + 1
    assert all(t["points"] == 0 for t in back["totals"])
    assert back["seating"] == client.get(f"{base}/").json()["seating"]
    assert back["seating"]["box_name"] == "Bob" and back["seating"]["captain_name"] == "Ann"


# ---------------------------------------------------------------- paging
def _played(cast, keeper, games: int):
    session = session_with(cast, by=keeper)
    for _ in range(games):
        session.refresh_from_db()
        game_record(session_id=session.pk, by=keeper, entry=simple_entry(session))
    return session


def test_the_detail_lists_the_newest_games_and_the_games_are_paged(cast, keeper) -> None:
    session = _played(cast, keeper, 13)
    game_undo_last(session_id=session.pk, by=keeper)  # 12 count
    anonymous = api_client()
    base = f"{SESSIONS}{session.pk}"
    detail = anonymous.get(f"{base}/").json()
    assert detail["game_count"] == 12
    assert [g["number"] for g in detail["games"]] == list(range(12, 2, -1))
    few = anonymous.get(f"{base}/", {"games_limit": 2}).json()
    assert [g["number"] for g in few["games"]] == [12, 11]
    page = anonymous.get(f"{base}/games/", {"limit": 5, "offset": 0}).json()
    assert page["count"] == 12 and page["previous"] is None and page["next"]
    assert [g["number"] for g in page["results"]] == [12, 11, 10, 9, 8]
    last = anonymous.get(f"{base}/games/", {"limit": 5, "offset": 10}).json()
    assert [g["number"] for g in last["results"]] == [2, 1] and last["next"] is None
    every = anonymous.get(f"{base}/games/").json()
    assert [g["number"] for g in every["results"]] == list(range(12, 0, -1))
    assert every["results"][0] == detail["games"][0]
    row = every["results"][0]
    assert {p["name"] for p in row["points"]} == set(cast)
    assert all(m["name"] for m in row["members"])
    for bad in ({"limit": 0}, {"offset": -1}, {"limit": "x"}):
        refused = anonymous.get(f"{base}/games/", bad)
        assert refused.status_code == 400, bad
    for bad in ("0", "x", "-1"):
        refused = anonymous.get(f"{base}/", {"games_limit": bad})
        assert refused.status_code == 400 and refused.json()["code"] == "invalid_limit"
    huge = anonymous.get(f"{base}/", {"games_limit": "9" * 5000})
    assert huge.status_code == 200 and len(huge.json()["games"]) == 12
    assert anonymous.get(f"{SESSIONS}999999/games/").status_code == 404


def test_the_games_list_reads_in_a_fixed_number_of_queries(
    cast, keeper, django_assert_max_num_queries
) -> None:
    session = _played(cast, keeper, 6)
    with django_assert_max_num_queries(6):
        response = api_client().get(f"{SESSIONS}{session.pk}/games/", {"limit": 3})
    assert response.status_code == 200


# ---------------------------------------------------------------- a drop's cube
def test_the_schema_says_what_cube_means_for_a_dropped_member(client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    components = schema["components"]["schemas"]
    for name in ("MemberInput", "MemberOutput"):
        text = components[name]["properties"]["cube"]["description"]
        assert "dropped" in text and "OFFERED" in text and "pays half" in text, name
    paths = schema["paths"]
    games = paths["/api/v1/chouette/sessions/{session_id}/games/"]
    assert {"get", "post"} <= set(games)
    assert {p["name"] for p in games["get"]["parameters"]} >= {"limit", "offset"}
    detail = paths["/api/v1/chouette/sessions/{session_id}/"]["get"]
    assert "games_limit" in {p["name"] for p in detail["parameters"]}
    create = components["SessionCreateInput"]["properties"]
    assert "seating" in create and "box first" in create["seating"]["description"]


def test_a_drop_through_the_api_costs_half_the_cube_offered(cast, keeper) -> None:
    session = session_with(cast, by=keeper)
    seating = session.seating
    ann, cy, eve, dee = seating["line"]
    # Classic: the team doubled to 2, the box redoubled to 4; Cy dropped the redouble
    # (cube 4, the value offered: Cy pays 2, the stake before it), the others took and
    # the team won a single at 4.
    entry = {
        "box": seating["box"],
        "captain": ann,
        "members": [
            {"player": ann, "cube": 4, "fate": "took"},
            {"player": cy, "cube": 4, "fate": "dropped"},
            {"player": eve, "cube": 4, "fate": "took"},
            {"player": dee, "cube": 4, "fate": "took"},
        ],
        "winner": "team",
        "kind": "single",
    }
    response = api_client(keeper).post(
        f"{SESSIONS}{session.pk}/games/", {"entry": entry}, format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    members = {m["name"]: m for m in body["members"]}
    assert members["Cy"]["cube"] == 4 and members["Cy"]["fate"] == "dropped"
    assert members["Cy"]["points"] == -2  # half of the 4 offered, not 4
    assert members["Ann"]["points"] == 4
    points = {p["name"]: p["points"] for p in body["points"]}
    assert points == {"Ann": 4, "Cy": -2, "Eve": 4, "Dee": 4, "Bob": -10}
