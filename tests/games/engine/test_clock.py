"""The clock (docs/rules.md R12): delay then reserve, flags, deadlines, modes and presets.

Pure: no database, no wall clock. Times are integer milliseconds; ``T0`` is an arbitrary
epoch-like instant, so the tests also show that absolute times are exact to the ms.
"""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.clock import (
    MINUTE_MS,
    PRESETS,
    SECOND_MS,
    ClockSettings,
    ClockState,
    preset,
    settings_from_dict,
    settings_to_dict,
)
from games.engine.errors import EngineError

T0 = 1_700_000_000_123
S = SECOND_MS
MIN = MINUTE_MS


def seed002(player: int | None = 0, now_ms: int = T0, length: int = 5) -> ClockState:
    return ClockState.start(
        preset("seed002"), length=length, score=(0, 0), player=player, now_ms=now_ms
    )


# ====================================================================== delay and reserve
def test_seed002_a_turn_within_the_delay_costs_nothing() -> None:
    """11 s delay: a turn of 8 s leaves the 90 s reserve whole; the unused 3 s are lost."""
    c = seed002().switch(T0 + 8 * S, 1)
    assert c.reserves == (90 * S, 90 * S)
    assert (c.running, c.turn_started_ms) == (1, T0 + 8 * S)
    # The next turn of player 0 starts with a fresh 11 s, not 11 + 3.
    c = c.switch(T0 + 10 * S, 0)
    assert c.remaining(T0 + 10 * S) == (11 * S, 90 * S)


def test_seed002_a_turn_of_20_s_costs_9_s_of_reserve() -> None:
    """20 s - 11 s delay = 9 s from the reserve: 90 - 9 = 81 s."""
    c = seed002().switch(T0 + 20 * S, 1)
    assert c.reserves == (81 * S, 90 * S)
    assert c.flagged is None


def test_seed002_deadline_is_turn_start_plus_101_s_to_the_ms() -> None:
    """11 s delay + 90 s reserve: the flag falls at exactly T0 + 101 000 ms."""
    c = seed002()
    assert c.deadline_ms() == T0 + 101_000
    assert c.remaining(T0) == (11 * S, 90 * S)
    assert c.remaining(T0 + 8 * S) == (3 * S, 90 * S)
    assert c.remaining(T0 + 11 * S) == (0, 90 * S)
    assert c.remaining(T0 + 20 * S) == (0, 81 * S)
    assert c.remaining(T0 + 100_999) == (0, 1)
    assert c.remaining(T0 + 101_000) == (0, 0)
    assert not c.is_flagged(T0 + 100_999)
    assert c.is_flagged(T0 + 101_000)
    assert c.flagged_player(T0 + 101_000) == 0
    assert c.flagged_player(T0 + 100_999) is None


def test_a_switch_one_ms_before_the_deadline_leaves_1_ms() -> None:
    c = seed002().switch(T0 + 100_999, 1)
    assert c.reserves == (1, 90 * S)
    assert c.flagged is None
    # Player 0's next turn: deadline = start + 11 s + 1 ms.
    c = c.switch(T0 + 200_000, 0)
    assert c.deadline_ms() == T0 + 200_000 + 11_001


def test_a_switch_at_the_deadline_records_the_flag_and_still_passes_the_turn() -> None:
    c = seed002().switch(T0 + 101_000, 1)
    assert c.reserves == (0, 90 * S)
    assert c.flagged == 0
    assert c.running == 1  # the opponent's clock runs while they decide to claim (R12)
    assert c.is_flagged(T0 + 101_000)


def test_a_switch_long_after_the_deadline_floors_the_reserve_at_0() -> None:
    c = seed002().switch(T0 + 10 * MIN, 1)
    assert c.reserves == (0, 90 * S)
    assert c.flagged == 0


