"""Acey-Deucey's 1-2 turn in the game state machine (docs/rules.md R3).

A roll of 1-2 is played as 1 and 2, then the player names a double and plays it four
times, then rolls again; if any part can't be played in full, the rest of the turn (and
the extra roll) is lost. Positions: ``{point: checkers}``, own numbering, 25 = bar.
"""

from __future__ import annotations

import pytest

from games.engine.errors import EngineError
from games.engine.game import GameState, new_game
from games.engine.match import MatchState
from games.engine.position import Position
from games.engine.rules import RuleOptions

ACEY = RuleOptions(variant="acey-deucey")


def side(points: dict[int, int]) -> tuple[int, ...]:
    counts = [0] * 25
    for point, n in points.items():
        counts[point - 1] = n
    return tuple(counts)


def at_roll(mover: dict[int, int], opponent: dict[int, int], **kw: object) -> GameState:
    opts = kw.pop("options", ACEY)
    return GameState(
        options=opts,  # type: ignore[arg-type]
        match=MatchState.money(),
        position=Position(side(mover), side(opponent)),
        phase="roll",
        **kw,  # type: ignore[arg-type]
    )


# Player 0: one checker on the bar, 14 borne off. Its entry points are 24 (die 1) and
# 23 (die 2); the opponent's points 2, 3, 4, 7 are the mover's 23, 22, 21, 18.
LONE = {25: 1}


def code(exc: pytest.ExceptionInfo[EngineError]) -> str:
    return exc.value.code


def test_r3_full_one_two_then_double_then_extra_roll() -> None:
    """Opponent holds its 2-point (mover's 23). 1-2: bar/24/22 (the only full play).
    The player names 1s: 22/21/20/19/18, all open: full, so the same player rolls again.
    The extra roll continues the turn: no double before it."""
    g = at_roll(
        LONE, {2: 2, 13: 13}, options=RuleOptions(variant="acey-deucey", acey_deucey_cube=True)
    )
    g = g.roll(0, 2, 1)
    assert g.acey_deucey_stage == "one_two"
    (play,) = g.legal_plays()
    assert play.moves == ((25, 24), (24, 22))
    g = g.play(0, play)
    assert (g.phase, g.turn, g.dice) == ("choose_double", 0, None)
    with pytest.raises(EngineError) as e:
        g.roll(0, 3, 4)
    assert code(e) == "must_choose_double"
    with pytest.raises(EngineError) as e:
        g.play(0, play)
    assert code(e) == "must_choose_double"
    with pytest.raises(EngineError) as e:
        g.choose_double(1, 1)
    assert code(e) == "not_your_turn"
    with pytest.raises(EngineError) as e:
        g.choose_double(0, 7)
    assert code(e) == "invalid_dice"
    g = g.choose_double(0, 1)
    assert (g.phase, g.dice, g.acey_deucey_stage) == ("move", (1, 1), "double")
    (four,) = g.legal_plays()
    g = g.play(0, four)
    assert (g.phase, g.turn, g.bonus_roll) == ("roll", 0, True)
    assert g.position.mover[17] == 1  # on its 18-point
    with pytest.raises(EngineError) as e:
        g.double(0)
    assert code(e) == "cube_not_available"
    g = g.roll(0, 3, 4)  # the extra roll: an ordinary one
    assert g.acey_deucey_stage is None
    assert not g.bonus_roll
    g = g.play(0, g.legal_plays()[0])
    assert g.turn == 1
    assert g.can_double(1)


def test_r3_one_two_not_playable_in_full_loses_the_rest() -> None:
    """Opponent holds its 2- and 3-points (mover's 23 and 22): the 1 enters on 24, the 2
    can't be played (23 and 22 blocked). Only one die: the turn passes, no double."""
    g = at_roll(LONE, {2: 2, 3: 2, 13: 11}).roll(0, 1, 2)
    (play,) = g.legal_plays()
    assert play.dice_used == 1
    g = g.play(0, play)
    assert (g.phase, g.turn) == ("roll", 1)
    with pytest.raises(EngineError) as e:
        g.choose_double(1, 6)
    assert code(e) == "no_double_to_choose"


