"""Standings of a Swiss or round robin event, with configurable tie-breaks.

Terms (per player, over the results given):

* ``wins``: match wins; **a bye counts as a match win** (the player was ready to play and
  the draw gave them no opponent).
* ``buchholz``: the sum of the match wins of every opponent met (an opponent met twice
  counts twice). Opponents' wins include their own byes. **A bye adds nothing** to the
  Buchholz of the player who had it: there is no opponent, and inventing one (FIDE's
  "virtual opponent") is more than a club needs; as a bye goes to the lowest-ranked
  player, this costs little and never rewards sitting out.
* ``point_difference``: points won minus points lost in the matches played (game points
  of match play, e.g. 7-4 gives +3 / -3); a bye is 0-0.
* ``head_to_head``: as a tie-break, among the players still tied when it is applied,
  the matches each won against the others of that tied group. As a **number** shown in
  the standings (``Standing.head_to_head``): the matches won against the players level
  with them on match wins (their score group), whatever the order: the same number as the
  tie-break's when head-to-head comes right after the wins (the round robin default), and
  still informative when it comes later, where the groups left are mostly single players
  (issue 29: the column showed 0 for everybody).

Tie-breaks are applied in the order given (default :data:`DEFAULT_ORDER`: wins,
Buchholz, point difference, head-to-head; a round robin's: :data:`ROUND_ROBIN_ORDER`),
each only inside the groups still tied by the ones before. Players tied on all of them
**share a rank** (1, 2, 2, 4) and keep the order they were given in.

Why round robin differs: at the end of a full round robin everybody met everybody, so
a player's Buchholz is the total of wins less their own: equal for players level on
wins, and it can never separate them. Head-to-head (who won the match between them),
then the point difference, do.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from tournaments.pairing.common import EntrantId, PairingError

TIEBREAKS = ("wins", "buchholz", "point_difference", "head_to_head")
DEFAULT_ORDER: tuple[str, ...] = TIEBREAKS
ROUND_ROBIN_ORDER: tuple[str, ...] = ("wins", "head_to_head", "point_difference")


@dataclass(frozen=True, slots=True)
class MatchResult:
    """One finished match of the event, or a bye (``b is None``; the winner is ``a``).

    ``points_a``/``points_b``: the final match score (for the point difference).
    """

    a: EntrantId
    b: EntrantId | None
    winner: EntrantId | None = None
    points_a: int = 0
    points_b: int = 0

    def __post_init__(self) -> None:
        if self.b is None:
            if self.winner not in (None, self.a):
                raise PairingError("invalid_result", "a bye is won by its player")
        elif self.winner not in (self.a, self.b) or self.a == self.b:
            raise PairingError("invalid_result", "the winner must be one of the two players")

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "winner": self.winner,
            "points_a": self.points_a,
            "points_b": self.points_b,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchResult:
        return cls(
            a=data["a"],
            b=data.get("b"),
            winner=data.get("winner"),
            points_a=int(data.get("points_a", 0)),
            points_b=int(data.get("points_b", 0)),
        )


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings (see the module docstring for the numbers)."""

    rank: int
    player: EntrantId
    wins: int
    losses: int
    byes: int
    buchholz: int
    points_for: int
    points_against: int
    head_to_head: int  # wins against the players level on match wins (module docstring)

    @property
    def played(self) -> int:
        return self.wins - self.byes + self.losses

    @property
    def point_difference(self) -> int:
        return self.points_for - self.points_against

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "player": self.player,
            "wins": self.wins,
            "losses": self.losses,
            "byes": self.byes,
            "buchholz": self.buchholz,
            "points_for": self.points_for,
            "points_against": self.points_against,
            "point_difference": self.point_difference,
            "head_to_head": self.head_to_head,
        }


def standings(
    players: Sequence[EntrantId],
    results: Sequence[MatchResult],
    *,
    order: Sequence[str] = DEFAULT_ORDER,
) -> list[Standing]:
    """The standings of ``players`` (in the order ties keep) after ``results``."""
    unknown = [name for name in order if name not in TIEBREAKS]
    if unknown or len(set(order)) != len(order):
        raise PairingError("invalid_tiebreaks", f"tie-breaks are distinct names of {TIEBREAKS}")
    if len(set(players)) != len(players):
        raise PairingError("duplicate_entrant", "a player is listed twice")
    known = set(players)
    wins = dict.fromkeys(players, 0)
    losses = dict.fromkeys(players, 0)
    byes = dict.fromkeys(players, 0)
    pf = dict.fromkeys(players, 0)
    pa = dict.fromkeys(players, 0)
    opponents: dict[EntrantId, list[EntrantId]] = {p: [] for p in players}
    beat: dict[EntrantId, list[EntrantId]] = {p: [] for p in players}
    for r in results:
        for p in (r.a, r.b):
            if p is not None and p not in known:
                raise PairingError("unknown_player", f"{p!r} is not among the players")
        if r.b is None:
            wins[r.a] += 1
            byes[r.a] += 1
            continue
        loser = r.b if r.winner == r.a else r.a
        assert r.winner is not None  # checked by MatchResult
        wins[r.winner] += 1
        losses[loser] += 1
        beat[r.winner].append(loser)
        opponents[r.a].append(r.b)
        opponents[r.b].append(r.a)
        pf[r.a] += r.points_a
        pa[r.a] += r.points_b
        pf[r.b] += r.points_b
        pa[r.b] += r.points_a
    buchholz = {p: sum(wins[o] for o in opponents[p]) for p in players}

    def keyer(name: str, group: list[EntrantId]) -> Callable[[EntrantId], int]:
        if name == "wins":
            return wins.__getitem__
        if name == "buchholz":
            return buchholz.__getitem__
        if name == "point_difference":
            return lambda p: pf[p] - pa[p]
        members = set(group)
        return lambda p: sum(1 for o in beat[p] if o in members)

    level: dict[int, set[EntrantId]] = {}
    for p in players:
        level.setdefault(wins[p], set()).add(p)
    h2h = {p: sum(1 for o in beat[p] if o in level[wins[p]]) for p in players}
    groups: list[list[EntrantId]] = [list(players)]
    for name in order:
        split: list[list[EntrantId]] = []
        for group in groups:
            key = keyer(name, group)
            ranked = sorted(group, key=lambda p: -key(p))  # stable: ties keep given order
            split += [list(sub) for _, sub in groupby(ranked, key=key)]
        groups = split
    table: list[Standing] = []
    rank = 1
    for group in groups:
        table += [
            Standing(rank, p, wins[p], losses[p], byes[p], buchholz[p], pf[p], pa[p], h2h[p])
            for p in group
        ]
        rank += len(group)
    return table
