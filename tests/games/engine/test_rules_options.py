"""RuleOptions (docs/rules.md R2-R12): defaults and validation of every option."""

from __future__ import annotations

import pytest

from games.engine.errors import EngineError
from games.engine.match import MatchState
from games.engine.rules import RuleOptions


def test_defaults_follow_rules_md() -> None:
    """Every option's default is the one docs/rules.md states."""
    o = RuleOptions()
    assert o.variant == "standard"  # R2
    assert o.start_position_id is None
    assert o.max_checkers_per_point is None  # R4
    assert o.min_pip_waste is False  # R6
    assert o.max_cube == 64  # R8
    assert (o.jacoby, o.automatic_doubles, o.beavers) == (False, False, False)  # R8
    assert o.automatic_doubles_limit == 1  # R8 (000: one per game)
    assert o.backgammon_value == 3  # R9
    assert o.resign_mode == "offer"  # R9
    assert o.timeout_result == "gammon"  # R12
    assert o.acey_deucey_cube is False  # R3
    assert o.cube_enabled


def test_r3_acey_deucey_cube_off_unless_enabled() -> None:
    assert not RuleOptions(variant="acey-deucey").cube_enabled
    assert RuleOptions(variant="acey-deucey", acey_deucey_cube=True).cube_enabled
    assert RuleOptions(variant="nackgammon").cube_enabled


def test_r3_acey_deucey_cube_flag_refused_for_other_variants() -> None:
    with pytest.raises(EngineError) as e:
        RuleOptions(acey_deucey_cube=True)
    assert e.value.code == "invalid_options"


def test_r3_money_cube_options_need_a_cube() -> None:
    for kw in ({"jacoby": True}, {"beavers": True}, {"automatic_doubles": True}):
        with pytest.raises(EngineError, match="invalid_options"):
            RuleOptions(variant="acey-deucey", **kw)  # type: ignore[arg-type]
        RuleOptions(variant="acey-deucey", acey_deucey_cube=True, **kw)  # type: ignore[arg-type]


def test_r2_custom_needs_start_position_id() -> None:
    with pytest.raises(EngineError, match="invalid_options"):
        RuleOptions(variant="custom")
    with pytest.raises(EngineError, match="invalid_options"):
        RuleOptions(variant="standard", start_position_id="4HPwATDgc/ABMA")
    o = RuleOptions(variant="custom", start_position_id="4HPwATDgc/ABMA")
    assert o.start_position_id == "4HPwATDgc/ABMA"


def test_r2_unknown_variant() -> None:
    with pytest.raises(EngineError, match="invalid_options"):
        RuleOptions(variant="hypergammon")  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [None, 3, 5, 15])
def test_r4_max_checkers_per_point_accepted(value: int | None) -> None:
    assert RuleOptions(max_checkers_per_point=value).max_checkers_per_point == value


@pytest.mark.parametrize("value", [0, 1, 2, 16, -5, True])
def test_r4_max_checkers_per_point_refused(value: int) -> None:
    with pytest.raises(EngineError, match="invalid_options"):
        RuleOptions(max_checkers_per_point=value)


@pytest.mark.parametrize("value", [1, 2, 64, 1024, 2**15])
def test_r8_max_cube_powers_of_two(value: int) -> None:
    assert RuleOptions(max_cube=value).max_cube == value


@pytest.mark.parametrize("value", [0, 3, 48, 2**16, -2])
def test_r8_max_cube_refused(value: int) -> None:
    with pytest.raises(EngineError, match="invalid_options"):
        RuleOptions(max_cube=value)


@pytest.mark.parametrize("value", [1, 2, 3])
def test_r9_backgammon_value_accepted(value: int) -> None:
    assert RuleOptions(backgammon_value=value).backgammon_value == value


@pytest.mark.parametrize("value", [0, 4, True])
def test_r9_backgammon_value_refused(value: int) -> None:
    with pytest.raises(EngineError, match="invalid_options"):
        RuleOptions(backgammon_value=value)


def test_r9_resign_mode_and_r12_timeout_result() -> None:
    assert RuleOptions(resign_mode="seed002").resign_mode == "seed002"
    assert RuleOptions(timeout_result="match").timeout_result == "match"
    with pytest.raises(EngineError, match="invalid_options"):
        RuleOptions(resign_mode="never")  # type: ignore[arg-type]
    with pytest.raises(EngineError, match="invalid_options"):
        RuleOptions(timeout_result="single")  # type: ignore[arg-type]


def test_r8_automatic_doubles_limit() -> None:
    assert (
        RuleOptions(automatic_doubles=True, automatic_doubles_limit=3).automatic_doubles_limit == 3
    )
    with pytest.raises(EngineError, match="invalid_options"):
        RuleOptions(automatic_doubles=True, automatic_doubles_limit=0)


def test_bool_options_must_be_bools() -> None:
    with pytest.raises(EngineError, match="invalid_options"):
        RuleOptions(jacoby=1)  # type: ignore[arg-type]


def test_r10_money_options_rejected_in_match_play() -> None:
    """Decision: a match refuses Jacoby, automatic doubles and beavers (R10) with
    ``money_option_in_match`` instead of silently ignoring them."""
    match = MatchState.new(7)
    for kw in ({"jacoby": True}, {"beavers": True}, {"automatic_doubles": True}):
        opts = RuleOptions(**kw)  # type: ignore[arg-type]
        assert opts.has_money_options
        with pytest.raises(EngineError) as e:
            match.check_options(opts)
        assert e.value.code == "money_option_in_match"
        match.check_options(opts.for_match())  # the explicit way out
        MatchState.money().check_options(opts)  # fine in money play


def test_r10_for_match_keeps_the_other_options() -> None:
    opts = RuleOptions(
        variant="nackgammon", jacoby=True, beavers=True, backgammon_value=2, max_cube=16
    )
    m = opts.for_match()
    assert not m.has_money_options
    assert (m.variant, m.backgammon_value, m.max_cube) == ("nackgammon", 2, 16)


def test_options_are_immutable() -> None:
    o = RuleOptions()
    with pytest.raises(AttributeError):
        o.jacoby = True  # type: ignore[misc]
