"""Kazaross-XG2 match equity and dead-cube take points (R8, R10, R11)."""

from __future__ import annotations

import pytest

from games.engine.errors import EngineError
from games.engine.match import MatchState
from games.engine.met import (
    MAX_AWAY,
    MONEY_TAKE_POINT,
    kazaross_xg2,
    match_winning_chance,
    match_winning_chance_for,
    take_point,
    take_point_for,
)


def test_table_shape() -> None:
    t = kazaross_xg2()
    assert len(t.pre) == MAX_AWAY
    assert all(len(r) == MAX_AWAY for r in t.pre)
    assert len(t.post_trailer) == MAX_AWAY


def test_one_away_one_away_is_half() -> None:
    assert match_winning_chance(1, 1) == 0.5
    assert match_winning_chance(1, 1, post_crawford=True) == 0.5


def test_symmetry_p_ab_plus_p_ba_is_one() -> None:
    for a in range(1, MAX_AWAY + 1):
        for b in range(1, MAX_AWAY + 1):
            if (a == 1) != (b == 1):
                for kw in ({"crawford": True}, {"post_crawford": True}):
                    pa = match_winning_chance(a, b, **kw)
                    pb = match_winning_chance(b, a, **kw)
                    assert pa + pb == pytest.approx(1.0, abs=1e-9)
            else:
                assert match_winning_chance(a, b) + match_winning_chance(b, a) == pytest.approx(
                    1.0, abs=1e-9
                )


def test_known_values_from_the_csv() -> None:
    assert match_winning_chance(2, 2) == 0.5
    assert match_winning_chance(3, 2) == 0.40053
    assert match_winning_chance(7, 5) == 0.37362
    # R11 Crawford game: row/column 1 of the pre-Crawford table.
    assert match_winning_chance(1, 2) == 0.67736
    assert match_winning_chance(2, 1, crawford=True) == 0.32264
    # post-Crawford: the trailer's chance comes from the post-Crawford table.
    assert match_winning_chance(2, 1, post_crawford=True) == 0.48803
    assert match_winning_chance(1, 2, post_crawford=True) == pytest.approx(0.51197)


def test_post_crawford_3_away_equals_crawford_2_away() -> None:
    """Post-Crawford the trailer doubles at once: 3-away needs a gammon or two single
    games, exactly what 2-away needs in the Crawford game."""
    assert match_winning_chance(3, 1, post_crawford=True) == match_winning_chance(
        2, 1, crawford=True
    )


def test_already_won_or_lost() -> None:
    assert match_winning_chance(0, 3) == 1.0
    assert match_winning_chance(-2, 3) == 1.0
    assert match_winning_chance(3, 0) == 0.0


def test_invalid_flags_and_range() -> None:
    with pytest.raises(EngineError, match="invalid_score"):
        match_winning_chance(3, 3, crawford=True)
    with pytest.raises(EngineError, match="invalid_score"):
        match_winning_chance(3, 3, post_crawford=True)
    with pytest.raises(EngineError, match="invalid_score"):
        match_winning_chance(1, 3, crawford=True, post_crawford=True)
    with pytest.raises(EngineError, match="met_out_of_range"):
        match_winning_chance(16, 3)
    with pytest.raises(EngineError, match="invalid_score"):
        match_winning_chance(0, 0)


def test_mwc_for_a_match_state() -> None:
    assert match_winning_chance_for(MatchState(length=5, score=(3, 3)), 0) == 0.5
    crawford = MatchState(length=5, score=(4, 3), crawford=True)
    assert match_winning_chance_for(crawford, 1) == 0.32264
    post = MatchState(length=5, score=(4, 3))
    assert match_winning_chance_for(post, 1) == 0.48803
    over = MatchState(length=5, score=(5, 3))
    assert match_winning_chance_for(over, 0) == 1.0


