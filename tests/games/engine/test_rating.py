"""The FIBS rating formula (``games.engine.rating``) with numbers worked by hand (issue 8).

The formula: D = |r1 - r2|, P_upset = 1 / (10^(D*sqrt(N)/2000) + 1); the winner gains and
the loser loses 4*K*sqrt(N)*P, P = 1 - P_upset after an upset, else P_upset;
K = max(1, 5 - experience/100). Changes are rounded to cents, half to even.
"""

from __future__ import annotations

import math
import random
from decimal import Decimal

import pytest

from games.engine.rating import (
    INITIAL_RATING,
    Result,
    k_factor,
    p_upset,
    preview,
    rate,
    replay,
    round_change,
)

D = Decimal
VETERAN = 400  # experience from which K is 1


def test_one_point_match_between_equal_veterans_moves_each_by_exactly_two():
    # D = 0: P_upset = 1 / (10^0 + 1) = 1/2; K = 1 each; change = 4 * 1 * sqrt(1) * 1/2 = 2.
    change = rate(D("1723.45"), 1000, D("1723.45"), VETERAN, length=1, winner=2)
    assert change.p_upset == 0.5
    assert change.p == 0.5
    assert change.upset is False  # equal ratings: no underdog, the winner is the favourite
    assert (change.player1.k, change.player2.k) == (1.0, 1.0)
    assert change.player1.change == D("-2.00")
    assert change.player2.change == D("2.00")
    assert change.player1.rating_after == D("1721.45")
    assert change.player2.rating_after == D("1725.45")
    assert (change.player1.experience_after, change.player2.experience_after) == (1001, 401)


def test_equal_ratings_give_the_same_change_whoever_wins():
    # Both formulas agree at D = 0 (1 - 1/2 = 1/2), so calling the winner the favourite
    # decides nothing: two newcomers (K = 5) at 1 point move by 4 * 5 * 1 * 1/2 = 10.
    one = rate(INITIAL_RATING, 0, INITIAL_RATING, 0, length=1, winner=1)
    two = rate(INITIAL_RATING, 0, INITIAL_RATING, 0, length=1, winner=2)
    assert one.player1.change == two.player2.change == D("10.00")
    assert one.player2.change == two.player1.change == D("-10.00")


@pytest.mark.parametrize(
    ("experience", "k"),
    [(0, 5.0), (1, 4.99), (50, 4.5), (100, 4.0), (250, 2.5), (399, 1.01), (400, 1.0), (5000, 1.0)],
)
def test_k_is_five_for_a_newcomer_and_one_from_400_on(experience, k):
    assert k_factor(experience) == pytest.approx(k)
    assert k_factor(0) == 5.0
    assert k_factor(400) == 1.0


def test_newcomers_k_is_used_for_their_own_change_only():
    # A newcomer (experience 0, K = 5) and a veteran (K = 1), equal, 1 point: the newcomer
    # moves by 4 * 5 * 1/2 = 10.00, the veteran by 4 * 1 * 1/2 = 2.00.
    change = rate(INITIAL_RATING, 0, INITIAL_RATING, VETERAN, length=1, winner=1)
    assert (change.player1.k, change.player2.k) == (5.0, 1.0)
    assert change.player1.change == D("10.00")
    assert change.player2.change == D("-2.00")


