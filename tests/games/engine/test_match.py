"""Match score, Crawford and post-Crawford games, end of match (docs/rules.md R10, R11)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.errors import EngineError
from games.engine.match import MatchState, is_possible_game_points


def test_r11_crawford_sequence_5_point_match() -> None:
    """Score sheet of a 5-point match worked by hand:
    2-0, 2-1, 4-1 (leader reaches 4 = N-1: next game Crawford), 4-2 in the Crawford game,
    4-4 post-Crawford (double match point), 5-4 match over."""
    m = MatchState.new(5)
    m = m.record_game(0, 2)
    assert (m.score, m.crawford, m.post_crawford) == ((2, 0), False, False)
    m = m.record_game(1, 1)
    assert (m.score, m.crawford) == ((2, 1), False)
    m = m.record_game(0, 2)
    assert (m.score, m.crawford, m.post_crawford) == ((4, 1), True, False)
    assert not m.cube_allowed
    m = m.record_game(1, 1)  # the Crawford game
    assert (m.score, m.crawford, m.post_crawford) == ((4, 2), False, True)
    assert m.cube_allowed  # post-Crawford: the cube is back
    m = m.record_game(1, 2)  # trailer's doubled game, post-Crawford
    assert (m.score, m.crawford, m.post_crawford) == ((4, 4), False, True)
    assert m.double_match_point
    assert not m.is_over
    m = m.record_game(0, 1)
    assert m.is_over
    assert m.winner == 0
    assert m.score == (5, 4)
    assert [g.crawford for g in m.games] == [False, False, False, True, False, False]
    assert [g.score for g in m.games] == [(2, 0), (2, 1), (4, 1), (4, 2), (4, 4), (5, 4)]
    assert [g.game for g in m.games] == [1, 2, 3, 4, 5, 6]


def test_r11_crawford_only_once_trailer_reaching_n_minus_1_is_dmp() -> None:
    """After the Crawford game the trailer reaching N-1 makes DMP, not a second Crawford."""
    m = MatchState(length=7, score=(6, 3), crawford=True)
    m = m.record_game(1, 3)  # Crawford game won with a backgammon -> 6-6
    assert m.score == (6, 6)
    assert not m.crawford
    assert m.double_match_point


def test_r11_crawford_by_gammon_jump_to_n_minus_1() -> None:
    m = MatchState(length=7, score=(4, 2))
    assert m.record_game(0, 2).crawford  # 6-2
    assert not m.record_game(0, 1).crawford  # 5-2


def test_r11_no_crawford_when_jumping_past_n_minus_1() -> None:
    m = MatchState(length=5, score=(2, 0)).record_game(0, 4)
    assert m.is_over
    assert not m.crawford
    assert m.winner == 0


def test_r11_resumed_at_n_minus_1_without_crawford_flag_is_post_crawford() -> None:
    m = MatchState(length=5, score=(1, 4))
    assert m.post_crawford
    assert not m.crawford
    assert not m.record_game(0, 1).crawford


def test_r11_crawford_game_refuses_cube_points() -> None:
    """R11/R14: a Crawford game is played without the cube: at most 3 points."""
    m = MatchState(length=5, score=(4, 1), crawford=True)
    with pytest.raises(EngineError) as e:
        m.record_game(1, 4)
    assert e.value.code == "crawford_no_double"
    assert m.record_game(1, 3).score == (4, 4)


def test_r11_one_point_match_is_dmp_not_crawford() -> None:
    m = MatchState.new(1)
    assert m.double_match_point
    assert not m.crawford
    assert not m.post_crawford
    m = m.record_game(1, 1)
    assert m.is_over
    assert m.winner == 1


def test_r10_match_over_at_n_or_more() -> None:
    """7-point match at 5-5: a gammon with the cube on 2 (4 points) ends it 9-5."""
    m = MatchState(length=7, score=(5, 5)).record_game(0, 4)
    assert m.is_over
    assert m.winner == 0
    assert m.score == (9, 5)
    assert m.away(0) == 0
    assert m.away(1) == 2
    with pytest.raises(EngineError) as e:
        m.record_game(1, 1)
    assert e.value.code == "match_over"


def test_r10_money_never_ends_and_has_no_crawford() -> None:
    m = MatchState.money()
    for _ in range(5):
        m = m.record_game(0, 64)
    assert m.score == (320, 0)
    assert not m.is_over
    assert m.winner is None
    assert not m.crawford
    assert not m.post_crawford
    assert m.cube_allowed
    with pytest.raises(EngineError, match="not_a_match"):
        m.away(0)


@pytest.mark.parametrize("points", [0, -1, 5, 7, 9, 10, 11, 13])
def test_r9_impossible_game_points_refused(points: int) -> None:
    with pytest.raises(EngineError) as e:
        MatchState.new(25).record_game(0, points)
    assert e.value.code == "invalid_points"


def test_r9_possible_game_points() -> None:
    possible = [p for p in range(1, 50) if is_possible_game_points(p)]
    assert possible == [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48]


def test_invalid_player_and_states() -> None:
    m = MatchState.new(5)
    with pytest.raises(EngineError, match="invalid_player"):
        m.record_game(2, 1)
    with pytest.raises(EngineError, match="invalid_match"):
        MatchState(length=-1)
    with pytest.raises(EngineError, match="invalid_score"):
        MatchState(length=5, score=(2, 2), crawford=True)
    with pytest.raises(EngineError, match="invalid_score"):
        MatchState(length=5, score=(4, 4), crawford=True)
    with pytest.raises(EngineError, match="invalid_score"):
        MatchState(length=5, score=(5, 6))
    with pytest.raises(EngineError, match="invalid_score"):
        MatchState(length=0, crawford=True)


def test_r12_forfeit_gives_the_winner_the_match() -> None:
    m = MatchState(length=7, score=(2, 5)).record_forfeit(0)
    assert m.is_over
    assert m.winner == 0
    assert m.score == (7, 5)
    assert m.games[-1].forfeit
    assert m.games[-1].points == 5
    with pytest.raises(EngineError, match="not_a_match"):
        MatchState.money().record_forfeit(0)


@given(
    length=st.integers(min_value=1, max_value=15),
    results=st.lists(
        st.tuples(st.integers(0, 1), st.sampled_from([1, 2, 3, 4, 6, 8])), max_size=40
    ),
)
def test_r11_property_crawford_at_most_once_and_exactly_when_due(
    length: int, results: list[tuple[int, int]]
) -> None:
    """Random score sheets: exactly one Crawford game happens iff a player first
    reached N-1 with the opponent below it and the match went on; it refuses cube points."""
    m = MatchState.new(length)
    crawfords = 0
    due = False
    for winner, points in results:
        if m.is_over:
            break
        if m.crawford:
            points = min(points, 3)
        before = m.score
        m = m.record_game(winner, points)
        crawfords += m.games[-1].crawford
        if (length - 1) not in before and m.score[winner] == length - 1 and length > 1:
            due = True
            assert m.crawford
        else:
            assert not m.crawford
    assert crawfords <= 1
    if crawfords:
        assert due
