"""The replay of a game (issue 27): its action log as steps a person follows, one at a
time, for the replay page (``games/play/replay_pages.py``) and the API
(``GET /api/v1/games/<id>/replay/``).

Every game is replayed from its append-only log through the engine
(:func:`games.play.selectors.game_log_states`, the replay ``manage.py audit_games`` checks
with), whether it was played here, in a tournament or imported from a ``.mat`` file: the
stored snapshot is never read for a position. Reads are bounded: the game with its match
and players (one query) and its log (one query), whatever the game's length.

A *step* is what changes what is shown:

* step 0 is the starting position, before anybody rolls;
* a roll and the play of those dice are one step (the opening roll too); a roll that
  cannot be played (R6: the turn passes inside the roll), or one followed by something
  other than its play (a resignation offered after rolling), is a step of its own;
* every other log row (a double, a take, a drop, a beaver, a resignation offered,
  accepted or declined, an Acey-Deucey double chosen, a timeout, a claim) is one step;
* a tied opening roll, which changes nothing on the board (R3: both roll again), is none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine.game import GameState
from games.engine.position import position_id
from games.errors import NotFound
from games.models import Game, GameAction, Match
from games.play import selectors
from games.play.boardsvg import render_board, view_from_position


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One step of a replay (see the module docstring).

    Attributes:
        index: 0 for the starting position, then 1, 2, ... in the log's order.
        kind: ``start``, ``play`` (a roll and its play), ``roll`` (a roll alone), or the
            log row's kind (``double``, ``take``, ``drop``, ``resign``, ...).
        player: who acted (0 or 1; ``None`` for the start).
        dice: the dice rolled in this step (a play's, a roll's), else ``None``.
        play: the play in notation (``games.engine.notation``), else ``""``.
        state: the engine state after the step.
        before: the engine state before the step.
        seq: the log sequence number of the step's last row (0 for the start).
    """

    index: int
    kind: str
    player: int | None
    dice: tuple[int, int] | None
    play: str
    state: GameState
    before: GameState
    seq: int
    data: dict[str, Any]

    @property
    def cube(self) -> tuple[int, int | None]:
        """The cube shown after the step: (value, owner); a double waiting for its answer
        shows the value offered, still centred or with its owner."""
        state = self.state
        if state.phase == "doubled":
            return state.cube * 2, state.cube_owner
        return state.cube, state.cube_owner


def game_replay_steps(*, game: Game, rows: list[GameAction] | None = None) -> list[ReplayStep]:
    """Every step of ``game`` (its log read in one query unless ``rows`` are given)."""
    start = selectors.game_replay_start(game=game)
    logged = selectors.game_log_states(game=game, rows=rows)
    steps = [ReplayStep(0, "start", None, None, "", start, start, 0, {})]
    before = start
    pending: tuple[GameAction, GameState, GameState] | None = None  # a roll, its states
    for i, (row, state) in enumerate(logged):
        kind = row.kind
        if kind in ("roll", "opening_roll"):
            if kind == "opening_roll" and state.phase == "opening":  # a tie: both again
                before = state
                continue
            following = logged[i + 1][0] if i + 1 < len(logged) else None
            if (
                state.phase == "move"
                and following is not None
                and following.kind == "play"
                and following.player_index == state.turn
            ):
                pending = (row, before, state)  # shown with its play
                before = state
                continue
            player = row.player_index if kind == "roll" else state.turn
            dice = _rolled(row, state)
            steps.append(_step(steps, "roll", player, dice, "", state, before, row))
        elif kind == "play":
            dice = before.dice
            start_state = before
            if pending is not None:
                start_state = pending[1]
                pending = None
            steps.append(
                _step(
                    steps,
                    "play",
                    row.player_index,
                    dice,
                    row.data.get("play", ""),
                    state,
                    start_state,
                    row,
                )
            )
        else:
            steps.append(_step(steps, kind, row.player_index, None, "", state, before, row))
        before = state
    return steps


def _rolled(row: GameAction, state: GameState) -> tuple[int, int] | None:
    dice = row.data.get("dice")
    if not isinstance(dice, list) or len(dice) != 2:
        return None
    if row.kind == "opening_roll":  # each player's die: the starter plays both
        return (max(dice), min(dice))
    return (dice[0], dice[1])


def _step(
    steps: list[ReplayStep],
    kind: str,
    player: int | None,
    dice: tuple[int, int] | None,
    play: str,
    state: GameState,
    before: GameState,
    row: GameAction,
) -> ReplayStep:
    return ReplayStep(len(steps), kind, player, dice, play, state, before, row.seq, row.data)


# ====================================================================== reads by address
_MOVE = re.compile(r"-?[0-9]{1,9}")


def replay_game_get(*, match_id: int, number: int) -> tuple[Match, Game]:
    """The match and its game ``number`` (1, 2, ...), for the replay page: 404
    ``match_not_found`` or ``game_not_found`` otherwise. Two queries (the match with its
    players and games, prefetched)."""
    match = selectors.match_get(match_id=match_id)
    for game in match.games.all():
        if game.number == number:
            game.match = match  # the same row: no query for game.match
            return match, game
    raise NotFound("game_not_found", _("This match has no game with this number."))


def step_index(wanted: str | None, count: int) -> int | None:
    """The step a ``?move=`` asks for among ``count`` steps: missing is the start, ``last``
    the last step, a number out of range the nearest step (a link into a game still
    played stays good); ``None`` for anything else (the page answers 404)."""
    if wanted is None or wanted == "":
        return 0
    if wanted == "last":
        return count - 1
    if not _MOVE.fullmatch(wanted):  # ASCII digits only: int() would take "١٢", not "²"
        return None
    return min(max(int(wanted), 0), count - 1)


