"""Arranging a play one die at a time on the match page (R14): the steps the page
carries for the player to move, and the board image of a position on the way."""

from __future__ import annotations

import json
import re

import pytest

from games.engine.actions import state_from_dict
from games.engine.movegen import legal_plays
from games.engine.position import position_id
from games.play import services
from games.play.dice import ScriptedDice
from tests.factories import UserPlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def started():
    """Anna (player 1, index 0) won the opening roll with 3-1 and is to play it."""
    a, b = UserPlayerFactory(name="Anna"), UserPlayerFactory(name="Bence")
    match = services.match_create(player1=a, player2=b, length=5)
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    return a, b, match, game


def _steps(html: str) -> dict | None:
    found = re.search(r'<script id="play-steps" type="application/json">(.*?)</script>', html)
    return None if found is None else json.loads(found.group(1))


def _page(client, match, player=None) -> str:
    if player is not None:
        client.force_login(player.user)
    return client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_the_player_to_move_gets_the_steps_of_every_legal_play(client, started):
    a, _, match, game = started
    html = _page(client, match, a)
    data = _steps(html)
    assert data is not None
    nodes = data["nodes"]
    state = state_from_dict(game.state)
    assert nodes[0]["id"] == position_id(state.position)
    assert nodes[0]["dice"] == [3, 1]
    # 8/5 (3) and 6/5 (1) are among the first steps, each leading on
    first = {(die, src, dst): nxt for die, src, dst, _hit, nxt in nodes[0]["steps"]}
    assert (3, 8, 5) in first and (1, 6, 5) in first
    after = nodes[first[(3, 8, 5)]]
    assert after["dice"] == [1] and after["play"] is None
    done = nodes[{(d, s, t): n for d, s, t, _, n in after["steps"]}[(1, 6, 5)]]
    assert done["play"] == "8/5 6/5" and done["dice"] == [] and done["steps"] == []
    # The complete nodes are exactly the plays of the no-script list, same Position IDs.
    listed = html.split('<select id="play"')[1].split("</select>")[0]
    options = set(re.findall(r'<option value="([^"]+)"', listed))
    assert {n["id"] for n in nodes if n["play"]} == options
    assert {n["id"] for n in nodes if n["play"]} == {
        position_id(p.result) for p in state.legal_plays()
    }
    # The arranging panel is there but hidden until the script shows it; the list stays.
    assert re.search(r'<div class="arrange" id="arrange" hidden', html)
    assert "/static/games/board.js" in html
    assert f'data-board-url="/games/{game.pk}/board.svg?home=right"' in html
    assert '<select id="play" name="position_id"' in html


def test_no_steps_for_the_waiting_player_or_a_spectator(client, started):
    _, b, match, _ = started
    for html in (_page(client, match), _page(client, match, b)):
        assert _steps(html) is None
        assert 'id="arrange"' not in html
        # The script itself is on every match page: the page redraws itself live, and
        # the panel appears when the viewer's turn comes (static/games/live.js).


def test_no_steps_before_the_roll(client, started):
    a, b, match, game = started
    services.game_play(game_id=game.pk, player=a, expected_version=1, play="8/5 6/5")
    html = _page(client, match, b)  # Bence is to roll
    assert "Roll" in html
    assert _steps(html) is None


def test_the_steps_follow_the_orientation(client, started):
    a, _, match, game = started
    a.board_orientation = "left"
    a.save()
    html = _page(client, match, a)
    assert f'data-board-url="/games/{game.pk}/board.svg?home=left"' in html


# ---------------------------------------------------------------- the board image


def _board(client, game, **params):
    return client.get(f"/games/{game.pk}/board.svg", params, HTTP_ACCEPT_LANGUAGE="en")


def test_the_board_of_a_position_on_the_way(client, started):
    a, _, match, game = started
    client.force_login(a.user)
    nodes = _steps(_page(client, match))["nodes"]
    first = {(d, s, t): n for d, s, t, _, n in nodes[0]["steps"]}
    middle = nodes[first[(3, 8, 5)]]["id"]
    response = _board(client, game, position=middle)
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml; charset=utf-8"
    assert "no-store" in response["Cache-Control"]
    svg = response.content.decode()
    assert svg.startswith("<svg") and "<script" not in svg
    # 8/5 played: two checkers left on 8, one on 5; Anna at the bottom; the dice shown.
    assert 'class="checkers checkers-bottom" data-point="8" data-count="2"' in svg
    assert 'class="checkers checkers-bottom" data-point="5" data-count="1"' in svg
    assert re.findall(r'class="die" data-value="(\d)"', svg) == ["3", "1"]
    assert "Board of game 1: Anna (bottom) against Bence" in svg
    assert "board-home-right" in svg


def test_the_board_of_the_current_position_for_anyone(client, started):
    _, b, _, game = started
    state = state_from_dict(game.state)
    svg = _board(client, game, position=position_id(state.position), home="left")
    assert svg.status_code == 200
    assert "board-home-left" in svg.content.decode()
    # Bence sees his own side at the bottom, as on the match page.
    client.force_login(b.user)
    svg = _board(client, game, position=position_id(state.position)).content.decode()
    assert "Board of game 1: Bence (bottom) against Anna" in svg


@pytest.mark.parametrize("bad", ["", "garbage", "4HPwATDgc/ABM", "4HPwATDgc/ABMA!", "x" * 500])
def test_a_bad_position_id_is_refused(client, started, bad):
    _, _, _, game = started
    response = _board(client, game, position=bad)
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/plain")
    assert "<svg" not in response.content.decode()


def test_a_position_not_on_the_way_is_refused(client, started):
    _, _, _, game = started
    state = state_from_dict(game.state)
    elsewhere = legal_plays(state.position, 6, 6)[0].result  # valid, but not with a 3-1
    response = _board(client, game, position=position_id(elsewhere))
    assert response.status_code == 400
    assert "not on the way" in response.content.decode()


def test_an_unknown_game_is_not_found(client, started):
    response = client.get("/games/999999/board.svg", {"position": "4HPwATDgc/ABMA"})
    assert response.status_code == 404


def test_the_board_is_read_only(client, started):
    a, _, _, game = started
    client.force_login(a.user)
    state = state_from_dict(game.state)
    response = client.post(f"/games/{game.pk}/board.svg?position={position_id(state.position)}")
    assert response.status_code == 405