def test_the_flag_is_recorded_once() -> None:
    """Player 0 flags first; player 1 flagging later does not overwrite it."""
    c = seed002().switch(T0 + 101_000, 1)  # player 0 flags
    c = c.switch(T0 + 101_000 + 5 * MIN, 0)  # player 1 runs far past 101 s too
    assert c.reserves == (0, 0)
    assert c.flagged == 0


def test_record_flag_marks_the_running_player_only_once_out_of_time() -> None:
    c = seed002()
    assert c.record_flag(T0 + 100_999) is c
    flagged = c.record_flag(T0 + 101_000)
    assert flagged.flagged == 0
    # The clock still runs; the reserve is charged at the next switch.
    assert (flagged.running, flagged.reserves) == (0, (90 * S, 90 * S))
    assert flagged.record_flag(T0 + 200_000) == flagged
    assert flagged.switch(T0 + 150_000, 1).reserves == (0, 90 * S)


def test_a_flagged_player_with_no_reserve_flags_again_after_the_delay() -> None:
    """Reserve 0: every turn is the delay alone (and the first flag stays recorded)."""
    c = seed002().switch(T0 + 101_000, 1).switch(T0 + 102_000, 0)
    assert c.deadline_ms() == T0 + 102_000 + 11 * S
    assert c.remaining(T0 + 105_000) == (8 * S, 0)
    c2 = c.switch(T0 + 112_999, 1)  # within the delay: no new flag, nothing to charge
    assert (c2.reserves, c2.flagged) == ((0, 90 * S), 0)


def test_switching_to_the_same_player_starts_a_fresh_turn() -> None:
    """Like hitting a clock: a new turn, with a new delay, even for the same player."""
    c = seed002().switch(T0 + 20 * S, 0)
    assert c.reserves == (81 * S, 90 * S)
    assert c.remaining(T0 + 20 * S) == (11 * S, 81 * S)


def test_double_and_take_are_turns_of_their_own() -> None:
    """0 doubles after 15 s, 1 takes after 30 s, 0 rolls and plays in 5 s."""
    c = seed002().switch(T0 + 15 * S, 1)  # double: 4 s charged to 0
    c = c.switch(T0 + 45 * S, 0)  # take: 30 - 11 = 19 s charged to 1
    c = c.switch(T0 + 50 * S, 1)  # play: within the delay
    assert c.reserves == (86 * S, 71 * S)


# ====================================================================== stopped clocks
def test_a_stopped_clock_reads_nothing_and_charges_nothing() -> None:
    c = seed002(player=None)
    assert (c.running, c.turn_started_ms) == (None, None)
    assert c.remaining(T0 + 5 * MIN) is None
    assert c.deadline_ms() is None
    assert c.low_time_at(30 * S) is None
    assert c.reserves_at(T0 + 5 * MIN) == (90 * S, 90 * S)
    assert not c.is_flagged(T0 + 60 * MIN)
    assert c.switch(T0 + 5 * MIN, None) == c
    started = c.switch(T0 + 5 * MIN, 1)  # the opening roll is done: 1 must play
    assert started.reserves == (90 * S, 90 * S)
    assert started.deadline_ms() == T0 + 5 * MIN + 101 * S


def test_stopping_charges_the_running_turn() -> None:
    c = seed002().switch(T0 + 30 * S, None)
    assert c.reserves == (71 * S, 90 * S)
    assert (c.running, c.turn_started_ms) == (None, None)


def test_time_never_goes_back() -> None:
    """A now_ms before the turn started (servers disagreeing) counts as no time."""
    c = seed002()
    assert c.remaining(T0 - 5 * S) == (11 * S, 90 * S)
    assert c.switch(T0 - 5 * S, 1).reserves == (90 * S, 90 * S)


def test_reserves_at_shows_the_running_turn_charged_so_far() -> None:
    c = seed002().switch(T0 + 20 * S, 1)
    assert c.reserves_at(T0 + 20 * S + 41 * S) == (81 * S, 60 * S)
    assert c.reserves_at(T0 + 20 * S + 5 * S) == (81 * S, 90 * S)


