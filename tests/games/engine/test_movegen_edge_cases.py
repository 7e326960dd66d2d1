"""Hand-picked edge cases of the move generator, with every legal play written out.

Positions are written the way a player reads the board (``make_position``: the mover's
points, the opponent's checkers on the mover's points, 25 = bar, the rest borne off).
Each expected play list was worked out by hand; the comments give the reasoning. The
options (R4 ``max_checkers_per_point``, R6 ``min_pip_waste``) and Acey-Deucey (R2/R3) are
unknown to gnubg, so these tables are their only oracle.
"""

from __future__ import annotations

import pytest

from games.engine.errors import EngineError
from games.engine.movegen import Play, legal_plays, legal_results
from games.engine.notation import format_play
from games.engine.position import Position, position_key, start_position
from tests.games.engine.selfplay import make_position as mk

CASES = [
    pytest.param(
        # 24/18 and 24/19 are both open, but 18/13 and 19/13 are blocked and the home
        # checkers cannot bear off: only one die can be played, so the larger one.
        mk({24: 1, 2: 7, 1: 7}, {13: 2}),
        (6, 5),
        {},
        {"24/18": 1},
        id="R6-larger-die-only",
    ),
    pytest.param(
        # 24/18 needs 20 or 22 as a stop; both are blocked, and nothing else can move.
        mk({24: 1, 1: 14}, {20: 2, 22: 2}),
        (4, 2),
        {},
        {},
        id="R4-blocked-intermediate-points-no-play",
    ),
    pytest.param(
        # With 22 open the checker runs 24/22/18.
        mk({24: 1, 1: 14}, {20: 2}),
        (4, 2),
        {},
        {"24/18": 2},
        id="R4-one-intermediate-open",
    ),
    pytest.param(
        # Two on the bar, 19 blocked: the 5 enters, the 6 is lost (a checker is still out).
        mk({25: 2, 1: 13}, {19: 2}),
        (6, 5),
        {},
        {"bar/20": 1},
        id="R5-bar-two-checkers-one-die-enters",
    ),
    pytest.param(
        # One on the bar: the 6 cannot enter (19), the 4 enters on 21, then the 6 is played
        # by the entered checker (21/15) or from 13 (13/7).
        mk({25: 1, 13: 2, 1: 12}, {19: 2, 9: 3}),
        (6, 4),
        {},
        {"bar/15": 2, "bar/21 13/7": 2},
        id="R5-bar-enter-then-move",
    ),
    pytest.param(
        # 5-5: 24/19/14, then 9 is blocked; the home checkers cannot bear off. Two of the
        # four moves are played.
        mk({24: 1, 1: 14}, {9: 2}),
        (5, 5),
        {},
        {"24/14": 2},
        id="R6-partial-double",
    ),
    pytest.param(
        # 6-6 in the middle game: 24/18 twice, then 12 and 7 are blocked. Two moves.
        mk({24: 2, 13: 2, 1: 11}, {12: 2, 7: 2}),
        (6, 6),
        {},
        {"24/18(2)": 2},
        id="R6-partial-double-contact",
    ),
    pytest.param(
        # 6-6 from the bar: enter on 19, on to 13, then 7 is blocked for everyone.
        mk({25: 1, 13: 3, 1: 11}, {7: 2}),
        (6, 6),
        {},
        {"bar/13": 2},
        id="R5-R6-partial-double-after-entering",
    ),
    pytest.param(
        # Nothing on 6 or 5: each die bears off from the highest point, re-evaluated after
        # the first one (4, then 4 again).
        mk({4: 2, 2: 1}),
        (6, 5),
        {},
        {"4/off(2)": 2},
        id="R7-higher-die-from-highest-point",
    ),
    pytest.param(
        # The 5 must move 6/1 (a checker stands higher than 5); then the 3 bears off the 2
        # (now the highest). Or the 3 first: 6/3, then the 5 bears it off (6/off).
        mk({6: 1, 2: 1}),
        (5, 3),
        {},
        {"6/1 2/off": 2, "6/off": 2},
        id="R7-higher-die-must-move-from-higher-point",
    ),
    pytest.param(
        # Bearing off with an opposing blot on our 2: 6/2* hits, then 4/2 or 2/off; or no
        # hit at all: 6/4 4/off reads 6/off.
        mk({6: 1, 4: 1}, {2: 1, 20: 2}),
        (4, 2),
        {},
        {"6/2* 4/2": 2, "6/2*/off": 2, "6/off": 2},
        id="R7-hitting-during-bear-off",
    ),
    pytest.param(
        # Hit during bear-off: the checker on the bar enters first and no bear-off is
        # possible until it is home again (6/1 is a plain move, 6/off is not allowed).
        mk({25: 1, 6: 14}),
        (6, 5),
        {},
        {"bar/14": 2, "bar/19 6/1": 2},
        id="R7-reentry-before-bear-off",
    ),
    pytest.param(
        mk({25: 1, 6: 14}),
        (6, 6),
        {},
        {"bar/1": 4},
        id="R7-reentry-double-reaches-home-without-bearing-off",
    ),
    pytest.param(
        # The game-ending bear-off: 3/off with the 6 alone or 3/2/off with both dice give the
        # same (final) position; the longer way is kept, as gnubg counts it.
        mk({3: 1}),
        (6, 1),
        {},
        {"3/off": 2},
        id="R6-R7-game-ends-longest-way-kept",
    ),
    pytest.param(
        mk({2: 1, 1: 1}),
        (6, 5),
        {},
        {"2/off 1/off": 2},
        id="R7-both-last-checkers-off",
    ),
    pytest.param(
        # No limit: 8/6 brings the last checker home, so the 1 may bear off.
        mk({8: 1, 6: 5, 1: 9}),
        (2, 1),
        {},
        {"6/3": 2, "6/5 6/4": 2, "8/5": 2, "8/6 1/off": 2, "8/7 6/4": 2},
        id="R4-no-limit-reference",
    ),
    pytest.param(
        # Limit 5: 8/6 would put a sixth checker on 6 unless 6/5 is played first (so 8/5
        # stays legal), and bearing off needs 8/6 first: 8/6 1/off is gone.
        mk({8: 1, 6: 5, 1: 9}),
        (2, 1),
        {"max_checkers_per_point": 5},
        {"6/3": 2, "6/5 6/4": 2, "8/5": 2, "8/7 6/4": 2},
        id="R4-max-checkers-per-point-5",
    ),
    pytest.param(
        # Limit 5, 6-5, 7 blocked: 13/8 is only legal after 8/2 has made room on 8, so
        # the second die's checker starts higher than the first one's (13/2, gnubg's
        # way of writing 8/2 13/8): a non-double's order matters with the limit too.
        mk({13: 1, 8: 5, 6: 9}, {7: 2, 1: 13}),
        (6, 5),
        {"max_checkers_per_point": 5},
        {"13/2": 2, "8/3 8/2": 2},
        id="R4-max-per-point-non-double-order-matters",
    ),
    pytest.param(
        # Limit 5, 5-5: 13/8 is only legal after a checker has left 8 (8/3 first): the
        # order of a double matters with the limit.
        mk({13: 1, 8: 5, 1: 9}),
        (5, 5),
        {"max_checkers_per_point": 5},
        {"13/3 8/3(2)": 4, "8/3(4)": 4},
        id="R4-max-per-point-double-order-matters",
    ),
    pytest.param(
        # Limit 5: 8/3 is never legal (3 holds 5 and cannot empty) and 13/8 needs 8/3
        # first, so there is no legal play.
        mk({13: 2, 8: 5, 3: 5, 1: 3}),
        (5, 5),
        {"max_checkers_per_point": 5},
        {},
        id="R4-max-per-point-no-play",
    ),
    pytest.param(
        # Without the limit: how many of the two 13s come down (0, 1, 2) determines the
        # play; 13/8 8/3(3) is the same position as 13/3 8/3(2).
        mk({13: 2, 8: 5, 3: 5, 1: 3}),
        (5, 5),
        {},
        {"13/3(2)": 4, "13/3 8/3(2)": 4, "8/3(4)": 4},
        id="R4-no-limit-reference-double",
    ),
    pytest.param(
        # Without the option: 3/off 2/1 (wastes 3 pips) and 3/2 2/off, written 3/off
        # (wastes 4).
        mk({3: 1, 2: 1}),
        (6, 1),
        {},
        {"3/off": 2, "3/off 2/1": 2},
        id="R6-waste-reference",
    ),
    pytest.param(
        mk({3: 1, 2: 1}),
        (6, 1),
        {"min_pip_waste": True},
        {"3/off 2/1": 2},
        id="R6-min-pip-waste",
    ),
    pytest.param(
        # Acey-Deucey start: every checker unentered; they enter like bar checkers.
        start_position("acey-deucey"),
        (2, 1),
        {},
        {"bar/22": 2, "bar/24 bar/23": 2},
        id="R3-acey-deucey-entering",
    ),
    pytest.param(
        start_position("acey-deucey"),
        (2, 2),
        {},
        {
            "bar/17": 4,
            "bar/19 bar/23": 4,
            "bar/21 bar/23(2)": 4,
            "bar/21(2)": 4,
            "bar/23(4)": 4,
        },
        id="R3-acey-deucey-entering-double",
    ),
    pytest.param(
        # Unentered checkers do not stop entered ones from moving (bar/19 6/1), and they
        # keep the player from bearing off (no 6/off).
        mk({6: 2}, mover_unentered=13, opponent_unentered=15),
        (6, 5),
        {},
        {"bar/14": 2, "bar/19 6/1": 2, "bar/20 bar/19": 2},
        id="R3-acey-deucey-unentered-do-not-block",
    ),
    pytest.param(
        # 19 and 20 blocked: nothing enters, the 5 moves 6/1 and the 6 cannot be played
        # (bearing off is not allowed with a checker unentered).
        mk({6: 2}, {19: 2, 20: 2}, mover_unentered=13),
        (6, 5),
        {},
        {"6/1": 1},
        id="R3-acey-deucey-unentered-prevent-bear-off",
    ),
    pytest.param(
        # A hit checker is on the bar (R5 applies): it must enter first; it cannot, so
        # nothing moves although 6/1 would be possible.
        mk({25: 1, 6: 2}, {19: 2, 20: 2}, mover_unentered=12),
        (6, 5),
        {},
        {},
        id="R3-acey-deucey-bar-before-anything",
    ),
]


