"""The prize money arithmetic (:mod:`tournaments.payouts`), with plain values."""

from __future__ import annotations

import itertools
from decimal import Decimal as D

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.payouts import (
    CURRENCIES,
    PayoutError,
    PlaceGroup,
    check_amount,
    check_percent,
    check_split,
    currency_unit,
    house_cut,
    paid_order,
    pool_payouts,
)

HUF = D(1)
EUR = D("0.01")


def knockout_of(n: int, prefix: str = "p") -> list[PlaceGroup]:
    """A finished knockout of ``n`` (a power of two): 1, 2, 3-4, 5-8, ..."""
    groups = [PlaceGroup(1, (f"{prefix}1",)), PlaceGroup(2, (f"{prefix}2",))]
    rank = 3
    while rank <= n:
        size = rank - 1
        groups.append(PlaceGroup(rank, tuple(f"{prefix}{i}" for i in range(rank, rank + size))))
        rank += size
    return groups


def amounts(result):
    return {(p.ranking, p.entrant): p.amount for p in result.payouts}


# ---------------------------------------------------------------- examples
def test_the_issues_40_25_25_10_over_main_and_consolation():
    """16 paid at 5000 Ft, 10 % to the house: 72 000 Ft; main 1st/2nd 40/25, consolation
    1st/2nd 25/10."""
    main = knockout_of(16)
    consolation = knockout_of(8, prefix="p1")  # entrants "p11".."p18" (the round-1 losers)
    paid = {e for g in main for e in g.entrants}
    result = pool_payouts(
        fee=D(5000),
        paid=paid,
        orders={"main": main, "consolation": consolation},
        split=check_split({"main": [40, 25], "consolation": [25, 10]}, ["main", "consolation"]),
        unit=HUF,
        house_percent=D(10),
    )
    assert result.collected == D(80000)
    assert result.house == D(8000)
    assert result.prize_pool == D(72000)
    assert amounts(result) == {
        ("main", "p1"): D(28800),
        ("main", "p2"): D(18000),
        ("consolation", "p11"): D(18000),
        ("consolation", "p12"): D(7200),
    }
    assert result.unclaimed == result.remainder == 0
    assert result.shares == {"main": (D(28800), D(18000)), "consolation": (D(18000), D(7200))}
    assert result.final


def test_shared_places_split_the_sum_of_their_shares_and_rounding_goes_to_the_house():
    """50/30/10/10 of 7 x 1000 Ft: the semi-finalists (3-4) share 20 % = 1400 Ft;
    1st 3500, 2nd 2100."""
    groups = [PlaceGroup(1, ("a",)), PlaceGroup(2, ("b",)), PlaceGroup(3, ("c", "d"))]
    groups.append(PlaceGroup(5, ("e", "f", "g")))
    result = pool_payouts(
        fee=D(1000),
        paid="abcdefg",
        orders={"main": groups},
        split={"main": (D(50), D(30), D(10), D(10))},
        unit=HUF,
    )
    assert amounts(result) == {
        ("main", "a"): D(3500),
        ("main", "b"): D(2100),
        ("main", "c"): D(700),
        ("main", "d"): D(700),
    }
    assert [p.label for p in result.payouts] == ["1", "2", "3-4", "3-4"]
    assert result.remainder == 0

    # 10 x 100 Ft, 1st 100 % shared three ways (a Swiss tie): 333 each, 1 Ft left over.
    tie = pool_payouts(
        fee=D(100),
        paid="abcdefghij",
        orders={"": [PlaceGroup(1, ("a", "b", "c"))]},
        split={"": (D(100),)},
        unit=HUF,
    )
    assert {p.amount for p in tie.payouts} == {D(333)}
    assert tie.remainder == D(1)
    assert tie.paid_out + tie.house + tie.unclaimed + tie.remainder == tie.collected


def test_a_tie_across_paid_and_unpaid_places():
    """Two tied for 2nd-3rd with 30 and 20: 25 % each."""
    result = pool_payouts(
        fee=D(10),
        paid="abcd",
        orders={"": [PlaceGroup(1, ("a",)), PlaceGroup(2, ("b", "c")), PlaceGroup(4, ("d",))]},
        split={"": (D(50), D(30), D(20))},
        unit=EUR,
    )
    assert amounts(result) == {("", "a"): D(20), ("", "b"): D(10), ("", "c"): D(10)}


