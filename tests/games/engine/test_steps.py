"""Plays arranged one die at a time (games.engine.steps, R14).

The step graph is checked against the engine's legal plays on many reachable positions
(all three variants, every roll, with and without the rule options) and against an
independent, test-only walker of single-die moves written from docs/rules.md (R4, R5, R7, R3
Acey-Deucey entering): the complete nodes are exactly the legal plays, every step is a
legal single move, and every legal way of building a legal play is in the graph.
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.actions import apply_action
from games.engine.game import GameState, new_game
from games.engine.movegen import legal_plays
from games.engine.notation import format_play
from games.engine.position import Position, position_key, start_position
from games.engine.rules import RuleOptions
from games.engine.selfplay import random_action
from games.engine.steps import PlaySteps, play_steps, state_play_steps
from tests.games.engine.selfplay import ALL_ROLLS, play_game, positions
from tests.games.engine.selfplay import make_position as mk

# ------------------------------------------------------------------ the test's own rules


def _single_moves(
    pos: Position, die: int, limit: int | None
) -> list[tuple[int, int, bool, Position]]:
    """Every single-checker move of ``die`` (R4, R5, R7, R3), written from docs/rules.md alone:
    ``(from, to, hit, position after)``."""
    m = [0, *pos.mover]  # m[p]: the mover's checkers on point p, m[25] the bar
    o = [0] + [pos.opponent[24 - t] for t in range(1, 25)]  # the opponent's, mover's numbering
    unentered = pos.mover_unentered
    outside = sum(m[7:26]) + unentered  # R7: not home
    sources = [p for p in range(24, 0, -1) if m[p]] + ([25] if unentered else [])
    if m[25]:
        sources = [25]  # R5: the bar first
    found = []
    for p in sources:
        t = 25 - die if p == 25 else p - die
        if t >= 1:
            if o[t] >= 2 or (limit is not None and m[t] >= limit):  # R4
                continue
        else:
            if outside:  # R7: all fifteen home
                continue
            if t < 0 and any(m[q] for q in range(p + 1, 7)):  # R7: the highest point only
                continue
            t = 0
        mover = list(pos.mover)
        opponent = list(pos.opponent)
        left = unentered
        if p == 25 and not m[25]:
            left -= 1
        else:
            mover[p - 1] -= 1
        hit = t > 0 and o[t] == 1
        if t:
            mover[t - 1] += 1
            if hit:
                opponent[24 - t] = 0
                opponent[24] += 1
        after = Position(tuple(mover), tuple(opponent), left, pos.opponent_unentered)
        found.append((p, t, hit, after))
    return found


_Edge = tuple[int, int, int, bool]  # (die, from, to, hit)


def _oracle(
    pos: Position, d1: int, d2: int, limit: int | None, waste: bool
) -> set[tuple[int, tuple[int, ...], _Edge]]:
    """The steps a player may take on the way to a legal play, by brute force:
    ``(position key, dice left, step)`` for every step of every single-move sequence
    that ends in one of the engine's legal plays with as many dice as it uses (R6)."""
    plays = legal_plays(pos, d1, d2, max_checkers_per_point=limit, min_pip_waste=waste)
    if not plays:
        return set()
    legal = {position_key(p.result) for p in plays}
    most = plays[0].dice_used
    dice = (d1,) * 4 if d1 == d2 else (max(d1, d2), min(d1, d2))
    larger_only = (
        most == 1 and d1 != d2 and bool(_single_moves(pos, max(d1, d2), limit))
    )  # R6: the larger die when only one can be played
    steps: set[tuple[int, tuple[int, ...], _Edge]] = set()

    @cache
    def walk(position: Position, left: tuple[int, ...]) -> bool:
        used = len(dice) - len(left)
        if used == most:
            ok = position_key(position) in legal
            return ok and not (larger_only and left != (min(d1, d2),))
        good = False
        for die in sorted(set(left), reverse=True):
            rest = list(left)
            rest.remove(die)
            for p, t, hit, after in _single_moves(position, die, limit):
                if walk(after, tuple(rest)):
                    steps.add((position_key(position), left, (die, p, t, hit)))
                    good = True
        return good

    walk(pos, dice)
    return steps


def _graph_steps(graph: PlaySteps) -> set[tuple[int, tuple[int, ...], _Edge]]:
    return {
        (position_key(node.position), node.dice_left, (s.die, s.source, s.dest, s.hit))
        for node in graph.nodes
        for s in node.steps
    }