def _table(plays: tuple[Play, ...]) -> dict[str, int]:
    return {format_play(play): play.dice_used for play in plays}


@pytest.mark.parametrize(("pos", "dice", "options", "expected"), CASES)
def test_edge_case_table(
    pos: Position, dice: tuple[int, int], options: dict[str, object], expected: dict[str, int]
) -> None:
    plays = legal_plays(pos, *dice, **options)  # type: ignore[arg-type]
    assert _table(plays) == expected
    assert len(plays) == len(expected), "one play per distinct result"
    # The fast path agrees on the set of results.
    fast = legal_results(pos, *dice, **options)  # type: ignore[arg-type]
    assert fast == {position_key(play.result) for play in plays}
    # Both dice orders give the same plays.
    assert _table(legal_plays(pos, dice[1], dice[0], **options)) == expected  # type: ignore[arg-type]


def test_R4_intermediate_stop_is_recorded() -> None:
    """24/18 with 4-2 and 20 blocked goes through 22: the moves say so."""
    (play,) = legal_plays(mk({24: 1, 1: 14}, {20: 2}), 4, 2)
    assert play.moves == ((24, 22), (22, 18))
    assert play.hits == ()


def test_R7_hit_during_bear_off_records_the_hit() -> None:
    """6/2* during bear-off sends the blot to the bar and is recorded in ``hits``."""
    plays = {format_play(p): p for p in legal_plays(mk({6: 1, 4: 1}, {2: 1, 20: 2}), 4, 2)}
    play = plays["6/2*/off"]
    assert play.hits == (2,)
    assert play.result.opponent[24] == 1  # on the opponent's bar
    assert play.result.mover_off == 14
    assert play.hit_flags() == (True, False)