# --- take points, worked by hand from the table ---------------------------------------
# TP = (MWC(drop) - MWC(take & lose)) / (MWC(take & win) - MWC(take & lose)), gammons
# ignored, dead cube; the score after the game is read from the table of the next game.


def test_r8_take_point_2away_2away() -> None:
    """drop -> 2-away vs 1-away, Crawford: 0.32264; take & win -> 1; take & lose -> 0.
    TP = 0.32264."""
    assert take_point(2, 2) == pytest.approx(0.32264)


def test_r8_take_point_3away_3away() -> None:
    """drop -> 3 vs 2: 0.40053; win 2 -> 1 vs 3 Crawford: 0.75076;
    lose 2 -> 3 vs 1 Crawford: 0.24924. TP = 0.15129 / 0.50152 = 0.301663."""
    assert take_point(3, 3) == pytest.approx(0.15129 / 0.50152)
    assert take_point(3, 3) == pytest.approx(0.301663, abs=1e-6)


def test_r8_take_point_4away_2away() -> None:
    """drop -> 4 vs 1 Crawford: 0.18564; win -> 2 vs 2: 0.5; lose -> 0. TP = 0.37128."""
    assert take_point(4, 2) == pytest.approx(0.37128)


def test_r8_take_point_redouble_5away_5away_cube_2() -> None:
    """Cube on 2, redouble to 4: drop -> 5 vs 3: 0.35205; win 4 -> 1 vs 5 Crawford:
    0.84179; lose 4 -> 5 vs 1 Crawford: 0.15821. TP = 0.19384 / 0.68358 = 0.283566."""
    assert take_point(5, 5, 2) == pytest.approx(0.19384 / 0.68358)


def test_r11_take_point_post_crawford_leader() -> None:
    """Post-Crawford, trailer 4-away doubles the 1-away leader: drop -> leader vs 3-away
    post: 1 - 0.32264; win -> 1; lose -> leader vs 2-away post: 1 - 0.48803.
    TP = 0.16539 / 0.48803 = 0.338893."""
    tp = take_point(1, 4, post_crawford=True)
    assert tp == pytest.approx(0.16539 / 0.48803)


def test_r11_take_point_dmp_is_zero() -> None:
    """Double match point: dropping loses the match, so always take."""
    assert take_point(1, 1) == 0.0
    assert take_point_for(MatchState(length=3, score=(2, 2)), 0) == 0.0


def test_r11_no_take_point_in_crawford_game() -> None:
    with pytest.raises(EngineError) as e:
        take_point(2, 1, crawford=True)
    assert e.value.code == "crawford_no_double"
    with pytest.raises(EngineError, match="crawford_no_double"):
        take_point_for(MatchState(length=5, score=(4, 3), crawford=True), 0)


def test_take_point_needs_phase_when_one_player_1away() -> None:
    with pytest.raises(EngineError, match="invalid_score"):
        take_point(2, 1)


def test_take_point_money_and_state_helpers() -> None:
    assert take_point_for(MatchState.money(), 0) == MONEY_TAKE_POINT == 0.25
    assert take_point_for(MatchState(length=3, score=(1, 1)), 1) == pytest.approx(0.32264)
    with pytest.raises(EngineError, match="invalid_cube"):
        take_point(3, 3, 3)


def test_met_matches_gnubg_default_table() -> None:
    """Oracle: the PyPI ``gnubg`` package's default MET is Kazaross-XG2 too."""
    import gnubg  # the oracle, a dev dependency

    pre, post0, post1 = gnubg.met(MAX_AWAY)
    t = kazaross_xg2()
    for a in range(MAX_AWAY):
        for b in range(MAX_AWAY):
            assert pre[a][b] == pytest.approx(t.pre[a][b], abs=1e-6)
        assert post0[a] == pytest.approx(t.post_trailer[a], abs=1e-6)
        assert post1[a] == pytest.approx(t.post_trailer[a], abs=1e-6)
