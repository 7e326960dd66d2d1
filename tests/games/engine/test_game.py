"""The game state machine (docs/rules.md R3, R6, R8-R12): every action, every option.

Positions are written as ``{point: checkers}`` in each player's own numbering (R1):
points 1-24, 25 = the bar. Expected answers are worked out by hand in the docstrings.
"""

from __future__ import annotations

import pytest

from games.engine.errors import EngineError
from games.engine.game import GameResult, GameState, apply_result, new_game
from games.engine.match import MatchState
from games.engine.movegen import Play
from games.engine.position import Position, position_from_id, position_id
from games.engine.rules import RuleOptions


def side(points: dict[int, int]) -> tuple[int, ...]:
    """25 counts from ``{point: n}`` (point 25 = bar)."""
    counts = [0] * 25
    for point, n in points.items():
        counts[point - 1] = n
    return tuple(counts)


def pos(mover: dict[int, int], opponent: dict[int, int]) -> Position:
    return Position(side(mover), side(opponent))


def at_roll(
    position: Position,
    *,
    options: RuleOptions | None = None,
    match: MatchState | None = None,
    turn: int = 0,
    **kw: object,
) -> GameState:
    """A game in phase ``roll`` at ``position`` (seen from ``turn``)."""
    return GameState(
        options=options or RuleOptions(),
        match=match or MatchState.money(),
        position=position,
        turn=turn,
        phase="roll",
        **kw,  # type: ignore[arg-type]
    )


def play_moves(state: GameState, *moves: tuple[int, int]) -> Play:
    """The legal play made of exactly these single-die moves (in any order)."""
    wanted = sorted(moves)
    found = [p for p in state.legal_plays() if sorted(p.moves) == wanted]
    assert found, f"{moves} is not legal; legal: {[p.moves for p in state.legal_plays()]}"
    return found[0]


def code(exc: pytest.ExceptionInfo[EngineError]) -> str:
    return exc.value.code


def opened(options: RuleOptions | None = None, match: MatchState | None = None) -> GameState:
    """Opening 3-1 for player 0 played 8/5 6/5; player 1 on roll."""
    g = new_game(options, match).opening_roll(3, 1)
    return g.play(0, play_moves(g, (8, 5), (6, 5)))


# ====================================================================== opening (R3)
def test_r3_opening_higher_die_starts_and_plays_both_dice() -> None:
    g = new_game().opening_roll(3, 1)
    assert (g.turn, g.phase, g.dice) == (0, "move", (3, 1))
    g = new_game().opening_roll(2, 6)
    assert (g.turn, g.phase, g.dice) == (1, "move", (6, 2))


def test_r3_opening_tie_rerolls() -> None:
    g = new_game()
    again = g.opening_roll(4, 4)
    assert again.phase == "opening"
    assert again.cube == 1
    assert again.opening_roll(5, 4).turn == 0


def test_r3_opening_position_id_after_8_5_6_5() -> None:
    """GNUBG.md: after X plays 3-1 as 8/5 6/5, with O on roll: ``sGfwATDgc/ABMA``."""
    g = opened()
    assert g.turn == 1
    assert g.phase == "roll"
    assert position_id(g.position) == "sGfwATDgc/ABMA"
    assert g.board_of(0).mover[4] == 2  # player 0's 5-point made


def test_r3_custom_start_seen_from_the_winner_of_the_opening() -> None:
    start = pos({6: 2}, {18: 1, 1: 1})
    opts = RuleOptions(variant="custom", start_position_id=position_id(start))
    g = new_game(opts).opening_roll(1, 2)  # player 1 starts
    assert g.turn == 1
    assert g.position == start.swapped()
    assert g.board_of(0) == start