# The 7-point match between 1600 and 1500, both veterans (K = 1), worked by hand:
#   D = 100, sqrt(7) = 2.6457513, D * sqrt(N) / 2000 = 0.1322876,
#   10^0.1322876 = 1.3560870, P_upset = 1 / 2.3560870 = 0.4244325.
#   The favourite (1600) wins: P = P_upset = 0.4244325,
#     change = 4 * 1 * 2.6457513 * 0.4244325 = 4.4917718 -> 4.49: 1604.49 and 1495.51.
#   The underdog (1500) wins: P = 1 - P_upset = 0.5755675,
#     change = 4 * 1 * 2.6457513 * 0.5755675 = 6.0912335 -> 6.09: 1593.91 and 1506.09.
#   The underdog is a newcomer (K = 5) and wins: they gain 5 * 6.0912335 = 30.4561674
#     -> 30.46 (1530.46); the favourite loses 6.09 (1593.91).
def test_favourites_win_at_seven_points():
    change = rate(D("1600.00"), VETERAN, D("1500.00"), VETERAN, length=7, winner=1)
    assert change.difference == 100.0
    assert change.p_upset == pytest.approx(0.4244325, abs=1e-7)
    assert change.upset is False
    assert change.p == change.p_upset
    assert change.player1.exact == pytest.approx(4.4917718, abs=1e-7)
    assert change.player1.change == D("4.49")
    assert change.player2.change == D("-4.49")
    assert change.player1.rating_after == D("1604.49")
    assert change.player2.rating_after == D("1495.51")
    assert (change.player1.experience_after, change.player2.experience_after) == (407, 407)


def test_underdogs_win_at_seven_points():
    change = rate(D("1600.00"), VETERAN, D("1500.00"), VETERAN, length=7, winner=2)
    assert change.p_upset == pytest.approx(0.4244325, abs=1e-7)
    assert change.upset is True
    assert change.p == pytest.approx(0.5755675, abs=1e-7)
    assert change.player2.exact == pytest.approx(6.0912335, abs=1e-7)
    assert change.player2.change == D("6.09")
    assert change.player1.change == D("-6.09")
    assert change.player1.rating_after == D("1593.91")
    assert change.player2.rating_after == D("1506.09")


def test_newcomer_underdogs_win_at_seven_points():
    change = rate(D("1600.00"), VETERAN, D("1500.00"), 0, length=7, winner=2)
    assert (change.player1.k, change.player2.k) == (1.0, 5.0)
    assert change.player2.exact == pytest.approx(30.4561674, abs=1e-7)
    assert change.player2.change == D("30.46")
    assert change.player1.change == D("-6.09")
    assert change.player2.rating_after == D("1530.46")
    assert change.player1.rating_after == D("1593.91")


def test_the_formula_matches_its_definition():
    for d, n in [(0, 1), (100, 7), (350, 3), (1000, 25), (37.5, 11)]:
        assert p_upset(d, n) == pytest.approx(1 / (10 ** (d * math.sqrt(n) / 2000) + 1))
    assert p_upset(0, 9) == 0.5
    assert p_upset(400, 9) < p_upset(400, 1)  # longer matches favour the stronger player


def test_changes_round_to_cents_half_to_even_on_the_floats_exact_value():
    assert round_change(0.125) == D("0.12")  # exactly halfway (0.125 is a binary fraction)
    assert round_change(0.375) == D("0.38")
    assert round_change(2.675) == D("2.67")  # the float is 2.67499999..., below halfway
    assert round_change(4.4917718) == D("4.49")


def test_new_rating_is_old_plus_shown_change():
    rng = random.Random(8)
    for _ in range(500):
        r1 = D(rng.randint(100000, 250000)) / 100
        r2 = D(rng.randint(100000, 250000)) / 100
        c = rate(
            r1,
            rng.randint(0, 900),
            r2,
            rng.randint(0, 900),
            length=rng.randint(1, 25),
            winner=rng.choice((1, 2)),
        )
        for side in (c.player1, c.player2):
            assert side.rating_after == side.rating_before + side.change
            assert side.rating_after.as_tuple().exponent == -2
        assert (c.player1.change > 0) == (c.winner == 1)


def test_preview_shows_what_each_stands_to_gain_or_lose():
    p = preview(D("1600.00"), VETERAN, D("1500.00"), 0, 7)
    assert p.player1_gain == D("4.49")  # the favourite wins
    assert p.player1_loss == D("6.09")  # the underdog wins
    assert p.player2_gain == D("30.46")  # the newcomer underdog wins (K = 5)
    assert p.player2_loss == D("22.46")  # 5 * 4.4917718 = 22.458859
    assert p.if_player1_wins == rate(D("1600.00"), VETERAN, D("1500.00"), 0, length=7, winner=1)


