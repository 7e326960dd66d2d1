"""The club's lateness rule (docs/rules.md R15) and results counted from a starting
score: pure values, no database."""

from __future__ import annotations

import datetime
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.match import MatchState
from tournaments.pairing import GameEntry, PairingError, ResultError, check_final_score
from tournaments.pairing import check_games as check
from tournaments.pairing.lateness import (
    MAX_MINUTES,
    Penalty,
    check_rule,
    minutes_late,
    penalty,
    start_score,
)

G = GameEntry


# ====================================================================== the rule
@pytest.mark.parametrize(
    ("minutes", "points"),
    [(0, 0), (4, 0), (5, 0), (6, 1), (10, 1), (11, 2), (15, 2)],
)
def test_five_minutes_grace_then_a_point_per_started_five_minutes(minutes, points):
    assert penalty(minutes, length=7) == Penalty(points)


@pytest.mark.parametrize(
    ("length", "last_minutes", "forfeit_at", "last_points"),
    [
        (1, 5, 6, 0),  # a 1-point match: the first point is more than half
        (2, 10, 11, 1),  # 1 point is half of 2: not more
        (3, 10, 11, 1),
        (5, 15, 16, 2),  # 2 <= 2.5 < 3
        (7, 20, 21, 3),
        (9, 25, 26, 4),
        (11, 30, 31, 5),
    ],
)
def test_past_half_the_match_length_is_a_forfeit(length, last_minutes, forfeit_at, last_points):
    assert penalty(last_minutes, length=length) == Penalty(last_points)
    lost = penalty(forfeit_at, length=length)
    assert lost.forfeit and lost.points * 2 > length and lost.start_points == 0


def test_the_flight_sets_grace_and_minutes_per_point():
    assert penalty(10, length=11, grace=10, per_point=3) == Penalty(0)
    assert penalty(11, length=11, grace=10, per_point=3) == Penalty(1)
    assert penalty(13, length=11, grace=10, per_point=3) == Penalty(1)
    assert penalty(14, length=11, grace=10, per_point=3) == Penalty(2)
    assert penalty(1, length=11, grace=0, per_point=1) == Penalty(1)
    assert penalty(0, length=11, grace=0, per_point=1) == Penalty(0)


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"minutes": -1}, "invalid_minutes"),
        ({"minutes": MAX_MINUTES + 1}, "invalid_minutes"),
        ({"minutes": 5.5}, "invalid_minutes"),
        ({"minutes": True}, "invalid_minutes"),
        ({"length": 0}, "invalid_length"),
        ({"grace": -1}, "invalid_grace"),
        ({"grace": 61}, "invalid_grace"),
        ({"per_point": 0}, "invalid_minutes_per_point"),
        ({"per_point": 61}, "invalid_minutes_per_point"),
    ],
)
def test_out_of_bounds_is_refused(kwargs, code):
    args = {"minutes": 10, "length": 5, **kwargs}
    with pytest.raises(PairingError) as err:
        penalty(args.pop("minutes"), **args)
    assert err.value.code == code


def test_check_rule_bounds():
    check_rule(0, 1)
    check_rule(60, 60)
    for grace, per_point in ((None, 5), (5, "5"), (5, None)):
        with pytest.raises(PairingError):
            check_rule(grace, per_point)


def test_minutes_late_count_every_started_minute():
    start = datetime.datetime(2026, 12, 1, 19, 0, tzinfo=datetime.UTC)
    assert minutes_late(start, start) == 0
    assert minutes_late(start, start - datetime.timedelta(minutes=3)) == 0
    assert minutes_late(start, start + datetime.timedelta(minutes=5)) == 5
    assert minutes_late(start, start + datetime.timedelta(minutes=5, seconds=1)) == 6
    assert penalty(minutes_late(start, start + datetime.timedelta(seconds=301)), length=5).points


def test_the_opponent_starts_at_the_points():
    assert start_score("a", 2) == (0, 2)
    assert start_score("b", 3) == (3, 0)
    assert start_score("", 4) == (0, 0)


# ====================================================================== results from a start
def test_games_count_from_the_starting_score():
    # B starts at 2 of 5: three single games take B to 5.
    out = check(5, [G(2, 1)] * 3, start=(0, 2))
    assert out.score == (0, 5) and out.winner == 2 and out.games == 3
    # B at 4 after game 2: game 3 is the Crawford game; A wins it and the next two.
    out = check(5, [G(2, 1), G(2, 1), G(1, 1), G(1, 2, 2), G(1, 2, 2)], start=(0, 2))
    assert out.score == (5, 4) and out.crawford_game == 3
    # Counted from 0-0 the same sheet is unfinished.
    with pytest.raises(ResultError, match="match_not_finished"):
        check(5, [G(2, 1)] * 3)


