"""Swiss pairings (score groups, floaters, byes, no avoidable rematch) and round robin."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import EntrantId, PairingError, Round, round_robin_rounds, swiss_pairings
from tournaments.pairing.matching import maximum_matching

History = list[tuple[EntrantId, EntrantId | None]]


def test_round_one_top_half_against_bottom_half() -> None:
    r = swiss_pairings([(i, 0) for i in range(1, 9)], [], 1)
    assert r.pairings == ((1, 5), (2, 6), (3, 7), (4, 8))
    assert r.bye is None and r.rematches == 0 and r.number == 1


def test_odd_field_bye_to_the_lowest_ranked() -> None:
    r = swiss_pairings([(i, 0) for i in range(1, 10)], [], 1)
    assert r.bye == 9
    assert r.pairings == ((1, 5), (2, 6), (3, 7), (4, 8))
    # Next round: 9 had the bye, so the next lowest without one gets it.
    r2 = swiss_pairings([(i, 0) for i in range(1, 10)], r.history(), 2)
    assert r2.bye == 8


def test_score_groups_and_a_floater() -> None:
    players = [(1, 2), (2, 2), (3, 2), (4, 1), (5, 1), (6, 0)]
    r = swiss_pairings(players, [], 3)
    # Group of three: 1 v 2, and 3 floats down to the top of the next group.
    assert r.pairings == ((1, 2), (3, 4), (5, 6))


def test_scores_regroup_players_given_out_of_order() -> None:
    r = swiss_pairings([(1, 0), (2, 1), (3, 0), (4, 1)], [], 2)
    assert r.pairings == ((2, 4), (1, 3))


def test_rematch_avoided_inside_the_group() -> None:
    players = [(1, 1), (2, 1), (3, 0), (4, 0)]
    history: History = [(1, 2), (3, 4)]
    r = swiss_pairings(players, history, 2)
    assert r.rematches == 0
    assert r.pairings == ((1, 3), (2, 4)) or r.pairings == ((1, 4), (2, 3))


def test_rematch_avoided_by_looking_ahead() -> None:
    """Top-down, 1 takes 3 (top half v bottom half) and leaves 2 v 4, who met; the search
    sees that and gives 1 the next choice, 4."""
    players = [(1, 1), (2, 1), (3, 1), (4, 1)]
    history: History = [(2, 4)]
    r = swiss_pairings(players, history, 3)
    assert r.rematches == 0
    assert r.pairings == ((1, 4), (2, 3))


def test_bye_moves_up_when_the_lowest_would_force_a_rematch() -> None:
    players = [(1, 0), (2, 0), (3, 0)]
    history: History = [(1, 2)]
    r = swiss_pairings(players, history, 2)
    assert r.rematches == 0
    assert r.bye in (1, 2)  # 3 can't sit out: 1 v 2 would be a rematch
    assert r.bye == 2  # the lowest-ranked that works


def test_unavoidable_rematch_is_made_and_counted() -> None:
    history: History = [(1, 2)]
    r = swiss_pairings([(1, 1), (2, 0)], history, 2)
    assert r.pairings == ((1, 2),) and r.rematches == 1


def test_second_bye_only_when_everyone_had_one() -> None:
    history: History = [(1, None), (2, None), (3, 4)]
    r = swiss_pairings([(1, 1), (2, 1), (3, 1)], history, 3)
    assert r.bye == 3
    history = [(1, None), (2, None), (3, None)]
    r = swiss_pairings([(1, 1), (2, 1), (3, 1)], history, 4)
    assert r.bye == 3


def test_refusals() -> None:
    with pytest.raises(PairingError, match="too_few_entrants"):
        swiss_pairings([(1, 0)], [], 1)
    with pytest.raises(PairingError, match="duplicate_entrant"):
        swiss_pairings([(1, 0), (1, 0)], [], 1)
    with pytest.raises(PairingError, match="invalid_round"):
        swiss_pairings([(1, 0), (2, 0)], [], 0)
    with pytest.raises(PairingError, match="invalid_history"):
        swiss_pairings([(1, 0), (2, 0)], [(1, 1)], 2)


def test_round_to_dict_round_trip() -> None:
    r = Round(number=2, pairings=((1, 2), (3, 4)), bye=5, rematches=1)
    assert Round.from_dict(r.to_dict()) == r


# ---------------------------------------------------------------------------- simulation


def _rematch_free_exists(ids: Sequence[EntrantId], met: Counter[frozenset[EntrantId]]) -> bool:
    """Brute force: can ``ids`` be fully paired with no two who met?"""
    if not ids:
        return True
    first, rest = ids[0], ids[1:]
    for i, other in enumerate(rest):
        if not met[frozenset((first, other))] and _rematch_free_exists(
            rest[:i] + rest[i + 1 :], met
        ):
            return True
    return False


def simulate(n: int, rounds: int, rng: random.Random, *, brute_force: bool) -> None:
    ids: list[EntrantId] = list(range(1, n + 1))
    wins = Counter[EntrantId]()
    byes = Counter[EntrantId]()
    met = Counter[frozenset[EntrantId]]()
    history: History = []
    even = n - n % 2
    for round_no in range(1, rounds + 1):
        ranked = sorted(ids, key=lambda p: -wins[p])  # stable: id breaks ties
        players = [(p, float(wins[p])) for p in ranked]
        if brute_force:
            fewest = min(byes[p] for p in ids)
            tier = [p for p in ids if byes[p] == fewest] if n % 2 else [None]
            avoidable = any(_rematch_free_exists([p for p in ranked if p != b], met) for b in tier)
        r = swiss_pairings(players, history, round_no)
        seen = [p for pair in r.pairings for p in pair] + ([r.bye] if r.bye is not None else [])
        assert sorted(seen) == ids  # everyone exactly once
        assert (r.bye is None) == (n % 2 == 0)
        if r.bye is not None:
            assert byes[r.bye] == min(byes[p] for p in ids)
        actual = sum(1 for a, b in r.pairings if met[frozenset((a, b))])
        assert r.rematches == actual
        if round_no <= even // 2:
            # Dirac: everyone still has >= half the field unmet, a rematch-free pairing exists.
            assert actual == 0, (n, round_no)
        if brute_force and avoidable:
            assert actual == 0, (n, round_no, r)
        for a, b in r.pairings:
            met[frozenset((a, b))] += 1
            wins[rng.choice((a, b))] += 1
        if r.bye is not None:
            byes[r.bye] += 1
            wins[r.bye] += 1
        history += r.history()


@pytest.mark.parametrize("n", range(2, 66))
def test_swiss_simulation_every_size(n: int) -> None:
    rounds = min(n + 1, math.ceil(math.log2(n)) + 2)
    simulate(n, rounds, random.Random(n), brute_force=False)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 9), seed=st.integers(0, 2**32), extra=st.integers(0, 4))
def test_swiss_no_avoidable_rematch_brute_force(n: int, seed: int, extra: int) -> None:
    """Small fields, played past the point where rematches become necessary."""
    simulate(n, n - 1 + extra, random.Random(seed), brute_force=True)


def test_matching_finds_a_perfect_matching_through_a_blossom() -> None:
    # Odd cycle 0-1-2-3-4 with a pendant 5 on 0 and an edge 6-7 hanging on 2. The greedy
    # start matches 0-1, 2-3, 6-7 and leaves 4 and 5 exposed. From 4, vertex 0 is first
    # reached as an odd (inner) vertex, so 5 is found only after contracting the blossom
    # 0-1-2-3-4: the path is 4-3=2-1=0-5.
    adj = [[1, 4, 5], [0, 2], [1, 3, 6], [2, 4], [3, 0], [0], [2, 7], [6]]
    mate = maximum_matching(adj)
    assert all(m != -1 for m in mate)
    assert all(mate[mate[v]] == v and mate[v] in adj[v] for v in range(8))


@given(
    n=st.integers(2, 14),
    edges=st.sets(st.tuples(st.integers(0, 13), st.integers(0, 13)), max_size=40),
)
@settings(max_examples=80, deadline=None)
def test_matching_is_maximum(n: int, edges: set[tuple[int, int]]) -> None:
    adj: list[list[int]] = [[] for _ in range(n)]
    for a, b in edges:
        if a < n and b < n and a != b and b not in adj[a]:
            adj[a].append(b)
            adj[b].append(a)
    mate = maximum_matching(adj)
    assert all(mate[v] == -1 or (mate[mate[v]] == v and mate[v] in adj[v]) for v in range(n))
    size = sum(1 for m in mate if m != -1) // 2

    def best(vs: list[int]) -> int:
        if not vs:
            return 0
        v, rest = vs[0], vs[1:]
        result = best(rest)
        for u in adj[v]:
            if u in rest:
                result = max(result, 1 + best([w for w in rest if w != u]))
        return result

    assert size == best(list(range(n)))


# ---------------------------------------------------------------------------- round robin


@pytest.mark.parametrize("n", range(2, 66))
def test_round_robin_every_pair_once(n: int) -> None:
    players = [f"p{i}" for i in range(n)]
    rounds = round_robin_rounds(players)
    assert len(rounds) == n - 1 + n % 2
    pairs = Counter(frozenset(p) for r in rounds for p in r.pairings)
    assert len(pairs) == n * (n - 1) // 2 and set(pairs.values()) == {1}
    for r in rounds:
        seen = [p for pair in r.pairings for p in pair] + ([r.bye] if r.bye else [])
        assert sorted(seen) == sorted(players)
    byes = [r.bye for r in rounds if r.bye is not None]
    assert sorted(byes) == (sorted(players) if n % 2 else [])
    assert [r.number for r in rounds] == list(range(1, len(rounds) + 1))


def test_round_robin_by_hand() -> None:
    rounds = round_robin_rounds([1, 2, 3, 4])
    assert [r.pairings for r in rounds] == [((1, 4), (2, 3)), ((1, 3), (2, 4)), ((1, 2), (3, 4))]


def test_round_robin_refusals() -> None:
    with pytest.raises(PairingError, match="too_few_entrants"):
        round_robin_rounds([1])
    with pytest.raises(PairingError, match="duplicate_entrant"):
        round_robin_rounds([1, 1])
