"""Property tests (hypothesis) of positions, legal plays and notation (R1-R7).

Positions come from two sources: reachable ones (a pool from seeded self-play in all
three variants, Acey-Deucey included) and arbitrary valid ones drawn by hypothesis
(checkers anywhere, several on the bar, unentered checkers), which reach corners random
games rarely do.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.engine.movegen import Play, legal_plays, legal_results
from games.engine.notation import format_play, parse_play
from games.engine.position import (
    Position,
    position_from_id,
    position_id,
    position_key,
)
from tests.games.engine.selfplay import play_game, positions

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _acey_deucey_pool(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    pool: list[Position] = []
    while len(pool) < count:
        pool.extend(p for p in play_game(rng, "acey-deucey") if rng.random() < 0.2)
    return pool[:count]


POOL = positions(600, seed=77) + _acey_deucey_pool(200, seed=78)

dice = st.tuples(st.integers(1, 6), st.integers(1, 6))
options = st.fixed_dictionaries(
    {
        "max_checkers_per_point": st.one_of(st.none(), st.integers(3, 6)),
        "min_pip_waste": st.booleans(),
    }
)


@st.composite
def any_position(draw: st.DrawFn, unentered: bool = True) -> Position:
    """An arbitrary valid position: each point empty or held by one side."""
    mover = [0] * 25
    opponent = [0] * 25
    left = [15, 15]
    for i in draw(st.permutations(range(24))):
        owner = draw(st.sampled_from((None, None, 0, 1)))
        if owner is None or not left[owner]:
            continue
        count = draw(st.integers(1, min(6, left[owner])))
        left[owner] -= count
        if owner == 0:
            mover[i] = count
        else:
            opponent[23 - i] = count
    for side, counts in enumerate((mover, opponent)):
        bar = draw(st.integers(0, min(3, left[side])))
        counts[24] = bar
        left[side] -= bar
    waiting = [0, 0]
    if unentered:
        waiting = [draw(st.integers(0, left[0])), draw(st.integers(0, left[1]))]
    return Position(tuple(mover), tuple(opponent), waiting[0], waiting[1])


reachable = st.sampled_from(POOL)
arbitrary = any_position()
some_position = st.one_of(reachable, arbitrary)


def _o(pos: Position, point: int) -> int:
    """Opponent checkers on the mover's point (1-24)."""
    return pos.opponent[24 - point]


def _check_play(pos: Position, play: Play, d1: int, d2: int) -> None:
    before_mover, before_opp = pos.pip_count()
    after_mover, after_opp = play.result.pip_count()
    # R1: 15 checkers per side, nothing created or lost.
    result = play.result
    Position(result.mover, result.opponent, result.mover_unentered, result.opponent_unentered)
    bear_offs = sum(1 for _, dest in play.moves if dest == 0)
    assert result.mover_off == pos.mover_off + bear_offs
    assert result.opponent_off == pos.opponent_off
    assert sum(result.opponent) == sum(pos.opponent)
    assert result.opponent[24] == pos.opponent[24] + len(play.hits)
    # R4: never landing on a blocked point; a hit only on a blot.
    for _, dest in play.moves:
        if dest:
            assert _o(pos, dest) < 2, f"landed on blocked {dest}"
    for point in play.hits:
        assert _o(pos, point) == 1
    # Pips removed equal the dice used, except bear-off waste (R6, R7).
    dice_left = [d1, d2] if d1 != d2 else [d1] * 4
    waste = 0
    for src, dest in play.moves:
        distance = src - dest
        if distance in dice_left and dest:
            dice_left.remove(distance)
        else:
            assert dest == 0, f"move {src}/{dest} uses no die of {d1}-{d2}"
            die = distance if distance in dice_left else min(d for d in dice_left if d > distance)
            dice_left.remove(die)
            waste += die - distance
    used = (d1 + d2 if d1 != d2 else 4 * d1) - sum(dice_left)
    assert before_mover - after_mover == used - waste
    assert play.dice_used == len(play.moves)
    # The opponent's pips grow by the points of the hit checkers (they restart at 25).
    assert after_opp - before_opp == sum(play.hits)