# ====================================================================== low time
def test_low_time_at_a_threshold() -> None:
    """seed002, 30 s threshold: 11 s delay + (90 - 30) s = T0 + 71 s."""
    c = seed002()
    assert c.low_time_at(30 * S) == T0 + 71 * S
    assert c.remaining(T0 + 71 * S) == (0, 30 * S)
    assert c.low_time_at(0) == c.deadline_ms()
    # At or below the threshold when the turn starts: it crossed in an earlier turn.
    assert c.low_time_at(90 * S) is None
    assert c.low_time_at(2 * MIN) is None


def test_low_time_threshold_must_be_a_non_negative_int() -> None:
    for bad in (-1, 1.5, True, None):
        with pytest.raises(EngineError) as e:
            seed002().low_time_at(bad)  # type: ignore[arg-type]
        assert e.value.code == "invalid_clock"


# ====================================================================== reserves and modes
def test_usbgf_reserve_from_match_length_and_score() -> None:
    """2 min per match point, less 1 min per point already scored by either player.

    7-point match at 0-0: 2 x 7 = 14 min each. At 3-2: 14 - (3 + 2) = 9 min each. At
    3-0: 14 - 3 = 11 min each (the "2 x 7 - 3 = 11 min" of the issue, given to both
    players: the deduction counts either player's points). Last game of a 7-point match
    at 6-6: 14 - 12 = 2 min, never less.
    """
    usbgf = preset("usbgf")
    assert usbgf.delay_ms == 12 * S
    assert usbgf.reserve_for(7, (0, 0)) == 14 * MIN
    assert usbgf.reserve_for(7, (3, 2)) == 9 * MIN
    assert usbgf.reserve_for(7, (3, 0)) == 11 * MIN
    assert usbgf.reserve_for(7, (0, 3)) == 11 * MIN
    assert usbgf.reserve_for(7, (6, 6)) == 2 * MIN
    assert usbgf.reserve_for(1, (0, 0)) == 2 * MIN
    c = ClockState.start(usbgf, length=7, score=(3, 2), player=1, now_ms=T0)
    assert c.reserves == (9 * MIN, 9 * MIN)
    assert c.deadline_ms() == T0 + 12 * S + 9 * MIN


def test_usbgf_reserve_carries_over_between_games() -> None:
    """USBGF clocks are set once (the deduction is for clocks brought in mid-match)."""
    c = ClockState.start(preset("usbgf"), length=7, score=(0, 0), player=0, now_ms=T0)
    c = c.switch(T0 + 72 * S, None)  # 72 - 12 = 60 s used by player 0
    c = c.new_game(length=7, score=(2, 0), player=None, now_ms=T0 + 10 * MIN)
    assert c.reserves == (13 * MIN, 14 * MIN)


def test_presets() -> None:
    assert set(PRESETS) == {"seed002", "usbgf", "galaxy-casual", "wbgf-speed"}
    assert all(p.mode == "per_match" and not p.runs_between_games for p in PRESETS.values())
    galaxy = preset("galaxy-casual")
    assert galaxy.delay_ms == 15 * S
    assert galaxy.reserve_for(5, (0, 0)) == 15 * MIN  # 3 min x 5
    assert galaxy.reserve_for(5, (4, 4)) == 15 * MIN  # no deduction
    wbgf = preset("wbgf-speed")
    assert wbgf.delay_ms == 9 * S
    assert wbgf.reserve_for(11, (0, 0)) == wbgf.reserve_for(3, (2, 1)) == 2 * MIN
    s002 = preset("seed002")
    assert (s002.delay_ms, s002.reserve_for(7, (0, 0))) == (11 * S, 90 * S)
    with pytest.raises(TypeError):
        PRESETS["mine"] = s002  # type: ignore[index]
    with pytest.raises(FrozenInstanceError):
        s002.delay_ms = 1  # type: ignore[misc]


def test_unknown_preset() -> None:
    with pytest.raises(EngineError) as e:
        preset("blitz")
    assert e.value.code == "invalid_clock"


