"""The match page says every state in words (issue 27): whose turn, the colours, the
cube, the opponent's last move, a pending double with what a take and a drop mean at
this score, the confirmations, a resignation offered, declined and accepted said to
both, the banner of a finished game, the match won; and the rematch (service, API,
page)."""

from __future__ import annotations

import re

import pytest

from games.engine.actions import state_from_dict
from games.engine.position import position_id
from games.models import Game, Match, MatchInvitation
from games.play import invitations, services
from games.play.dice import ScriptedDice
from tests.factories import UserPlayerFactory, api_client, finish_by_resignation

pytestmark = pytest.mark.django_db


@pytest.fixture
def started():
    """A match to 3; Anna (player 0) won the opening roll 3-1."""
    a, b = UserPlayerFactory(name="Anna"), UserPlayerFactory(name="Bence")
    match = services.match_create(player1=a, player2=b, length=3)
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    return a, b, match, game


def _page(client, player, match) -> str:
    if player is None:
        client.logout()
    else:
        client.force_login(player.user)
    client.cookies["django_language"] = "en"
    return client.get(f"/matches/{match.pk}/").content.decode()


def _play_first(game: Game, player) -> Game:
    state = state_from_dict(game.state)
    return services.game_play(
        game_id=game.pk,
        player=player,
        expected_version=game.version,
        result_position_id=position_id(state.legal_plays()[0].result),
    ).game


def _doubled(started) -> Game:
    """Anna played her opening 3-1; Bence doubles before rolling."""
    a, b, _match, game = started
    game = _play_first(game, a)
    return services.cube_offer(game_id=game.pk, player=b, expected_version=game.version).game


def test_your_turn_waiting_for_and_a_visitor_each_read_whose_turn(client, started):
    a, b, match, _ = started
    anna = _page(client, a, match)
    assert 'data-testid="turn" data-my-turn>Your turn.</p>' in anna
    assert "You: white (bottom)" in anna and "Bence: black (top)" in anna
    bence = _page(client, b, match)
    assert ">Waiting for Anna.</p>" in bence and "data-my-turn" not in bence
    assert "You: white (bottom)" in bence and "Anna: black (top)" in bence
    visitor = _page(client, None, match)
    assert ">Anna to play.</p>" in visitor
    assert "Anna: white (bottom)" in visitor and "Bence: black (top)" in visitor
    assert "to act." not in anna + bence + visitor


def test_the_opponents_last_move_is_written_in_notation(client, started):
    a, b, match, game = started
    played = _play_first(game, a)
    notation = played.actions.get(kind="play").data["play"]
    assert f"Anna played 3-1: {notation}</p>" in _page(client, b, match)
    assert 'data-testid="last-move"' not in _page(client, a, match)  # not one's own


def test_a_pending_double_is_a_dialog_with_what_take_and_drop_mean(client, started):
    a, b, match, _ = started
    _doubled(started)
    anna = _page(client, a, match)
    assert 'role="alertdialog"' in anna
    assert "Bence doubles to 2" in anna
    assert "Take: the game is played for 2 points and the cube (2) is yours." in anna
    assert "Drop: you lose 1 point, the score becomes Anna 0 \u2013 Bence 1." in anna
    assert "1, doubled to 2: your answer" in anna
    # The board draws the value offered, highlighted.
    assert 'class="cube cube-offered" data-value="2"' in anna
    # Drop is a second step: Drop… opens the confirmation, which posts the drop.
    assert 'data-action="drop">Drop…</summary>' in anna
    assert 'data-action="confirm-drop">Confirm drop</button>' in anna
    bence = _page(client, b, match)
    assert 'role="alertdialog"' not in bence
    assert "1, doubled to 2: Anna answers" in bence
    assert ">Waiting for Anna.</p>" in bence


def test_a_drop_that_wins_the_match_or_brings_the_crawford_game_says_so(client):
    a, b = UserPlayerFactory(name="Anna"), UserPlayerFactory(name="Bence")
    match = services.match_create(player1=a, player2=b, length=3)
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    game = _play_first(game, a)
    game = services.cube_offer(game_id=game.pk, player=b, expected_version=game.version).game
    game = services.cube_take(game_id=game.pk, player=a, expected_version=game.version).game
    # Bence rolls and plays; Anna redoubles to 4: a drop gives Anna 2 points, 2-0 -> Crawford.
    game = services.game_roll(
        game_id=game.pk, player=b, expected_version=game.version, dice=ScriptedDice([6, 5])
    ).game
    game = _play_first(game, b)
    services.cube_offer(game_id=game.pk, player=a, expected_version=game.version)
    bence = _page(client, b, match)
    assert "Anna doubles to 4" in bence
    assert (
        "Drop: you lose 2 points, the score becomes Anna 2 \u2013 Bence 0 (Crawford game next)."
        in bence
    )
    assert "the cube (4) is yours" in bence


