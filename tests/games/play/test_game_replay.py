"""Issue 27: the replay of every game, step by step, from its action log through the
engine: games played here (a double taken, a drop, resignations offered, declined and
accepted, the Crawford game), an imported .mat match, and the page and API that show it."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from games.engine.actions import state_from_dict
from games.engine.position import position_id
from games.models import Game, GameAction, Match
from games.play import replay, services
from games.play.dice import ScriptedDice
from games.play.selectors import game_log_states, game_replayed_state
from tests.factories import PlayerFactory, UserFactory
from tests.games.play.test_interchange import _play_match

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[1] / "engine" / "data"
NAMES = ("Anna", "Bence")


@pytest.fixture(autouse=True)
def _english(client):
    """The club's language is Hungarian; these tests read the English words (the
    Hungarian ones are checked once, below)."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def players():
    return PlayerFactory(name=NAMES[0]), PlayerFactory(name=NAMES[1])


def _first_play(game):
    game.refresh_from_db()
    state = state_from_dict(game.state)
    return position_id(state.legal_plays()[0].result)


def _play_first(game, player):
    target = _first_play(game)
    return services.game_play(
        game_id=game.pk, player=player, expected_version=game.version, result_position_id=target
    )


def _act(call, game, player, **kw):
    game.refresh_from_db()
    return call(game_id=game.pk, player=player, expected_version=game.version, **kw)


def test_a_game_with_a_take_and_a_resignation_declined_then_accepted(client, players):
    """Opening 3-1 for Anna; Bence doubles, Anna takes; Bence rolls and plays; Anna
    offers a gammon, Bence declines; Anna offers a single, Bence accepts."""
    a, b = players
    match = services.match_create(player1=a, player2=b, length=5)
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    services.game_play(game_id=game.pk, player=a, expected_version=1, play="8/5 6/5")
    _act(services.cube_offer, game, b)
    _act(services.cube_take, game, a)
    _act(services.game_roll, game, b, dice=ScriptedDice([6, 4]))
    _play_first(game, b)
    _act(services.resign_offer, game, a, kind="gammon")
    _act(services.resign_decline, game, b)
    _act(services.resign_offer, game, a, kind="single")
    _act(services.resign_accept, game, b, dice=ScriptedDice([5, 2]))
    game.refresh_from_db()

    steps = replay.game_replay_steps(game=game)
    kinds = [s.kind for s in steps]
    assert kinds == [
        "start",
        "play",  # the opening roll with its play: one step
        "double",
        "take",
        "play",  # Bence's roll and play
        "resign",
        "decline_resignation",
        "resign",
        "accept_resignation",
    ]
    assert [s.index for s in steps] == list(range(len(steps)))
    opening = steps[1]
    assert (opening.player, opening.dice, opening.play) == (0, (3, 1), "8/5 6/5")
    assert steps[4].dice == (6, 4) and steps[4].player == 1
    # The cube: offered at 2 while the double waits, then 2 owned by Anna.
    assert steps[2].cube == (2, None) and steps[2].state.phase == "doubled"
    assert steps[3].cube == (2, 0)
    texts = [replay.step_text(s, NAMES) for s in steps]
    assert texts[1] == "Anna plays 3-1: 8/5 6/5"
    assert texts[2] == "Bence doubles to 2."
    assert texts[3] == "Anna takes: the cube is at 2, owned by Anna."
    assert texts[5] == "Anna offers to resign a gammon."
    assert texts[6] == "Bence declines the resignation."
    assert texts[8] == "Bence accepts the resignation."
    assert replay.result_text(steps[-1].state, NAMES) == "Bence won 2 points."
    # The last step is the stored state: the same replay as the audit's.
    assert steps[-1].state == state_from_dict(game.state) == game_replayed_state(game=game)
    assert steps[-1].seq == game.actions.order_by("-seq").first().seq
    page = reverse("games:game-replay", args=[match.pk, 1])
    assert "2 (owned by Anna)" in client.get(page + "?move=3").content.decode()


def _two_drops(players):
    """Match to 3: Bence wins games 1 and 2 by drops (0-2), game 3 is the Crawford game."""
    a, b = players
    match = services.match_create(player1=a, player2=b, length=3)
    game1 = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    _play_first(game1, a)
    _act(services.cube_offer, game1, b)
    game2 = _act(services.cube_drop, game1, a, dice=ScriptedDice([5, 2])).next_game
    _play_first(game2, a)
    _act(services.cube_offer, game2, b)
    game3 = _act(services.cube_drop, game2, a, dice=ScriptedDice([6, 1])).next_game
    assert game3.crawford
    return match, game1, game2, game3