def test_money_play_reserve_is_that_of_a_1_point_match_per_game() -> None:
    """Money sessions have no match: every game gets the money reserve afresh."""
    assert preset("usbgf").reserve_for(0, (0, 0)) == 2 * MIN
    assert preset("galaxy-casual").reserve_for(0, (12, 30)) == 3 * MIN
    assert preset("seed002").reserve_for(0, (0, 0)) == 90 * S
    custom = ClockSettings(delay_ms=10 * S, reserve_ms=5 * MIN, money_reserve_ms=45 * S)
    assert custom.reserve_for(0, (0, 0)) == 45 * S
    c = ClockState.start(preset("seed002"), length=0, score=(0, 0), player=0, now_ms=T0)
    c = c.switch(T0 + 71 * S, None)  # 60 s used
    c = c.new_game(length=0, score=(2, 0), player=1, now_ms=T0 + 2 * MIN)
    assert c.reserves == (90 * S, 90 * S)  # per_match mode, but money: given afresh


def test_per_match_carries_over_and_per_game_resets() -> None:
    per_match = ClockSettings(delay_ms=10 * S, reserve_ms=2 * MIN)
    per_game = ClockSettings(delay_ms=10 * S, reserve_ms=2 * MIN, mode="per_game")
    for clock, expected in ((per_match, (60 * S, 90 * S)), (per_game, (2 * MIN, 2 * MIN))):
        c = ClockState.start(clock, length=5, score=(0, 0), player=0, now_ms=T0)
        c = c.switch(T0 + 70 * S, 1)  # 0 uses 60 s
        c = c.switch(T0 + 110 * S, None)  # 1 uses 30 s
        c = c.new_game(length=5, score=(1, 0), player=None, now_ms=T0 + 5 * MIN)
        assert c.reserves == expected
        assert (c.running, c.turn_started_ms, c.flagged) == (None, None, None)


def test_per_game_recomputes_the_reserve_from_the_score() -> None:
    clock = ClockSettings(
        delay_ms=12 * S,
        reserve_per_point_ms=2 * MIN,
        deduct_per_point_scored_ms=1 * MIN,
        mode="per_game",
    )
    c = ClockState.start(clock, length=7, score=(0, 0), player=0, now_ms=T0)
    assert c.reserves == (14 * MIN, 14 * MIN)
    c = c.new_game(length=7, score=(3, 2), player=1, now_ms=T0 + 10 * MIN)
    assert c.reserves == (9 * MIN, 9 * MIN)
    assert (c.running, c.turn_started_ms) == (1, T0 + 10 * MIN)


def test_new_game_clears_the_flag_but_per_match_keeps_the_empty_reserve() -> None:
    c = seed002().switch(T0 + 101_000, None)
    assert (c.flagged, c.reserves) == (0, (0, 90 * S))
    c = c.new_game(length=5, score=(0, 2), player=0, now_ms=T0 + 3 * MIN)
    assert (c.flagged, c.reserves) == (None, (0, 90 * S))
    assert c.deadline_ms() == T0 + 3 * MIN + 11 * S


def test_the_clock_stops_between_games_by_default() -> None:
    c = seed002().end_game(T0 + 30 * S, next_player=1)
    assert c.reserves == (71 * S, 90 * S)
    assert c.running is None
    c = c.new_game(length=5, score=(1, 0), player=0, now_ms=T0 + 10 * MIN)
    assert c.reserves == (71 * S, 90 * S)


def test_runs_between_games_charges_the_player_who_must_start_the_next_game() -> None:
    clock = ClockSettings(delay_ms=11 * S, reserve_ms=90 * S, runs_between_games=True)
    c = ClockState.start(clock, length=5, score=(0, 0), player=0, now_ms=T0)
    c = c.end_game(T0 + 30 * S, next_player=1)
    assert (c.reserves, c.running) == ((71 * S, 90 * S), 1)
    c = c.new_game(length=5, score=(1, 0), player=0, now_ms=T0 + 30 * S + 41 * S)
    assert c.reserves == (71 * S, 60 * S)  # 41 - 11 s
    assert (c.running, c.turn_started_ms) == (0, T0 + 71 * S)
    # Without a next player the clock stops even so.
    assert c.end_game(T0 + 80 * S).running is None


