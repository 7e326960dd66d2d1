"""The tournaments API on PostgreSQL: the authorization matrix of every write endpoint
(anonymous, a player of the match, another player, the event's director, another event's
director), refusals that change nothing, a whole knockout run through the API with a
game-by-game sheet refused for a Crawford cube, and the OpenAPI schema."""

from __future__ import annotations

import pytest

from games.models import Match
from tests.factories import UserFactory, api_client
from tests.tournaments.factories import (
    DirectorFactory,
    EventFactory,
    crawford_cube_sheet,
    flight_with,
    rated_players,
    sheet,
)
from tournaments.models import (
    Entry,
    Event,
    Flight,
    FlightRound,
    ResultCorrection,
    TournamentMatch,
)
from tournaments.services.draw import flight_draw
from tournaments.services.results import result_enter, result_report

pytestmark = pytest.mark.django_db


_client = api_client


@pytest.fixture
def club(event, director):
    """A drawn 4-player knockout with logins (M1-1: seed 1 v 4, M1-2: seed 2 v 3, M1-2
    already decided), a side flight taking entries, and every kind of actor."""
    players = rated_players(6, with_login=True)
    flight = flight_with(event, players[:4])
    flight_draw(flight_id=flight.pk, by=director)
    side = flight_with(event, players[4:], name="Side")
    m11 = TournamentMatch.objects.get(flight=flight, slot_key="M1-1")
    m12 = TournamentMatch.objects.get(flight=flight, slot_key="M1-2")
    result_enter(match_id=m12.pk, by=director, score_a=5, score_b=1)
    return {
        "event": event,
        "flight": flight,
        "side": side,
        "m11": m11,
        "m12": m12,
        "actors": {
            "anonymous": None,
            "player": players[0].user,  # seed 1: plays M1-1
            "other_player": players[1].user,  # seed 2: not in M1-1
            "director": director,
            "other_director": EventFactory().directors.get(),
        },
        "opponent": players[3].user,  # seed 4
    }


def _snapshot():
    """Everything a write could change."""
    return (
        list(
            Event.objects.order_by("pk").values_list(
                "pk", "status", "name", "starts_on", "location", "rated"
            )
        ),
        sorted(
            (e.pk, sorted(e.directors.values_list("pk", flat=True)))
            for e in Event.objects.prefetch_related("directors")
        ),
        list(Flight.objects.order_by("pk").values_list("pk", "version", "status", "seed")),
        list(FlightRound.objects.order_by("pk").values()),
        list(Entry.objects.order_by("pk").values_list("pk", "status", "seed", "place_label")),
        list(TournamentMatch.objects.order_by("pk").values()),
        ResultCorrection.objects.count(),
        Match.objects.count(),
    )


