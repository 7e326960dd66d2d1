"""Swiss pairings for an event with a fixed number of rounds, and round robin schedules.

Terms:

* **Score group**: the players with the same score (match wins, as the caller counts).
* **Floater**: a player paired outside their score group, always downwards (the top of
  the next group), because their own group has an odd count or only rematches left.
* **Rematch**: a pairing of two players who met before in the event (byes excluded).

The Swiss rules, in priority order:

1. **Bye** (odd number of players): to the lowest-ranked player among those with the
   fewest byes so far, i.e. "the lowest-ranked player who has not had one", as long as
   the others can then be paired without rematches; a second bye goes to someone only
   when everyone has had one. Fairness of the bye comes before avoiding rematches.
2. **No rematch when avoidable**: the pairing is rematch-free whenever some pairing of
   the remaining players is. This is decided exactly, not by a heuristic: before each
   pairing is fixed, a maximum-matching search (Edmonds' blossom algorithm,
   :mod:`tournaments.pairing.matching`) checks that the players left can still all be
   paired within the allowed meetings. When rematches can't be avoided, the smallest
   number ``t`` of earlier meetings that makes a full pairing possible is allowed, and
   among the candidates the ones met fewer times are preferred.
3. **Within score groups, top-down** (the Dutch system): the highest unpaired player
   takes the player at the middle of their group (1 v 5, 2 v 6, ... in a group of 8: top
   half against bottom half), then the next ones below it, then those above it; with no
   allowed partner in the group they float down to the highest player possible below.

The players are given in rank order (the caller's standings) with their scores; the order
is stably re-sorted by score so that score groups are contiguous, keeping the given rank
order inside each group. Several players may end on the top score: no playoff here.

Round robin uses the **circle method**: player 1 stays, the others rotate one place per
round; with an odd count a bye joins the circle, so each player sits out once. Every pair
meets exactly once in ``n - 1`` rounds (``n`` rounded up to even).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tournaments.pairing.common import EntrantId, PairingError
from tournaments.pairing.matching import augment, maximum_matching


@dataclass(frozen=True, slots=True)
class Round:
    """The pairings of one round.

    Attributes:
        number: 1-based round number.
        pairings: ``(a, b)`` pairs, the higher-ranked player first, top boards first.
        bye: the player who sits out (and is credited a win by :mod:`standings`), if any.
        rematches: how many of ``pairings`` repeat an earlier meeting (0 when avoidable).
    """

    number: int
    pairings: tuple[tuple[EntrantId, EntrantId], ...]
    bye: EntrantId | None = None
    rematches: int = 0

    def history(self) -> list[tuple[EntrantId, EntrantId | None]]:
        """This round in the shape :func:`swiss_pairings` takes as ``history``."""
        rows: list[tuple[EntrantId, EntrantId | None]] = list(self.pairings)
        if self.bye is not None:
            rows.append((self.bye, None))
        return rows

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "pairings": [list(p) for p in self.pairings],
            "bye": self.bye,
            "rematches": self.rematches,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Round:
        return cls(
            number=int(data["number"]),
            pairings=tuple((p[0], p[1]) for p in data["pairings"]),
            bye=data.get("bye"),
            rematches=int(data.get("rematches", 0)),
        )


def _ranked(players: Sequence[tuple[EntrantId, float]]) -> list[tuple[EntrantId, float]]:
    ids = [p[0] for p in players]
    if len(set(ids)) != len(ids):
        raise PairingError("duplicate_entrant", "a player is listed twice")
    return sorted(players, key=lambda p: -p[1])  # stable: rank order within a score


class _Graph:
    """The players (vertices ``0..n-1`` in rank order) and how often each pair met."""

    def __init__(self, ids: list[EntrantId], met: Counter[frozenset[EntrantId]]) -> None:
        self.n = len(ids)
        self.met = [[met[frozenset((x, y))] if x != y else 0 for y in ids] for x in ids]

    def adjacency(self, limit: int) -> list[list[int]]:
        """Edges between players who met at most ``limit`` times."""
        return [
            [u for u in range(self.n) if u != v and self.met[v][u] <= limit] for v in range(self.n)
        ]

    def perfect_without(
        self, adj: list[list[int]], mate: list[int], alive: list[bool], removed: Sequence[int]
    ) -> list[int] | None:
        """Given a maximum matching ``mate`` of the ``alive`` vertices that leaves at most
        the vertices in ``removed`` exposed, a perfect matching of the alive vertices
        without ``removed``, or ``None`` if there is none. ``alive`` is left unchanged."""
        trial = list(mate)
        exposed = []
        for v in removed:
            partner = trial[v]
            trial[v] = -1
            if partner != -1 and partner not in removed:
                trial[partner] = -1
                exposed.append(partner)
        for v in removed:
            alive[v] = False
        try:
            others = [v for v in range(self.n) if alive[v] and trial[v] == -1]
            # Each augmenting path matches two exposed vertices; at most one search each.
            while others:
                root = others[0]
                if not augment(adj, trial, root, alive):
                    return None
                others = [v for v in others if trial[v] == -1]
            return trial
        finally:
            for v in removed:
                alive[v] = True


def _history(
    ids: list[EntrantId], history: Iterable[tuple[EntrantId, EntrantId | None]]
) -> tuple[Counter[frozenset[EntrantId]], Counter[EntrantId]]:
    met: Counter[frozenset[EntrantId]] = Counter()
    byes: Counter[EntrantId] = Counter()
    for a, b in history:
        if b is None:
            byes[a] += 1
        elif a == b:
            raise PairingError("invalid_history", f"{a!r} paired with themselves")
        else:
            met[frozenset((a, b))] += 1
    return met, byes


def _choose_bye(graph: _Graph, ids: list[EntrantId], byes: Counter[EntrantId]) -> int:
    """The bye's vertex (rule 1 of the module docstring)."""
    everyone = [True] * graph.n
    fewest = min(byes[e] for e in ids)
    # Lowest-ranked first; first those with the fewest byes, then the rest.
    order = sorted(range(graph.n), key=lambda v: (byes[ids[v]] != fewest, -v))
    tiers = [
        [v for v in order if byes[ids[v]] == fewest],
        [v for v in order if byes[ids[v]] != fewest],
    ]
    max_met = max((max(row) for row in graph.met), default=0)
    for tier in tiers:
        for limit in range(max_met + 1):
            adj = graph.adjacency(limit)
            mate = maximum_matching(adj, everyone)
            if sum(1 for m in mate if m != -1) < graph.n - 1:
                continue  # no n-1 of these players can be fully paired at this limit
            for v in tier:
                if graph.perfect_without(adj, mate, everyone, [v]) is not None:
                    return v
    raise AssertionError(
        "unreachable: with every meeting allowed any bye works"
    )  # pragma: no cover