def test_R4_hit_then_second_checker_on_same_point_hits_once() -> None:
    """Two checkers landing on one blot: one hit, one checker on the bar (R4)."""
    pos = mk({13: 1, 11: 1, 6: 13}, {10: 1, 1: 2})
    plays = {format_play(p): p for p in legal_plays(pos, 3, 1)}
    play = plays["13/10* 11/10"]
    assert play.hits == (10,)
    assert play.result.opponent[24] == 1
    assert play.result.mover[9] == 2


def test_R6_no_legal_play_returns_empty_tuple() -> None:
    """Closed board with a checker on the bar: no move, the turn passes (R5, R6)."""
    closed = dict.fromkeys(range(19, 25), 2)
    pos = mk({25: 1, 6: 14}, closed)
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            assert legal_plays(pos, d1, d2) == ()
            assert legal_results(pos, d1, d2) == set()


def test_R3_acey_deucey_dice_used_tells_partial_double() -> None:
    """The game layer learns from ``dice_used`` whether a part of the 1-2 turn was played
    in full (R3): here only two of the four 5s can be played."""
    (play,) = legal_plays(mk({24: 1, 1: 14}, {9: 2}), 5, 5)
    assert play.dice_used == 2


@pytest.mark.parametrize("dice", [(0, 1), (7, 1), (3, -1)])
def test_invalid_dice(dice: tuple[int, int]) -> None:
    with pytest.raises(EngineError) as err:
        legal_plays(start_position(), *dice)
    assert err.value.code == "invalid_dice"
    with pytest.raises(EngineError):
        legal_results(start_position(), *dice)


def test_invalid_limit() -> None:
    with pytest.raises(EngineError) as err:
        legal_plays(start_position(), 3, 1, max_checkers_per_point=0)
    assert err.value.code == "invalid_options"


def test_R2_start_position_plays() -> None:
    """The opening 3-1 has 16 plays from the standard start and 6-6 has 11: the 18 point
    is open but 12 and 1 are the opponent's (gnubg agrees on both counts)."""
    assert len(legal_plays(start_position(), 3, 1)) == 16
    assert _table(legal_plays(start_position(), 6, 6)) == dict.fromkeys(
        [
            "13/7 8/2(3)",
            "13/7(2) 8/2(2)",
            "13/7(3) 8/2",
            "13/7(4)",
            "24/18 13/7 8/2(2)",
            "24/18 13/7(2) 8/2",
            "24/18 13/7(3)",
            "24/18 8/2(3)",
            "24/18(2) 13/7 8/2",
            "24/18(2) 13/7(2)",
            "24/18(2) 8/2(2)",
        ],
        4,
    )