# Each write endpoint: (path, body) from the fixture.
WRITES = {
    "event_create": lambda c: ("/api/v1/events/", {"name": "Őszi Kupa", "starts_on": "2025-10-04"}),
    # PATCH (METHODS): the club fixture's event has a rated result, so its ``rated``
    # stays (test_event_settings.py has the matrix of changing it).
    "event_update": lambda c: (
        f"/api/v1/events/{c['event'].pk}/",
        {"location": "Debrecen", "rated": True},
    ),
    "event_add_director": lambda c: (
        f"/api/v1/events/{c['event'].pk}/directors/",
        {"user": UserFactory().pk},
    ),
    "flight_create": lambda c: (
        f"/api/v1/events/{c['event'].pk}/flights/",
        {"name": "Swiss", "format": "swiss", "options": {"rounds": 3}},
    ),
    "flight_round_set": lambda c: (
        f"/api/v1/flights/{c['flight'].pk}/rounds/",
        {"ranking": "main", "number": 2, "match_length": 7},
    ),
    "entry_register": lambda c: (
        f"/api/v1/flights/{c['side'].pk}/entries/",
        {"name": "Walk In"},
    ),
    "entry_withdraw": lambda c: (f"/api/v1/entries/{c['m11'].entry_b_id}/withdraw/", {}),
    "flight_draw": lambda c: (f"/api/v1/flights/{c['side'].pk}/draw/", {}),
    "round_publish": lambda c: (
        f"/api/v1/flights/{c['flight'].pk}/publish/",
        {"ranking": "main", "number": 1},
    ),
    "result_enter": lambda c: (
        f"/api/v1/tournament-matches/{c['m11'].pk}/result/",
        {"score_a": 5, "score_b": 2},
    ),
    "result_correct": lambda c: (
        f"/api/v1/tournament-matches/{c['m12'].pk}/correct/",
        {"score_a": 1, "score_b": 5, "reason": "score sheet misread"},
    ),
    "match_set_table": lambda c: (
        f"/api/v1/tournament-matches/{c['m11'].pk}/table/",
        {"table": 9},
    ),
    "match_start_online": lambda c: (
        f"/api/v1/tournament-matches/{c['m11'].pk}/start-online/",
        {},
    ),
    "result_report": lambda c: (
        f"/api/v1/tournament-matches/{c['m11'].pk}/report/",
        {"score_a": 5, "score_b": 3},
    ),
    "result_confirm": lambda c: (f"/api/v1/tournament-matches/{c['m11'].pk}/confirm/", {}),
}

#: The writes that are not a POST.
METHODS = {"event_update": "patch"}
DIRECTOR_ONLY = {"anonymous": 401, "player": 403, "other_player": 403, "other_director": 403}
EXPECTED = {
    name: {**DIRECTOR_ONLY, "director": 201 if name in ("flight_create", "entry_register") else 200}
    for name in WRITES
}
# A player of the match may start it online too (and play it there).
EXPECTED["match_start_online"] = {
    "anonymous": 401,
    "player": 201,
    "other_player": 403,
    "director": 201,
    "other_director": 403,
}
# Creating an event needs the permission to add events, not a particular event.
EXPECTED["event_create"] = {
    "anonymous": 401,
    "player": 403,
    "other_player": 403,
    "director": 201,
    "other_director": 201,
}
# Results of a match: its players report; a director or the opponent confirms.
EXPECTED["result_report"] = {
    "anonymous": 401,
    "player": 200,
    "other_player": 403,
    "director": 403,
    "other_director": 403,
}
EXPECTED["result_confirm"] = {
    "anonymous": 401,
    "player": 200,
    "other_player": 403,
    "director": 200,
    "other_director": 403,
}
ACTORS = ["anonymous", "player", "other_player", "director", "other_director"]


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("write", sorted(WRITES))
def test_the_authorization_matrix_of_every_write_endpoint(club, write, actor):
    if write == "result_confirm":
        # The opponent (seed 4) reported first: there is something to confirm.
        result_report(match_id=club["m11"].pk, by=club["opponent"], score_a=5, score_b=3)
    path, body = WRITES[write](club)
    before = _snapshot()
    send = getattr(_client(club["actors"][actor]), METHODS.get(write, "post"))
    response = send(path, body, format="json")
    expected = EXPECTED[write][actor]
    assert response.status_code == expected, response.json()
    if expected >= 400:
        code = response.json()["code"]
        assert (
            code
            in {
                401: {"not_authenticated"},
                403: {"not_a_director", "not_your_match", "cannot_create_event"},
            }[expected]
        )
        assert _snapshot() == before, "a refused write changed the database"
    else:
        assert _snapshot() != before


def test_reads_are_public(club):
    anonymous = _client()
    flight = club["flight"]
    assert anonymous.get("/api/v1/events/").json()["count"] >= 1
    event = anonymous.get(f"/api/v1/events/{club['event'].pk}/").json()
    assert {f["name"] for f in event["flights"]} == {"Main", "Side"}
    detail = anonymous.get(f"/api/v1/flights/{flight.pk}/").json()
    assert len(detail["entries"]) == 4 and detail["bracket"]["format"] == "single"
    # The final's round is not published yet (round 1 is): the public does not see it.
    assert {m["slot_key"] for m in detail["matches"]} == {"M1-1", "M1-2"}
    m12 = anonymous.get(f"/api/v1/tournament-matches/{club['m12'].pk}/").json()
    assert (m12["winner"], m12["score_a"], m12["score_b"]) == ("a", 5, 1)
    assert anonymous.get("/api/v1/flights/999999/").status_code == 404


