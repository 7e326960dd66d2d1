"""Checking typed match results: game by game (R9-R11) and final scores (R10)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.match import MatchState
from tournaments.pairing import (
    GameEntry,
    MatchOutcome,
    ResultError,
    check_final_score,
    check_games,
)

G = GameEntry


def test_five_point_match_with_crawford_game() -> None:
    """The engine's worked sheet (test_match): 2-0, 2-1, 4-1, Crawford 4-2, 4-4, 5-4."""
    # Game 1: a doubled single; game 3: a gammon at cube 1; game 5: a doubled single.
    games = [G(1, 2, 2), G(2, 1), G(1, 2, 1), G(2, 1), G(2, 2, 2), G(1, 1)]
    out = check_games(5, games)
    assert out == MatchOutcome(length=5, score=(5, 4), winner=1, games=6, crawford_game=4)
    assert out.to_dict()["score"] == [5, 4]


def _error(length: int, games: list[GameEntry]) -> ResultError:
    with pytest.raises(ResultError) as err:
        check_games(length, games)
    return err.value


@pytest.mark.parametrize(
    ("length", "games", "code", "game"),
    [
        (5, [G(1, 2, 2), G(1, 2), G(1, 2, 2)], "crawford_cube", 3),
        (5, [G(1, 3, 2)], "invalid_points", 1),
        (5, [G(1, 5, 1)], "invalid_points", 1),
        (5, [G(1, 6, 4)], "invalid_points", 1),  # 6 is a game value, but not with cube 4
        (5, [G(1, 3, 3)], "invalid_cube", 1),
        (5, [G(1, 0, 1)], "invalid_points", 1),
        (5, [G(1, 128, 128)], "cube_too_high", 1),
        (5, [G(3, 1, 1)], "invalid_winner", 1),
        (3, [G(1, 4, 2), G(2, 1)], "game_after_match_end", 2),
        (5, [G(1, 2, 2), G(2, 1)], "match_not_finished", 2),
        (5, [], "no_games", None),
        (0, [G(1, 1)], "invalid_length", None),
    ],
)
def test_refusals_name_the_game(
    length: int, games: list[GameEntry], code: str, game: int | None
) -> None:
    err = _error(length, games)
    assert (err.code, err.game) == (code, game)
    assert err.to_dict() == {"code": code, "game": game, "reason": err.reason}
    if game is not None:
        assert f"game {game}" in str(err)


def test_crawford_game_allows_gammon_and_backgammon_without_cube() -> None:
    out = check_games(5, [G(1, 4, 2), G(1, 3, 1)])  # 4-0, Crawford backgammon: 7-0
    assert (out.score, out.crawford_game) == ((7, 0), 2)


def test_post_crawford_cube_is_legal_and_dmp_has_no_crawford() -> None:
    out = check_games(3, [G(1, 2), G(2, 1), G(2, 1), G(2, 2, 2)])
    # 2-0 -> Crawford (2-1) -> post-Crawford 2-2 -> doubled game 2-4.
    assert (out.winner, out.score, out.crawford_game) == (2, (2, 4), 2)
    assert check_games(1, [G(2, 2, 1)]).winner == 2  # 1-point match: no Crawford game


def test_backgammon_value_option() -> None:
    with pytest.raises(ResultError, match="invalid_points"):
        check_games(5, [G(1, 3, 1), G(1, 2, 1)], backgammon_value=2)
    assert check_games(5, [G(1, 4, 2), G(1, 2, 1)], backgammon_value=1).score == (6, 0)


@pytest.mark.parametrize(
    ("length", "a", "b", "winner"),
    [(7, 7, 3, 1), (7, 2, 8, 2), (1, 1, 0, 1), (5, 9, 0, 1), (2, 5, 1, 1), (3, 4, 2, 1)],
)
def test_final_scores_accepted(length: int, a: int, b: int, winner: int) -> None:
    out = check_final_score(length, a, b)
    assert (out.winner, out.score, out.games) == (winner, (a, b), 0)


@pytest.mark.parametrize(
    ("length", "a", "b", "code"),
    [
        (7, 7, 7, "both_reached"),
        (7, 6, 3, "no_winner"),
        (7, -1, 7, "invalid_score"),
        (0, 1, 0, "invalid_length"),
        # 2-point match: from 0-0 a game never gives 5; from 1-0 the game is the Crawford
        # game (at most 3): 5-0 can't happen.
        (2, 5, 0, "impossible_score"),
        (7, 7 + 6 * 64, 0, "impossible_score"),
    ],
)
def test_final_scores_refused(length: int, a: int, b: int, code: str) -> None:
    with pytest.raises(ResultError) as err:
        check_final_score(length, a, b)
    assert err.value.code == code and err.value.game is None


def _random_sheet(length: int, rng: random.Random) -> list[GameEntry]:
    state = MatchState.new(length)
    games = []
    while not state.is_over:
        cube = 1 if state.crawford else rng.choice((1, 1, 2, 4, 8))
        points = cube * rng.choice((1, 1, 2, 3))
        winner = rng.choice((1, 2))
        games.append(GameEntry(winner, points, cube))
        state = state.record_game(winner - 1, points)
    return games


@settings(max_examples=60, deadline=None)
@given(length=st.integers(1, 25), seed=st.integers(0, 2**32))
def test_random_valid_sheets_pass_and_their_final_score_too(length: int, seed: int) -> None:
    games = _random_sheet(length, random.Random(seed))
    out = check_games(length, games)
    assert max(out.score) >= length > min(out.score)
    again = check_final_score(length, *out.score)
    assert (again.winner, again.score) == (out.winner, out.score)
    # One more game is always refused.
    with pytest.raises(ResultError, match="game_after_match_end"):
        check_games(length, [*games, GameEntry(1, 1)])
    if len(games) > 1:
        with pytest.raises(ResultError, match="match_not_finished"):
            check_games(length, games[:-1])


def test_game_entry_round_trip() -> None:
    assert GameEntry.from_dict(G(2, 4, 2).to_dict()) == G(2, 4, 2)