def _check(
    pos: Position, d1: int, d2: int, limit: int | None = None, waste: bool = False
) -> PlaySteps:
    """Every property of the graph of one position and roll."""
    graph = play_steps(pos, d1, d2, max_checkers_per_point=limit, min_pip_waste=waste)
    plays = legal_plays(pos, d1, d2, max_checkers_per_point=limit, min_pip_waste=waste)
    nodes = graph.nodes
    root = nodes[0]
    assert root.position == pos
    assert root.dice_left == ((d1,) * 4 if d1 == d2 else (max(d1, d2), min(d1, d2)))
    # The complete nodes are exactly the legal plays (the leaves of the graph).
    complete = [n for n in nodes if n.play is not None]
    assert {position_key(n.position) for n in complete} == {position_key(p.result) for p in plays}
    for node in complete:
        assert node.play is not None and node.play.result == node.position
        assert node.steps == ()
        assert len(root.dice_left) - len(node.dice_left) == node.play.dice_used
    assert graph.dice_used == (plays[0].dice_used if plays else 0)
    # Every node is reached and leads on to a play; a step's die is one of those left.
    reached = {0}
    for i, node in enumerate(nodes):
        assert node.play is not None or node.steps or not plays
        for s in node.steps:
            assert s.node > i
            reached.add(s.node)
            child = nodes[s.node]
            rest = list(node.dice_left)
            rest.remove(s.die)
            assert child.dice_left == tuple(rest)
            # the step is a legal single move from the node's position (R4, R5, R7)
            assert (s.source, s.dest, s.hit, child.position) in _single_moves(
                node.position, s.die, limit
            )
    assert reached == set(range(len(nodes)))
    # ... and nothing is missing: every legal way to a legal play is in the graph.
    assert _graph_steps(graph) == _oracle(pos, d1, d2, limit, waste)
    return graph


# ------------------------------------------------------------------ many positions


def _acey_deucey_pool(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    pool: list[Position] = []
    while len(pool) < count:
        pool.extend(p for p in play_game(rng, "acey-deucey") if rng.random() < 0.2)
    return pool[:count]


POOL = positions(64, seed=4) + _acey_deucey_pool(24, seed=5)


@pytest.mark.parametrize("chunk", range(8))
def test_every_roll_of_reachable_positions(chunk: int) -> None:
    for pos in POOL[chunk::8]:
        for d1, d2 in ALL_ROLLS:
            graph = _check(pos, d1, d2)
            if d1 != d2:  # the order of the dice does not matter
                other = play_steps(pos, d2, d1)
                shape = [(n.position, n.dice_left, n.steps) for n in graph.nodes]
                assert [(n.position, n.dice_left, n.steps) for n in other.nodes] == shape


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    pos=st.sampled_from(POOL),
    roll=st.sampled_from(ALL_ROLLS),
    limit=st.one_of(st.none(), st.integers(3, 6)),
    waste=st.booleans(),
)
def test_with_the_rule_options(
    pos: Position, roll: tuple[int, int], limit: int | None, waste: bool
) -> None:
    _check(pos, *roll, limit, waste)


# ------------------------------------------------------------------ hand-made positions


