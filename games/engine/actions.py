"""Actions, replay and snapshots: a game as a log that can be stored and audited.

An :class:`Action` is one entry of a game's append-only log: what was done (``kind``),
by whom (``player``, 0 or 1; ``None`` for the opening roll, which both players make) and
its data (dice, the play, a resignation's kind). :func:`apply_action` runs one action
through the :class:`~games.engine.game.GameState` machine; :func:`replay` runs a whole
log from a new game. Because the engine takes dice from the log and draws nothing
itself, replaying a stored log reproduces the stored state exactly (R14: every roll is
kept, so any game can be audited).

A *snapshot* (:func:`state_to_dict` / :func:`state_from_dict`) is a
JSON-compatible dict holding every field of a :class:`GameState`. The application stores
it beside the log so that reads need no replay; a test replays logs and compares.

Kinds and their data:

=======================  ========  ===============================================
kind                     player    data
=======================  ========  ===============================================
``opening_roll``         None      ``dice``: [player 0's die, player 1's die]
``roll``                 0/1       ``dice``: [d1, d2]
``play``                 0/1       ``play``: notation; ``position_id``: the result
``choose_double``        0/1       ``value``: the Acey-Deucey double (R3)
``double``               0/1       -
``take`` / ``drop``      0/1       -
``beaver``               0/1       -
``resign``               0/1       ``kind``: single / gammon / backgammon (optional)
``accept_resignation``   0/1       -
``decline_resignation``  0/1       -
``timeout``              0/1       - (the player whose reserve ran out, R12)
``claim_timeout``        0/1       - (the claimant, R12)
=======================  ========  ===============================================

A ``play`` is identified by the Position ID of its result (canonical; notation is kept
for people). An empty play (no legal move) is never logged: the engine passes the turn
inside ``roll`` (R6).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal, get_args

from games.engine.errors import EngineError
from games.engine.game import GameResult, GameState, ResignationOffer, new_game
from games.engine.match import MatchScore, MatchState
from games.engine.position import Position
from games.engine.rules import RuleOptions

ActionKind = Literal[
    "opening_roll",
    "roll",
    "play",
    "choose_double",
    "double",
    "take",
    "drop",
    "beaver",
    "resign",
    "accept_resignation",
    "decline_resignation",
    "timeout",
    "claim_timeout",
]
ACTION_KINDS: tuple[str, ...] = get_args(ActionKind)


@dataclass(frozen=True, slots=True)
class Action:
    """One logged action (see the module docstring for kinds and data)."""

    kind: ActionKind
    player: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)


def _dice(data: Mapping[str, Any]) -> tuple[int, int]:
    dice = data.get("dice")
    if (
        not isinstance(dice, list | tuple)
        or len(dice) != 2
        or not all(isinstance(d, int) and not isinstance(d, bool) for d in dice)
    ):
        raise EngineError("invalid_dice", f"two dice expected, not {dice!r}")
    return int(dice[0]), int(dice[1])


def _player(action: Action) -> int:
    if action.player not in (0, 1) or isinstance(action.player, bool):
        raise EngineError("invalid_player", f"{action.kind} needs player 0 or 1")
    return action.player


def apply_action(state: GameState, action: Action) -> GameState:
    """The state after ``action``; raises :class:`EngineError` when it breaks a rule."""
    kind = action.kind
    data = action.data
    if kind == "opening_roll":
        return state.opening_roll(*_dice(data))
    player = _player(action)
    if state.flagged is not None and kind != "claim_timeout" and not state.is_over:
        # R12: a player is out of time; only the opponent's claim is left.
        raise EngineError("out_of_time", f"player {state.flagged} has run out of time")
    if kind == "timeout":
        return state.timeout(player)
    if kind == "roll":
        return state.roll(player, *_dice(data))
    if kind == "play":
        target = data.get("position_id")
        # A missing or malformed target is an illegal play, but only once the engine has
        # checked the turn and phase (an early play is "must roll first", not "illegal").
        return state.play(player, target if isinstance(target, str) else "")
    if kind == "choose_double":
        value = data.get("value")
        if not isinstance(value, int) or isinstance(value, bool):
            raise EngineError("invalid_dice", f"a double's value is 1..6, not {value!r}")
        return state.choose_double(player, value)
    if kind == "double":
        return state.double(player)
    if kind == "take":
        return state.take(player)
    if kind == "drop":
        return state.drop(player)
    if kind == "beaver":
        return state.beaver(player)
    if kind == "resign":
        resign_kind = data.get("kind")
        if resign_kind not in (None, "single", "gammon", "backgammon"):
            raise EngineError("invalid_resignation", f"cannot resign {resign_kind!r}")
        return state.resign(player, resign_kind)
    if kind == "accept_resignation":
        return state.accept_resignation(player)
    if kind == "decline_resignation":
        return state.decline_resignation(player)
    if kind == "claim_timeout":
        return state.claim_timeout(player)
    raise EngineError("unknown_action", f"no such action {kind!r}")


def replay(start: GameState, actions: Iterable[Action]) -> GameState:
    """Run ``actions`` from ``start`` (usually :func:`~games.engine.game.new_game`)."""
    state = start
    for action in actions:
        state = apply_action(state, action)
    return state


# ====================================================================== snapshots
def _position_to_dict(position: Position) -> dict[str, Any]:
    return {
        "mover": list(position.mover),
        "opponent": list(position.opponent),
        "mover_unentered": position.mover_unentered,
        "opponent_unentered": position.opponent_unentered,
    }


def _position_from_dict(data: Mapping[str, Any]) -> Position:
    return Position(
        mover=tuple(data["mover"]),
        opponent=tuple(data["opponent"]),
        mover_unentered=data.get("mover_unentered", 0),
        opponent_unentered=data.get("opponent_unentered", 0),
    )


def match_to_dict(match: MatchState) -> dict[str, Any]:
    """A JSON-compatible dict of a :class:`MatchState` (with its score sheet)."""
    return {
        "length": match.length,
        "score": list(match.score),
        "crawford": match.crawford,
        "games": [{**_flat(line), "score": list(line.score)} for line in match.games],
    }


def match_from_dict(data: Mapping[str, Any]) -> MatchState:
    return MatchState(
        length=data["length"],
        score=(data["score"][0], data["score"][1]),
        crawford=data["crawford"],
        games=tuple(
            MatchScore(**{**line, "score": (line["score"][0], line["score"][1])})
            for line in data.get("games", ())
        ),
    )


def _flat(obj: Any) -> dict[str, Any]:
    """A dataclass of plain values as a dict: :func:`dataclasses.asdict` without its
    recursive deep copy, which was a sixth of a stored move's time (the fields here are
    all ints, strings, booleans, ``None`` or tuples of ints)."""
    return {name: getattr(obj, name) for name in _field_names(type(obj))}


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


def options_to_dict(options: RuleOptions) -> dict[str, Any]:
    return _flat(options)


def options_from_dict(data: Mapping[str, Any]) -> RuleOptions:
    try:
        return RuleOptions(**data)
    except TypeError as exc:
        raise EngineError("invalid_options", str(exc)) from None


def state_to_dict(state: GameState) -> dict[str, Any]:
    """Every field of ``state`` as JSON-compatible data (see the module docstring)."""
    return {
        "options": options_to_dict(state.options),
        "match": match_to_dict(state.match),
        "position": _position_to_dict(state.position),
        "turn": state.turn,
        "phase": state.phase,
        "dice": None if state.dice is None else list(state.dice),
        "cube": state.cube,
        "cube_owner": state.cube_owner,
        "cube_turned": state.cube_turned,
        "automatic_doubles": state.automatic_doubles,
        "resignation": None if state.resignation is None else _flat(state.resignation),
        "acey_deucey_stage": state.acey_deucey_stage,
        "bonus_roll": state.bonus_roll,
        "result": None if state.result is None else _flat(state.result),
        "flagged": state.flagged,
    }


def state_from_dict(data: Mapping[str, Any]) -> GameState:
    """The :class:`GameState` a :func:`state_to_dict` dict describes."""
    dice = data["dice"]
    resignation = data["resignation"]
    result = data["result"]
    return GameState(
        options=options_from_dict(data["options"]),
        match=match_from_dict(data["match"]),
        position=_position_from_dict(data["position"]),
        turn=data["turn"],
        phase=data["phase"],
        dice=None if dice is None else (dice[0], dice[1]),
        cube=data["cube"],
        cube_owner=data["cube_owner"],
        cube_turned=data["cube_turned"],
        automatic_doubles=data["automatic_doubles"],
        resignation=None if resignation is None else ResignationOffer(**resignation),
        acey_deucey_stage=data["acey_deucey_stage"],
        bonus_roll=data["bonus_roll"],
        result=None if result is None else GameResult(**result),
        flagged=data.get("flagged"),
    )


def new_game_from_dicts(options: Mapping[str, Any], match: Mapping[str, Any]) -> GameState:
    """A new game from stored options and match data (the start of every replay)."""
    return new_game(options_from_dict(options), match_from_dict(match))


__all__ = [
    "ACTION_KINDS",
    "Action",
    "ActionKind",
    "apply_action",
    "match_from_dict",
    "match_to_dict",
    "new_game_from_dicts",
    "options_from_dict",
    "options_to_dict",
    "replay",
    "state_from_dict",
    "state_to_dict",
]