def test_a_reserve_of_zero_is_a_delay_only_clock() -> None:
    clock = ClockSettings(delay_ms=20 * S)
    c = ClockState.start(clock, length=3, score=(0, 0), player=0, now_ms=T0)
    assert c.deadline_ms() == T0 + 20 * S
    assert c.switch(T0 + 19_999, 1).flagged is None
    assert c.switch(T0 + 20 * S, 1).flagged == 0


def test_start_and_new_game_check_length_score_and_player() -> None:
    clock = preset("usbgf")
    cases = [
        ({"length": -1, "score": (0, 0), "player": 0}, "invalid_match"),
        ({"length": True, "score": (0, 0), "player": 0}, "invalid_match"),
        ({"length": 7, "score": (7, 0), "player": 0}, "invalid_score"),
        ({"length": 7, "score": (-1, 0), "player": 0}, "invalid_score"),
        ({"length": 7, "score": (1, 2, 3), "player": 0}, "invalid_score"),
        ({"length": 7, "score": [0, 0], "player": 0}, "invalid_score"),
        ({"length": 7, "score": (0, 0), "player": 2}, "invalid_player"),
        ({"length": 7, "score": (0, 0), "player": True}, "invalid_player"),
    ]
    running = ClockState.start(clock, length=7, score=(0, 0), player=0, now_ms=T0)
    for kwargs, code in cases:
        with pytest.raises(EngineError) as e:
            ClockState.start(clock, now_ms=T0, **kwargs)  # type: ignore[arg-type]
        assert e.value.code == code, kwargs
        with pytest.raises(EngineError) as e:
            running.new_game(now_ms=T0, **kwargs)  # type: ignore[arg-type]
        assert e.value.code == code, kwargs


def test_times_must_be_integer_ms() -> None:
    c = seed002()
    for bad in (1.5, "1000", None, True):
        for call in (
            lambda t: c.switch(t, 1),
            c.remaining,
            c.is_flagged,
            c.reserves_at,
            c.record_flag,
        ):
            with pytest.raises(EngineError) as e:
                call(bad)
            assert e.value.code == "invalid_clock"


# ====================================================================== validation
@pytest.mark.parametrize(
    "kwargs",
    [
        {"delay_ms": -1, "reserve_ms": 1},
        {"delay_ms": 1, "reserve_ms": -1},
        {"delay_ms": 1, "reserve_per_point_ms": -1},
        {"delay_ms": 1, "deduct_per_point_scored_ms": -1},
        {"delay_ms": 1.5, "reserve_ms": 1},
        {"delay_ms": True, "reserve_ms": 1},
        {"delay_ms": "11000"},
        {"delay_ms": 1, "reserve_ms": 10 * S, "money_reserve_ms": -1},
        {"delay_ms": 1, "money_reserve_ms": 1.0},
        {"delay_ms": 1, "mode": "per_point"},
        {"delay_ms": 1, "runs_between_games": 1},
        {"delay_ms": 0},  # no time at all
        {"delay_ms": 0, "reserve_ms": 10 * S, "money_reserve_ms": 0},  # none in money play
        # More than half the per-point reserve deducted: 3-point match at 2-2 would give
        # 3 x 2 min - 4 x 2 min < 0.
        {"delay_ms": 1, "reserve_per_point_ms": 2 * MIN, "deduct_per_point_scored_ms": 61 * S},
    ],
)
def test_invalid_settings_raise_invalid_clock(kwargs: dict[str, object]) -> None:
    with pytest.raises(EngineError) as e:
        ClockSettings(**kwargs)  # type: ignore[arg-type]
    assert e.value.code == "invalid_clock"