def test_unpaid_entrants_are_counted_out_of_the_pool_and_the_order():
    """The unpaid winner takes nothing; the paid runner-up is first among the paid."""
    groups = [PlaceGroup(1, ("a",)), PlaceGroup(2, ("b",)), PlaceGroup(3, ("c", "d"))]
    result = pool_payouts(
        fee=D(2000),
        paid={"b", "c", "d"},
        orders={"main": groups},
        split={"main": (D(60), D(40))},
        unit=HUF,
    )
    assert result.collected == D(6000)
    assert amounts(result) == {("main", "b"): D(3600), ("main", "c"): D(1200)} | {
        ("main", "d"): D(1200)
    }
    assert [p.label for p in result.payouts] == ["1", "2-3", "2-3"]
    assert paid_order(groups, {"b", "d"}) == [PlaceGroup(1, ("b",)), PlaceGroup(2, ("d",))]


def test_no_paid_entries_pays_nothing():
    result = pool_payouts(
        fee=D(5000),
        paid=set(),
        orders={"main": knockout_of(4)},
        split={"main": (D(70), D(30))},
        unit=HUF,
        house_fixed=D(3000),
    )
    assert (result.collected, result.house, result.prize_pool) == (0, 0, 0)
    assert result.payouts == ()
    assert result.unclaimed == result.remainder == 0


def test_places_nobody_holds_are_unclaimed():
    """Two paid players, three paid places: the 3rd's 20 % is unclaimed (the house's)."""
    result = pool_payouts(
        fee=D("12.50"),
        paid={"a", "b"},
        orders={"main": [PlaceGroup(1, ("a",)), PlaceGroup(2, ("b",))]},
        split={"main": (D(50), D(30), D(20))},
        unit=EUR,
    )
    assert result.collected == D("25.00")
    assert amounts(result) == {("main", "a"): D("12.50"), ("main", "b"): D("7.50")}
    assert result.unclaimed == D("5.00")


def test_the_house_takes_percent_plus_fixed_never_more_than_collected():
    assert house_cut(D(10000), percent=D(10), fixed=D(2000), unit=HUF) == D(3000)
    assert house_cut(D(999), percent=D("12.5"), fixed=D(0), unit=HUF) == D(124)  # 124.875
    assert house_cut(D(1000), percent=D(50), fixed=D(5000), unit=HUF) == D(1000)


def test_the_preview_shares_the_places_still_played_for():
    """Mid-flight: the four still playing share 1st-4th "as it stands"."""
    groups = [PlaceGroup(1, ("a", "b", "c", "d"), final=False), PlaceGroup(5, ("e", "f"))]
    result = pool_payouts(
        fee=D(1000),
        paid="abcdef",
        orders={"main": groups},
        split={"main": (D(50), D(30), D(10), D(10))},
        unit=HUF,
    )
    assert {p.amount for p in result.payouts} == {D(1500)}
    assert not result.final


def test_rounding_to_the_currencys_unit():
    assert currency_unit("HUF") == 1
    assert currency_unit("EUR") == D("0.01")
    result = pool_payouts(
        fee=D("3.33"),
        paid="abc",
        orders={"": [PlaceGroup(1, ("a",)), PlaceGroup(2, ("b",)), PlaceGroup(3, ("c",))]},
        split={"": (D(50), D(30), D(20))},
        unit=EUR,
    )
    assert amounts(result) == {("", "a"): D("4.99"), ("", "b"): D("2.99"), ("", "c"): D("1.99")}
    assert result.remainder == D("0.02")


# ---------------------------------------------------------------- refusals
@pytest.mark.parametrize(
    ("split", "code", "field"),
    [
        ({"main": [60, 50]}, "split_not_100", "split"),
        ({"main": [40, 25]}, "split_not_100", "split"),
        ({"main": [100], "quarterfinal": [0]}, "unknown_ranking", "split:quarterfinal"),
        ({"main": [-10, 110]}, "invalid_percent", "split:main"),
        ({"main": ["forty"]}, "invalid_percent", "split:main"),
        ({"main": [33.333, 66.667]}, "invalid_percent", "split:main"),
        ({"main": "100"}, "invalid_split", "split:main"),
        ({}, "split_not_100", "split"),
    ],
)
def test_a_split_is_refused(split, code, field):
    with pytest.raises(PayoutError) as exc:
        check_split(split, ["main", "consolation"])
    assert (exc.value.code, exc.value.field) == (code, field)