def test_r3_opening_errors() -> None:
    g = new_game()
    with pytest.raises(EngineError) as e:
        g.roll(0, 3, 4)
    assert code(e) == "opening_roll_required"
    with pytest.raises(EngineError) as e:
        g.double(0)
    assert code(e) == "opening_roll_required"
    with pytest.raises(EngineError) as e:
        g.opening_roll(0, 3)
    assert code(e) == "invalid_dice"
    started = g.opening_roll(6, 1)
    with pytest.raises(EngineError) as e:
        started.opening_roll(6, 1)
    assert code(e) == "opening_roll_done"


# ============================================================ automatic doubles (R8)
def test_r8_automatic_double_on_tied_opening_roll() -> None:
    """Limit 1: the first tie doubles the centred cube to 2, the second doesn't."""
    g = new_game(RuleOptions(automatic_doubles=True))
    g = g.opening_roll(5, 5)
    assert (g.cube, g.cube_owner, g.automatic_doubles, g.phase) == (2, None, 1, "opening")
    g = g.opening_roll(2, 2)
    assert (g.cube, g.automatic_doubles) == (2, 1)
    g = g.opening_roll(5, 2)
    assert (g.cube, g.cube_owner, g.turn) == (2, None, 0)


def test_r8_automatic_doubles_limit_and_max_cube() -> None:
    g = new_game(RuleOptions(automatic_doubles=True, automatic_doubles_limit=3))
    for _ in range(4):
        g = g.opening_roll(1, 1)
    assert (g.cube, g.automatic_doubles) == (8, 3)
    g = new_game(RuleOptions(automatic_doubles=True, automatic_doubles_limit=3, max_cube=2))
    for _ in range(3):
        g = g.opening_roll(1, 1)
    assert g.cube == 2


def test_r8_no_automatic_doubles_without_the_option() -> None:
    assert new_game().opening_roll(3, 3).cube == 1


def test_r10_money_options_refused_in_match_games() -> None:
    for opts in (
        RuleOptions(automatic_doubles=True),
        RuleOptions(jacoby=True),
        RuleOptions(beavers=True),
    ):
        with pytest.raises(EngineError) as e:
            new_game(opts, MatchState.new(5))
        assert code(e) == "money_option_in_match"


def test_r10_no_game_in_a_finished_match() -> None:
    with pytest.raises(EngineError) as e:
        new_game(match=MatchState(length=3, score=(3, 1)))
    assert code(e) == "match_over"


def test_r4_start_position_must_respect_max_checkers_per_point() -> None:
    """The standard start has 5 on the 6- and 13-points: a limit of 4 can't hold it;
    Nackgammon's start (at most 4 on a point) can."""
    with pytest.raises(EngineError) as e:
        new_game(RuleOptions(max_checkers_per_point=4))
    assert code(e) == "invalid_options"
    new_game(RuleOptions(variant="nackgammon", max_checkers_per_point=4))
    new_game(RuleOptions(max_checkers_per_point=5))


def test_r4_max_checkers_per_point_reaches_the_move_generator() -> None:
    """Mover: 5 on the 6-point, 10 on the 7-point; roll 1-1. Without a limit 7/6 makes a
    6-point of 6 checkers; with the limit 5 (seed 004) no play may end with 6 on the
    6-point, though 6/5 then 7/6 stays legal."""
    board = pos({6: 5, 7: 10}, {1: 15})
    free = at_roll(board).roll(0, 1, 1)
    assert any(p.result.mover[5] == 6 for p in free.legal_plays())
    limited = at_roll(board, options=RuleOptions(max_checkers_per_point=5)).roll(0, 1, 1)
    assert limited.legal_plays()
    assert all(p.result.mover[5] <= 5 for p in limited.legal_plays())
    assert play_moves(limited, (6, 5), (7, 6), (6, 5), (7, 6)).result.mover[4] == 2