def test_edge_settings_that_are_valid() -> None:
    ClockSettings(delay_ms=0, reserve_ms=1)  # no delay: a plain countdown
    ClockSettings(delay_ms=1)  # no reserve: the delay only
    ClockSettings(delay_ms=0, reserve_per_point_ms=2, deduct_per_point_scored_ms=1)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"reserves": (1, -1)},
        {"reserves": (1,)},
        {"reserves": [1, 1]},
        {"reserves": (1.0, 1)},
        {"reserves": (1, 1), "running": 0},  # running without a turn start
        {"reserves": (1, 1), "turn_started_ms": T0},  # a turn start while stopped
        {"reserves": (1, 1), "running": 2, "turn_started_ms": T0},
        {"reserves": (1, 1), "running": True, "turn_started_ms": T0},
        {"reserves": (1, 1), "running": 0, "turn_started_ms": 1.5},
        {"reserves": (1, 1), "flagged": -1},
    ],
)
def test_invalid_states_raise_invalid_clock(kwargs: dict[str, object]) -> None:
    with pytest.raises(EngineError) as e:
        ClockState(preset("seed002"), **kwargs)  # type: ignore[arg-type]
    assert e.value.code == "invalid_clock"


# ====================================================================== storage
CUSTOM = ClockSettings(
    delay_ms=8 * S,
    reserve_ms=30 * S,
    reserve_per_point_ms=100 * S,
    deduct_per_point_scored_ms=50 * S,
    mode="per_game",
    money_reserve_ms=4 * MIN,
    runs_between_games=True,
)


@pytest.mark.parametrize("clock", [*PRESETS.values(), CUSTOM], ids=[*PRESETS, "custom"])
def test_settings_dict_round_trip_through_json(clock: ClockSettings) -> None:
    data = json.loads(json.dumps(settings_to_dict(clock)))
    assert settings_from_dict(data) == clock


def test_settings_dict_shape_and_defaults() -> None:
    assert settings_to_dict(preset("seed002")) == {
        "delay_ms": 11_000,
        "reserve_ms": 90_000,
        "reserve_per_point_ms": 0,
        "deduct_per_point_scored_ms": 0,
        "mode": "per_match",
        "money_reserve_ms": None,
        "runs_between_games": False,
    }
    # Missing keys take their defaults: a snapshot stored before a field existed loads.
    assert settings_from_dict({"delay_ms": 11_000, "reserve_ms": 90_000}) == preset("seed002")


@pytest.mark.parametrize(
    "data",
    [
        {"delay_ms": 11_000, "colour": "red"},
        {"reserve_ms": 90_000},
        {"delay_ms": -5},
        [("delay_ms", 1)],
    ],
)
def test_bad_settings_dicts_raise_invalid_clock(data: object) -> None:
    with pytest.raises(EngineError) as e:
        settings_from_dict(data)  # type: ignore[arg-type]
    assert e.value.code == "invalid_clock"


def test_state_dict_round_trip_through_json() -> None:
    states = [
        seed002(player=None),
        seed002(),
        seed002().switch(T0 + 101_000, 1),
        ClockState.start(CUSTOM, length=9, score=(4, 3), player=1, now_ms=-5),
    ]
    for c in states:
        data = json.loads(json.dumps(c.to_dict()))
        assert ClockState.from_dict(data) == c
    assert seed002().to_dict() == {
        "settings": settings_to_dict(preset("seed002")),
        "reserves": [90_000, 90_000],
        "running": 0,
        "turn_started_ms": T0,
        "flagged": None,
    }


@pytest.mark.parametrize(
    "change",
    [
        {"reserves": 5},
        {"reserves": [1, 2, 3]},
        {"running": 0, "turn_started_ms": None},
        {"extra": 1},
        {"settings": {"delay_ms": -1}},
    ],
)
def test_bad_state_dicts_raise_invalid_clock(change: dict[str, object]) -> None:
    data = {**seed002().to_dict(), **change}
    with pytest.raises(EngineError) as e:
        ClockState.from_dict(data)
    assert e.value.code == "invalid_clock"