def test_a_drop_and_the_crawford_game(players):
    _, game1, game2, game3 = _two_drops(players)

    steps1 = replay.game_replay_steps(game=game1)
    assert [s.kind for s in steps1] == ["start", "play", "double", "drop"]
    assert replay.step_text(steps1[3], NAMES) == "Anna drops the double and gives up the game."
    assert replay.result_text(steps1[3].state, NAMES) == "Bence won 1 point."
    assert steps1[3].state.result.reason == "drop"
    steps2 = replay.game_replay_steps(game=game2)
    assert steps2[0].state.match.score == (0, 1)  # the score before game 2
    steps3 = replay.game_replay_steps(game=game3)
    assert steps3[0].state.match.crawford and steps3[-1].state.match.score == (0, 2)
    assert [s.kind for s in steps3] == ["start", "roll"]  # the opening 6-1, not yet played


def test_a_roll_that_cannot_be_played_is_a_step_of_its_own():
    """A long random match: every log row is in exactly one step, every step's state is
    the engine's after its last row, and a roll alone is one that passed the turn (or
    one followed by something other than its play)."""
    match = _play_match(5, seed=11)
    for game in match.games.order_by("number"):
        rows = list(game.actions.order_by("seq"))
        states = {row.seq: state for row, state in game_log_states(game=game, rows=rows)}
        steps = replay.game_replay_steps(game=game, rows=rows)
        assert steps[-1].state == state_from_dict(game.state)
        for step in steps[1:]:
            assert step.state == states[step.seq]
            assert replay.step_text(step, NAMES)  # every step said in words
        plays = [r for r in rows if r.kind == "play"]
        assert [s.play for s in steps if s.kind == "play"] == [r.data["play"] for r in plays]


def test_an_imported_mat_match_replays_from_its_log():
    out = io.StringIO()
    call_command("import_mat", str(DATA / "gnubg_5pt.mat"), stdout=out)
    match = Match.objects.get(pk=int(out.getvalue()))
    assert match.is_imported
    games = list(match.games.order_by("number"))
    assert len(games) > 1
    for game in games:
        steps = replay.game_replay_steps(game=game)
        assert steps[-1].state == state_from_dict(game.state)
        played = GameAction.objects.filter(game=game, kind="play").count()
        assert sum(1 for s in steps if s.kind == "play") == played
        assert all(s.dice for s in steps if s.kind == "play")


def test_the_move_asked_for(players):
    assert replay.step_index(None, 10) == 0
    assert replay.step_index("", 10) == 0
    assert replay.step_index("last", 10) == 9
    assert replay.step_index("4", 10) == 4
    assert replay.step_index("99", 10) == 9  # beyond the end: the last
    assert replay.step_index("-3", 10) == 0
    assert replay.step_index("abc", 10) is None
    assert replay.step_index("1e9", 10) is None
    assert replay.step_index("9" * 40, 10) is None
    assert replay.step_index("²", 10) is None and replay.step_index("١٢", 10) is None


# ---------------------------------------------------------------------------- the page
@pytest.fixture
def finished():
    return _play_match(3, seed=5)


def test_the_replay_page_for_a_visitor(client, finished, django_assert_max_num_queries):
    match = finished
    game = match.games.order_by("number").first()
    url = reverse("games:game-replay", kwargs={"match_id": match.pk, "number": game.number})
    steps = replay.game_replay_steps(game=game)
    with django_assert_max_num_queries(6):
        response = client.get(url + "?move=1")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<svg" in html and 'id="replay-title"' in html
    first = steps[1]
    assert first.play in html
    assert 'aria-current="step"' in html
    assert "?move=2" in html and f"?move={len(steps) - 1}" in html  # next and last
    # The start and an out-of-range move clamp; a move that is no number is 404.
    assert client.get(url).context["step"].index == 0
    assert client.get(url + "?move=100000").context["step"].index == len(steps) - 1
    assert client.get(url + "?move=last").context["step"].index == len(steps) - 1
    assert client.get(url + "?move=x").status_code == 404
    missing = reverse("games:game-replay", kwargs={"match_id": match.pk, "number": 99})
    assert client.get(missing).status_code == 404
    nomatch = reverse("games:game-replay", kwargs={"match_id": 999999, "number": 1})
    assert client.get(nomatch).status_code == 404