# ====================================================================== what is shown
_RESIGN_KINDS = {
    "single": lambda: _("a single game"),
    "gammon": lambda: _("a gammon"),
    "backgammon": lambda: _("a backgammon"),
}


def step_text(step: ReplayStep, names: tuple[str, str]) -> str:
    """The step said in words, cube actions included (translated)."""
    who = "" if step.player is None else names[step.player]
    kind = step.kind
    state = step.state
    if kind == "start":
        return _("The starting position.")
    if kind == "play":
        return _("%(name)s plays %(dice)s: %(play)s") % {
            "name": who,
            "dice": dice_text(step.dice),
            "play": step.play,
        }
    if kind == "roll":
        if state.phase == "move" and state.turn == step.player:
            return _("%(name)s rolls %(dice)s.") % {"name": who, "dice": dice_text(step.dice)}
        return _("%(name)s rolls %(dice)s and cannot move.") % {
            "name": who,
            "dice": dice_text(step.dice),
        }
    if kind == "double":
        return _("%(name)s doubles to %(value)d.") % {"name": who, "value": state.cube * 2}
    if kind == "take":
        return _("%(name)s takes: the cube is at %(value)d, owned by %(name)s.") % {
            "name": who,
            "value": state.cube,
        }
    if kind == "beaver":
        return _("%(name)s beavers: the cube is at %(value)d, owned by %(name)s.") % {
            "name": who,
            "value": state.cube,
        }
    if kind == "drop":
        return _("%(name)s drops the double and gives up the game.") % {"name": who}
    if kind == "resign":
        offered = _RESIGN_KINDS.get(str(step.data.get("kind")))
        if state.is_over:  # seed002: a resignation ends the game at once (R9)
            return _("%(name)s resigns.") % {"name": who}
        return _("%(name)s offers to resign %(kind)s.") % {
            "name": who,
            "kind": offered() if offered else _("the game"),
        }
    if kind == "accept_resignation":
        return _("%(name)s accepts the resignation.") % {"name": who}
    if kind == "decline_resignation":
        return _("%(name)s declines the resignation.") % {"name": who}
    if kind == "choose_double":
        return _("%(name)s chooses the double %(value)s.") % {
            "name": who,
            "value": step.data.get("value"),
        }
    if kind == "timeout":
        return _("%(name)s runs out of time.") % {"name": who}
    if kind == "claim_timeout":
        return _("%(name)s claims the win on time.") % {"name": who}
    return kind


def dice_text(dice: tuple[int, int] | None) -> str:
    return "" if dice is None else f"{dice[0]}-{dice[1]}"


def result_text(state: GameState, names: tuple[str, str]) -> str:
    """How the game ended, when it has (else ``""``)."""
    result = state.result
    if result is None:
        return ""
    return ngettext(
        "%(name)s won %(points)s point.", "%(name)s won %(points)s points.", result.points
    ) % {"name": names[result.winner], "points": result.points}


def step_board_svg(
    step: ReplayStep,
    *,
    viewer: int,
    home: str,
    names: tuple[str, str],
    number: int,
) -> str:
    """The board after ``step`` as server SVG (``games/play/boardsvg.py``), player
    ``viewer`` at the bottom, their home board on ``home``; the dice of the step on the
    side of who rolled them, the cube by its owner (offered: highlighted at the value
    offered), the points the play moved checkers to highlighted."""
    state = step.state
    side = step.player if step.player is not None else state.turn
    position = state.board_of(side)
    value, owner = step.cube
    cube_owner: Literal["mover", "opponent"] | None = None
    if owner is not None:
        cube_owner = "mover" if owner == side else "opponent"
    highlight: set[int] = set()
    if step.kind == "play":
        moved_from = step.before.board_of(side).mover
        for i, count in enumerate(position.mover[:24]):
            if count > moved_from[i]:
                highlight.add(i + 1 if side == viewer else 24 - i)
    return render_board(
        view_from_position(
            position,
            viewer_is_mover=side == viewer,
            dice=step.dice,
            cube_value=value,
            cube_owner=cube_owner,
            cube_offered=state.phase == "doubled",
            home="left" if home == "left" else "right",
            title=_("Replay of game %(number)d, move %(move)d: %(bottom)s (bottom) against %(top)s")
            % {
                "number": number,
                "move": step.index,
                "bottom": names[viewer],
                "top": names[1 - viewer],
            },
            crawford=state.match.crawford,
            highlight=highlight,
            svg_id="replay",
            pip_label=_("pips"),
        )
    )


def step_output(step: ReplayStep) -> dict[str, Any]:
    """One step as the API gives it (``GameReplayStepOutput``)."""
    state = step.state
    value, owner = step.cube
    pips = state.board_of(0).pip_count()
    return {
        "index": step.index,
        "seq": step.seq,
        "action": step.kind,
        "player": step.player,
        "dice": None if step.dice is None else list(step.dice),
        "play": step.play,
        "cube": {"value": value, "owner": owner, "offered": state.phase == "doubled"},
        "position_id": position_id(state.position),
        "match_id": state.match_id(),
        "turn": state.turn,
        "pips": [pips[0], pips[1]],
        "result": None
        if state.result is None
        else {
            "winner": state.result.winner,
            "kind": state.result.kind,
            "points": state.result.points,
            "reason": state.result.reason,
        },
    }