@pytest.mark.parametrize("data", [{}, "state", None])
def test_state_dicts_of_the_wrong_shape_raise_invalid_clock(data: object) -> None:
    with pytest.raises(EngineError) as e:
        ClockState.from_dict(data)  # type: ignore[arg-type]
    assert e.value.code == "invalid_clock"


# ====================================================================== properties
clock_settings = st.builds(
    ClockSettings,
    delay_ms=st.integers(0, 20 * S),
    reserve_ms=st.integers(0, 3 * MIN),
    reserve_per_point_ms=st.integers(1, 3 * MIN),
    mode=st.sampled_from(["per_match", "per_game"]),
)
events = st.lists(
    st.tuples(st.integers(-2 * S, 4 * MIN), st.sampled_from([None, 0, 1])),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(
    clock=clock_settings,
    length=st.integers(0, 11),
    first=st.sampled_from([None, 0, 1]),
    steps=events,
    probes=st.lists(st.integers(0, 5 * MIN), min_size=1, max_size=5),
)
def test_reserves_only_fall_and_the_deadline_agrees_with_remaining(
    clock: ClockSettings,
    length: int,
    first: int | None,
    steps: list[tuple[int, int | None]],
    probes: list[int],
) -> None:
    """Over any sequence of switches (time may even step back): reserves never rise or
    go below 0, a recorded flag never changes, the deadline equals the turn start plus
    everything remaining, and the flag falls exactly at the deadline."""
    c = ClockState.start(clock, length=length, score=(0, 0), player=first, now_ms=T0)
    now = T0
    for dt, to_player in steps:
        now += dt
        before = c
        c = c.switch(now, to_player)
        assert all(
            0 <= after <= prev for after, prev in zip(c.reserves, before.reserves, strict=True)
        )
        if before.flagged is not None:
            assert c.flagged == before.flagged
        if before.running is not None:
            deadline = before.deadline_ms()
            assert deadline is not None
            assert before.reserves_at(now) == c.reserves
            if c.flagged == before.flagged:  # no new flag: the switch came in time
                assert before.flagged is not None or now < deadline
            else:
                assert now >= deadline and c.flagged == before.running
        assert ClockState.from_dict(c.to_dict()) == c

        deadline = c.deadline_ms()
        if c.running is None:
            assert deadline is None and c.remaining(now) is None
            continue
        assert c.turn_started_ms == now
        assert deadline == now + clock.delay_ms + c.reserves[c.running]
        to_deadline = deadline - now  # probe the deadline itself and the ms before it
        for probe in [*probes, to_deadline, max(0, to_deadline - 1)]:
            t = now + probe
            remaining = c.remaining(t)
            assert remaining is not None
            delay_left, reserve_left = remaining
            assert 0 <= delay_left <= clock.delay_ms
            assert 0 <= reserve_left <= c.reserves[c.running]
            assert delay_left + reserve_left == max(0, deadline - t)
            assert c.is_flagged(t) == (c.flagged is not None or t >= deadline)
            low = c.low_time_at(reserve_left)
            if low is not None and delay_left == 0 and reserve_left > 0:
                assert low == t


@settings(max_examples=200, deadline=None)
@given(
    clock=clock_settings,
    length=st.integers(1, 15),
    data=st.data(),
)
def test_the_reserve_is_never_negative_at_a_live_score(
    clock: ClockSettings, length: int, data: st.DataObject
) -> None:
    """With at most half a point's reserve deducted per point scored, the reserve of
    any game of a live match is positive."""
    deduct = data.draw(st.integers(0, clock.reserve_per_point_ms // 2))
    full = ClockSettings(
        delay_ms=clock.delay_ms,
        reserve_per_point_ms=clock.reserve_per_point_ms,
        deduct_per_point_scored_ms=deduct,
    )
    a = data.draw(st.integers(0, length - 1))
    b = data.draw(st.integers(0, length - 1))
    assert full.reserve_for(length, (a, b)) > 0
