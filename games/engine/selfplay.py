"""Random but legal games, for tests, replay checks and benchmarks (not for play).

:func:`random_action` picks one action the rules allow in a state (R3-R9), with the
dice drawn from the ``random.Random`` passed in, so a seed fixes a whole game. The mix
leans on rolls and plays, with occasional doubles, takes, drops, beavers and
resignations, so that logs exercise every action kind.
"""

from __future__ import annotations

import random

from games.engine.actions import Action, ActionKind, apply_action
from games.engine.game import GameState
from games.engine.position import position_id


def random_action(state: GameState, rng: random.Random) -> Action:
    """One legal action in ``state`` (which must not be over)."""
    if state.phase == "opening":
        return Action("opening_roll", None, {"dice": [rng.randint(1, 6), rng.randint(1, 6)]})
    actor = state.player_to_act
    assert actor is not None
    if state.resignation is not None:
        if rng.random() < 0.5:
            return Action("accept_resignation", actor, {})
        return Action("decline_resignation", actor, {})
    if state.phase == "doubled":
        choices: list[ActionKind] = ["take", "drop"]
        if state.options.beavers and state.cube * 4 <= state.options.max_cube:
            choices.append("beaver")
        return Action(rng.choice(choices), actor, {})
    if rng.random() < 0.01:
        if state.options.resign_mode == "seed002":
            return Action("resign", actor, {})  # the rule decides the kind (R9)
        return Action("resign", actor, {"kind": rng.choice(["single", "gammon", "backgammon"])})
    if state.phase == "roll":
        if state.can_double(actor) and rng.random() < 0.08:
            return Action("double", actor, {})
        return Action("roll", actor, {"dice": [rng.randint(1, 6), rng.randint(1, 6)]})
    if state.phase == "choose_double":
        return Action("choose_double", actor, {"value": rng.randint(1, 6)})
    play = rng.choice(state.legal_plays())
    return Action("play", actor, {"position_id": position_id(play.result)})


def random_game(
    start: GameState, rng: random.Random, *, max_actions: int = 2000
) -> tuple[GameState, list[Action]]:
    """Play ``start`` to its end with random legal actions; the final state and the log."""
    state = start
    log: list[Action] = []
    while not state.is_over:
        if len(log) >= max_actions:
            raise RuntimeError("a random game did not end")  # a bug, not bad luck
        action = random_action(state, rng)
        state = apply_action(state, action)
        log.append(action)
    return state, log
