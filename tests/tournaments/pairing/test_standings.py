"""Standings: wins, Buchholz (byes add nothing), point difference, head-to-head, shared ranks."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import ROUND_ROBIN_ORDER, MatchResult, PairingError, standings


def R(a: str, b: str | None, winner: str | None = None, pa: int = 0, pb: int = 0) -> MatchResult:
    return MatchResult(a=a, b=b, winner=winner if b is not None else a, points_a=pa, points_b=pb)


def test_worked_example() -> None:
    """Four players, three rounds, every pair meets once.

    Round 1: A beats B 5-3, C beats D 5-0.  Round 2: A beats C 5-4, B beats D 5-1.
    Round 3: D beats A 5-2, C beats B 5-4.
    Wins: A 2, C 2, B 1, D 1.
    Buchholz: A = B1 + C2 + D1 = 4, C = D1 + A2 + B1 = 4;
    B = A2 + D1 + C2 = 5, D = C2 + B1 + A2 = 5.
    Point difference: A (5+5+2)-(3+4+5) = 0; C (5+4+5)-(0+5+4) = +5; B (3+5+4)-(5+1+5) = +1;
    D (0+1+5)-(5+5+2) = -6.
    """
    results = [
        R("A", "B", "A", 5, 3),
        R("C", "D", "C", 5, 0),
        R("A", "C", "A", 5, 4),
        R("B", "D", "B", 5, 1),
        R("D", "A", "D", 5, 2),
        R("C", "B", "C", 5, 4),
    ]
    table = standings(["A", "B", "C", "D"], results)
    assert [(s.rank, s.player, s.wins, s.buchholz, s.point_difference) for s in table] == [
        (1, "C", 2, 4, 5),
        (2, "A", 2, 4, 0),
        (3, "B", 1, 5, 1),
        (4, "D", 1, 5, -6),
    ]
    # Head-to-head before point difference: A beat C.
    table = standings(
        ["A", "B", "C", "D"], results, order=("wins", "head_to_head", "point_difference")
    )
    assert [s.player for s in table] == ["A", "C", "B", "D"]
    assert table[0].head_to_head == 1 and table[1].head_to_head == 0
    # Wins alone: ties share a rank and keep the given order.
    table = standings(["A", "B", "C", "D"], results, order=("wins",))
    assert [(s.rank, s.player) for s in table] == [(1, "A"), (1, "C"), (3, "B"), (3, "D")]


def test_bye_is_a_win_that_adds_nothing_to_buchholz() -> None:
    results = [R("A", "B", "A", 3, 1), R("C", None), R("C", "A", "C", 3, 0), R("B", None)]
    table = {s.player: s for s in standings(["A", "B", "C"], results)}
    assert (table["C"].wins, table["C"].byes, table["C"].played) == (2, 1, 1)
    assert table["C"].buchholz == table["A"].wins == 1  # only A counts for C
    assert table["A"].buchholz == table["B"].wins + table["C"].wins == 1 + 2  # B's bye counts
    assert table["C"].point_difference == 3


def test_buchholz_decides_before_point_difference_by_default() -> None:
    results = [R("A", "X", "A", 1, 0), R("B", "Y", "B", 9, 0), R("X", "Y", "X", 1, 0)]
    # A, B and X have one win. Buchholz: A 1 (X won once), X 1 (A 1 + Y 0), B 0 (Y).
    # Point difference: B +9, A +1, X 0 (lost 0-1, won 1-0).
    table = standings(["B", "A", "X", "Y"], results)
    assert [(s.rank, s.player) for s in table] == [(1, "A"), (2, "X"), (3, "B"), (4, "Y")]
    table = standings(["B", "A", "X", "Y"], results, order=("wins", "point_difference"))
    assert [s.player for s in table] == ["B", "A", "X", "Y"]


def test_head_to_head_only_inside_the_tied_group() -> None:
    # A, B, C all 1 win in a cycle: head-to-head can't separate them.
    results = [R("A", "B", "A"), R("B", "C", "B"), R("C", "A", "C")]
    table = standings(["A", "B", "C"], results, order=("wins", "head_to_head"))
    assert [s.rank for s in table] == [1, 1, 1]


def test_refusals() -> None:
    with pytest.raises(PairingError, match="invalid_tiebreaks"):
        standings(["A"], [], order=("wins", "sonneborn"))
    with pytest.raises(PairingError, match="invalid_tiebreaks"):
        standings(["A"], [], order=("wins", "wins"))
    with pytest.raises(PairingError, match="unknown_player"):
        standings(["A"], [R("A", "Z", "A")])
    with pytest.raises(PairingError, match="invalid_result"):
        MatchResult("A", "B", winner="C")
    with pytest.raises(PairingError, match="invalid_result"):
        MatchResult("A", None, winner="B")
    with pytest.raises(PairingError, match="duplicate_entrant"):
        standings(["A", "A"], [])


def test_to_dict_round_trip() -> None:
    r = R("A", "B", "B", 2, 5)
    assert MatchResult.from_dict(r.to_dict()) == r
    line = standings(["A", "B"], [r])[0].to_dict()
    assert line["player"] == "B" and line["point_difference"] == 3


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 20), seed=st.integers(0, 2**32))
def test_ranks_are_consistent(n: int, seed: int) -> None:
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(n)]
    results = []
    for _ in range(rng.randint(0, 3 * n)):
        a, b = rng.sample(players, 2)
        w = rng.choice((a, b))
        results.append(
            R(a, b, w, 5 if w == a else rng.randint(0, 4), 5 if w == b else rng.randint(0, 4))
        )
    table = standings(players, results)
    assert sorted(s.player for s in table) == sorted(players)
    assert sum(s.wins for s in table) == len(results) == sum(s.losses for s in table)
    assert sum(s.point_difference for s in table) == 0
    for i, s in enumerate(table):
        assert 1 <= s.rank <= i + 1
        if i:
            prev = table[i - 1]
            assert (prev.wins, prev.buchholz) >= (s.wins, s.buchholz)
            assert s.rank == prev.rank or s.rank == i + 1
            if s.rank == prev.rank:
                assert (prev.wins, prev.buchholz, prev.point_difference) == (
                    s.wins,
                    s.buchholz,
                    s.point_difference,
                )


def test_head_to_head_column_counts_wins_in_the_score_group_whatever_the_order() -> None:
    """Issue 29: with head-to-head last (the default order), the groups left to it were
    single players and the column showed 0 for everybody."""
    results = [
        R("A", "B", "A", 5, 3),
        R("C", "D", "C", 5, 0),
        R("A", "C", "A", 5, 4),
        R("B", "D", "B", 5, 1),
        R("D", "A", "D", 5, 2),
        R("C", "B", "C", 5, 4),
    ]
    table = {s.player: s for s in standings(["A", "B", "C", "D"], results)}
    # A and C are level on 2 wins (A beat C); B and D on 1 (B beat D).
    assert {p: s.head_to_head for p, s in table.items()} == {"A": 1, "B": 1, "C": 0, "D": 0}
    assert table["C"].rank < table["A"].rank  # the order itself is unchanged


def test_round_robin_order_separates_what_buchholz_cannot() -> None:
    # A full round robin of 4: A and B on 2 wins, A beat B; B has the better difference.
    results = [
        R("A", "B", "A", 5, 4),
        R("C", "D", "D", 0, 5),
        R("A", "D", "A", 5, 4),
        R("B", "C", "B", 5, 0),
        R("C", "A", "C", 5, 0),
        R("B", "D", "B", 5, 0),
    ]
    by_default = standings(["A", "B", "C", "D"], results)
    assert by_default[0].buchholz == by_default[1].buchholz  # equal in a full round robin
    assert [s.player for s in by_default][:2] == ["B", "A"]  # the difference decided
    table = standings(["A", "B", "C", "D"], results, order=ROUND_ROBIN_ORDER)
    assert [s.player for s in table][:2] == ["A", "B"]