def test_the_drop_posted_from_its_confirmation_drops(client, started):
    a, _b, match, _ = started
    game = _doubled(started)
    client.force_login(a.user)
    client.post(f"/games/{game.pk}/act/", {"version": game.version, "action": "drop"})
    assert Game.objects.get(pk=game.pk).result_kind == "single"
    html = _page(client, a, match)
    assert 'data-testid="game-over"' in html
    assert "Game 1 is over." in html
    assert "Anna dropped the double: Bence won 1 point." in html
    assert "Match score: Anna 0 \u2013 Bence 1." in html


def test_the_game_over_banner_stays_until_the_new_games_first_move(client, started):
    a, b, match, _ = started
    game = _doubled(started)
    second = services.cube_drop(game_id=game.pk, player=a, expected_version=game.version).next_game
    html = _page(client, b, match)
    assert "Game 1 is over." in html
    assert f"/games/{game.pk}/board.svg?position=" in html  # the final position, reachable
    mover = state_from_dict(second.state).player_to_act
    _play_first(second, (a, b)[mover])
    assert "Game 1 is over." not in _page(client, b, match)


def test_the_crawford_game_is_said_on_both_screens(client):
    a, b = UserPlayerFactory(name="Anna"), UserPlayerFactory(name="Bence")
    match = services.match_create(player1=a, player2=b, length=3)
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    game = _play_first(game, a)
    game = services.resign_offer(
        game_id=game.pk, player=b, expected_version=game.version, kind="gammon"
    ).game
    services.resign_accept(game_id=game.pk, player=a, expected_version=game.version)
    for player in (a, b):
        html = _page(client, player, match)
        assert "Bence resigned a gammon: Anna won 2 points." in html
        assert "The next game is the Crawford game: no doubling in it." in html
        assert "Crawford game: nobody may double in this game." in html
        assert 'data-action="double"' not in html


def test_a_resignation_is_said_to_both_with_its_kind_in_words(client, started):
    a, b, match, game = started
    anna = _page(client, a, match)
    assert '<option value="single">a single game (1 point)</option>' in anna
    assert '<option value="gammon">a gammon (2 points)</option>' in anna
    assert 'data-action="confirm-resign">Offer to resign</button>' in anna
    game = services.resign_offer(
        game_id=game.pk, player=a, expected_version=game.version, kind="gammon"
    ).game
    anna = _page(client, a, match)
    assert "You offered to resign a gammon, 2 points; waiting for Bence." in anna
    bence = _page(client, b, match)
    assert "Anna offers to resign: a gammon, 2 points." in bence
    assert "single" not in bence.split('data-testid="resignation"')[1][:200]
    assert "Anna offers to resign: a gammon, 2 points; Bence answers." in _page(client, None, match)
    services.resign_decline(game_id=game.pk, player=b, expected_version=game.version)
    assert "Bence declined your resignation." in _page(client, a, match)
    assert "You declined the resignation of Anna." in _page(client, b, match)


def test_a_resignation_in_hungarian_never_shows_the_raw_kind(client, started):
    a, b, match, game = started
    services.resign_offer(game_id=game.pk, player=a, expected_version=game.version, kind="single")
    client.force_login(b.user)
    client.cookies["django_language"] = "hu"
    html = client.get(f"/matches/{match.pk}/").content.decode()
    part = html.split('data-testid="resignation"')[1][:300]
    assert "single" not in part and "Anna" in part


