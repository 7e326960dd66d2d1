"""The chouette API on PostgreSQL: the authorization matrix of every write endpoint
(anonymous 401, a seated player, a stranger 403 (also to start a session of others), the
club's scorekeeper who started it, staff), bad input refused
with 400 and nothing changed, a stale ``expected_version`` 409, public reads, a whole
game entered through preview and record, undo, and the OpenAPI schema."""

from __future__ import annotations

import pytest

from chouette.services.games import game_record
from chouette.services.seating import session_sit_out
from tests.chouette.factories import players, scorekeeper, session_with, simple_entry, snapshot
from tests.factories import PlayerFactory, UserFactory, UserPlayerFactory, api_client

pytestmark = pytest.mark.django_db


_client = api_client


@pytest.fixture
def club():
    """A session of five (Bob box, Ann captain, Cy, Eve, Dee) after one game, Eve
    sitting out; a newcomer to join; every kind of actor."""
    cast = players()
    creator = scorekeeper()
    session = session_with(cast, by=creator)
    game_record(session_id=session.pk, by=creator, entry=simple_entry(session))
    session_sit_out(session_id=session.pk, by=creator, player_id=cast["Eve"].pk)
    session.refresh_from_db()
    return {
        "session": session,
        "cast": cast,
        "newcomer": PlayerFactory(name="Flo"),
        "actors": {
            "anonymous": None,
            "player": cast["Ann"].user,
            "stranger": UserPlayerFactory(name="Idegen").user,
            "creator": creator,
            "staff": UserFactory(is_staff=True),
        },
    }


def _base(c) -> str:
    return f"/api/v1/chouette/sessions/{c['session'].pk}"


WRITES = {
    "session_create": (
        lambda c: (
            "/api/v1/chouette/sessions/",
            {
                "name": "Új kör",
                "players": [c["cast"][n].pk for n in ("Ann", "Bob", "Cy")],
                "rolls": [
                    {"player": c["cast"]["Ann"].pk, "rolls": [6]},
                    {"player": c["cast"]["Bob"].pk, "rolls": [4]},
                    {"player": c["cast"]["Cy"].pk, "rolls": [2]},
                ],
            },
        ),
        201,
    ),
    "join": (lambda c: (f"{_base(c)}/join/", {"player": c["newcomer"].pk}), 200),
    "sit_out": (lambda c: (f"{_base(c)}/sit-out/", {"player": c["cast"]["Dee"].pk}), 200),
    "come_back": (lambda c: (f"{_base(c)}/come-back/", {"player": c["cast"]["Eve"].pk}), 200),
    "game_preview": (
        lambda c: (f"{_base(c)}/games/preview/", {"entry": simple_entry(c["session"])}),
        200,
    ),
    "game_record": (
        lambda c: (f"{_base(c)}/games/", {"entry": simple_entry(c["session"])}),
        201,
    ),
    "proxy": (
        lambda c: (
            f"{_base(c)}/proxy/",
            {"player": c["cast"]["Cy"].pk, "proxy": c["cast"]["Dee"].pk},
        ),
        200,
    ),
    "undo": (lambda c: (f"{_base(c)}/undo/", {}), 200),
    "end": (lambda c: (f"{_base(c)}/end/", {}), 200),
}
ACTORS = ("anonymous", "player", "stranger", "creator", "staff")


def _expected(endpoint: str, actor: str, ok: int) -> tuple[int, str | None]:
    if actor == "anonymous":
        return 401, "not_authenticated"
    if actor == "stranger":
        return 403, "not_in_session"
    if endpoint == "proxy" and actor == "player":
        return 403, "proxy_not_yours"  # Ann names nobody's proxy but her own (R13 online)
    return ok, None


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("endpoint", list(WRITES))
def test_authorization_matrix(club, endpoint: str, actor: str) -> None:
    build, ok = WRITES[endpoint]
    path, body = build(club)
    before = snapshot()
    response = _client(club["actors"][actor]).post(path, body, format="json")
    status, code = _expected(endpoint, actor, ok)
    assert response.status_code == status, response.content
    if code is not None:
        assert response.json()["code"] == code
        assert snapshot() == before
    elif endpoint == "game_preview":
        assert snapshot() == before  # a preview saves nothing
    else:
        assert snapshot() != before