def _preferences(v: int, remaining: list[int], scores: list[float]) -> list[int]:
    """Partners for the top remaining player ``v``, best first (rule 3)."""
    group = [u for u in remaining if scores[u] == scores[v]]  # v is group[0]
    mid = max(1, len(group) // 2)  # group[0] is v itself
    ordered = group[mid:] + group[1:mid][::-1]
    below = [u for u in remaining if scores[u] < scores[v]]
    return ordered + below


def swiss_pairings(
    players: Sequence[tuple[EntrantId, float]],
    history: Iterable[tuple[EntrantId, EntrantId | None]],
    round_no: int,
) -> Round:
    """Pair the next Swiss round.

    ``players``: ``(id, score)`` in rank order, only those who play this round.
    ``history``: every earlier pairing ``(a, b)`` and bye ``(a, None)``; entries naming
    players not in ``players`` (withdrawn) are harmless.
    """
    if isinstance(round_no, bool) or not isinstance(round_no, int) or round_no < 1:
        raise PairingError("invalid_round", "round numbers start at 1")
    ranked = _ranked(players)
    if len(ranked) < 2:
        raise PairingError("too_few_entrants", "a Swiss round needs at least 2 players")
    ids = [p[0] for p in ranked]
    scores = [float(p[1]) for p in ranked]
    met, byes = _history(ids, history)
    graph = _Graph(ids, met)
    alive = [True] * graph.n
    bye: EntrantId | None = None
    if graph.n % 2:
        v = _choose_bye(graph, ids, byes)
        alive[v] = False
        bye = ids[v]
    # The smallest meeting limit that still allows a full pairing (0 = no rematch).
    limit = 0
    while True:
        adj = graph.adjacency(limit)
        mate = maximum_matching(adj, alive)
        if all(mate[v] != -1 for v in range(graph.n) if alive[v]):
            break
        limit += 1
    pairs: list[tuple[EntrantId, EntrantId]] = []
    rematches = 0
    for v in range(graph.n):
        if not alive[v]:
            continue
        remaining = [u for u in range(v, graph.n) if alive[u]]
        candidates = [u for u in _preferences(v, remaining, scores) if u in adj[v]]
        candidates.sort(key=lambda u: graph.met[v][u])  # stable: fewer meetings first
        for u in candidates:
            if mate[v] == u:
                chosen = mate
            else:
                found = graph.perfect_without(adj, mate, alive, [v, u])
                if found is None:
                    continue
                chosen = found
            chosen[v], chosen[u] = u, v
            mate = chosen
            break
        else:  # pragma: no cover - mate[v] itself always qualifies
            raise AssertionError("no partner although a full pairing exists")
        u = mate[v]
        alive[v] = alive[u] = False
        pairs.append((ids[v], ids[u]))
        rematches += graph.met[v][u] > 0
    return Round(number=round_no, pairings=tuple(pairs), bye=bye, rematches=rematches)


def round_robin_rounds(players: Sequence[EntrantId]) -> list[Round]:
    """All rounds of a round robin by the circle method (see the module docstring).

    Round ``r`` pairs the circle's position ``i`` with position ``m - 1 - i``; the first
    position is fixed and the others turn by one each round. Top-seeded player first.
    """
    ids: list[EntrantId | None] = list(players)
    if len(set(ids)) != len(ids):
        raise PairingError("duplicate_entrant", "a player is listed twice")
    if len(ids) < 2:
        raise PairingError("too_few_entrants", "a round robin needs at least 2 players")
    if len(ids) % 2:
        ids.append(None)  # the bye's place in the circle
    m = len(ids)
    rank = {p: i for i, p in enumerate(ids)}
    circle = list(ids)
    rounds = []
    for r in range(1, m):
        pairs: list[tuple[EntrantId, EntrantId]] = []
        bye: EntrantId | None = None
        for i in range(m // 2):
            x, y = circle[i], circle[m - 1 - i]
            if x is None or y is None:
                bye = y if x is None else x
                continue
            pairs.append((x, y) if rank[x] < rank[y] else (y, x))
        rounds.append(Round(number=r, pairings=tuple(pairs), bye=bye))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds
