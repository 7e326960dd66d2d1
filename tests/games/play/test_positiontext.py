"""The position as text (issue 27): games.play.positiontext is pure (no database); the
match page and the online chouette table show it, and the match page carries the words
its live region announces (the opponent's move, whose turn) and the skip link."""

from __future__ import annotations

import html as htmllib
import re

import pytest

from games.engine.actions import state_from_dict
from games.engine.position import position_id, start_position
from games.play import services
from games.play.dice import ScriptedDice
from games.play.positiontext import position_text
from tests.factories import UserPlayerFactory


def _boards(position):
    return [position.mover, position.opponent]


def test_every_point_is_numbered_from_the_readers_side() -> None:
    start = start_position()
    text = position_text(boards=_boards(start), names=["Anna", "Bence"], viewer=1)
    me, other = text.sides
    assert (me.name, me.is_viewer, other.is_viewer) == ("Bence", True, False)
    assert me.points_line == "6: 5, 8: 3, 13: 5, 24: 2"
    # Anna's 24:2, 13:5, 8:3, 6:5 seen from Bence's side: 1, 12, 17, 19.
    assert other.points_line == "1: 2, 12: 5, 17: 3, 19: 5"
    assert (me.pips, other.pips, me.bar, me.off) == (167, 167, 0, 0)
    assert text.viewer_plays and text.numbered_from == "Bence"
    assert (text.cube_value, text.cube_owner, text.dice) == (1, None, ())


def test_a_spectator_reads_the_first_sides_numbering_with_bar_off_cube_and_dice() -> None:
    mine = [0] * 25
    mine[0], mine[5], mine[24] = 3, 10, 1  # 1: 3, 6: 10, one on the bar (1 borne off)
    theirs = [0] * 25
    theirs[23] = 15
    text = position_text(
        boards=[mine, theirs],
        names=["Anna", "Bence"],
        viewer=None,
        cube_value=4,
        cube_owner=1,
        dice=[6, 5],
    )
    anna, bence = text.sides
    assert not text.viewer_plays and not anna.is_viewer and text.numbered_from == "Anna"
    assert (anna.points_line, anna.bar, anna.off, anna.pips) == ("1: 3, 6: 10", 1, 1, 88)
    assert (bence.points_line, bence.off) == ("1: 15", 0)
    assert (text.cube_value, text.cube_owner, text.dice) == (4, "Bence", (6, 5))


@pytest.mark.django_db
def test_the_match_page_gives_the_position_as_text_the_skip_link_and_the_announcement(
    client,
) -> None:
    anna, bence = UserPlayerFactory(name="Anna"), UserPlayerFactory(name="Bence")
    match = services.match_create(player1=anna, player2=bence, length=5)
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    state = state_from_dict(game.state)
    mover, waiting = (anna, bence) if state.player_to_act == 0 else (bence, anna)
    services.game_play(
        game_id=game.pk,
        player=mover,
        expected_version=game.version,
        result_position_id=position_id(state.legal_plays()[0].result),
    )
    client.force_login(waiting.user)
    page = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'class="skip-link" href="#match-panel" data-skip-primary>Skip to your move<' in page
    words = htmllib.unescape(re.search(r'data-announce="([^"]*)"', page).group(1))
    assert words.startswith(f"{mover.name} played 31: ") and words.endswith("Your turn.")
    assert "data-your-turn" in page and 'id="live-announcer"' in page
    assert 'id="position-text"' in page and "Your checkers:" in page
    assert f"{mover.name}'s checkers:" in page and "Dice:" not in page

    client.force_login(mover.user)
    page = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    words = htmllib.unescape(re.search(r'data-announce="([^"]*)"', page).group(1))
    assert words == f"{waiting.name} lépésére vársz." and "data-your-turn" not in page
    assert "Az állás szövegesen" in page and "A korongjaid:" in page
