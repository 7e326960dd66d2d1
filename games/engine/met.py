"""Match equity: the Kazaross-XG2 table, win chances at any score, dead-cube take points.

The two packaged CSV files (``games/engine/data``) hold the Kazaross-XG2 match equity
table (MET) up to 15-away; they are the same numbers as gnubg's default table
(``gnubg.met()``), checked in the tests.

* ``met-kazaross-xg2-pre-crawford.csv``: row ``a`` (my away score), column ``b`` (the
  opponent's): my match winning chance (MWC) at the start of a game. A row or column
  ``1`` with the other side more than 1-away is the **Crawford game** (a player reaching
  1-away for the first time makes the next game Crawford, R11), and 1-away/1-away is 0.5.
* ``met-kazaross-xg2-post-crawford.csv``: the **trailer's** MWC at the start of a
  *post-Crawford* game, the leader being 1-away. (The leader's is 1 minus it.) With the
  cube back the trailer doubles at once, so e.g. 3-away post-Crawford equals 2-away in
  the Crawford game (both win the match with a gammon or two single games): 0.32264 in
  both tables, as the test checks.

So a score alone does not determine the chance when one player is 1-away: the Crawford
game and the post-Crawford games differ, and callers say which with the keyword flags.

Take points (R8) are computed for a **dead cube** with **gammons ignored**: the taker
assumes the game ends with a single win or loss at the doubled stake and will never
redouble. With ``cube`` the value *before* the double (the doubler offers ``2 * cube``)::

    take point = (MWC(drop) - MWC(take, lose)) / (MWC(take, win) - MWC(take, lose))

where each MWC is the taker's chance at the score after the game, read from the table of
the game that follows it (a pre-Crawford game that leaves a player 1-away for the first
time is followed by the Crawford game; a post-Crawford game by another post-Crawford
game). In money play the dead-cube take point is always 1/4 (:data:`MONEY_TAKE_POINT`).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from functools import cache
from importlib import resources

from games.engine.errors import EngineError
from games.engine.match import MatchState

#: Largest away score in the table.
MAX_AWAY = 15
#: Dead-cube take point in money play: risk 1 to win 2 -> 1 / (1 + 3).
MONEY_TAKE_POINT = 0.25

_PRE_FILE = "met-kazaross-xg2-pre-crawford.csv"
_POST_FILE = "met-kazaross-xg2-post-crawford.csv"


@dataclass(frozen=True, slots=True)
class MatchEquityTable:
    """A MET: ``pre[a-1][b-1]`` = MWC of a player ``a``-away against ``b``-away at the
    start of a non-post-Crawford game; ``post_trailer[a-1]`` = MWC of a player ``a``-away
    at the start of a post-Crawford game against a 1-away leader."""

    name: str
    pre: tuple[tuple[float, ...], ...]
    post_trailer: tuple[float, ...]


def _read(name: str) -> list[list[str]]:
    text = resources.files("games.engine").joinpath("data", name).read_text("utf-8")
    return [row for row in csv.reader(io.StringIO(text)) if row]


@cache
def kazaross_xg2() -> MatchEquityTable:
    """The packaged Kazaross-XG2 table (read once)."""
    pre_rows = _read(_PRE_FILE)
    header = [int(x) for x in pre_rows[0][1:]]
    if header != list(range(1, MAX_AWAY + 1)):
        raise EngineError("invalid_met", "unexpected pre-Crawford header")
    pre: list[tuple[float, ...]] = []
    for i, row in enumerate(pre_rows[1:], start=1):
        if int(row[0]) != i or len(row) != MAX_AWAY + 1:
            raise EngineError("invalid_met", f"unexpected pre-Crawford row {i}")
        pre.append(tuple(float(x) for x in row[1:]))
    post_rows = _read(_POST_FILE)
    post: list[float] = []
    for i, row in enumerate(post_rows[1:], start=1):
        if int(row[0]) != i or int(row[1]) != 1:
            raise EngineError("invalid_met", f"unexpected post-Crawford row {i}")
        post.append(float(row[2]))
    if len(pre) != MAX_AWAY or len(post) != MAX_AWAY:
        raise EngineError("invalid_met", "the table must cover 1..15-away")
    return MatchEquityTable(name="Kazaross-XG2", pre=tuple(pre), post_trailer=tuple(post))


def _check_away(value: int, name: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise EngineError("invalid_score", f"{name} must be an integer")
    if value > MAX_AWAY:
        raise EngineError("met_out_of_range", f"{name}={value}: the table stops at 15-away")


def match_winning_chance(
    away_me: int,
    away_opp: int,
    *,
    crawford: bool = False,
    post_crawford: bool = False,
) -> float:
    """My chance to win the match at the start of a game, needing ``away_me`` points
    against ``away_opp`` (R10, R11).

    ``away <= 0`` means that player already won (1.0 / 0.0). When exactly one player is
    1-away the game is either the Crawford game (the default, also ``crawford=True``) or
    a post-Crawford game (``post_crawford=True``); the flags are refused
    (``invalid_score``) where they can't apply.
    """
    _check_away(away_me, "away_me")
    _check_away(away_opp, "away_opp")
    if crawford and post_crawford:
        raise EngineError("invalid_score", "a game can't be Crawford and post-Crawford")
    if away_me <= 0 and away_opp <= 0:
        raise EngineError("invalid_score", "only one player can have won")
    if away_me <= 0:
        return 1.0
    if away_opp <= 0:
        return 0.0
    one_away = (away_me == 1) + (away_opp == 1)
    if crawford and one_away != 1:
        raise EngineError("invalid_score", "the Crawford game needs exactly one 1-away player")
    if post_crawford and one_away == 0:
        raise EngineError("invalid_score", "post-Crawford needs a 1-away player")
    table = kazaross_xg2()
    if post_crawford and one_away == 1:
        if away_me == 1:
            return 1.0 - table.post_trailer[away_opp - 1]
        return table.post_trailer[away_me - 1]
    return table.pre[away_me - 1][away_opp - 1]


def match_winning_chance_for(match: MatchState, player: int) -> float:
    """``player``'s MWC at the start of the next game of ``match`` (phase from its
    Crawford state). Money play has no MWC (``not_a_match``)."""
    away_me = match.away(player)
    away_opp = match.away(1 - player)
    if match.is_over:
        return 1.0 if away_me == 0 else 0.0
    return match_winning_chance(
        away_me,
        away_opp,
        crawford=match.crawford,
        post_crawford=match.post_crawford,
    )


def _mwc_after_game(away_me: int, away_opp: int, *, post_crawford_game: bool) -> float:
    """MWC at the start of the game following one that left the score at these aways.

    After a pre-Crawford game a 1-away player is there for the first time: Crawford.
    After a post-Crawford game the next one is post-Crawford too."""
    if away_me <= 0:
        return 1.0
    if away_opp <= 0:
        return 0.0
    if (away_me == 1) == (away_opp == 1):
        return match_winning_chance(away_me, away_opp)
    if post_crawford_game:
        return match_winning_chance(away_me, away_opp, post_crawford=True)
    return match_winning_chance(away_me, away_opp, crawford=True)


def take_point(
    away_taker: int,
    away_doubler: int,
    cube: int = 1,
    *,
    crawford: bool = False,
    post_crawford: bool = False,
) -> float:
    """Dead-cube, gammonless take point of the player facing a double (R8).

    ``cube`` is the value before the double (the doubler offers ``2 * cube``); the
    taker needs to win at least this fraction of the games to take. No double is legal
    in the Crawford game (``crawford_no_double``). ``post_crawford`` says the game being
    played is post-Crawford (then exactly one player is 1-away, or both).
    """
    _check_away(away_taker, "away_taker")
    _check_away(away_doubler, "away_doubler")
    if isinstance(cube, bool) or not isinstance(cube, int) or cube < 1 or cube & (cube - 1):
        raise EngineError("invalid_cube", "the cube is a power of two")
    if away_taker <= 0 or away_doubler <= 0:
        raise EngineError("match_over", "the match is already over")
    if crawford:
        raise EngineError("crawford_no_double", "no doubling in the Crawford game (R11)")
    one_away = (away_taker == 1) + (away_doubler == 1)
    if one_away == 1 and not post_crawford:
        raise EngineError(
            "invalid_score",
            "with one player 1-away the game is Crawford or post-Crawford: say which",
        )
    if post_crawford and one_away == 0:
        raise EngineError("invalid_score", "post-Crawford needs a 1-away player")
    stake = 2 * cube
    drop = _mwc_after_game(away_taker, away_doubler - cube, post_crawford_game=post_crawford)
    win = _mwc_after_game(away_taker - stake, away_doubler, post_crawford_game=post_crawford)
    lose = _mwc_after_game(away_taker, away_doubler - stake, post_crawford_game=post_crawford)
    return (drop - lose) / (win - lose)


def take_point_for(match: MatchState, taker: int, cube: int = 1) -> float:
    """The dead-cube take point of ``taker`` in the current game of ``match``
    (money play: :data:`MONEY_TAKE_POINT`)."""
    if match.is_money:
        return MONEY_TAKE_POINT
    if match.is_over:
        raise EngineError("match_over", "the match is already over")
    return take_point(
        match.away(taker),
        match.away(1 - taker),
        cube,
        crawford=match.crawford,
        post_crawford=match.post_crawford,
    )