def test_r6_min_pip_waste_reaches_the_move_generator() -> None:
    """Mover: one checker on the 5-point, one on the 2-point; roll 6-3. Standard rules
    allow 5/off 2/off (wastes 1 + 1 pips) and 5/2 2/off (the 6 bears off from the 2:
    wastes 4). With seed 002's min_pip_waste only the first is legal, and it wins."""
    board = pos({5: 1, 2: 1}, {6: 15})
    assert len(at_roll(board).roll(0, 6, 3).legal_plays()) == 2
    g = at_roll(board, options=RuleOptions(min_pip_waste=True)).roll(0, 6, 3)
    (only,) = g.legal_plays()
    assert only.result.mover_off == 15
    with pytest.raises(EngineError) as e:
        g.play(0, pos({2: 1}, {6: 15}))  # 5/2 2/off
    assert code(e) == "illegal_play"
    assert g.play(0, only).is_over


# ========================================================================= roll/play
def test_roll_and_play_errors() -> None:
    g = opened()
    with pytest.raises(EngineError) as e:
        g.roll(0, 3, 4)
    assert code(e) == "not_your_turn"
    with pytest.raises(EngineError) as e:
        g.play(1, g.position)
    assert code(e) == "must_roll_first"
    with pytest.raises(EngineError) as e:
        g.roll(1, 0, 4)
    assert code(e) == "invalid_dice"
    with pytest.raises(EngineError) as e:
        g.roll(2, 3, 4)
    assert code(e) == "invalid_player"
    r = g.roll(1, 6, 4)
    with pytest.raises(EngineError) as e:
        r.roll(1, 6, 4)
    assert code(e) == "already_rolled"
    with pytest.raises(EngineError) as e:
        r.play(0, r.legal_plays()[0])
    assert code(e) == "not_your_turn"
    with pytest.raises(EngineError) as e:
        r.play(1, r.position)  # not moving at all is not a play
    assert code(e) == "illegal_play"
    other = new_game().opening_roll(2, 1)
    with pytest.raises(EngineError) as e:
        r.play(1, other.legal_plays()[0])  # a play of other dice
    assert code(e) == "illegal_play"
    with pytest.raises(EngineError) as e:
        r.play(1, "not an id")
    assert code(e) == "illegal_play"


def test_play_accepts_play_position_or_position_id() -> None:
    """R14: a play is given as a Play, the resulting Position or its Position ID."""
    g = opened().roll(1, 6, 4)
    target = play_moves(g, (24, 18), (13, 9))
    by_play = g.play(1, target)
    by_pos = g.play(1, target.result)
    by_id = g.play(1, position_id(target.result))
    assert by_play == by_pos == by_id
    assert by_play.turn == 0
    assert by_play.position == target.result.swapped()


