"""The match-play API end to end: two token clients play a match to 5 with scripted
choices (server dice), through a Crawford game that refuses the cube (R11), to the
right final score; refusals carry stable codes and change nothing."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Game, GameAction, Match
from tests.factories import PlayerFactory, UserPlayerFactory

pytestmark = pytest.mark.django_db


def _client(player) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=player.user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}", HTTP_ACCEPT_LANGUAGE="en")
    return client


@pytest.fixture
def pair():
    a, b = UserPlayerFactory(name="Anna"), UserPlayerFactory(name="Bence")
    return (a, _client(a)), (b, _client(b))


def _create(client, a, b, length=5, **extra):
    """``a`` invites ``b`` to a match, and ``b`` accepts it: the match as it starts."""
    response = client.post(
        "/api/v1/matches/",
        {"player1": a.pk, "player2": b.pk, "length": length, **extra},
        format="json",
    )
    assert response.status_code == 201, response.json()
    invitation = response.json()["invitation"]
    accepted = _client(b).post(f"/api/v1/invitations/{invitation['id']}/accept/")
    assert accepted.status_code == 200, accepted.json()
    return client.get(f"/api/v1/matches/{response.json()['id']}/").json()


def _act(client, game_id, version, action, **data):
    return client.post(
        f"/api/v1/games/{game_id}/actions/",
        {"action": action, "version": version, **data},
        format="json",
    )


def _names(state):
    return {a["action"] for a in state["legal_actions"]}


def _play_game(clients, game_id, *, doubler, resigner=None, crawford_probe=False):
    """Drive one game: ``doubler`` (0/1) doubles at their first chance and the other
    side drops; or, when ``resigner`` is given, that player resigns a single at their
    first turn (after ``crawford_probe`` checks that nobody may double). Everything
    else: roll, and play the first legal play. Returns the last response."""
    refused_doubles = 0
    while True:
        views = [c.get(f"/api/v1/games/{game_id}/").json() for c in clients]
        if views[0]["result"] is not None:
            return views[0], refused_doubles
        actor = views[0]["player_to_act"]
        me = views[actor]
        version = me["version"]
        names = _names(me)
        if crawford_probe and me["phase"] == "roll":
            refusal = _act(clients[actor], game_id, version, "double")
            assert refusal.status_code == 400
            assert refusal.json()["code"] == "crawford_no_double"
            assert "double" not in names
            refused_doubles += 1
        if resigner is not None and actor == resigner and me["phase"] == "roll":
            response = _act(clients[actor], game_id, version, "resign", kind="single")
            assert response.status_code == 200, response.json()
            answer = _act(clients[1 - actor], game_id, version + 1, "accept_resignation")
            assert answer.status_code == 200, answer.json()
            return answer.json(), refused_doubles
        if actor == doubler and "double" in names:
            response = _act(clients[actor], game_id, version, "double")
        elif "drop" in names:
            response = _act(clients[actor], game_id, version, "drop")
        elif "roll" in names:
            response = _act(clients[actor], game_id, version, "roll")
        else:
            (play,) = [a for a in me["legal_actions"] if a["action"] == "play"]
            first = play["plays"][0]
            response = _act(clients[actor], game_id, version, "play", play=first["play"])
        assert response.status_code == 200, response.json()
        if response.json()["result"] is not None:
            return response.json(), refused_doubles


def test_a_match_to_5_with_a_crawford_game_reaches_the_right_score(pair):
    (a, client_a), (b, client_b) = pair
    clients = [client_a, client_b]
    match = _create(client_a, a, b)
    assert match["status"] == "playing"
    game_id = match["current_game"]

    # Games 1-2: Bence doubles, Anna drops (0-2). Games 3-6: Anna doubles, Bence drops
    # (4-2): Anna is 1-away, so game 7 is the Crawford game.
    for doubler in (1, 1, 0, 0, 0, 0):
        final, _ = _play_game(clients, game_id, doubler=doubler)
        assert final["result"]["reason"] == "drop"
        game_id = final["next_game"]
    detail = client_a.get(f"/api/v1/matches/{match['id']}/").json()
    assert detail["score"] == [4, 2]
    crawford = client_a.get(f"/api/v1/games/{game_id}/").json()
    assert crawford["crawford"] is True
    assert crawford["winning_chances"][0] > 0.5

    # The Crawford game: no double for either side (R11); Anna resigns a single: 4-3.
    final, refused = _play_game(clients, game_id, doubler=None, resigner=0, crawford_probe=True)
    assert refused >= 1
    assert final["score"] == [4, 2]  # the score before this game
    game_id = final["next_game"]
    post = client_a.get(f"/api/v1/games/{game_id}/").json()
    assert post["crawford"] is False
    assert post["score"] == [4, 3]

    # Post-Crawford: the cube is back (R11). Bence doubles, Anna drops: 4-4; then again
    # at double match point Bence doubles and Anna drops: 4-5, Bence wins the match.
    final, _ = _play_game(clients, game_id, doubler=1)
    game_id = final["next_game"]
    final, _ = _play_game(clients, game_id, doubler=1)
    assert final["next_game"] is None

    detail = client_a.get(f"/api/v1/matches/{match['id']}/").json()
    assert detail["status"] == "finished"
    assert detail["score"] == [4, 5]
    assert detail["winner"]["id"] == b.pk
    assert [g["crawford"] for g in detail["games"]].count(True) == 1
    assert len(detail["games"]) == 9  # 6 + the Crawford game + 2 post-Crawford


def test_game_state_shows_ids_dice_cube_pips_and_legal_actions(pair):
    (a, client_a), (b, client_b) = pair
    match = _create(client_a, a, b)
    state = client_a.get(f"/api/v1/games/{match['current_game']}/").json()
    assert len(state["position_id"]) == 14
    assert len(state["match_id"]) == 12
    assert state["cube"] == {"value": 1, "owner": None}
    assert state["pips"] == [167, 167]
    assert state["score"] == [0, 0]
    assert state["match_length"] == 5
    assert state["winning_chances"] == [0.5, 0.5]
    mover = state["turn"]
    mine = [client_a, client_b][mover].get(f"/api/v1/games/{match['current_game']}/").json()
    assert mine["you"] == mover
    assert "play" in _names(mine)
    theirs = [client_a, client_b][1 - mover].get(f"/api/v1/games/{match['current_game']}/")
    assert _names(theirs.json()) == {"resign"}
    spectator = APIClient().get(f"/api/v1/games/{match['current_game']}/").json()
    assert spectator["you"] is None
    assert spectator["legal_actions"] == []


def _db_snapshot():
    return (
        list(Match.objects.order_by("pk").values()),
        list(Game.objects.order_by("pk").values()),
        list(GameAction.objects.order_by("pk").values()),
    )


def test_refusals_have_codes_statuses_and_change_nothing(pair):
    (a, client_a), (b, client_b) = pair
    match = _create(client_a, a, b)
    game_id = match["current_game"]
    state = client_a.get(f"/api/v1/games/{game_id}/").json()
    mover, version = state["turn"], state["version"]
    movers = [client_a, client_b]
    outsider = _client(UserPlayerFactory())
    before = _db_snapshot()

    cases = [
        (_act(movers[mover], game_id, version - 1, "roll"), 409, "stale_version"),
        (_act(movers[1 - mover], game_id, version, "roll"), 400, "not_your_turn"),
        (_act(movers[mover], game_id, version, "roll"), 400, "already_rolled"),
        (_act(movers[mover], game_id, version, "play", play="24/5"), 400, "illegal_play"),
        (_act(movers[mover], game_id, version, "play", play="hello"), 400, "invalid_notation"),
        (_act(movers[mover], game_id, version, "fly"), 400, "invalid"),
        (_act(movers[mover], game_id, -1, "roll"), 400, "invalid"),
        (_act(outsider, game_id, version, "roll"), 403, "not_a_player"),
        (_act(APIClient(), game_id, version, "roll"), 401, "not_authenticated"),
        (_act(movers[mover], 999999, version, "roll"), 404, "game_not_found"),
    ]
    for response, status, code in cases:
        assert (response.status_code, response.json()["code"]) == (status, code), response.json()
        assert response.json()["detail"]
    assert _db_snapshot() == before


def test_match_creation_is_validated(pair):
    (a, client_a), (b, _) = pair
    stranger = PlayerFactory()
    response = client_a.post(
        "/api/v1/matches/", {"player1": b.pk, "player2": stranger.pk, "length": 5}, format="json"
    )
    assert (response.status_code, response.json()["code"]) == (403, "not_a_player")
    response = client_a.post(
        "/api/v1/matches/",
        {"player1": a.pk, "player2": b.pk, "length": 5, "rules": {"beavers": True}},
        format="json",
    )
    assert (response.status_code, response.json()["code"]) == (400, "money_option_in_match")
    response = client_a.post(
        "/api/v1/matches/", {"player1": a.pk, "player2": a.pk, "length": 5}, format="json"
    )
    assert (response.status_code, response.json()["code"]) == (400, "same_player")
    assert Match.objects.count() == 0


def test_a_money_session_with_beavers_and_jacoby(pair):
    (a, client_a), (b, _) = pair
    match = _create(client_a, a, b, length=0, rules={"beavers": True, "jacoby": True})
    assert match["rules"]["beavers"] is True
    state = client_a.get(f"/api/v1/games/{match['current_game']}/").json()
    assert state["winning_chances"] is None
    assert state["match_length"] == 0


def test_the_openapi_schema_and_docs_are_served(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/v1/games/{game_id}/actions/" in schema.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"swagger" in docs.content.lower()


def test_a_token_is_issued_for_username_and_password():
    player = UserPlayerFactory()
    response = APIClient().post(
        "/api/v1/auth/token/",
        {"username": player.user.username, "password": "jelszo-123"},
        format="json",
    )
    assert response.status_code == 200
    assert len(response.json()["token"]) == 40


def test_me_names_the_token_owner(pair):
    (a, client_a), _ = pair
    assert client_a.get("/api/v1/me/").json() == {
        "username": a.user.username,
        "player": {"id": a.pk, "name": "Anna"},
    }
    assert APIClient().get("/api/v1/me/").status_code == 401


def test_token_authentication_loads_user_and_player_in_one_query(pair, django_assert_num_queries):
    (a, client_a), _ = pair
    with django_assert_num_queries(1):
        assert client_a.get("/api/v1/me/").json()["player"]["id"] == a.pk


def test_a_bad_token_is_refused_with_a_code():
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    response = client.get("/api/v1/me/")
    assert (response.status_code, response.json()["code"]) == (401, "authentication_failed")


def test_a_money_session_is_ended_between_games_and_not_during_one(pair):
    (a, client_a), (b, client_b) = pair
    session = _create(client_a, a, b, length=0)
    clients = (client_a, client_b)
    # Game 1: the doubler's opponent drops, so someone is ahead after it.
    last, _ = _play_game(clients, session["current_game"], doubler=0)
    second = last["next_game"]
    assert second is not None

    # Once game 2 is under way the session cannot end: finish or resign first.
    mover = client_a.get(f"/api/v1/games/{second}/").json()["player_to_act"]
    view = clients[mover].get(f"/api/v1/games/{second}/").json()
    (play,) = [x for x in view["legal_actions"] if x["action"] == "play"]  # opening dice (R3)
    response = _act(
        clients[mover], second, view["version"], "play", position_id=play["plays"][0]["position_id"]
    )
    assert response.status_code == 200
    rows = GameAction.objects.count()
    refused = client_b.post(f"/api/v1/matches/{session['id']}/end/")
    assert (refused.status_code, refused.json()["code"]) == (409, "game_in_progress")
    assert GameAction.objects.count() == rows
    assert Match.objects.get(pk=session["id"]).status == "playing"

    # Finish game 2 by resignation; game 3 has only its opening roll, so either
    # player may end the session now.
    last, _ = _play_game(clients, second, doubler=None, resigner=1 - mover)
    third = last["next_game"]
    ended = client_b.post(f"/api/v1/matches/{session['id']}/end/")
    assert ended.status_code == 200, ended.json()
    assert ended.json()["status"] == "finished"
    match = Match.objects.get(pk=session["id"])
    expected = None if match.score1 == match.score2 else (a if match.score1 > match.score2 else b)
    assert match.winner == expected
    game = Game.objects.get(pk=third)
    assert (game.is_over, game.result_kind) == (True, Game.VOID)

    # The unplayed game offers nothing and refuses everything, with a code.
    view = client_a.get(f"/api/v1/games/{third}/").json()
    assert (view["phase"], view["legal_actions"]) == ("void", [])
    for client in clients:
        response = _act(client, third, game.version, "resign", kind="single")
        assert (response.status_code, response.json()["code"]) == (409, "session_ended")
    again = client_a.post(f"/api/v1/matches/{session['id']}/end/")
    assert (again.status_code, again.json()["code"]) == (409, "match_not_playing")
    # The .mat export leaves the void game out: two games, no third.
    mat = client_a.get(f"/matches/{session['id']}/export.mat")
    assert mat.status_code == 200
    text = mat.content.decode()
    assert " Game 2\n" in text
    assert " Game 3\n" not in text


def test_only_a_money_session_is_ended_and_only_by_its_players(pair):
    (a, client_a), (b, _) = pair
    match = _create(client_a, a, b, length=5)
    refused = client_a.post(f"/api/v1/matches/{match['id']}/end/")
    assert (refused.status_code, refused.json()["code"]) == (400, "not_money_session")
    session = _create(client_a, a, b, length=0)
    outsider = UserPlayerFactory()
    refused = _client(outsider).post(f"/api/v1/matches/{session['id']}/end/")
    assert (refused.status_code, refused.json()["code"]) == (403, "not_a_player")
    assert APIClient().post(f"/api/v1/matches/{session['id']}/end/").status_code in (401, 403)
    missing = client_a.post("/api/v1/matches/999999/end/")
    assert (missing.status_code, missing.json()["code"]) == (404, "match_not_found")
    assert Match.objects.get(pk=session["id"]).status == "playing"


_BODY_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=8),
    st.sampled_from(["roll", "play", "resign", "single", "gammon", "fly", "", " 13/7 ", "7"]),
    st.text(max_size=90),
    st.floats(allow_nan=False, allow_infinity=False, width=16),
    st.lists(st.integers(), max_size=2),
)


@settings(max_examples=1000, deadline=None)
@example({"action": "roll", "version": 3, "play": None})
@example({"action": "play", "version": 3, "position_id": None})
@example({"action": "play", "version": 3, "position_id": " "})
@example({"action": "resign", "version": 0, "kind": None})
@example({"action": "choose_double", "version": 1, "value": True})
@given(
    st.dictionaries(
        st.sampled_from(["action", "version", "play", "position_id", "kind", "value", "x"]),
        _BODY_VALUES,
        max_size=6,
    )
)
def test_the_plain_action_body_check_accepts_only_what_drf_accepts_and_the_same_way(body):
    """The API's lean check of an action body (views._plain_action_input) must never
    accept what the documented serializer refuses, nor read it differently."""
    from games.play.api import _plain_action_input
    from games.play.serializers import ActionInput

    plain = _plain_action_input(body)
    if plain is None:
        return  # the serializer decides
    serializer = ActionInput(data=body)
    assert serializer.is_valid(), (body, serializer.errors)
    assert plain == dict(serializer.validated_data)


def test_an_ordinary_action_body_takes_the_plain_path():
    from games.play.api import _plain_action_input

    assert _plain_action_input({"action": "roll", "version": 3}) == {"action": "roll", "version": 3}
    assert _plain_action_input({"action": "roll", "version": "3"}) is None  # DRF decides