@pytest.mark.parametrize(
    ("endpoint", "body", "code"),
    [
        ("games/", {"entry": {"box": 1}}, "invalid"),
        ("games/", {}, "invalid"),
        ("games/", "entry", "invalid"),
        ("games/", {"entry": {"box": "x", "captain": 1, "members": []}}, "invalid"),
        ("games/", "wrong_captain", "entry_seating_mismatch"),
        ("games/", "missing_result", "missing_result"),
        ("games/", "bad_cube", "invalid"),
        ("games/", "odd_cube", "invalid_cube"),
        ("games/preview/", "missing_result", "missing_result"),
        ("join/", {"player": "Flo"}, "invalid"),
        ("join/", "known", "already_seated"),
        ("sit-out/", "stranger", "not_seated"),
        ("come-back/", "seated", "not_sitting_out"),
        ("sit-out/", {}, "invalid"),
    ],
)
def test_bad_input_is_refused_with_400_and_changes_nothing(club, endpoint, body, code) -> None:
    session, cast = club["session"], club["cast"]
    entry = simple_entry(session)
    bodies = {
        "entry": {"entry": "not an object"},
        "wrong_captain": {"entry": {**entry, "captain": entry["members"][1]["player"]}},
        "missing_result": {"entry": {**entry, "winner": None}},
        "bad_cube": {"entry": {**entry, "members": [{**m, "cube": 0} for m in entry["members"]]}},
        "odd_cube": {"entry": {**entry, "members": [{**m, "cube": 3} for m in entry["members"]]}},
        "known": {"player": cast["Ann"].pk},
        "stranger": {"player": club["newcomer"].pk},
        "seated": {"player": cast["Ann"].pk},
    }
    body = bodies.get(body, body) if isinstance(body, str) else body
    before = snapshot()
    response = _client(club["actors"]["creator"]).post(
        f"{_base(club)}/{endpoint}", body, format="json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["code"] == code
    assert response.json()["detail"]
    assert snapshot() == before


def test_stale_version_is_409_and_changes_nothing(club) -> None:
    session = club["session"]
    client = _client(club["actors"]["player"])
    stale = session.version - 1
    before = snapshot()
    for path, body in [
        ("games/", {"entry": simple_entry(session), "expected_version": stale}),
        ("undo/", {"expected_version": stale}),
        ("join/", {"player": club["newcomer"].pk, "expected_version": stale}),
        ("end/", {"expected_version": stale}),
    ]:
        response = client.post(f"{_base(club)}/{path}", body, format="json")
        assert response.status_code == 409, path
        assert response.json()["code"] == "stale_version"
        assert response.json()["version"] == session.version
    assert snapshot() == before
    ok = client.post(
        f"{_base(club)}/games/",
        {"entry": simple_entry(session), "expected_version": session.version},
        format="json",
    )
    assert ok.status_code == 201
    assert ok.json()["version"] == session.version + 1


def test_reads_are_public_and_a_game_round_trips(club) -> None:
    session, cast = club["session"], club["cast"]
    anonymous = _client()
    listed = anonymous.get("/api/v1/chouette/sessions/")
    assert listed.status_code == 200 and listed.json()[0]["id"] == session.pk
    detail = anonymous.get(f"{_base(club)}/").json()
    assert detail["seating"]["box"] == session.seating["box"]
    assert detail["seating"]["captain"] == session.seating["line"][0]
    assert detail["seating"]["out"] == [cast["Eve"].pk]
    assert detail["game_count"] == 1
    assert sum(p["total"] for p in detail["players"]) == 0
    roles = {p["name"]: p["role"] for p in detail["players"]}
    assert roles["Eve"] == "out" and list(roles.values()).count("box") == 1
    client = _client(club["actors"]["player"])
    entry = simple_entry(session, winner="box", kind="gammon")
    preview = client.post(f"{_base(club)}/games/preview/", {"entry": entry}, format="json").json()
    points = {p["player"]: p["points"] for p in preview["points"]}
    assert points[entry["box"]] == 6 and sum(points.values()) == 0
    recorded = client.post(f"{_base(club)}/games/", {"entry": entry}, format="json")
    assert recorded.status_code == 201
    assert {p["player"]: p["points"] for p in recorded.json()["points"]} == points
    assert recorded.json()["number"] == 2
    detail = anonymous.get(f"{_base(club)}/").json()
    assert detail["seating"] == preview["seating_after"]
    assert detail["games"][0]["number"] == 2
    summary = anonymous.get(f"{_base(club)}/summary/").json()
    assert sum(p["points"] for p in summary["players"]) == 0
    assert summary["transfers"]
    undone = client.post(f"{_base(club)}/undo/", {}, format="json")
    assert undone.status_code == 200 and undone.json()["undone"] is True
    assert anonymous.get(f"{_base(club)}/").json()["game_count"] == 1
    assert anonymous.get("/api/v1/chouette/sessions/999999/").status_code == 404
    assert anonymous.get("/api/v1/chouette/sessions/999999/summary/").status_code == 404


def test_server_rolls_when_the_api_gives_no_rolls(club) -> None:
    cast = club["cast"]
    response = _client(club["actors"]["player"]).post(
        "/api/v1/chouette/sessions/",
        {
            "name": "Szerver dob",
            "players": [cast[n].pk for n in ("Ann", "Bob", "Cy", "Dee")],
            "stake_per_point": "0.50",
            "currency": "EUR",
            "profile": {"kind": "individual", "beavers": True},
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["rolled_by_server"] is True
    assert {r["player"] for r in body["rolls"]} == {cast[n].pk for n in ("Ann", "Bob", "Cy", "Dee")}
    assert body["profile"]["kind"] == "individual" and body["stake_per_point"] == "0.50"


def test_schema_lists_the_chouette_endpoints(client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    paths = schema["paths"]
    for path in (
        "/api/v1/chouette/sessions/",
        "/api/v1/chouette/sessions/{session_id}/",
        "/api/v1/chouette/sessions/{session_id}/join/",
        "/api/v1/chouette/sessions/{session_id}/sit-out/",
        "/api/v1/chouette/sessions/{session_id}/come-back/",
        "/api/v1/chouette/sessions/{session_id}/games/",
        "/api/v1/chouette/sessions/{session_id}/games/preview/",
        "/api/v1/chouette/sessions/{session_id}/undo/",
        "/api/v1/chouette/sessions/{session_id}/summary/",
        "/api/v1/chouette/sessions/{session_id}/end/",
    ):
        assert path in paths, path
    record = paths["/api/v1/chouette/sessions/{session_id}/games/"]["post"]
    assert "201" in record["responses"] and "409" in record["responses"]