def test_a_start_at_one_away_makes_game_one_the_crawford_game():
    with pytest.raises(ResultError) as err:
        check(2, [G(1, 2, 2)], start=(0, 1))
    assert (err.value.code, err.value.game) == ("crawford_cube", 1)
    assert check(2, [G(1, 2)], start=(0, 1)).crawford_game == 1  # a gammon, cube 1
    assert check(2, [G(1, 1), G(1, 2, 2)], start=(0, 1)).score == (3, 1)  # post-Crawford


def test_final_scores_from_a_start():
    assert check_final_score(5, 1, 5, start=(0, 2)).winner == 2
    assert check_final_score(5, 5, 2, start=(0, 2)).winner == 1
    for a, b, code in (
        (5, 1, "score_below_start"),
        (0, 1, "score_below_start"),
        (5, 5, "both_reached"),
        (0, 4, "no_winner"),
    ):
        with pytest.raises(ResultError) as err:
            check_final_score(5, a, b, start=(0, 2))
        assert err.value.code == code
    # From 1-0 in a 2-point match the first game is the Crawford game: at most 3.
    assert check_final_score(2, 4, 0, start=(1, 0)).winner == 1
    with pytest.raises(ResultError, match="impossible_score"):
        check_final_score(2, 5, 0, start=(1, 0))


@pytest.mark.parametrize("start", [(2, 0), (-1, 0), (0, 5), (1, 1, 1), [0, 1], (0, True)])
def test_an_impossible_start_is_refused(start):
    length = 2 if start == (2, 0) else 5
    with pytest.raises(ResultError, match="invalid_start"):
        check(length, [G(1, 1)], start=start)
    with pytest.raises(ResultError, match="invalid_start"):
        check_final_score(length, length, 0, start=start)


def _reachable(length: int, start: tuple[int, int], max_cube: int) -> set[tuple[int, int]]:
    """Every final score a match from ``start`` can end at, by playing out every game."""
    values = sorted({c * m for c in (1, 2, 4, 8, 16) if c <= max_cube for m in (1, 2, 3)})
    first = MatchState(
        length=length,
        score=start,
        crawford=length > 1 and [s == length - 1 for s in start].count(True) == 1,
    )
    seen, todo, finals = {first}, [first], set()
    while todo:
        state = todo.pop()
        for winner in (0, 1):
            for points in values:
                if state.crawford and points > 3:
                    continue
                after = state.record_game(winner, points)
                after = MatchState(length=length, score=after.score, crawford=after.crawford)
                if after.is_over:
                    finals.add(after.score)
                elif after not in seen:
                    seen.add(after)
                    todo.append(after)
    return finals


@pytest.mark.parametrize("length", [1, 2, 3, 4, 5])
def test_the_final_score_check_accepts_exactly_what_can_be_played(length):
    max_cube = 4
    for late in range(length):
        for start in {(0, late), (late, 0)}:
            reachable = _reachable(length, start, max_cube)
            accepted = set()
            for a in range(length + 13):
                for b in range(length + 13):
                    try:
                        check_final_score(length, a, b, max_cube=max_cube, start=start)
                    except ResultError:
                        continue
                    accepted.add((a, b))
            assert accepted == reachable, (length, start)


def _random_sheet(length: int, start: tuple[int, int], rng: random.Random) -> list[GameEntry]:
    one_away = [s == length - 1 for s in start].count(True) == 1
    state = MatchState(length=length, score=start, crawford=length > 1 and one_away)
    games = []
    while not state.is_over:
        cube = 1 if state.crawford else rng.choice((1, 1, 2, 4, 8))
        points = cube * rng.choice((1, 1, 2, 3))
        winner = rng.choice((1, 2))
        games.append(GameEntry(winner, points, cube))
        state = state.record_game(winner - 1, points)
    return games


@settings(max_examples=60, deadline=None)
@given(
    length=st.integers(1, 25),
    late=st.integers(0, 12),
    side=st.sampled_from("ab"),
    seed=st.integers(0, 2**32),
)
def test_random_sheets_from_a_start_pass_and_their_final_score_too(length, late, side, seed):
    start = start_score(side, min(late, length - 1))
    games = _random_sheet(length, start, random.Random(seed))
    out = check(length, games, start=start)
    assert max(out.score) >= length > min(out.score)
    again = check_final_score(length, *out.score, start=start)
    assert (again.winner, again.score) == (out.winner, out.score)