def test_r3_chosen_double_with_no_move_passes() -> None:
    """Opponent holds its 2- and 4-points (mover's 23 and 21). 1-2: bar/24/22 in full.
    Naming 1s: 22/21 is blocked and nothing else can move: the turn passes at once."""
    g = at_roll(LONE, {2: 2, 4: 2, 13: 11}).roll(0, 1, 2)
    g = g.play(0, g.legal_plays()[0])
    assert g.phase == "choose_double"
    g = g.choose_double(0, 1)
    assert (g.phase, g.turn, g.bonus_roll) == ("roll", 1, False)


def test_r3_chosen_double_played_in_part_loses_the_extra_roll() -> None:
    """Opponent holds its 2- and 7-points (mover's 23 and 18). 1-2: bar/24/22. Naming 1s:
    22/21/20/19 and the fourth 1 is blocked on 18: three dice, the extra roll is lost."""
    g = at_roll(LONE, {2: 2, 7: 2, 13: 11}).roll(0, 1, 2)
    g = g.play(0, g.legal_plays()[0])
    g = g.choose_double(0, 1)
    (play,) = g.legal_plays()
    assert play.dice_used == 3
    g = g.play(0, play)
    assert (g.phase, g.turn, g.bonus_roll) == ("roll", 1, False)


def test_r3_bearing_off_the_last_checker_inside_the_double_wins() -> None:
    """Opponent holds its 2-point only. 1-2: bar/24/22; naming 6s: 22/16/10/4/off: the last
    checker is borne off with the fourth 6 and the game ends. The opponent (15 on its
    2- and 13-points, none off, none in the winner's home board) loses a gammon."""
    g = at_roll(LONE, {2: 2, 13: 13}).roll(0, 1, 2)
    g = g.play(0, g.legal_plays()[0])
    g = g.choose_double(0, 6)
    (play,) = g.legal_plays()
    g = g.play(0, play)
    assert g.result is not None
    assert (g.result.winner, g.result.kind, g.result.points) == (0, "gammon", 2)


def test_r3_opening_one_two_from_the_acey_deucey_start() -> None:
    """All 15 checkers start unentered (R2). Opening: player 0 rolls 2, player 1 rolls 1:
    player 0 plays the 1-2 (enter on 24 and 23, or one checker to 22), names 6s (four
    checkers enter on 19) and rolls again."""
    g = new_game(ACEY).opening_roll(2, 1)
    assert (g.turn, g.acey_deucey_stage) == (0, "one_two")
    results = {p.result.mover[21:24] for p in g.legal_plays()}
    assert results == {(0, 1, 1), (1, 0, 0)}  # points 22, 23, 24
    g = g.play(0, g.legal_plays()[0])
    g = g.choose_double(0, 6)
    four = [p for p in g.legal_plays() if p.result.mover[18] == 4]
    assert four
    g = g.play(0, four[0])
    assert (g.turn, g.phase, g.bonus_roll) == (0, "roll", True)
    assert g.position.mover_unentered == 15 - 2 - 4


def test_r3_one_two_is_ordinary_outside_acey_deucey() -> None:
    g = new_game().opening_roll(2, 1)
    assert g.acey_deucey_stage is None
    g = g.play(0, g.legal_plays()[0])
    assert (g.turn, g.phase) == (1, "roll")


def test_r9_unentered_checkers_count_like_the_bar_for_backgammon() -> None:
    """Decision (R9): the loser's unentered Acey-Deucey checkers stand behind the
    winner's home board: a backgammon."""
    board = Position(side({1: 1}), side({6: 14}), 0, 1)
    g = GameState(options=ACEY, match=MatchState.money(), position=board, phase="roll")
    g = g.roll(0, 6, 5)
    g = g.play(0, g.legal_plays()[0])
    assert g.result is not None
    assert (g.result.kind, g.result.points) == ("backgammon", 3)