def test_a_split_is_cleaned():
    assert check_split(
        {"main": ["40", 25.5, "0"], "consolation": [34.5, 0]}, ["main", "consolation"]
    ) == {
        "main": (D(40), D("25.5")),
        "consolation": (D("34.5"),),
    }


@pytest.mark.parametrize(
    ("value", "unit", "code"),
    [
        ("-1", HUF, "invalid_amount"),
        ("10.5", HUF, "amount_not_in_unit"),
        ("abc", HUF, "invalid_amount"),
        ("NaN", EUR, "invalid_amount"),
        ("1.001", EUR, "amount_not_in_unit"),
        ("1e12", HUF, "invalid_amount"),
    ],
)
def test_an_amount_is_refused(value, unit, code):
    with pytest.raises(PayoutError) as exc:
        check_amount(value, unit, field="fee")
    assert (exc.value.code, exc.value.field) == (code, "fee")


def test_amounts_and_percents_are_cleaned():
    assert check_amount("5000", HUF, field="fee") == D(5000)
    assert str(check_amount(D("2.5"), EUR, field="fee")) == "2.50"
    assert str(check_percent("40.00", field="x")) == "40"
    with pytest.raises(PayoutError):
        currency_unit("XYZ")


# ---------------------------------------------------------------- properties
@st.composite
def pools(draw):
    """A finishing order of up to 40 entrants in groups, some unpaid, and a split."""
    n = draw(st.integers(0, 40))
    sizes = []
    left = n
    while left:
        size = draw(st.integers(1, left))
        sizes.append(size)
        left -= size
    groups, rank = [], 1
    for i, size in enumerate(sizes):
        groups.append(PlaceGroup(rank, tuple(range(rank, rank + size)), final=i > 0 or n < 3))
        rank += size
    paid = draw(st.sets(st.integers(1, n))) if n else set()
    places = draw(st.integers(1, 8))
    cuts = sorted(draw(st.lists(st.integers(0, 10000), min_size=places - 1, max_size=places - 1)))
    bounds = [0, *cuts, 10000]
    pcts = sorted((D(b - a) / 100 for a, b in itertools.pairwise(bounds)), reverse=True)
    code = draw(st.sampled_from(sorted(CURRENCIES)))
    unit = currency_unit(code)
    fee = draw(st.integers(0, 100000)) * unit
    return {
        "fee": fee,
        "paid": paid,
        "orders": {"main": groups},
        "split": check_split({"main": pcts}, ["main"]),
        "unit": unit,
        "house_percent": D(draw(st.integers(0, 10000))) / 100,
        "house_fixed": draw(st.integers(0, 10000)) * unit,
    }


@given(pools())
def test_money_is_conserved(kwargs):
    result = pool_payouts(**kwargs)
    assert result.paid_out + result.house + result.unclaimed + result.remainder == result.collected
    assert result.collected == kwargs["fee"] * len(kwargs["paid"])
    assert all(x >= 0 for x in (result.house, result.unclaimed, result.remainder))
    unit = kwargs["unit"]
    for amount in (result.house, result.unclaimed, result.remainder, *amounts(result).values()):
        assert amount % unit == 0
    # Rounding leaves less than one unit per payout, plus one for the unclaimed shares.
    assert result.remainder < unit * (len(result.payouts) + 1)


@given(pools())
def test_only_the_paid_win_and_a_better_place_never_wins_less(kwargs):
    result = pool_payouts(**kwargs)
    assert {p.entrant for p in result.payouts} <= kwargs["paid"]
    by_rank = sorted(result.payouts, key=lambda p: p.rank)
    for better, worse in itertools.pairwise(by_rank):
        assert better.amount >= worse.amount  # the split goes down, so do its averages
        if better.rank == worse.rank:
            assert better.amount == worse.amount
