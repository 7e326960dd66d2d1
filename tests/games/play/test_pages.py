"""Match pages: lobby, the match page with the SVG board and the controls of the player
to act, and form posts carried out by the services."""

from __future__ import annotations

import re

import pytest

from games.engine.actions import state_from_dict
from games.engine.notation import format_play
from games.engine.position import position_id
from games.models import Game, GameAction, Match
from games.play import services
from games.play.dice import ScriptedDice
from tests.factories import UserPlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def started():
    a, b = UserPlayerFactory(name="Anna"), UserPlayerFactory(name="Bence")
    match = services.match_create(player1=a, player2=b, length=5)
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    return a, b, match, game


def _login(client, player):
    client.force_login(player.user)
    return client


def test_lobby_lists_matches_with_bounded_queries(client, started, django_assert_max_num_queries):
    a, b, match, _ = started
    for _ in range(5):
        services.match_create(player1=a, player2=b, length=3)
    with django_assert_max_num_queries(6):
        html = client.get("/matches/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Anna \u2013 Bence" in html
    assert f"/matches/{match.pk}/" in html


def test_the_player_to_act_sees_the_board_and_the_legal_plays(client, started):
    a, _, match, _game = started
    html = _login(client, a).get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    html = html.content.decode()
    assert "<svg" in html and 'role="img"' in html
    assert "8/5 6/5" in html  # a legal play with the opening 3-1
    assert 'name="version" value="1"' in html
    assert 'http-equiv="refresh"' not in html


def test_the_waiting_player_sees_no_play_controls_and_the_page_refreshes(client, started):
    _, b, match, _ = started
    html = _login(client, b).get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    html = html.content.decode()
    assert "8/5 6/5" not in html
    assert "Resign" in html  # resigning is always open to a player
    assert "Waiting for Anna." in html
    assert "You: white (bottom)" in html and "Anna: black (top)" in html


def test_a_spectator_reads_the_page_without_controls(client, started):
    _, _, match, _ = started
    html = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<svg" in html
    assert 'name="action"' not in html


def test_playing_through_the_form_and_the_move_list(client, started):
    a, _b, match, game = started
    state = state_from_dict(game.state)
    target = state.legal_plays()[0]
    response = _login(client, a).post(
        f"/games/{game.pk}/act/",
        {"action": "play", "version": 1, "position_id": position_id(target.result)},
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.version == 2
    html = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert format_play(target) in html  # in the move list
    assert re.search(r"Anna</span>\s*<span class=\"dice\">31:", html)


def test_a_stale_form_shows_the_reason_and_changes_nothing(client, started):
    a, _, _match, game = started
    before = list(GameAction.objects.values_list("pk", flat=True))
    response = _login(client, a).post(
        f"/games/{game.pk}/act/",
        {"action": "roll", "version": 0},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "The game has moved on since you looked" in response.content.decode()
    assert list(GameAction.objects.values_list("pk", flat=True)) == before


def test_anonymous_posts_are_sent_to_log_in(client, started):
    _, _, _, game = started
    response = client.post(f"/games/{game.pk}/act/", {"action": "roll", "version": 1})
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_creating_a_match_from_the_lobby_invites_the_opponent(client, started):
    a, b, _, _ = started
    response = _login(client, a).post(
        "/matches/new/", {"opponent": b.pk, "length": 7, "variant": "nackgammon"}
    )
    match = Match.objects.order_by("-pk").first()
    assert response["Location"] == f"/matches/{match.pk}/"
    assert match.length == 7
    assert match.rules["variant"] == "nackgammon"
    # It waits for Bence: accepted, it starts.
    assert (match.status, match.invitation.invitee, Game.objects.filter(match=match).count()) == (
        "waiting",
        b,
        0,
    )
    client.force_login(b.user)
    accepted = client.post(f"/matches/invitations/{match.invitation.pk}/accept/")
    assert accepted["Location"] == f"/matches/{match.pk}/"
    assert Game.objects.filter(match=match).count() == 1


def test_board_orientation_follows_the_preference_and_the_link(client, started):
    a, _, match, _ = started
    a.board_orientation = "left"
    a.save()
    html = _login(client, a).get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert "Home board on the right" in html.content.decode()
    html = client.get(f"/matches/{match.pk}/?home=right", HTTP_ACCEPT_LANGUAGE="en")
    assert "Home board on the left" in html.content.decode()


def test_the_move_list_writes_the_larger_die_first(client, started):
    a, b, match, game = started
    services.game_play(game_id=game.pk, player=a, expected_version=1, play="8/5 6/5")
    rolled = services.game_roll(
        game_id=game.pk, player=b, expected_version=2, dice=ScriptedDice([1, 3])
    )
    first = state_from_dict(rolled.game.state).legal_plays()[0]
    services.game_play(
        game_id=game.pk,
        player=b,
        expected_version=3,
        result_position_id=position_id(first.result),
    )
    html = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert re.search(r"Bence</span>\s*<span class=\"dice\">31:", html)
    assert '<span class="dice">13:' not in html


def _result_cells(html: str) -> list[str]:
    return re.findall(r'<tr data-game="\d+">.*?<td class="result">([^<]*)</td>', html, re.S)


def test_the_games_table_says_how_each_game_ended(client, started):
    """A dropped double is a drop, not a single game (issue 18); a resignation says what
    was resigned, in words to translate."""
    a, b, match, game = started
    state = state_from_dict(game.state)
    players = (a, b)
    mover = state.player_to_act
    played = services.game_play(
        game_id=game.pk,
        player=players[mover],
        expected_version=game.version,
        result_position_id=position_id(state.legal_plays()[0].result),
    )
    other = players[1 - mover]
    offered = services.cube_offer(
        game_id=game.pk, player=other, expected_version=played.game.version
    )
    dropped = services.cube_drop(
        game_id=game.pk, player=players[mover], expected_version=offered.game.version
    )
    second = dropped.next_game
    mover2 = state_from_dict(second.state).player_to_act
    resigned = services.resign_offer(
        game_id=second.pk, player=players[mover2], expected_version=second.version, kind="gammon"
    )
    services.resign_accept(
        game_id=second.pk, player=players[1 - mover2], expected_version=resigned.game.version
    )
    client.cookies["django_language"] = "en"
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert _result_cells(html)[:2] == ["double dropped", "resigned (gammon)"]
    assert ">single<" not in html


@pytest.mark.parametrize(
    ("kind", "result", "label"),
    [
        ("single", {"kind": "single", "reason": "bear_off"}, "single game"),
        ("gammon", {"kind": "gammon", "reason": "bear_off"}, "gammon"),
        ("backgammon", {"kind": "backgammon", "reason": "bear_off"}, "backgammon"),
        ("single", {"kind": "single", "reason": "drop"}, "double dropped"),
        ("single", {"kind": "single", "reason": "resign"}, "resigned (single game)"),
        ("gammon", {"kind": "gammon", "reason": "timeout"}, "lost on time (gammon)"),
        ("match", {"kind": "match", "reason": "timeout"}, "lost on time: the match"),
        (Game.VOID, None, "not played (the session ended)"),
    ],
)
def test_each_way_a_game_ends_has_its_words(kind, result, label):
    from django.utils import translation

    from games.play.pages import game_result_label

    game = Game(is_over=True, result_kind=kind, state={"result": result})
    with translation.override("en"):
        assert game_result_label(game) == label
    assert game_result_label(Game(is_over=False, state={})) == ""