@SETTINGS
@given(pos=some_position, roll=dice)
def test_R1_R4_R6_R7_play_invariants(pos: Position, roll: tuple[int, int]) -> None:
    """15 checkers per side; no landing on a blocked point; pips removed = dice used
    minus bear-off waste; hit checkers add their points to the opponent's pips."""
    plays = legal_plays(pos, *roll)
    results = [position_key(p.result) for p in plays]
    assert len(set(results)) == len(results), "one play per resulting position"
    for play in plays:
        _check_play(pos, play, *roll)
    # R6: every play uses the same (maximal) number of dice.
    assert len({p.dice_used for p in plays}) <= 1


@SETTINGS
@given(pos=some_position, roll=dice)
def test_R4_R7_fast_path_equals_walk(pos: Position, roll: tuple[int, int]) -> None:
    """The fast key generator and the full walk agree (R4-R7), on odd positions too."""
    walked = {position_key(p.result) for p in legal_plays(pos, *roll)}
    assert legal_results(pos, *roll) == walked


@SETTINGS
@given(pos=any_position(unentered=False), roll=dice)
def test_R4_R7_arbitrary_positions_agree_with_gnubg(pos: Position, roll: tuple[int, int]) -> None:
    """Beyond self-play: gnubg agrees on arbitrary positions (several on the bar, ...).

    A finished game (a side with all 15 off) is no position to move in: gnubg answers it
    with one empty play, we with none; neither is a rule.
    """
    import gnubg_nn  # the oracle, a dev dependency

    assume(not pos.is_over())
    theirs = {
        position_id(Position(tuple(b[1]), tuple(b[0])))
        for b in map(gnubg_nn.board_from_position_key, gnubg_nn.moves(pos.board(), *roll))
    }
    ours = {position_id(p.result) for p in legal_plays(pos, *roll)}
    assert ours == theirs


@SETTINGS
@given(pos=some_position, roll=dice, opts=options)
def test_R4_R6_options(pos: Position, roll: tuple[int, int], opts: dict[str, object]) -> None:
    """The limit is never broken by a move (R4); min-pip-waste only filters (R6)."""
    limit = opts["max_checkers_per_point"]
    plays = legal_plays(pos, *roll, **opts)  # type: ignore[arg-type]
    assert legal_results(pos, *roll, **opts) == {  # type: ignore[arg-type]
        position_key(p.result) for p in plays
    }
    for play in plays:
        _check_play(pos, play, *roll)
        if isinstance(limit, int):
            for i in range(24):
                assert play.result.mover[i] <= max(limit, pos.mover[i])
    if opts["min_pip_waste"] and limit is None:
        plain = {position_key(p.result) for p in legal_plays(pos, *roll)}
        assert {position_key(p.result) for p in plays} <= plain
        assert bool(plays) == bool(plain)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(["standard", "nackgammon"]))
def test_R9_random_games_end_with_fifteen_off(seed: int, variant: str) -> None:
    """Random legal play always ends: someone bears off all 15 (R7, R9)."""
    game = list(play_game(random.Random(seed), variant))
    final = game[-1]
    assert final.opponent_off == 15  # the winner has just moved; the loser is on roll
    assert final.mover_off < 15
    assert len(game) < 5000


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_R3_random_acey_deucey_games_end(seed: int) -> None:
    """Acey-Deucey games (all checkers entering, R3) end too (without the 1-2 bonus,
    which belongs to the game layer)."""
    game = list(play_game(random.Random(seed), "acey-deucey"))
    assert game[-1].opponent_off == 15
    assert game[-1].opponent_unentered == 0


@SETTINGS
@given(pos=any_position(unentered=False))
def test_R1_position_id_round_trip(pos: Position) -> None:
    pid = position_id(pos)
    assert len(pid) == 14
    assert position_from_id(pid) == pos
    import gnubg_nn  # the oracle, a dev dependency

    assert pid == gnubg_nn.position_id(pos.board())


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pos=some_position, roll=dice, opts=options)
def test_R1_notation_round_trip(
    pos: Position, roll: tuple[int, int], opts: dict[str, object]
) -> None:
    """parse(format(play)) is the same play (R1 notation)."""
    for play in legal_plays(pos, *roll, **opts):  # type: ignore[arg-type]
        back = parse_play(pos, format_play(play), *roll, **opts)  # type: ignore[arg-type]
        assert back.result == play.result
