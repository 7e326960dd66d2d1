"""GET/POST /api/v1/matches/<id>/analysis/ (issue 28): the shapes, who may ask, the
club's PR setting. The figures are made directly (the job's tests make real ones)."""

from __future__ import annotations

import pytest

from games.models import MatchAnalysis
from games.play import services
from tests.factories import (
    DecisionAnalysisFactory,
    PlayerFactory,
    UserFactory,
    UserPlayerFactory,
    analysed_match,
    api_client,
    finish_by_resignation,
)

pytestmark = pytest.mark.django_db

FIGURES = [
    "unforced_moves",
    "close_cube_decisions",
    "error_total_emg",
    "error_rate_memg",
    "pr",
    "snowie_error_rate",
    "luck_rate_memg",
    "luck_adjusted_result",
    "rating_words",
    "luck_words",
    "counts",
]


def _url(match_id: int) -> str:
    return f"/api/v1/matches/{match_id}/analysis/"


def _finished(anna=None, bence=None):
    anna = anna or UserPlayerFactory(name="Anna")
    bence = bence or UserPlayerFactory(name="Bence")
    match = services.match_create(player1=anna, player2=bence, length=1)
    finish_by_resignation(match)
    return match


def test_a_match_never_analysed_says_none():
    match = _finished()
    got = api_client().get(_url(match.pk))
    assert got.status_code == 200
    assert got.json() == {
        "match": match.pk,
        "status": "none",
        "progress": 0,
        "plies": None,
        "failure_code": "",
        "failure_reason": "",
        "version": 0,
        "players": [],
        "decisions": [],
    }


def test_an_analysed_match_gives_both_players_figures_and_its_decisions():
    match = _finished()
    analysis = analysed_match(match, prs=(3.25, 9.5))
    DecisionAnalysisFactory(analysis=analysis, action_seq=2, player_index=1, mark="very_bad")
    DecisionAnalysisFactory(
        analysis=analysis,
        action_seq=3,
        kind="cube",
        dice="",
        played="no_double",
        best="double",
        equity_lost=0.12,
        mark="bad",
    )
    body = api_client().get(_url(match.pk)).json()
    assert body["status"] == "done"
    assert body["progress"] == 100
    assert body["plies"] == 2
    assert [p["name"] for p in body["players"]] == ["Anna", "Bence"]
    anna = body["players"][0]
    assert set(FIGURES) <= set(anna)
    assert anna["player"] == match.player1_id
    assert anna["pr"] == 3.25
    assert anna["error_rate_memg"] == 6.5
    assert anna["rating_words"] == "Advanced"
    assert anna["visible"] is True and anna["counts"] is True
    assert body["players"][1]["pr"] == 9.5
    assert [(d["seq"], d["kind"], d["mark"]) for d in body["decisions"]] == [
        (2, "move", "very_bad"),
        (3, "cube", "bad"),
    ]
    cube = body["decisions"][1]
    assert (cube["played"], cube["best"], cube["equity_lost"]) == ("no_double", "double", 0.12)


def test_brief_leaves_the_decisions_out():
    match = _finished()
    analysis = analysed_match(match)
    DecisionAnalysisFactory(analysis=analysis, action_seq=2)
    body = api_client().get(_url(match.pk) + "?brief=true").json()
    assert body["decisions"] == [] and len(body["players"]) == 2
    assert len(api_client().get(_url(match.pk)).json()["decisions"]) == 1
    assert api_client().get(_url(match.pk) + "?brief=maybe").status_code == 400


def test_a_failed_analysis_gives_its_reason():
    match = _finished()
    MatchAnalysis.objects.create(
        match=match, status="failed", failure_code="gnubg_failed", failure_reason="gnubg died"
    )
    body = api_client().get(_url(match.pk)).json()
    assert (body["status"], body["failure_code"], body["failure_reason"]) == (
        "failed",
        "gnubg_failed",
        "gnubg died",
    )


