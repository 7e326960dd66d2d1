"""Checking a tournament match result typed in by a director (docs/rules.md R9-R11, R14).

Two entry forms:

* **Game by game** (:func:`check_games`): each game's winner (player ``1`` or ``2`` = the
  slot's sides ``a`` and ``b``), the points scored and the final cube value. The score is
  replayed with the pure engine's :class:`games.engine.match.MatchState`, so the Crawford
  game is found exactly as in played matches.
* **Final score only** (:func:`check_final_score`).

Every refusal is a :class:`ResultError`: a stable ``code``, the 1-based ``game`` number it
concerns (``None`` for the whole entry) and an English ``reason``:

``invalid_length``      the match length is not a positive integer.
``no_games``            no game was entered.
``invalid_winner``      a game's winner is not 1 or 2.
``invalid_cube``        the cube is not a power of two (1, 2, 4, ...) (R8).
``cube_too_high``       the cube is above ``max_cube`` (R8, default 64).
``invalid_points``      the points are not cube x 1, 2 or 3 (single, gammon, backgammon;
                        R9; x 1 or 2 when backgammons count less, ``backgammon_value``).
``crawford_cube``       the cube was turned in the Crawford game (R11).
``game_after_match_end`` a game follows the one that ended the match (R10).
``match_not_finished``  after the last game nobody has reached the match length (R10).
``invalid_score``       a typed score is not a non-negative integer.
``no_winner`` / ``both_reached``  not exactly one player reached the length (R10).
``impossible_score``    no last game could have taken the winner to that score (R9-R11).
``invalid_start``       the starting score is not two non-negative integers below the length.
``score_below_start``   a typed score is below that player's starting score (R15).

A match may start at a score (``start``, side a's and side b's points; a lateness penalty,
R15): the games and the final score count from it, and the Crawford game follows from the
real scores, so a start with exactly one player at ``length - 1`` makes game 1 the
Crawford game (R11; as a ``.mat`` file resumed at that score, ``games.engine.matfile``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.match import MatchState, is_possible_game_points
from tournaments.pairing.common import PairingError


class ResultError(PairingError):
    """A refused result entry: ``code``, ``game`` (1-based, or ``None``) and ``reason``."""

    def __init__(self, code: str, reason: str, *, game: int | None = None) -> None:
        super().__init__(code, reason if game is None else f"game {game}: {reason}")
        self.game = game
        self.reason = reason

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "game": self.game, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One game of a result sheet: ``winner`` 1 or 2, ``points`` scored, final ``cube``."""

    winner: int
    points: int
    cube: int = 1

    def to_dict(self) -> dict[str, int]:
        return {"winner": self.winner, "points": self.points, "cube": self.cube}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameEntry:
        return cls(winner=data["winner"], points=data["points"], cube=data.get("cube", 1))


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """A checked match result.

    Attributes:
        length: the match length.
        score: final points of player 1 and player 2 (the winner may be past the length).
        winner: 1 or 2.
        games: games entered (0 when only the final score was typed).
        crawford_game: number of the game that was the Crawford game, if one was played.
    """

    length: int
    score: tuple[int, int]
    winner: int
    games: int = 0
    crawford_game: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "length": self.length,
            "score": list(self.score),
            "winner": self.winner,
            "games": self.games,
            "crawford_game": self.crawford_game,
        }


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_length(length: int) -> None:
    if not _is_int(length) or length < 1:
        raise ResultError(
            "invalid_length", f"a match is played to 1 or more points, not {length!r}"
        )


def _multipliers(backgammon_value: int) -> tuple[int, ...]:
    """Single, gammon, and backgammon when it counts more than a gammon (R9)."""
    if backgammon_value not in (1, 2, 3):
        raise ResultError("invalid_option", "backgammon_value is 1, 2 or 3 (R9)")
    return (1, 2, 3) if backgammon_value == 3 else (1, 2)


def _check_start(length: int, start: tuple[int, int]) -> MatchState:
    """The match state before game 1 at the starting score ``start`` (R11, R15)."""
    if not (
        isinstance(start, tuple)
        and len(start) == 2
        and all(_is_int(s) and 0 <= s < length for s in start)
    ):
        raise ResultError(
            "invalid_start", f"a match starts at two scores below {length}, not {start!r}"
        )
    one_away = [s == length - 1 for s in start]
    return MatchState(length=length, score=start, crawford=length > 1 and one_away.count(True) == 1)