def _paths(graph: PlaySteps, node: int = 0, prefix: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    """Every path from ``node`` as step labels (``13/7``, ``8/5*``, ``bar/20``, ``6/off``)."""
    here = graph.nodes[node]
    if not here.steps:
        return {prefix}
    out: set[tuple[str, ...]] = set()
    for s in here.steps:
        name = {25: "bar", 0: "off"}
        label = f"{name.get(s.source, s.source)}/{name.get(s.dest, s.dest)}" + "*" * s.hit
        out |= _paths(graph, s.node, (*prefix, label))
    return out


def test_opening_roll_offers_both_orders_and_every_route() -> None:
    graph = _check(start_position(), 2, 1)
    paths = _paths(graph)
    # 24/21 as 24/22/21 or 24/23/21 (13/12 is blocked), and 6/5 before or after 8/6
    assert {("24/22", "22/21"), ("24/23", "23/21")} <= paths
    assert ("13/12", "12/10") not in paths
    assert {("8/6", "6/5"), ("6/5", "8/6")} <= paths
    assert {p for p in paths if len(p) != 2} == set()


def test_the_other_route_to_the_same_play_is_offered() -> None:
    """8/5 with a 2-1 goes 8/6/5 or 8/7/5; the engine records one route, the graph has
    both (and 6/5 then 8/6, another checker reaching the same position)."""
    graph = _check(mk({8: 1, 6: 5, 1: 9}), 2, 1)
    assert {("8/6", "6/5"), ("8/7", "7/5"), ("6/5", "8/6")} <= _paths(graph)


def test_doubles_take_up_to_four_steps() -> None:
    graph = _check(start_position(), 6, 6)
    assert graph.dice_used == 4
    assert graph.nodes[0].dice_left == (6, 6, 6, 6)
    assert all(len(path) == 4 for path in _paths(graph))
    assert ("24/18", "24/18", "13/7", "13/7") in _paths(graph)
    assert ("13/7", "24/18", "13/7", "24/18") in _paths(graph)  # any order


def test_a_checker_on_the_bar_enters_first() -> None:
    pos = mk({25: 1, 13: 5, 8: 3, 6: 5, 24: 1}, {19: 2, 20: 1})
    graph = _check(pos, 5, 4)
    assert {s.source for s in graph.nodes[0].steps} == {25}
    assert {(s.die, s.dest, s.hit) for s in graph.nodes[0].steps} == {(5, 20, True), (4, 21, False)}
    assert ("bar/20*", "24/20") in _paths(graph)


def test_two_on_the_bar_with_one_entry_open_play_one_die() -> None:
    pos = mk({25: 2, 13: 5, 6: 8}, {20: 2})
    graph = _check(pos, 5, 3)
    assert _paths(graph) == {("bar/22",)}
    assert graph.dice_used == 1


def test_bearing_off_larger_die_from_the_highest_point_only() -> None:
    pos = mk({5: 1, 3: 2})
    graph = _check(pos, 6, 4)
    assert _paths(graph) == {("5/off", "3/off"), ("5/1", "3/off")}


def test_bearing_off_needs_every_checker_home_first() -> None:
    """7/6 (1) brings the last checker home before 6/off; the other order is illegal."""
    graph = _check(mk({7: 1, 6: 3, 1: 11}), 6, 1)
    paths = _paths(graph)
    assert ("7/6", "6/off") in paths
    assert all(path[0] != "6/off" for path in paths)


def test_forced_partial_play_uses_the_larger_die() -> None:
    """Only one die can be played, so the larger one: 24/18, never 24/19 (R6)."""
    graph = _check(mk({24: 1, 2: 7, 1: 7}, {13: 2}), 6, 5)
    assert _paths(graph) == {("24/18",)}
    assert graph.nodes[1].dice_left == (5,)  # the 5 is forfeited
    assert graph.nodes[1].play is not None


def test_the_last_checker_off_with_a_6_must_play_the_1_first() -> None:
    """6-1 with one checker on 2: both dice can be played (2/1/off), so they must (R6)."""
    graph = _check(mk({2: 1}), 6, 1)
    assert _paths(graph) == {("2/1", "1/off")}


def test_limit_makes_room_before_a_checker_arrives() -> None:
    """Limit 5 (R4): 13/8 only after 8/2 left a place on 8."""
    graph = _check(mk({13: 1, 8: 5, 6: 9}, {7: 2, 1: 13}), 6, 5, limit=5)
    assert ("8/2", "13/8") in _paths(graph)
    assert ("13/8", "8/2") not in _paths(graph)


def test_acey_deucey_unentered_checkers_enter_from_25() -> None:
    pos = mk({}, {}, mover_unentered=15, opponent_unentered=15)
    graph = _check(pos, 2, 1)
    paths = _paths(graph)
    assert ("bar/23", "23/22") in paths and ("bar/24", "bar/23") in paths
    ends = {n.position.mover_unentered for n in graph.nodes if n.play is not None}
    assert ends == {13, 14}  # unentered checkers are told apart from borne-off ones


def test_no_legal_play_gives_a_lonely_start() -> None:
    pos = mk({25: 1, 6: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2})
    graph = play_steps(pos, 6, 5)
    assert graph.dice_used == 0
    assert len(graph.nodes) == 1 and graph.nodes[0].steps == () and graph.nodes[0].play is None


@pytest.mark.parametrize("variant", ["standard", "acey-deucey"])
def test_a_game_state_in_phase_move_has_steps_and_others_none(variant: str) -> None:
    rng = random.Random(8)
    state: GameState = new_game(RuleOptions(variant=variant))
    seen_move = 0
    while not state.is_over and seen_move < 40:
        steps = state_play_steps(state)
        if state.phase == "move":
            seen_move += 1
            assert steps is not None
            complete = {format_play(n.play) for n in steps.nodes if n.play is not None}
            assert complete == {format_play(p) for p in state.legal_plays()}
        else:
            assert steps is None
        state = apply_action(state, random_action(state, rng))
    assert seen_move