def test_a_bracket_part_is_a_part_and_its_former_name_still_answers(club):
    detail = _client().get(f"/api/v1/flights/{club['flight'].pk}/").json()
    slots = detail["bracket"]["slots"]
    assert {s["part"] for s in slots} == {"main"}
    assert all(s["flight"] == s["part"] for s in slots)  # deprecated alias
    assert "flight" not in Flight.objects.get(pk=club["flight"].pk).bracket["slots"][0]


def test_rounds_and_matches_name_their_part_part_and_ranking_still_answers(club, director):
    api = _client(director)
    flight = club["flight"]
    row = api.post(
        f"/api/v1/flights/{flight.pk}/rounds/",
        {"part": "main", "number": 2, "match_length": 7},
        format="json",
    )
    assert row.status_code == 200, row.json()
    assert (row.json()["part"], row.json()["ranking"]) == ("main", "main")
    old = api.post(
        f"/api/v1/flights/{flight.pk}/rounds/",
        {"ranking": "main", "number": 2, "match_length": 9},
        format="json",
    )
    assert (old.status_code, old.json()["part"]) == (200, "main")
    assert FlightRound.objects.get(flight=flight, part="main", number=2).match_length == 9
    before = _snapshot()
    both = api.post(
        f"/api/v1/flights/{flight.pk}/rounds/",
        {"part": "main", "ranking": "final", "number": 2, "match_length": 5},
        format="json",
    )
    assert both.status_code == 400 and _snapshot() == before
    published = api.post(
        f"/api/v1/flights/{flight.pk}/publish/", {"part": "main", "number": 1}, format="json"
    )
    assert published.status_code == 200 and published.json()["part"] == "main"
    detail = _client().get(f"/api/v1/flights/{flight.pk}/").json()
    assert all(m["part"] == m["ranking"] == "main" for m in detail["matches"])
    assert {(r["part"], r["ranking"], r["number"]) for r in detail["rounds"]} == {
        ("main", "main", 1),
        ("main", "main", 2),
    }
    match = _client().get(f"/api/v1/tournament-matches/{club['m11'].pk}/").json()
    assert match["part"] == match["ranking"] == "main"