def check_games(
    length: int,
    games: Sequence[GameEntry],
    *,
    max_cube: int = 64,
    backgammon_value: int = 3,
    start: tuple[int, int] = (0, 0),
) -> MatchOutcome:
    """Check a game-by-game result sheet played from the score ``start`` and return the
    outcome (codes: module docstring)."""
    _check_length(length)
    multipliers = _multipliers(backgammon_value)
    state = _check_start(length, start)
    if not games:
        raise ResultError("no_games", "enter at least one game")
    crawford_game: int | None = None
    for number, game in enumerate(games, start=1):
        if state.is_over:
            raise ResultError(
                "game_after_match_end",
                f"the match ended {state.score[0]}-{state.score[1]} in game {number - 1}",
                game=number,
            )
        if not _is_int(game.winner) or game.winner not in (1, 2):
            raise ResultError(
                "invalid_winner", f"the winner is 1 or 2, not {game.winner!r}", game=number
            )
        cube = game.cube
        if not _is_int(cube) or cube < 1 or cube & (cube - 1):
            raise ResultError(
                "invalid_cube", f"a cube shows 1, 2, 4, ..., not {cube!r}", game=number
            )
        if cube > max_cube:
            raise ResultError("cube_too_high", f"the cube goes up to {max_cube}", game=number)
        points = game.points
        if not (
            _is_int(points)
            and is_possible_game_points(points)
            and any(points == cube * m for m in multipliers)
        ):
            allowed = "/".join(str(cube * m) for m in multipliers)
            raise ResultError(
                "invalid_points",
                f"{points!r} points with the cube at {cube}: a game is worth {allowed}",
                game=number,
            )
        if state.crawford:
            crawford_game = number
            if cube > 1:
                raise ResultError(
                    "crawford_cube", "no doubling in the Crawford game (R11)", game=number
                )
        state = state.record_game(game.winner - 1, points)
    if not state.is_over:
        raise ResultError(
            "match_not_finished",
            f"{state.score[0]}-{state.score[1]} after the last game: nobody reached {length}",
            game=len(games),
        )
    winner = state.winner
    assert winner is not None
    return MatchOutcome(
        length=length,
        score=state.score,
        winner=winner + 1,
        games=len(games),
        crawford_game=crawford_game,
    )


def check_final_score(
    length: int,
    score_a: int,
    score_b: int,
    *,
    max_cube: int = 64,
    backgammon_value: int = 3,
    start: tuple[int, int] = (0, 0),
) -> MatchOutcome:
    """Check a typed final score (player 1's and player 2's points) of a match played
    from the score ``start``.

    Exactly one player reached ``length``; the loser has their start ``.. length-1`` (all
    of these can happen). The winner's overshoot must come from one last game: from some
    score ``w`` (their start ``<= w < length``) a game worth ``cube x 1..3`` (cube up to
    ``max_cube``). When that last game was necessarily the Crawford game (one player at
    ``length - 1``, the other still at their start, R11) it was worth at most 3 (or 2).
    """
    _check_length(length)
    multipliers = _multipliers(backgammon_value)
    _check_start(length, start)
    for s in (score_a, score_b):
        if not _is_int(s) or s < 0:
            raise ResultError("invalid_score", f"a score is a non-negative integer, not {s!r}")
    if score_a < start[0] or score_b < start[1]:
        raise ResultError(
            "score_below_start",
            f"the match started at {start[0]}-{start[1]}: a score cannot go below it",
        )
    if score_a >= length and score_b >= length:
        raise ResultError("both_reached", f"only one player can reach {length} (R10)")
    if max(score_a, score_b) < length:
        raise ResultError("no_winner", f"nobody reached {length}: the match is not over (R10)")
    winner = 1 if score_a >= length else 2
    w, lose = (score_a, score_b) if winner == 1 else (score_b, score_a)
    w_start, lose_start = start if winner == 1 else (start[1], start[0])
    values = {
        c * m
        for m in multipliers
        for c in (1 << e for e in range(max_cube.bit_length()))
        if c <= max_cube
    }

    def last_game_possible(before: int) -> bool:
        points = w - before
        if points not in values:
            return False
        forced_crawford = (
            length >= 2
            and (before, lose) != (length - 1, length - 1)
            and (
                (before == length - 1 and lose == lose_start)
                or (lose == length - 1 and before == w_start)
            )
        )
        return not forced_crawford or points <= max(multipliers)

    if not any(last_game_possible(before) for before in range(w_start, length)):
        raise ResultError(
            "impossible_score",
            f"no single game takes the winner from below {length} to {w}",
        )
    return MatchOutcome(length=length, score=(score_a, score_b), winner=winner)
