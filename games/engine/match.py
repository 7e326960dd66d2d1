"""Match score, the Crawford rule and the end of a match (docs/rules.md R10, R11).

A match is played to ``length`` points; ``length == 0`` is money play (a session of
games that never ends by score). :class:`MatchState` is immutable: recording a game
returns a new state. Players are ``0`` and ``1`` everywhere in the engine.

R11, as implemented:

* The **Crawford game** is the game right after the first time a player reaches
  ``length - 1`` points while the opponent has less. It is detected by
  :meth:`MatchState.record_game` and flagged with ``crawford=True``; in it nobody may
  double (``crawford_no_double``).
* Every later game is **post-Crawford**: the cube is back, and a double by the leader at
  ``length - 1`` ("1-away") is legal (gnubg refuses it as a dead cube; that is gnubg's
  policy, not a rule).
* At **double match point** (both players ``length - 1``, including a 1-point match from
  its start) there is no Crawford game; the cube has no use but stays legal.

Decisions where docs/rules.md is silent:

* Scores are kept raw: a gammon at 1-away takes the winner past ``length``; the match is
  over once a player has ``length`` or more (R10).
* ``record_game`` accepts only points a game can produce: ``cube * k`` with the cube a
  power of two and ``k`` in 1..3 (so 5 or 7 are refused with ``invalid_points``); in the
  Crawford game, with no cube, only 1..3 (else ``crawford_no_double``, R14).
* A match lost on time (R12 ``timeout_result == "match"``) is recorded with
  :meth:`MatchState.record_forfeit`, which gives the winner exactly the points they
  still needed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.engine.errors import EngineError
from games.engine.rules import RuleOptions


def _check_player(player: int) -> None:
    if player not in (0, 1) or isinstance(player, bool):
        raise EngineError("invalid_player", f"player must be 0 or 1, not {player!r}")


def is_possible_game_points(points: int) -> bool:
    """Whether one game can be worth ``points``: cube (a power of two) times 1, 2 or 3."""
    if isinstance(points, bool) or not isinstance(points, int) or points < 1:
        return False
    if points % 3 == 0:
        points //= 3
    while points % 2 == 0:
        points //= 2
    return points == 1


@dataclass(frozen=True, slots=True)
class MatchScore:
    """One line of the score sheet: a finished game and the match score after it.

    Attributes:
        game: 1-based number of the game in the match.
        winner: player 0 or 1.
        points: points the winner scored in that game.
        score: the match score after the game (player 0, player 1).
        crawford: whether that game was the Crawford game (R11).
        forfeit: whether the match was lost on time (R12 ``timeout_result == "match"``).
    """

    game: int
    winner: int
    points: int
    score: tuple[int, int]
    crawford: bool = False
    forfeit: bool = False


@dataclass(frozen=True, slots=True)
class MatchState:
    """The state of a match between two games (R10, R11).

    Attributes:
        length: points needed to win; ``0`` = money play.
        score: points of player 0 and player 1.
        crawford: the next game (the one being played) is the Crawford game.
        games: the score sheet so far (may be empty for a match resumed at a score).
    """

    length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    games: tuple[MatchScore, ...] = field(default=())

    def __post_init__(self) -> None:
        if isinstance(self.length, bool) or not isinstance(self.length, int) or self.length < 0:
            raise EngineError("invalid_match", "match length must be 0 (money) or positive")
        if (
            len(self.score) != 2
            or any(isinstance(s, bool) or not isinstance(s, int) for s in self.score)
            or min(self.score) < 0
        ):
            raise EngineError("invalid_score", "the score is two non-negative integers")
        n = self.length
        if n and min(self.score) >= n:
            raise EngineError("invalid_score", "only one player can reach the match length")
        if self.crawford:
            if n == 0:
                raise EngineError("invalid_score", "money play has no Crawford game (R11)")
            a, b = self.score
            if not ((a == n - 1 and b < n - 1) or (b == n - 1 and a < n - 1)):
                raise EngineError(
                    "invalid_score",
                    "a Crawford game needs exactly one player at length-1 (R11)",
                )

    # ------------------------------------------------------------------ constructors
    @classmethod
    def money(cls) -> MatchState:
        """Money play: no length, no Crawford rule."""
        return cls(length=0)

    @classmethod
    def new(cls, length: int) -> MatchState:
        """A match to ``length`` points at 0-0 (``0`` = money)."""
        return cls(length=length)

    # ------------------------------------------------------------------ queries
    @property
    def is_money(self) -> bool:
        return self.length == 0

    @property
    def is_over(self) -> bool:
        """R10: the first to reach *or pass* ``length`` wins."""
        return self.length > 0 and max(self.score) >= self.length

    @property
    def winner(self) -> int | None:
        """The match winner, or ``None`` while it goes on (always ``None`` for money)."""
        if not self.is_over:
            return None
        return 0 if self.score[0] >= self.length else 1

    def away(self, player: int) -> int:
        """Points ``player`` still needs (``n-away``); 0 once they won. Money: error."""
        _check_player(player)
        if self.is_money:
            raise EngineError("not_a_match", "money play has no away score")
        return max(0, self.length - self.score[player])

    @property
    def post_crawford(self) -> bool:
        """R11: a game after the Crawford game (some player at length-1, not Crawford).

        A 1-point match is double match point from the start, not post-Crawford."""
        n = self.length
        return n > 1 and not self.is_over and not self.crawford and (n - 1 in self.score)

    @property
    def double_match_point(self) -> bool:
        """Both players need one point (R11: the cube has no use but stays legal)."""
        n = self.length
        return n > 0 and self.score == (n - 1, n - 1)

    @property
    def cube_allowed(self) -> bool:
        """Doubling is allowed in every game except the Crawford game (R8, R11)."""
        return not self.crawford

    @property
    def game_number(self) -> int:
        """1-based number of the next game (counts recorded games only)."""
        return len(self.games) + 1

    def check_options(self, options: RuleOptions) -> None:
        """R10: refuse money-only options (Jacoby, automatic doubles, beavers) in a match.

        Raises ``EngineError("money_option_in_match")``; use ``options.for_match()``."""
        if not self.is_money and options.has_money_options:
            raise EngineError(
                "money_option_in_match",
                "jacoby, automatic doubles and beavers don't apply in match play (R10)",
            )

    # ------------------------------------------------------------------ transitions
    def record_game(self, winner: int, points: int) -> MatchState:
        """The state after ``winner`` won a game worth ``points`` (R10, R11).

        Detects the Crawford game: if before this game nobody was at ``length - 1`` and the
        winner now is, the next game (only) is the Crawford game.
        """
        _check_player(winner)
        if self.is_over:
            raise EngineError("match_over", "the match is already over (R10)")
        if not is_possible_game_points(points):
            raise EngineError(
                "invalid_points",
                f"{points!r} points: a game is worth cube x 1, 2 or 3 (R9)",
            )
        if self.crawford and points > 3:
            raise EngineError(
                "crawford_no_double",
                "no cube in the Crawford game: at most 3 points (R11)",
            )
        new = list(self.score)
        new[winner] += points
        score = (new[0], new[1])
        n = self.length
        crawford_next = (
            n > 1 and not self.crawford and (n - 1) not in self.score and score[winner] == n - 1
        )
        line = MatchScore(
            game=self.game_number,
            winner=winner,
            points=points,
            score=score,
            crawford=self.crawford,
        )
        return MatchState(length=n, score=score, crawford=crawford_next, games=(*self.games, line))

    def record_forfeit(self, winner: int) -> MatchState:
        """R12 ``timeout_result == "match"``: the loser on time loses the match; the
        winner is credited the points they still needed."""
        _check_player(winner)
        if self.is_money:
            raise EngineError("not_a_match", "money play can't be forfeited as a match")
        if self.is_over:
            raise EngineError("match_over", "the match is already over (R10)")
        points = self.length - self.score[winner]
        new = list(self.score)
        new[winner] = self.length
        score = (new[0], new[1])
        line = MatchScore(
            game=self.game_number,
            winner=winner,
            points=points,
            score=score,
            crawford=self.crawford,
            forfeit=True,
        )
        return MatchState(length=self.length, score=score, games=(*self.games, line))
