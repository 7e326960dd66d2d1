"""A play arranged one die at a time (R14: a play can be changed until it is submitted).

:func:`play_steps` lays out every way of building a legal play of a roll step by step: a
graph whose nodes are the intermediate positions (with the dice still to play) and whose
edges are single-checker moves of one die. A page lets the player walk it: pick a step,
see the board, undo, and submit once the steps form a play.

Nothing here decides the rules again:

* the single moves are the move generator's own (:func:`~games.engine.movegen.walk_steps`:
  R4 landing and the per-point limit, R5 the bar first, R7 bearing off, R3 Acey-Deucey
  entering), made in every order of the dice and of the checkers;
* a node **completes** a play when its position is the result of one of
  :func:`~games.engine.movegen.legal_plays` and it was reached with as many dice as the
  legal plays use (R6; when a non-double allows one die only and the larger one is
  playable, with the larger one, as the generator decides). The ``min_pip_waste`` option
  needs nothing more: the same dice taking the same position waste the same pips.

Only the nodes on the way to a complete node are kept, so every path from the start ends
in a legal play and every legal play ends at least one path. A node is an intermediate
position *and* the dice left: bearing off 3 with a 6 or with a 5 leaves different dice.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from games.engine.game import GameState
from games.engine.movegen import Play, legal_plays, walk_steps
from games.engine.position import Position, position_from_key, position_key

__all__ = ["PlaySteps", "Step", "StepNode", "play_steps", "state_play_steps"]


@dataclass(frozen=True, slots=True)
class Step:
    """One single-checker move of one die.

    Attributes:
        die: the die played.
        source: the point the checker leaves, in the mover's numbering (25: the bar, or
            an unentered Acey-Deucey checker).
        dest: the point it reaches (0: borne off).
        hit: whether a blot was hit on ``dest``.
        node: the index in :attr:`PlaySteps.nodes` of the node the move leads to.
    """

    die: int
    source: int
    dest: int
    hit: bool
    node: int


@dataclass(frozen=True, slots=True)
class StepNode:
    """A position on the way through a roll.

    Attributes:
        position: the checkers, the mover still on roll.
        dice_left: the dice not played yet, larger first.
        steps: the moves that can come next (none at a complete node), by descending
            source point, then descending die.
        play: the legal play completed here, else ``None``.
    """

    position: Position
    dice_left: tuple[int, ...]
    steps: tuple[Step, ...]
    play: Play | None


@dataclass(frozen=True, slots=True)
class PlaySteps:
    """The steps of one roll; ``nodes[0]`` is the position before the roll is played.

    ``dice_used`` is how many dice every legal play uses (R6); 0 when nothing can move.
    """

    nodes: tuple[StepNode, ...]
    dice_used: int


_Node = tuple[int, tuple[int, ...]]  # (packed position key, dice left, larger first)


@lru_cache(maxsize=64)
def play_steps(
    pos: Position,
    d1: int,
    d2: int,
    *,
    max_checkers_per_point: int | None = None,
    min_pip_waste: bool = False,
) -> PlaySteps:
    """Every step-by-step way to play ``d1``-``d2`` from ``pos`` (see the module docstring).

    Same arguments as :func:`~games.engine.movegen.legal_plays`; a pure function of them,
    so the answer is remembered for the last few positions and rolls.
    """
    limit, waste = max_checkers_per_point, min_pip_waste
    plays = legal_plays(pos, d1, d2, max_checkers_per_point=limit, min_pip_waste=waste)
    root: _Node = (position_key(pos), (d1,) * 4 if d1 == d2 else (max(d1, d2), min(d1, d2)))
    if not plays:
        return PlaySteps((StepNode(pos, root[1], (), None),), 0)
    legal = {position_key(play.result): play for play in plays}
    most = max(play.dice_used for play in plays)
    total = len(root[1])

    edges: dict[_Node, set[tuple[int, int, int, bool, _Node]]] = {}

    def visit(
        key: int, left: tuple[int, ...], source: int, dest: int, hit: bool, after: int
    ) -> None:
        die = left[0]
        rest = sorted(left[1:], reverse=True)
        parent: _Node = (key, tuple(sorted(left, reverse=True)))
        edges.setdefault(parent, set()).add((die, source, dest, hit, (after, tuple(rest))))

    walk_steps(pos, d1, d2, visit, max_checkers_per_point=limit, min_pip_waste=waste)

    # R6, as the generator applies it: one die of a non-double only, the larger one when
    # it can be played.
    larger_only = (
        most == 1 and d1 != d2 and any(edge[0] == root[1][0] for edge in edges.get(root, ()))
    )

    def complete(node: _Node) -> Play | None:
        key, left = node
        if total - len(left) != most or key not in legal:
            return None
        if larger_only and left != (root[1][1],):
            return None
        return legal[key]

    good: dict[_Node, bool] = {}

    def leads_to_play(node: _Node) -> bool:
        known = good.get(node)
        if known is None:
            # (evaluate every child: the memo then holds them all)
            children = [leads_to_play(edge[4]) for edge in edges.get(node, ())]
            known = good[node] = complete(node) is not None or any(children)
        return known

    leads_to_play(root)
    # Number the kept nodes breadth first, so that the start is 0 and a step always
    # leads to a higher index.
    index: dict[_Node, int] = {root: 0}
    order: list[_Node] = [root]
    for node in order:
        for edge in sorted(edges.get(node, ()), key=_edge_order):
            child = edge[4]
            if good[child] and child not in index:
                index[child] = len(order)
                order.append(child)
    nodes: list[StepNode] = []
    for node in order:
        play = complete(node)
        steps: tuple[Step, ...] = ()
        if play is None:
            steps = tuple(
                Step(die, source, dest, hit, index[child])
                for die, source, dest, hit, child in sorted(edges.get(node, ()), key=_edge_order)
                if good[child]
            )
        position = pos if node is root else position_from_key(node[0])
        nodes.append(StepNode(position, node[1], steps, play))
    found = {position_key(n.play.result) for n in nodes if n.play is not None}
    assert found == set(legal), "every legal play ends a path of steps, and nothing else does"
    return PlaySteps(tuple(nodes), most)


def _edge_order(edge: tuple[int, int, int, bool, _Node]) -> tuple[int, int, int]:
    die, source, dest, _, _ = edge
    return (-source, -die, -dest)


def state_play_steps(state: GameState) -> PlaySteps | None:
    """The steps of the roll ``state`` waits for (phase ``move``), else ``None``."""
    if state.phase != "move" or state.dice is None:
        return None
    return play_steps(
        state.position,
        state.dice[0],
        state.dice[1],
        max_checkers_per_point=state.options.max_checkers_per_point,
        min_pip_waste=state.options.min_pip_waste,
    )
