"""What the one board script (static/games/board.js) needs from the server, for the match
page and the online chouette table alike: the ways to build the play of the rolled dice
one die at a time (R14), a position on the way through the roll (the board the script
fetches after each step) and the last play's moves (marked ``last-move`` on the board).

Pure: engine objects in, plain data out; the pages add the URLs and the settings.
"""

from __future__ import annotations

from typing import Any

from games.engine.errors import EngineError
from games.engine.game import GameState
from games.engine.notation import format_play, play_moves
from games.engine.position import Position, position_from_id, position_id
from games.engine.steps import state_play_steps

__all__ = ["board_settings", "last_play_moves", "play_steps_data", "position_on_the_way"]


def board_settings(player: Any) -> dict[str, bool]:
    """The viewer's settings the board script acts on (``Player.auto_roll``,
    ``Player.auto_confirm_forced``; nobody logged in: neither), rendered by the pages as
    the board's ``data-auto-roll`` and ``data-auto-confirm``."""
    return {
        "auto_roll": bool(player is not None and player.auto_roll),
        "auto_confirm": bool(player is not None and player.auto_confirm_forced),
    }


def play_steps_data(state: GameState) -> dict[str, Any] | None:
    """The ways to build the play of the rolled dice one die at a time (R14), for the
    board script: ``nodes[i]`` is ``{"id": Position ID, "dice": dice left, "steps":
    [[die, from, to, hit (0/1), next node], ...], "play": notation or null}``, node 0 the
    position before the play; points in the mover's numbering (25 the bar, 0 off). A node
    with a ``play`` is a legal play: its ``id`` is what the form posts. ``None`` when no
    play is waited for or no checker can move (the engine passes the turn)."""
    graph = state_play_steps(state)
    if graph is None or not graph.dice_used:
        return None
    return {
        "nodes": [
            {
                "id": position_id(node.position),
                "dice": list(node.dice_left),
                "steps": [[s.die, s.source, s.dest, int(s.hit), s.node] for s in node.steps],
                "play": None if node.play is None else format_play(node.play),
            }
            for node in graph.nodes
        ]
    }


def position_on_the_way(state: GameState, wanted: str) -> Position | None:
    """The position ``wanted`` (a Position ID) when it is the state's own or one on the
    way through the roll being played (unentered Acey-Deucey checkers kept), else
    ``None``; raises :class:`EngineError` when ``wanted`` is no Position ID."""
    position_from_id(wanted)
    if wanted == position_id(state.position):
        return state.position
    graph = state_play_steps(state)
    for node in graph.nodes if graph is not None else ():
        if position_id(node.position) == wanted:
            return node.position
    return None


def last_play_moves(text: str | None) -> list[tuple[int, int]]:
    """The ``(from, to)`` pairs of a play written in notation (the mover's numbering), or
    none when it cannot be read (an empty play, a pass)."""
    if not text:
        return []
    try:
        return play_moves(text)
    except EngineError:
        return []