def test_replay_is_the_same_as_rating_one_by_one():
    rng = random.Random(1)
    results = []
    for _ in range(300):
        a, b = rng.sample(range(10), 2)
        results.append(Result(a, b, rng.choice((1, 3, 5, 7, 11)), rng.choice((1, 2))))
    changes, final = replay(results)
    state = {}
    for res, change in zip(results, changes, strict=True):
        r1, e1 = state.get(res.player1, (INITIAL_RATING, 0))
        r2, e2 = state.get(res.player2, (INITIAL_RATING, 0))
        assert change == rate(r1, e1, r2, e2, length=res.length, winner=res.winner)
        state[res.player1] = (change.player1.rating_after, change.player1.experience_after)
        state[res.player2] = (change.player2.rating_after, change.player2.experience_after)
    assert final == state
    # Split in two with the state carried over: the same numbers.
    first, middle = replay(results[:120])
    second, end = replay(results[120:], middle)
    assert first + second == changes
    assert end == final


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"length": 0, "winner": 1}, "at least 1 point"),
        ({"length": 3, "winner": 0}, "player 1 or player 2"),
    ],
)
def test_refuses_what_is_not_a_rated_match(kwargs, message):
    with pytest.raises(ValueError, match=message):
        rate(INITIAL_RATING, 0, INITIAL_RATING, 0, **kwargs)


def test_the_fast_rounding_is_the_exact_rule():
    from games.engine.rating import _cents

    rng = random.Random(3)
    values = [rng.uniform(0, 100) for _ in range(20_000)]
    values += [n / 8 for n in range(800)]  # exact binary halves and quarters of a cent
    values += [n / 100 + 0.005 for n in range(2_000)]  # near halves
    for v in values:
        assert D(_cents(v)).scaleb(-2) == round_change(v), v


def test_the_lean_replay_gives_the_numbers_of_rate():
    from games.engine.rating import replay_numbers

    rng = random.Random(4)
    results = [
        (*rng.sample(range(8), 2), rng.choice((1, 3, 7, 25)), rng.choice((1, 2)))
        for _ in range(400)
    ]
    changes, final = replay([Result(*r) for r in results])
    state = {}
    lean = replay_numbers(results, state)
    assert state == final
    for change, numbers in zip(changes, lean, strict=True):
        a, b = change.player1, change.player2
        assert numbers == (
            change.p_upset, a.k, b.k, a.change, b.change, a.rating_before, a.rating_after,
            b.rating_before, b.rating_after, a.experience_before, a.experience_after,
            b.experience_before, b.experience_after,
        )  # fmt: skip


def test_the_replay_in_cents_gives_the_numbers_of_the_decimal_replay():
    from games.engine.rating import INITIAL_CENTS, replay_cents, replay_numbers

    rng = random.Random(5)
    results = [
        (*rng.sample(range(30), 2), rng.choice((1, 3, 5, 7, 11, 25)), rng.choice((1, 2)))
        for _ in range(3_000)
    ]
    # Some players start from stored values (as a replay from a key does), one of them
    # a veteran far from 1500 (K = 1, large differences).
    start = {0: (D("2123.47"), 950), 1: (D("1099.99"), 12), 2: (D("1500.01"), 399)}
    state_decimal = dict(start)
    state_cents = {p: (int(r * 100), e) for p, (r, e) in start.items()}
    decimal = replay_numbers(results, state_decimal)
    cents = replay_cents(results, state_cents)
    assert len(cents) == len(decimal) == 3_000
    for c, d in zip(cents, decimal, strict=True):
        assert c[:3] == d[:3]  # P_upset and each K: the very same floats
        assert [D(v).scaleb(-2) for v in c[3:9]] == list(d[3:9])
        assert c[9:] == d[9:]
    assert state_cents == {p: (int(r * 100), e) for p, (r, e) in state_decimal.items()}
    assert replay_cents([(7, 8, 1, 1)], {}) == [
        (0.5, 5.0, 5.0, 1000, -1000, INITIAL_CENTS, 151_000, INITIAL_CENTS, 149_000, 0, 1, 0, 1)
    ]
