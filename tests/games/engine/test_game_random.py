"""Random games (docs/rules.md R3-R12): whatever the players do, a game always ends with a
legal result worth cube x 1, 2 or 3.

Hypothesis draws the options, the match score and a seed; a seeded ``random.Random``
rolls the dice (injected into the engine, R14) and picks the actions: mostly sensible
ones (rolls, legal plays, occasional doubles, takes, drops, beavers, resignations,
timeouts) and, one time in five, a random action by a random player with random
arguments, which must either be accepted or fail with a known error code without
changing anything (the states are immutable).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.errors import EngineError
from games.engine.game import RESIGN_KINDS, GameState, apply_result, new_game
from games.engine.match import MatchState
from games.engine.position import BAR, position_id
from games.engine.rules import RESIGN_MODES, TIMEOUT_RESULTS, RuleOptions, Variant

KNOWN_CODES = {
    "game_over",
    "not_your_turn",
    "invalid_player",
    "invalid_dice",
    "opening_roll_required",
    "opening_roll_done",
    "must_roll_first",
    "already_rolled",
    "must_choose_double",
    "no_double_to_choose",
    "illegal_play",
    "double_pending",
    "no_double_pending",
    "cube_not_available",
    "crawford_no_double",
    "max_cube_reached",
    "beaver_not_allowed",
    "resignation_pending",
    "no_resignation_pending",
    "invalid_resignation",
}


@st.composite
def setups(draw: st.DrawFn) -> tuple[RuleOptions, MatchState]:
    variants: list[Variant] = ["standard", "nackgammon", "acey-deucey"]
    variant = draw(st.sampled_from(variants))
    cube_on = variant != "acey-deucey" or draw(st.booleans())
    money = draw(st.booleans())
    money_opts = money and cube_on
    options = RuleOptions(
        variant=variant,
        max_checkers_per_point=draw(st.sampled_from([None, 5, 6]))
        if variant != "standard"
        else draw(st.sampled_from([None, 5])),
        min_pip_waste=draw(st.booleans()),
        max_cube=draw(st.sampled_from([1, 2, 8, 64])),
        jacoby=money_opts and draw(st.booleans()),
        automatic_doubles=money_opts and draw(st.booleans()),
        automatic_doubles_limit=draw(st.integers(1, 3)),
        beavers=money_opts and draw(st.booleans()),
        backgammon_value=draw(st.sampled_from([1, 2, 3])),
        resign_mode=draw(st.sampled_from(RESIGN_MODES)),
        timeout_result=draw(st.sampled_from(TIMEOUT_RESULTS)),
        acey_deucey_cube=variant == "acey-deucey" and cube_on,
    )
    if money:
        return options, MatchState.money()
    length = draw(st.integers(1, 7))
    score = (draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1)))
    one_leader = (score[0] == length - 1) != (score[1] == length - 1)
    crawford = one_leader and draw(st.booleans())
    return options, MatchState(length=length, score=score, crawford=crawford)


def sensible_action(g: GameState, rng: random.Random, endings: bool = True) -> GameState:
    """A plausible action; with ``endings`` False nobody resigns, claims a timeout or
    drops, so the game is played out to the last checker (R9 bear-off results)."""

    def die() -> int:
        return rng.randint(1, 6)

    if g.resignation is not None:
        answerer = 1 - g.resignation.player
        if rng.random() < 0.3:
            return g.accept_resignation(answerer)
        return g.decline_resignation(answerer)
    if g.phase == "opening":
        return g.opening_roll(die(), die())
    if endings and rng.random() < 0.004:
        loser = rng.randint(0, 1)
        return g.timeout(loser).claim_timeout(1 - loser)
    if endings and rng.random() < 0.01 and g.phase != "doubled":
        player = rng.randint(0, 1)
        if g.options.resign_mode == "seed002":
            return g.resign(player)
        return g.resign(player, rng.choice(RESIGN_KINDS))
    if g.phase == "roll":
        if g.can_double(g.turn) and rng.random() < 0.08:
            return g.double(g.turn)
        return g.roll(g.turn, die(), die())
    if g.phase == "doubled":
        taker = 1 - g.turn
        x = rng.random()
        if endings and x < 0.25:
            return g.drop(taker)
        if x < 0.45 and g.options.beavers and g.cube * 4 <= g.options.max_cube:
            return g.beaver(taker)
        return g.take(taker)
    if g.phase == "choose_double":
        return g.choose_double(g.turn, die())
    assert g.phase == "move"
    plays = g.legal_plays()
    assert plays, "phase 'move' always has a legal play (R6 auto-pass)"
    chosen = rng.choice(plays)
    how = rng.random()
    if how < 0.2:
        return g.play(g.turn, position_id(chosen.result))
    if how < 0.4:
        return g.play(g.turn, chosen.result)
    return g.play(g.turn, chosen)


def random_action(
    g: GameState, rng: random.Random, endings: bool = True
) -> Callable[[], GameState]:
    """A random action by a random player (often illegal); without ``endings`` none
    that could end the game."""
    p = rng.choice([0, 1, 1, 0, 2])  # 2: an invalid player
    d1, d2 = rng.randint(0, 7), rng.randint(1, 6)
    actions: list[Callable[[], GameState]] = [
        lambda: g.opening_roll(d1, d2),
        lambda: g.roll(p, d1, d2),
        lambda: g.double(p),
        lambda: g.take(p),
        lambda: g.beaver(p),
        lambda: g.decline_resignation(p),
        lambda: g.choose_double(p, d1),
        lambda: g.play(p, g.position),
        lambda: g.play(p, position_id(g.position)),
    ]
    if endings:
        actions += [
            lambda: g.drop(p),
            lambda: g.resign(p, rng.choice([*RESIGN_KINDS, None])),
            lambda: g.accept_resignation(p),
        ]
    return rng.choice(actions)


def check_result(start: GameState, g: GameState) -> None:
    r = g.result
    assert r is not None
    o = g.options
    assert r.cube == g.cube
    assert r.cube <= o.max_cube
    if start.match.crawford:
        assert r.cube == 1
    if r.match_forfeit:
        assert r.points == start.match.away(r.winner)
        return
    assert r.multiplier in {1, 2, o.backgammon_value}
    assert r.points == r.cube * r.multiplier
    assert r.points in {r.cube, 2 * r.cube, 3 * r.cube}
    jacoby_single = o.jacoby and start.match.is_money and not g.cube_turned
    if r.kind == "single" or (jacoby_single and r.reason != "timeout"):
        assert r.multiplier == 1
    elif r.kind == "gammon":
        assert r.multiplier == 2
    if r.reason == "bear_off":
        winner = g.board_of(r.winner)
        assert winner.mover_off == 15
        loser = winner.opponent
        if winner.opponent_off:
            assert r.kind == "single"
        elif loser[BAR] or winner.opponent_unentered or any(loser[18:24]):
            assert r.kind == "backgammon"
        else:
            assert r.kind == "gammon"
    if r.reason == "drop":
        assert r.kind == "single"


@settings(max_examples=60, deadline=None)
@given(setup=setups(), seed=st.integers(0, 2**32 - 1), endings=st.booleans())
def test_r3_r12_random_games_end_with_a_legal_result(
    setup: tuple[RuleOptions, MatchState], seed: int, endings: bool
) -> None:
    options, match = setup
    rng = random.Random(seed)
    g = new_game(options, match)
    start = g
    off = [0, 0]
    for _ in range(20_000):
        if g.is_over:
            break
        if rng.random() < 0.2:
            action = random_action(g, rng, endings)
            before = g
            codes: list[str] = []
            try:
                g = action()
            except EngineError as e:
                codes.append(e.code)
            if codes:
                assert codes[0] in KNOWN_CODES
                assert g == before
                continue
        else:
            g = sensible_action(g, rng, endings)
        # R1/R7: 15 checkers a side (borne off never negative, never decreasing)
        for player in (0, 1):
            now = g.borne_off(player)
            assert 0 <= now <= 15
            assert now >= off[player]
            off[player] = now
        assert g.cube <= options.max_cube
        if match.crawford:
            assert g.cube == 1
    assert g.is_over, "a game must end"
    if not endings:
        assert g.result is not None
        assert g.result.reason == "bear_off"
    check_result(start, g)
    after = apply_result(match, g.result)  # type: ignore[arg-type]
    assert after.score != match.score