def test_r6_no_legal_move_passes_automatically_and_cube_stays_available() -> None:
    """Player 0 is on the bar against a closed board: any roll passes the turn (R6).
    Player 1 may then double before rolling, and player 0, who could not move, may double
    on the next turn (R8: also when they could not move)."""
    closed = pos({25: 1, 6: 5, 8: 3, 13: 6}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
    g = at_roll(closed)
    after = g.roll(0, 6, 6)
    assert (after.turn, after.phase, after.dice) == (1, "roll", None)
    assert after.position == closed.swapped()
    assert after.can_double(1)
    g2 = after.roll(1, 6, 5)
    g2 = g2.play(1, play_moves(g2, (13, 7), (13, 8)))
    assert g2.turn == 0
    assert g2.can_double(0)
    assert g2.double(0).phase == "doubled"


# ============================================================================ cube (R8)
def test_r8_double_take_ownership_and_redouble() -> None:
    g = opened()  # player 1 on roll, cube centred
    d = g.double(1)
    assert d.phase == "doubled"
    assert d.player_to_act == 0
    t = d.take(0)
    assert (t.cube, t.cube_owner, t.phase, t.turn, t.cube_turned) == (2, 0, "roll", 1, True)
    assert not t.can_double(1)
    with pytest.raises(EngineError) as e:
        t.double(1)
    assert code(e) == "cube_not_available"
    # player 1 rolls and plays; player 0 (the owner) may redouble to 4
    t = t.roll(1, 6, 4)
    t = t.play(1, play_moves(t, (24, 18), (13, 9)))
    r = t.double(0).take(1)
    assert (r.cube, r.cube_owner) == (4, 1)


def test_r8_cube_errors() -> None:
    g = opened()
    with pytest.raises(EngineError) as e:
        g.double(0)
    assert code(e) == "not_your_turn"
    with pytest.raises(EngineError) as e:
        g.take(0)
    assert code(e) == "no_double_pending"
    with pytest.raises(EngineError) as e:
        g.roll(1, 3, 2).double(1)
    assert code(e) == "already_rolled"
    d = g.double(1)
    with pytest.raises(EngineError) as e:
        d.take(1)
    assert code(e) == "not_your_turn"
    with pytest.raises(EngineError) as e:
        d.drop(1)
    assert code(e) == "not_your_turn"
    with pytest.raises(EngineError) as e:
        d.roll(1, 3, 2)
    assert code(e) == "double_pending"
    with pytest.raises(EngineError) as e:
        d.double(1)
    assert code(e) == "double_pending"
    with pytest.raises(EngineError) as e:
        d.beaver(0)
    assert code(e) == "beaver_not_allowed"


def test_r8_drop_wins_the_value_before_the_double() -> None:
    g = opened().double(1).take(0)  # cube 2, owned by 0
    g = g.roll(1, 6, 4)
    g = g.play(1, play_moves(g, (24, 18), (13, 9)))
    over = g.double(0).drop(1)
    assert over.result == GameResult(
        winner=0, kind="single", cube=2, multiplier=1, points=2, reason="drop"
    )
    with pytest.raises(EngineError) as e:
        over.roll(1, 1, 2)
    assert code(e) == "game_over"


def test_r8_max_cube() -> None:
    g = opened(RuleOptions(max_cube=2)).double(1).take(0)
    g = g.roll(1, 6, 4)
    g = g.play(1, play_moves(g, (24, 18), (13, 9)))
    with pytest.raises(EngineError) as e:
        g.double(0)
    assert code(e) == "max_cube_reached"
    with pytest.raises(EngineError) as e:
        opened(RuleOptions(max_cube=1)).double(1)
    assert code(e) == "max_cube_reached"


def test_r8_beaver_quadruples_and_beaverer_keeps_the_cube() -> None:
    """Money, beavers on: player 1 doubles to 2, player 0 beavers: cube 4 owned by 0,
    player 1 still on roll and can't redouble."""
    g = opened(RuleOptions(beavers=True)).double(1)
    b = g.beaver(0)
    assert (b.cube, b.cube_owner, b.turn, b.phase) == (4, 0, 1, "roll")
    with pytest.raises(EngineError) as e:
        b.double(1)
    assert code(e) == "cube_not_available"


def test_r8_beaver_respects_max_cube() -> None:
    g = opened(RuleOptions(beavers=True, max_cube=2)).double(1)
    with pytest.raises(EngineError) as e:
        g.beaver(0)
    assert code(e) == "max_cube_reached"
    assert g.take(0).cube == 2


def test_r11_no_double_in_the_crawford_game() -> None:
    m = MatchState(length=5, score=(4, 2), crawford=True)
    g = opened(match=m)
    assert not g.can_double(1)
    with pytest.raises(EngineError) as e:
        g.double(1)
    assert code(e) == "crawford_no_double"


def test_r11_post_crawford_double_also_by_the_1_away_leader() -> None:
    """Post-Crawford the cube is back, for the trailer and (unlike gnubg's policy) for
    the 1-away leader too."""
    m = MatchState(length=5, score=(4, 2))
    assert m.post_crawford
    g = opened(match=m)  # player 1 (trailer) on roll
    assert g.double(1).take(0).cube == 2
    g = g.roll(1, 6, 4)
    g = g.play(1, play_moves(g, (24, 18), (13, 9)))  # player 0 (leader) on roll
    assert g.double(0).take(1).cube_owner == 1


def test_r3_acey_deucey_has_no_cube_unless_enabled() -> None:
    g = new_game(RuleOptions(variant="acey-deucey")).opening_roll(5, 3)
    g = g.play(0, g.legal_plays()[0])
    with pytest.raises(EngineError) as e:
        g.double(1)
    assert code(e) == "cube_not_available"
    g = new_game(RuleOptions(variant="acey-deucey", acey_deucey_cube=True)).opening_roll(5, 3)
    g = g.play(0, g.legal_plays()[0])
    assert g.double(1).take(0).cube == 2


# ================================================================= end of game (R9)
LAST_CHECKER = {1: 1}  # the mover's last checker on its 1-point: any roll bears it off
SINGLE = {6: 14}  # opponent bore off one checker
GAMMON = {6: 15}  # none off, none in the winner's home board
BACKGAMMON_HOME = {6: 14, 20: 1}  # one on its 20-point = the winner's 5-point
BACKGAMMON_BAR = {6: 14, 25: 1}


def bear_off_last(opponent: dict[int, int], **kw: object) -> GameResult:
    g = at_roll(pos(LAST_CHECKER, opponent), **kw)  # type: ignore[arg-type]
    g = g.roll(0, 6, 5)
    (only,) = g.legal_plays()
    over = g.play(0, only)
    assert over.phase == "over"
    assert over.result is not None
    return over.result


@pytest.mark.parametrize(
    ("opponent", "kind", "points"),
    [
        (SINGLE, "single", 1),
        (GAMMON, "gammon", 2),
        (BACKGAMMON_HOME, "backgammon", 3),
        (BACKGAMMON_BAR, "backgammon", 3),
    ],
)
def test_r9_kinds_of_win(opponent: dict[int, int], kind: str, points: int) -> None:
    r = bear_off_last(opponent)
    assert (r.winner, r.kind, r.points, r.reason) == (0, kind, points, "bear_off")


@pytest.mark.parametrize(("value", "points"), [(3, 12), (2, 8), (1, 4)])
def test_r9_backgammon_value_option(value: int, points: int) -> None:
    """Cube 4: a backgammon is worth 4 x backgammon_value; a gammon stays 8."""
    opts = RuleOptions(backgammon_value=value)
    r = bear_off_last(BACKGAMMON_HOME, options=opts, cube=4, cube_owner=0)
    assert (r.kind, r.multiplier, r.points) == ("backgammon", value, points)
    assert bear_off_last(GAMMON, options=opts, cube=4, cube_owner=0).points == 8


def test_r8_jacoby_gammons_single_while_cube_never_turned() -> None:
    opts = RuleOptions(jacoby=True)
    r = bear_off_last(GAMMON, options=opts)
    assert (r.kind, r.multiplier, r.points) == ("gammon", 1, 1)
    r = bear_off_last(BACKGAMMON_BAR, options=opts)
    assert (r.kind, r.points) == ("backgammon", 1)
    # after an accepted double the gammon counts: cube 2 x 2
    r = bear_off_last(GAMMON, options=opts, cube=2, cube_owner=0, cube_turned=True)
    assert r.points == 4
    # without Jacoby the same gammon at cube 1 is 2
    assert bear_off_last(GAMMON).points == 2


def test_r8_jacoby_take_turns_the_cube() -> None:
    """Through the actions: a take sets cube_turned, an automatic double does not."""
    opts = RuleOptions(jacoby=True, automatic_doubles=True)
    g = new_game(opts).opening_roll(2, 2)
    assert g.cube == 2
    assert not g.cube_turned
    g = g.opening_roll(3, 1)
    g = g.play(0, play_moves(g, (8, 5), (6, 5)))
    assert g.double(1).take(0).cube_turned


def test_r8_jacoby_after_automatic_double_still_single() -> None:
    """Decision: an automatic double is not "turning" the cube (nobody offered it)."""
    r = bear_off_last(GAMMON, options=RuleOptions(jacoby=True, automatic_doubles=True), cube=2)
    assert r.points == 2


# ========================================================== resignation (R9 offer)
def test_r9_offer_resignation_accepted() -> None:
    g = opened().double(1).take(0)  # cube 2
    offered = g.resign(1, "gammon")
    assert offered.resignation is not None
    assert offered.player_to_act == 0
    over = offered.accept_resignation(0)
    assert over.result == GameResult(
        winner=0, kind="gammon", cube=2, multiplier=2, points=4, reason="resign"
    )


@pytest.mark.parametrize(("value", "points"), [(3, 6), (2, 4), (1, 2)])
def test_r9_resigned_backgammon_is_worth_backgammon_value(value: int, points: int) -> None:
    g = at_roll(pos({6: 15}, {6: 15}), options=RuleOptions(backgammon_value=value), cube=2)
    r = g.resign(0, "backgammon").accept_resignation(1).result
    assert r is not None
    assert (r.winner, r.points) == (1, points)


def test_r9_offer_resignation_declined_play_continues() -> None:
    g = opened().roll(1, 6, 4)
    offered = g.resign(0, "single")  # player 0 resigns during player 1's turn
    with pytest.raises(EngineError) as e:
        offered.play(1, offered.legal_plays()[0])
    assert code(e) == "resignation_pending"
    with pytest.raises(EngineError) as e:
        offered.accept_resignation(0)
    assert code(e) == "not_your_turn"
    with pytest.raises(EngineError) as e:
        offered.resign(1, "single")
    assert code(e) == "resignation_pending"
    back = offered.decline_resignation(1)
    assert back == g
    assert back.play(1, play_moves(back, (24, 18), (13, 9))).turn == 0


def test_r9_resignation_errors() -> None:
    g = opened()
    with pytest.raises(EngineError) as e:
        g.resign(0, "everything")  # type: ignore[arg-type]
    assert code(e) == "invalid_resignation"
    with pytest.raises(EngineError) as e:
        g.resign(0)
    assert code(e) == "invalid_resignation"
    with pytest.raises(EngineError) as e:
        g.accept_resignation(1)
    assert code(e) == "no_resignation_pending"
    with pytest.raises(EngineError) as e:
        g.double(1).resign(0, "single")
    assert code(e) == "double_pending"


def test_r8_jacoby_applies_to_resigned_gammons() -> None:
    g = opened(RuleOptions(jacoby=True))
    r = g.resign(0, "gammon").accept_resignation(1).result
    assert r is not None
    assert r.points == 1


# ======================================================== resignation (R9 seed002)
def test_r9_seed002_resigner_with_none_off_loses_a_gammon() -> None:
    opts = RuleOptions(resign_mode="seed002")
    g = opened(opts).double(1).take(0)  # cube 2
    over = g.resign(0)
    assert over.result == GameResult(
        winner=1, kind="gammon", cube=2, multiplier=2, points=4, reason="resign"
    )


def test_r9_seed002_resigner_with_one_off_loses_a_single() -> None:
    opts = RuleOptions(resign_mode="seed002")
    g = at_roll(pos({1: 3, 2: 11}, {6: 15}), options=opts, turn=0)  # player 0 bore off 1
    r = g.resign(0).result
    assert r is not None
    assert (r.winner, r.kind, r.points) == (1, "single", 1)
    # the opponent (player 1, none off) resigning loses a gammon, even a backgammon
    # position counts only a gammon in seed002
    r = at_roll(pos({1: 14}, {6: 14, 20: 1}), options=opts).resign(1).result
    assert r is not None
    assert (r.winner, r.kind, r.points) == (0, "gammon", 2)


def test_r9_seed002_takes_no_kind() -> None:
    with pytest.raises(EngineError) as e:
        opened(RuleOptions(resign_mode="seed002")).resign(0, "single")
    assert code(e) == "invalid_resignation"


# ======================================================================= timeout (R12)
def test_r12_timeout_gammon() -> None:
    g = opened().double(1).take(0)
    with pytest.raises(EngineError) as e:
        g.claim_timeout(0)  # nobody has run out of time
    assert code(e) == "no_timeout"
    flagged = g.timeout(1)
    assert flagged.flagged == 1
    with pytest.raises(EngineError) as e:
        flagged.claim_timeout(1)  # only the opponent claims
    assert code(e) == "no_timeout"
    with pytest.raises(EngineError) as e:
        flagged.timeout(0)
    assert code(e) == "out_of_time"
    r = flagged.claim_timeout(0).result
    assert r == GameResult(
        winner=0, kind="gammon", cube=2, multiplier=2, points=4, reason="timeout"
    )


def test_r12_timeout_match() -> None:
    m = MatchState(length=7, score=(2, 5))
    g = opened(RuleOptions(timeout_result="match"), m)
    over = g.timeout(1).claim_timeout(0)
    r = over.result
    assert r is not None
    assert (r.kind, r.points, r.match_forfeit) == ("match", 5, True)
    after = apply_result(m, r)
    assert after.is_over
    assert after.winner == 0
    assert after.score == (7, 5)
    # money play has no match to lose: a gammon
    r = opened(RuleOptions(timeout_result="match")).timeout(0).claim_timeout(1).result
    assert r is not None
    assert (r.kind, r.points) == ("gammon", 2)
    with pytest.raises(EngineError) as e:
        over.claim_timeout(1)
    assert code(e) == "game_over"


# ====================================================================== Match ID (R1)
def test_r1_match_id_of_game_states_reproduces_gnubg_examples() -> None:
    board = position_from_id("4HPwATDgc/ABMA")
    g = GameState(
        options=RuleOptions(),
        match=MatchState(length=7, score=(2, 4)),
        position=board,
        turn=1,
        phase="move",
        dice=(5, 6),
        cube=2,
        cube_owner=0,
    )
    assert g.match_id() == "QQn3ACAAIAAE"
    g = GameState(
        options=RuleOptions(),
        match=MatchState(length=5, score=(0, 4), crawford=True),
        position=board,
        turn=1,
        phase="move",
        dice=(3, 5),
    )
    assert g.match_id() == "8ImuAAAAIAAE"


def test_r1_match_id_pending_double_and_money_jacoby() -> None:
    from games.engine.matchid import GameStateCode, decode_match_id

    g = opened(RuleOptions(jacoby=True)).double(1)
    m = decode_match_id(g.match_id())
    assert m.double_offered
    assert (m.player_on_roll, m.player_to_act) == (1, 0)
    assert m.jacoby
    assert m.match_length == 0
    over = decode_match_id(g.drop(0).match_id())
    assert over.game_state == GameStateCode.DROPPED


# ================================================================= scripted games
def test_scripted_money_game_from_opening_to_drop() -> None:
    """Opening 3-1 (player 0): 8/5 6/5. Player 1 rolls 6-4: 24/18 13/9. Player 0 doubles,
    player 1 takes (cube 2, owned by 1). Player 0 rolls 5-2: 13/8 13/11. Player 1
    redoubles to 4, player 0 drops: player 1 wins 2 points."""
    g = new_game()
    g = g.opening_roll(3, 1)
    g = g.play(0, play_moves(g, (8, 5), (6, 5)))
    g = g.roll(1, 6, 4)
    g = g.play(1, play_moves(g, (24, 18), (13, 9)))
    g = g.double(0).take(1)
    assert (g.cube, g.cube_owner, g.turn) == (2, 1, 0)
    g = g.roll(0, 5, 2)
    g = g.play(0, play_moves(g, (13, 8), (13, 11)))
    assert g.turn == 1
    assert g.position.pip_count() == (167 - 10, 167 - 4 - 7)
    g = g.double(1)
    g = g.drop(0)
    assert g.result == GameResult(
        winner=1, kind="single", cube=2, multiplier=1, points=2, reason="drop"
    )
    assert apply_result(MatchState.money(), g.result).score == (0, 2)


def test_scripted_custom_game_ends_in_a_backgammon() -> None:
    """Custom start (R2): player 0 has 2 on its 3-point and 1 on its 2-point (12 off);
    player 1 has 13 on its 12-point and 2 on its 20-point (player 0's 5-point).
    Opening 4-2 for player 0: 3/off 2/off. Player 1 rolls 2-1: 20/18 20/19 (its 19-point
    is player 0's 6-point). Player 0 doubles, player 1 takes. Player 0 rolls 2-1 and bears
    off the last checker; player 1 has none off and one in player 0's home board:
    backgammon, 3 x 2 = 6 points."""
    start = pos({3: 2, 2: 1}, {12: 13, 20: 2})
    g = new_game(RuleOptions(variant="custom", start_position_id=position_id(start)))
    g = g.opening_roll(4, 2)
    assert (g.turn, g.dice) == (0, (4, 2))
    g = g.play(0, play_moves(g, (3, 0), (2, 0)))
    g = g.roll(1, 2, 1)
    g = g.play(1, play_moves(g, (20, 18), (20, 19)))
    g = g.double(0).take(1)
    g = g.roll(0, 2, 1)
    (last,) = g.legal_plays()
    g = g.play(0, last)
    assert g.result == GameResult(
        winner=0, kind="backgammon", cube=2, multiplier=3, points=6, reason="bear_off"
    )
    assert g.borne_off(0) == 15
    assert g.borne_off(1) == 0


def test_r10_r11_scripted_three_point_match() -> None:
    """3-point match. Game 1: player 0 wins a gammon (2-0): Crawford next. Game 2 (Crawford):
    nobody may double; player 1 wins a single (2-1). Game 3 (post-Crawford): the leader
    doubles, the trailer drops (3-1): match over."""
    m = MatchState.new(3)
    g = opened(match=m)
    g = g.resign(1, "gammon").accept_resignation(0)
    assert g.result is not None
    m = apply_result(m, g.result)
    assert m.score == (2, 0)
    assert m.crawford
    g = opened(match=m)
    with pytest.raises(EngineError) as e:
        g.double(1)
    assert code(e) == "crawford_no_double"
    g = g.resign(0, "single").accept_resignation(1)
    assert g.result is not None
    m = apply_result(m, g.result)
    assert (m.score, m.crawford, m.post_crawford) == ((2, 1), False, True)
    g = new_game(match=m).opening_roll(1, 3)  # player 1 starts
    g = g.play(1, play_moves(g, (8, 5), (6, 5)))
    g = g.double(0).drop(1)  # the 1-away leader doubles post-Crawford
    assert g.result is not None
    m = apply_result(m, g.result)
    assert m.is_over
    assert m.winner == 0
    assert m.score == (3, 1)
    with pytest.raises(EngineError) as e:
        new_game(match=m)
    assert code(e) == "match_over"


def test_game_state_is_immutable_and_validated() -> None:
    g = new_game()
    with pytest.raises(AttributeError):
        g.cube = 2  # type: ignore[misc]
    with pytest.raises(EngineError) as e:
        GameState(options=RuleOptions(), match=MatchState.money(), position=g.position, cube=3)
    assert code(e) == "invalid_game_state"
    with pytest.raises(EngineError) as e:
        GameState(
            options=RuleOptions(),
            match=MatchState(length=5, score=(4, 0), crawford=True),
            position=g.position,
            cube=2,
        )
    assert code(e) == "invalid_game_state"