def test_the_page_shows_the_cube_said_in_words_and_the_crawford_marker(client, players):
    match, *_ = _two_drops(players)
    url = reverse("games:game-replay", kwargs={"match_id": match.pk, "number": 1})
    html = client.get(url + "?move=2").content.decode()
    assert "Bence doubles to 2." in html and "2, offered" in html
    html = client.get(url + "?move=last").content.decode()
    assert "Anna drops the double" in html and "Bence won 1 point." in html
    assert "replay-crawford" not in html
    url3 = reverse("games:game-replay", kwargs={"match_id": match.pk, "number": 3})
    html = client.get(url3).content.decode()
    assert 'data-testid="replay-crawford"' in html
    assert "Anna 0 · Bence 2" in html  # the score before the Crawford game
    match_page = client.get(reverse("games:match", kwargs={"match_id": match.pk})).content.decode()
    for number in (1, 2, 3):  # every game's row links its replay
        assert reverse("games:game-replay", args=[match.pk, number]) + '"' in match_page
    assert f"{url3}?move=last" in match_page  # the current game's moves so far


def test_the_replay_page_in_hungarian_and_from_the_players_side(client, finished):
    match = finished
    game = match.games.order_by("number").first()
    user = UserFactory()
    match.player2.user = user
    match.player2.save()
    client.force_login(user)
    url = reverse("games:game-replay", kwargs={"match_id": match.pk, "number": game.number})
    html = client.get(url + "?move=1").content.decode()
    # The second player sees themself at the bottom.
    assert f"move 1: {match.player2.name} (bottom) against {match.player1.name}" in html
    html = client.get(url + "?move=1", HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    assert "játszma visszajátszása" in html


# ---------------------------------------------------------------------------- the API
def test_the_replay_api(client, finished, django_assert_num_queries):
    game = finished.games.order_by("number").first()
    steps = replay.game_replay_steps(game=game)
    url = reverse("games-api:game-replay", kwargs={"game_id": game.pk})
    with django_assert_num_queries(2):  # the game with its match and players, the log
        response = client.get(url)
    assert response.status_code == 200
    body = response.json()
    assert body["game"] == game.pk and body["number"] == game.number
    assert body["score"] == [0, 0] and body["match_length"] == 3
    assert len(body["steps"]) == len(steps)
    assert body["steps"][0]["action"] == "start" and body["steps"][0]["dice"] is None
    play = next(s for s in body["steps"] if s["action"] == "play")
    assert play["play"] and len(play["dice"]) == 2 and len(play["position_id"]) == 14
    assert len(play["match_id"]) == 12
    last = body["steps"][-1]
    assert last["position_id"] == game.position_id and last["match_id"] == game.gnubg_match_id
    assert last["result"]["points"] == game.points
    missing = client.get(reverse("games-api:game-replay", kwargs={"game_id": 999999}))
    assert missing.status_code == 404 and missing.json()["code"] == "game_not_found"


def test_the_api_query_count_does_not_grow_with_the_game(client, django_assert_num_queries):
    match = _play_match(7, seed=3)
    longest = max(match.games.all(), key=lambda g: g.version)
    assert longest.version > 40
    with django_assert_num_queries(2):
        client.get(reverse("games-api:game-replay", kwargs={"game_id": longest.pk}))


def test_a_game_just_started_shows_the_roll_waiting_for_its_play(players):
    a, b = players
    match = services.match_create(player1=a, player2=b, length=0)
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    assert Game.objects.filter(match=match).count() == 1
    steps = replay.game_replay_steps(game=game)
    assert [s.kind for s in steps] == ["start", "roll"]  # rolled, not yet played
    assert replay.step_text(steps[1], NAMES) == "Anna rolls 3-1."


def test_a_match_imported_by_the_command_has_its_page(client):
    """The command imports with no importer: the match page says so instead of a 500."""
    out = io.StringIO()
    call_command("import_mat", str(DATA / "gnubg_5pt.mat"), stdout=out)
    match = Match.objects.get(pk=int(out.getvalue()))
    assert match.imported_by is None
    page = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    assert "Imported from a .mat file on" in page.content.decode()