def test_pr_shown_to_the_player_only_hides_the_others_figures(settings):
    settings.ANALYSIS_PR_PUBLIC = False
    match = _finished()
    analysis = analysed_match(match, prs=(3.0, 8.0))
    DecisionAnalysisFactory(analysis=analysis, action_seq=2, player_index=0)
    DecisionAnalysisFactory(analysis=analysis, action_seq=4, player_index=1)
    visitor = api_client().get(_url(match.pk)).json()
    assert [p["visible"] for p in visitor["players"]] == [False, False]
    assert all(p[name] is None for p in visitor["players"] for name in FIGURES)
    assert visitor["decisions"] == []
    anna = api_client(match.player1.user).get(_url(match.pk)).json()
    assert [p["pr"] for p in anna["players"]] == [3.0, None]
    assert [d["player"] for d in anna["decisions"]] == [0]
    staff = api_client(UserFactory(is_staff=True)).get(_url(match.pk)).json()
    assert [p["pr"] for p in staff["players"]] == [3.0, 8.0]
    assert len(staff["decisions"]) == 2


def test_a_player_asks_for_the_analysis_and_it_is_queued():
    match = _finished()
    got = api_client(match.player1.user).post(_url(match.pk), {"plies": 0}, format="json")
    assert got.status_code == 202, got.content
    assert got.json()["status"] == "queued"
    assert got.json()["plies"] == 0
    row = MatchAnalysis.objects.get(match=match)
    assert (row.status, row.plies, row.requested_by_id) == ("queued", 0, match.player1.user_id)
    # Asked again while queued: nothing changes (the job under way answers for it).
    again = api_client(match.player2.user).post(_url(match.pk), {"again": True}, format="json")
    assert again.status_code == 202
    row.refresh_from_db()
    assert row.requested_by_id == match.player1.user_id


def test_staff_ask_again_for_a_done_analysis_and_the_figures_stay_until_the_new_run():
    match = _finished()
    analysed_match(match)
    got = api_client(UserFactory(is_staff=True)).post(
        _url(match.pk), {"again": True}, format="json"
    )
    assert got.status_code == 202
    body = got.json()
    assert body["status"] == "queued"
    assert len(body["players"]) == 2


def test_who_may_not_ask_is_refused_and_nothing_is_queued():
    match = _finished()
    stranger = UserPlayerFactory()
    got = api_client(stranger.user).post(_url(match.pk), {}, format="json")
    assert got.status_code == 403
    assert got.json()["code"] == "not_a_player"
    assert api_client().post(_url(match.pk), {}, format="json").status_code == 401
    missing = api_client(match.player1.user).post(_url(987654), {}, format="json")
    assert missing.status_code == 404
    assert missing.json()["code"] == "match_not_found"
    bad = api_client(match.player1.user).post(_url(match.pk), {"plies": 3}, format="json")
    assert bad.status_code == 400
    assert not MatchAnalysis.objects.exists()


def test_a_match_not_finished_is_refused_with_409():
    anna, bence = UserPlayerFactory(), UserPlayerFactory()
    match = services.match_create(player1=anna, player2=bence, length=3)
    services.match_start(match_id=match.pk)
    got = api_client(anna.user).post(_url(match.pk), {}, format="json")
    assert got.status_code == 409
    assert got.json()["code"] == "match_not_finished"
    assert not MatchAnalysis.objects.exists()


def test_get_of_a_match_that_does_not_exist_is_404():
    got = api_client().get(_url(987654))
    assert got.status_code == 404


def test_asking_is_throttled_per_user(settings):
    match = _finished(PlayerFactory(user=UserFactory()), PlayerFactory())
    client = api_client(match.player1.user)
    codes = [client.post(_url(match.pk), {}, format="json").status_code for _ in range(11)]
    assert codes[:10] == [202] * 10
    assert codes[10] == 429
    assert client.get(_url(match.pk)).status_code == 200  # reading is not counted


def test_the_endpoint_is_in_the_openapi_schema():
    schema = api_client().get("/api/schema/?format=json")
    assert schema.status_code == 200
    path = schema.json()["paths"]["/api/v1/matches/{match_id}/analysis/"]
    assert set(path) >= {"get", "post"}
    assert {"202", "403", "404", "409"} <= set(path["post"]["responses"])