def test_a_finished_match_says_who_won_and_offers_a_rematch(client):
    a, b = UserPlayerFactory(name="Anna"), UserPlayerFactory(name="Bence")
    match = services.match_create(player1=a, player2=b, length=1)
    finish_by_resignation(match)  # Anna, to move, resigns a single: Bence wins 1-0
    html = _page(client, b, match)
    assert 'data-testid="match-over"' in html
    assert "You won the match, Anna 0 \u2013 Bence 1." in html
    html = _page(client, a, match)
    assert "Bence won the match, Anna 0 \u2013 Bence 1." in html
    assert "Anna resigned a single game: Bence won 1 point." in html
    assert 'data-action="rematch"' in html
    assert 'data-action="rematch"' not in _page(client, None, match)
    client.force_login(a.user)
    answer = client.post(f"/matches/{match.pk}/rematch/")
    invitation = MatchInvitation.objects.get(inviter=a, invitee=b)
    assert answer["Location"] == f"/matches/{invitation.match_id}/"
    assert invitation.match.length == 1


def _finished(length: int = 1, **create):
    a, b = UserPlayerFactory(name="Anna"), UserPlayerFactory(name="Bence")
    match = services.match_create(player1=a, player2=b, length=length, **create)
    finish_by_resignation(match)
    return a, b, match


def test_a_rematch_has_the_same_settings():
    a, b, match = _finished(length=0, rules={"jacoby": True, "beavers": True}, clock="seed002")
    assert match.status == Match.Status.FINISHED or match.is_money
    if match.status != Match.Status.FINISHED:
        services.match_end_session(match_id=match.pk, by=a)
        match.refresh_from_db()
    invitation = invitations.match_rematch(match_id=match.pk, by=b)
    new = invitation.match
    assert (invitation.inviter, invitation.invitee) == (b, a)
    assert new.pk != match.pk and new.status == Match.Status.WAITING
    assert new.length == match.length
    assert new.rules == match.rules and new.clock == match.clock
    assert new.timeout_claim == match.timeout_claim


def test_a_rematch_is_refused_to_a_visitor_before_the_end_and_twice():
    from games.errors import Conflict, PermissionDenied

    a, b, match = _finished()
    with pytest.raises(PermissionDenied) as refused:
        invitations.match_rematch(match_id=match.pk, by=UserPlayerFactory())
    assert refused.value.code == "not_a_player"
    invitations.match_rematch(match_id=match.pk, by=a)
    with pytest.raises(Conflict) as refused:
        invitations.match_rematch(match_id=match.pk, by=b)
    assert refused.value.code == "invitation_exists"
    playing = services.match_create(player1=a, player2=b, length=3)
    services.match_start(match_id=playing.pk, dice=ScriptedDice([3, 1]))
    with pytest.raises(Conflict) as refused:
        invitations.match_rematch(match_id=playing.pk, by=a)
    assert refused.value.code == "match_not_finished"


def test_the_rematch_api_answers_the_invitation_and_its_refusals():
    a, b, match = _finished()
    visitor = UserPlayerFactory()
    answer = api_client(visitor.user).post(f"/api/v1/matches/{match.pk}/rematch/")
    assert answer.status_code == 403 and answer.json()["code"] == "not_a_player"
    answer = api_client(a.user).post(f"/api/v1/matches/{match.pk}/rematch/")
    assert answer.status_code == 201
    body = answer.json()
    assert body["status"] == "pending"
    again = api_client(b.user).post(f"/api/v1/matches/{match.pk}/rematch/")
    assert again.status_code == 409 and again.json()["code"] == "invitation_exists"
    playing = services.match_create(player1=visitor, player2=b, length=3)
    services.match_start(match_id=playing.pk, dice=ScriptedDice([3, 1]))
    answer = api_client(b.user).post(f"/api/v1/matches/{playing.pk}/rematch/")
    assert answer.status_code == 409 and answer.json()["code"] == "match_not_finished"


def test_the_turn_sound_is_a_setting_off_by_default(client, started):
    a, _b, match, _ = started
    assert a.turn_sound is False
    assert "data-turn-sound" not in _page(client, a, match)
    answer = api_client(a.user).get("/api/v1/me/settings/")
    assert answer.json()["turn_sound"] is False
    answer = api_client(a.user).patch("/api/v1/me/settings/", {"turn_sound": True}, format="json")
    assert answer.status_code == 200 and answer.json()["turn_sound"] is True
    assert "data-turn-sound" in _page(client, a, match)
    assert "data-turn-sound" not in _page(client, None, match)
    client.force_login(a.user)
    page = client.get("/players/me/settings/").content.decode()
    box = re.search(r'<input[^>]*name="turn_sound"[^>]*>', page)
    assert box is not None and "checked" in box.group(0)
