"""A match lost on time (R12, ``timeout_result="match"``) is analysed like any other: the
.mat format cannot say how it ended, so the analysis writes its last game unfinished
(games.engine.matfile.write ``forfeit_unfinished``) and gnubg judges every move played."""

from __future__ import annotations

import sys

import pytest

from games.analysis.services import analysis_request, analysis_run
from games.engine.actions import state_from_dict
from games.models import DecisionAnalysis, MatchAnalysis, PlayerAnalysis
from games.play import alarms, selectors, services
from games.play.dice import ScriptedDice
from tests.factories import UserPlayerFactory

pytestmark = pytest.mark.django_db

ROLLS = [6, 4, 5, 2, 6, 6, 3, 1, 4, 2, 5, 5, 2, 1, 6, 3]


@pytest.mark.parametrize("program", ["debian", "pypi"])
def test_a_match_lost_on_time_is_analysed_with_its_last_game_unfinished(wall, settings, program):
    if program == "pypi":
        # The local run's fallback on a machine without Debian's gnubg
        # (config/settings/local.py): PyPI's build runs the same job script.
        settings.GNUBG_PROGRAM = sys.executable
    anna, bence = UserPlayerFactory(name="Anna"), UserPlayerFactory(name="Bence")
    players = (anna, bence)
    match = services.match_create(
        player1=anna,
        player2=bence,
        length=5,
        clock="seed002",
        timeout_claim=False,
        rules={"timeout_result": "match"},
    )
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    dice = ScriptedDice(ROLLS)
    for _ in range(9):  # the opening play, then four rolls and plays of each
        state = state_from_dict(game.state)
        player = players[state.player_to_act]
        if state.phase == "roll":
            game = services.game_roll(
                game_id=game.pk, player=player, expected_version=game.version, dice=dice
            ).game
            state = state_from_dict(game.state)
        (plays,) = [
            a["plays"]
            for a in selectors.legal_actions(state, state.player_to_act)
            if a["action"] == "play"
        ]
        game = services.game_play(
            game_id=game.pk,
            player=player,
            expected_version=game.version,
            result_position_id=plays[0]["position_id"],
        ).game
    wall.advance(seconds=600)  # the player to roll runs out of time: the match is lost
    assert alarms.game_clock_alarm(game_id=game.pk, version=game.version) == "flagged"
    match.refresh_from_db()
    assert match.status == match.Status.FINISHED

    analysis = analysis_request(match_id=match.pk, plies=0, send=False)
    done = analysis_run(analysis_id=analysis.pk)
    assert done is not None and done.status == MatchAnalysis.Status.DONE, (
        done and done.failure_reason
    )
    figures = PlayerAnalysis.objects.filter(analysis=done).order_by("index")
    assert [f.player_id for f in figures] == [anna.pk, bence.pk]
    assert not any(f.counts for f in figures)  # lost on time: never in the averages
    # gnubg gives no luck-adjusted result for a match not played to its end.
    assert [f.luck_adjusted_result for f in figures] == [None, None]
    moves = DecisionAnalysis.objects.filter(analysis=done, kind="move").count()
    assert moves == 9  # every checker play of the unfinished game judged