def test_a_knockout_run_through_the_api_with_a_crawford_cube_refused(director):
    api = _client(director)
    created = api.post("/api/v1/events/", {"name": "Téli Kupa", "starts_on": "2025-12-06"})
    assert created.status_code == 201, created.json()
    event_id = created.json()["id"]
    flight = api.post(
        f"/api/v1/events/{event_id}/flights/",
        {"name": "Main", "format": "single_elimination", "match_length": 5},
        format="json",
    ).json()
    for player in rated_players(4):
        answer = api.post(f"/api/v1/flights/{flight['id']}/entries/", {"player": player.pk})
        assert answer.status_code == 201
    rounds = api.post(
        f"/api/v1/flights/{flight['id']}/rounds/",
        {"ranking": "main", "number": 2, "match_length": 7},
        format="json",
    )
    assert rounds.json()["match_length"] == 7
    drawn = api.post(f"/api/v1/flights/{flight['id']}/draw/", {}, format="json").json()
    assert drawn["status"] == "drawn"
    by_key = {m["slot_key"]: m for m in drawn["matches"]}
    # A game-by-game sheet with a cube in the Crawford game: 400, the game named, nothing kept.
    before = _snapshot()
    refused = api.post(
        f"/api/v1/tournament-matches/{by_key['M1-1']['id']}/result/",
        {"games": crawford_cube_sheet(1, 5)},
        format="json",
    )
    assert refused.status_code == 400
    assert refused.json()["code"] == "crawford_cube" and refused.json()["game"] == 5
    assert _snapshot() == before
    for key in ("M1-1", "M1-2"):
        answer = api.post(
            f"/api/v1/tournament-matches/{by_key[key]['id']}/result/",
            {"games": sheet(1, 5)},
            format="json",
        )
        assert answer.status_code == 200, answer.json()
        assert answer.json()["score_a"] == 5
    final = api.get(f"/api/v1/flights/{flight['id']}/").json()
    (final_match,) = [m for m in final["matches"] if m["slot_key"] == "M2-1"]
    assert final_match["status"] == "ready" and final_match["match_length"] == 7
    stale = api.post(
        f"/api/v1/tournament-matches/{final_match['id']}/result/",
        {"score_a": 7, "score_b": 2, "expected_version": final_match["version"] + 5},
        format="json",
    )
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    done = api.post(
        f"/api/v1/tournament-matches/{final_match['id']}/result/",
        {"score_a": 7, "score_b": 2, "expected_version": final_match["version"]},
        format="json",
    )
    assert done.status_code == 200
    order = api.get(f"/api/v1/flights/{flight['id']}/finishing-order/").json()
    assert [(p["place"], len(p["entries"])) for p in order] == [("1", 1), ("2", 1), ("3-4", 2)]
    csv = api.get(f"/api/v1/flights/{flight['id']}/finishing-order/?as=csv")
    assert csv["Content-Type"].startswith("text/csv")
    lines = csv.content.decode().splitlines()
    # For programs: the same column names in every language, the ranking's code.
    assert lines[0] == "place,player_id,name,club,country,ranking"
    assert lines[1].startswith("1,") and lines[1].endswith(",main")
    hungarian = api.get(
        f"/api/v1/flights/{flight['id']}/finishing-order/?as=csv", HTTP_ACCEPT_LANGUAGE="hu"
    )
    assert hungarian.content == csv.content


def test_bad_input_is_a_400_with_the_reason_and_changes_nothing(club):
    api = _client(club["actors"]["director"])
    before = _snapshot()
    for path, body in [
        (f"/api/v1/events/{club['event'].pk}/flights/", {"name": "X", "format": "ladder"}),
        (f"/api/v1/flights/{club['side'].pk}/entries/", {}),
        (f"/api/v1/flights/{club['side'].pk}/entries/", {"player": 1, "name": "Both"}),
        (f"/api/v1/tournament-matches/{club['m11'].pk}/result/", {"score_a": 5, "score_b": 5}),
        (f"/api/v1/tournament-matches/{club['m11'].pk}/result/", {"games": [{"winner": 3}]}),
        (f"/api/v1/tournament-matches/{club['m11'].pk}/table/", {"table": 0}),
    ]:
        response = api.post(path, body, format="json")
        assert response.status_code == 400, (path, body, response.json())
        assert response.json()["code"] and response.json()["detail"]
    assert _snapshot() == before
    missing = api.post("/api/v1/tournament-matches/999999/result/", {"score_a": 5, "score_b": 1})
    assert missing.status_code == 404


def test_the_schema_lists_the_tournament_endpoints(client):
    schema = client.get("/api/schema/").content
    for path in (
        b"/api/v1/events/",
        b"/api/v1/flights/{flight_id}/draw/",
        b"/api/v1/tournament-matches/{match_id}/report/",
        b"/api/v1/flights/{flight_id}/finishing-order/",
    ):
        assert path in schema


def test_creating_an_event_needs_the_permission():
    response = _client(UserFactory()).post(
        "/api/v1/events/", {"name": "Kupa", "starts_on": "2025-01-01"}
    )
    assert response.status_code == 403
    assert (
        _client(DirectorFactory())
        .post("/api/v1/events/", {"name": "Kupa", "starts_on": "2025-01-01"})
        .status_code
        == 201
    )
