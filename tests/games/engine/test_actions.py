"""The action log (R14): replaying a game's log reproduces its state exactly, and a
snapshot round-trips through JSON."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.actions import (
    Action,
    apply_action,
    match_to_dict,
    new_game_from_dicts,
    options_to_dict,
    replay,
    state_from_dict,
    state_to_dict,
)
from games.engine.errors import EngineError
from games.engine.game import new_game
from games.engine.match import MatchState
from games.engine.rules import RuleOptions
from games.engine.selfplay import random_game

SETUPS = [
    (RuleOptions(), MatchState.money()),
    (RuleOptions(jacoby=True, beavers=True, automatic_doubles=True), MatchState.money()),
    (RuleOptions(), MatchState.new(5)),
    (RuleOptions(), MatchState(length=5, score=(4, 2), crawford=True)),
    (RuleOptions(variant="nackgammon", backgammon_value=2), MatchState.new(3)),
    (RuleOptions(variant="acey-deucey"), MatchState.money()),
    (RuleOptions(max_checkers_per_point=5, min_pip_waste=True), MatchState.money()),
    (RuleOptions(resign_mode="seed002"), MatchState.new(7)),
]


@settings(max_examples=60, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 2**32))
def test_R14_replaying_the_log_reproduces_the_state(setup, seed):
    options, match = setup
    start = new_game_from_dicts(options_to_dict(options), match_to_dict(match))
    assert start == new_game(options, match)
    final, log = random_game(start, random.Random(seed))
    assert replay(start, log) == final
    assert final.result is not None


@settings(max_examples=30, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 2**32))
def test_R14_every_intermediate_state_round_trips_through_json(setup, seed):
    options, match = setup
    state = new_game(options, match)
    _, log = random_game(state, random.Random(seed))
    for action in log:
        state = apply_action(state, action)
        assert state_from_dict(json.loads(json.dumps(state_to_dict(state)))) == state


def test_R3_R6_a_scripted_log_replays_to_the_documented_position():
    start = new_game()
    log = [
        Action("opening_roll", None, {"dice": [3, 1]}),
        # Player 0 won the opening roll with 3-1 and plays 8/5 6/5 (GNUBG.md's example).
        Action("play", 0, {"position_id": "4HPwATDgc/ABMA"}),
    ]
    with pytest.raises(EngineError) as refused:
        replay(start, log)
    assert refused.value.code == "illegal_play"  # the start position is not a 3-1 result
    log[1] = Action("play", 0, {"position_id": _after_8_5_6_5()})
    state = replay(start, log)
    assert state.turn == 1
    assert state.phase == "roll"


def _after_8_5_6_5() -> str:
    from games.engine.movegen import legal_plays
    from games.engine.notation import format_play
    from games.engine.position import position_id, start_position

    (play,) = [
        p for p in legal_plays(start_position("standard"), 3, 1) if format_play(p) == "8/5 6/5"
    ]
    return position_id(play.result)


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (Action("roll", 0, {"dice": [1, 7]}), "opening_roll_required"),
        (Action("opening_roll", None, {"dice": [1]}), "invalid_dice"),
        (Action("opening_roll", None, {"dice": "12"}), "invalid_dice"),
        (Action("double", 2, {}), "invalid_player"),
        (Action("play", 0, {}), "opening_roll_required"),
        (Action("nonsense", 0, {}), "unknown_action"),  # type: ignore[arg-type]
    ],
)
def test_bad_actions_are_refused_with_stable_codes(action, code):
    with pytest.raises(EngineError) as refused:
        apply_action(new_game(), action)
    assert refused.value.code == code


@settings(max_examples=25, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 2**32))
def test_can_roll_and_can_double_agree_with_the_actions(setup, seed):
    """The cheap questions answer exactly what the actions would do (R3, R8)."""
    options, match = setup
    state = new_game(options, match)
    _, log = random_game(state, random.Random(seed))
    for action in log:
        for player in (0, 1):
            for asked, probe in (
                (state.can_roll(player), Action("roll", player, {"dice": [1, 2]})),
                (state.can_double(player), Action("double", player, {})),
            ):
                try:
                    apply_action(state, probe)
                except EngineError:
                    accepted = False
                else:
                    accepted = True
                assert asked == accepted, (probe, state.phase)
        state = apply_action(state, action)


def test_r12_after_a_timeout_only_the_opponents_claim_is_accepted():
    state = replay(
        new_game(RuleOptions(), MatchState.new(5)),
        [Action("opening_roll", None, {"dice": [3, 1]})],
    )
    flagged = apply_action(state, Action("timeout", 0, {}))
    assert state_from_dict(state_to_dict(flagged)) == flagged
    for action in (
        Action("play", 0, {"position_id": "4HPwATDgc/ABMA"}),
        Action("resign", 1, {"kind": "single"}),
        Action("timeout", 1, {}),
        Action("claim_timeout", 0, {}),
    ):
        with pytest.raises(EngineError) as caught:
            apply_action(flagged, action)
        assert caught.value.code in ("out_of_time", "no_timeout")
    over = apply_action(flagged, Action("claim_timeout", 1, {}))
    assert (over.result.winner, over.result.reason, over.result.points) == (1, "timeout", 2)
