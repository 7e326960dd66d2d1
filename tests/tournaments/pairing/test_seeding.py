"""Seeding order, bracket size and the standard bracket line (byes to the top seeds)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.pairing import (
    PairingError,
    Seeding,
    bracket_line,
    bracket_size,
    bye_seeds,
    seed_order,
)


def test_rating_order_descending_with_stable_ties() -> None:
    s = seed_order([("a", 1500), ("b", 1700), ("c", 1500), ("d", 1800)], method="rating")
    assert s.order == ("d", "b", "a", "c")  # a before c: equal ratings keep the given order
    assert s.seed is None


def test_random_order_is_reproducible_from_its_seed() -> None:
    entrants = [(i, 1500.0) for i in range(20)]
    one = seed_order(entrants, method="random", seed=42)
    two = seed_order(entrants, method="random", seed=42)
    other = seed_order(entrants, method="random", seed=43)
    assert one == two
    assert one.order != other.order
    assert sorted(one.order) == list(range(20))
    assert Seeding.from_dict(one.to_dict()) == one


@pytest.mark.parametrize(
    ("method", "seed", "code"),
    [
        ("random", None, "invalid_seed"),
        ("rating", 3, "invalid_seed"),
        ("coin", None, "invalid_seed_method"),
    ],
)
def test_seed_order_refusals(method: str, seed: int | None, code: str) -> None:
    with pytest.raises(PairingError) as err:
        seed_order([(1, 1.0), (2, 2.0)], method=method, seed=seed)  # type: ignore[arg-type]
    assert err.value.code == code


def test_duplicate_entrant_refused() -> None:
    with pytest.raises(PairingError, match="duplicate_entrant"):
        seed_order([(1, 1.0), (1, 2.0)], method="rating")


def test_standard_line_by_hand() -> None:
    assert bracket_line(2) == [1, 2]
    assert bracket_line(4) == [1, 4, 2, 3]
    assert bracket_line(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    line16 = bracket_line(16)
    pairs = [tuple(line16[i : i + 2]) for i in range(0, 16, 2)]
    assert pairs[:2] == [(1, 16), (8, 9)]
    assert sorted(pairs) == sorted((k, 17 - k) for k in range(1, 9))


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64, 128])
def test_line_meetings_with_favourites_winning(size: int) -> None:
    """With the better seed always winning, round r is contested by seeds 1..size/2^(r-1),
    and seed k meets the seed that makes the pair sum constant (1 v 2 only in the final)."""
    line = bracket_line(size)
    assert sorted(line) == list(range(1, size + 1))
    alive = line
    while len(alive) > 1:
        total = len(alive) + 1
        pairs = [(alive[i], alive[i + 1]) for i in range(0, len(alive), 2)]
        assert all(a + b == total for a, b in pairs)
        alive = [min(p) for p in pairs]
    assert alive == [1]


@pytest.mark.parametrize("n", range(2, 66))
def test_size_and_byes_go_to_top_seeds(n: int) -> None:
    size = bracket_size(n)
    assert size >= n > size // 2 or n == size == 2
    byes = bye_seeds(n)
    assert byes == list(range(1, size - n + 1))
    line = bracket_line(size)
    # Every bye seed number (> n) stands opposite one of the top seeds.
    opposite = {line[i]: line[i ^ 1] for i in range(size)}
    assert sorted(opposite[b] for b in range(n + 1, size + 1)) == byes


def test_bracket_size_refuses_fewer_than_two() -> None:
    for bad in (0, 1, -3):
        with pytest.raises(PairingError, match="too_few_entrants"):
            bracket_size(bad)


@given(st.lists(st.floats(0, 3000, allow_nan=False), min_size=1, max_size=40))
def test_rating_order_is_a_sorted_permutation(ratings: list[float]) -> None:
    entrants = list(enumerate(ratings))
    s = seed_order(entrants, method="rating")
    assert sorted(s.order) == list(range(len(ratings)))
    got = [ratings[i] for i in s.order]
    assert got == sorted(ratings, reverse=True)
