"""Prize money (issue 17): what a pool collected, the house's cut, and each place's share.

Pure: plain values in, plain values out (no Django, no database); amounts are
:class:`~decimal.Decimal`, never floats. The terms, as the pages and the API use them:

* A **pool** is money paid in by its **entrants** and paid out to them by their places: a
  flight's **main pool** (its entry fee; the entrants are the flight's entries) or a
  **side pool** (its own fee, entrants and split; :class:`tournaments.models.SidePool`).
* Only the **paid** entrants count (``Entry.paid_at``; a side pool's own paid flag). An
  unpaid entrant is **counted out**: not in what was collected, and not in the order
  either: the paid entrants are ranked among themselves (the flight's order with the
  unpaid left out, places numbered again), so a prize never goes to someone who did not
  pay into the pool.
* **Collected**: the fee times the paid entrants.
* The **house cut**: ``house_percent`` % of what was collected (rounded down to the
  currency's unit) **plus** ``house_fixed`` (e.g. the room), both optional; never more
  than was collected. A side pool has no house cut (it is paid out whole).
* The **prize pool**: collected less the house cut.
* The **split**: for each ranking of the flight (``main``, ``consolation``,
  ``last_chance``; ``""`` for the Swiss / round robin standings) the percentages of the
  prize pool for its places 1, 2, ... All the split's percentages together are exactly
  100 (:func:`check_split` refuses anything else: to keep part of the money, the house
  takes a cut).
* A place's **share**: its percentage of the prize pool. A **shared place** (a group of
  paid entrants who share places ``r`` to ``r + k - 1``: "3-4" in a knockout, a tie in
  the standings) takes the shares of those places together and splits their sum evenly;
  each entrant's **amount** is rounded down to the currency's unit.
* **Unclaimed**: the shares of places no paid entrant holds (fewer paid entrants than
  paid places; a part nobody played).
* The **remainder**: what rounding down leaves over (less than one unit per payout).
  The house keeps the unclaimed money and the remainder; both are shown apart from the
  cut.
* Money is conserved: ``payouts + house + unclaimed + remainder = collected``.

A finishing order given to :func:`pool_payouts` may still be running (``final`` false on
the group still playing): then the result is the preview "if it ended as it stands", the
players still in the running sharing the places they play for.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal, InvalidOperation

from games.money.currencies import DIGITS

#: ISO 4217 codes offered, with the digits after the decimal point a prize is paid in
#: (:data:`games.money.currencies.DIGITS`: HUF in whole forints, as Hungarian clubs pay).
CURRENCIES: dict[str, int] = dict(DIGITS)
#: The currency of a new event.
DEFAULT_CURRENCY = "HUF"
#: The largest fee or fixed cut (and so the largest pool per entrant) accepted.
MAX_AMOUNT = Decimal("1000000000")
#: Places a split names, at most, per ranking.
MAX_PLACES = 64

HUNDRED = Decimal(100)
ZERO = Decimal(0)


class PayoutError(ValueError):
    """A money setting refused: ``code`` (stable), ``field`` (which one), ``message``."""

    def __init__(self, code: str, message: str, *, field: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field


def currency_unit(code: str) -> Decimal:
    """The smallest amount paid out in ``code`` (``1`` for HUF, ``0.01`` for EUR)."""
    if code not in CURRENCIES:
        raise PayoutError("invalid_currency", f"unknown currency {code!r}", field="currency")
    return Decimal(1).scaleb(-CURRENCIES[code])


def round_down(amount: Decimal, unit: Decimal) -> Decimal:
    """``amount`` rounded down to a whole number of ``unit``."""
    return (amount / unit).to_integral_value(rounding=ROUND_DOWN) * unit


def check_amount(value: object, unit: Decimal, *, field: str) -> Decimal:
    """A fee or fixed cut: a ``Decimal`` (or int / text) of 0 or more, in whole ``unit``."""
    try:
        amount = Decimal(str(value).strip()) if not isinstance(value, Decimal) else value
    except (InvalidOperation, ValueError):
        raise PayoutError("invalid_amount", f"{value!r} is not an amount", field=field) from None
    if not amount.is_finite() or amount < 0 or amount > MAX_AMOUNT:
        raise PayoutError("invalid_amount", f"{value!r} is out of range", field=field)
    if round_down(amount, unit) != amount:
        raise PayoutError("amount_not_in_unit", f"{value!r} is not in whole {unit}", field=field)
    return amount.quantize(unit)


def check_percent(value: object, *, field: str) -> Decimal:
    """A percentage, 0 to 100, with at most two decimals."""
    try:
        pct = Decimal(str(value).strip()) if not isinstance(value, Decimal) else value
    except (InvalidOperation, ValueError):
        raise PayoutError("invalid_percent", f"{value!r} is not a number", field=field) from None
    if not pct.is_finite() or not ZERO <= pct <= HUNDRED or pct != pct.quantize(Decimal("0.01")):
        raise PayoutError("invalid_percent", f"{value!r} is not a percentage", field=field)
    return pct.quantize(Decimal(1)) if pct == pct.to_integral_value() else pct


def check_split(
    split: Mapping[str, Sequence[object]], rankings: Collection[str]
) -> dict[str, tuple[Decimal, ...]]:
    """The split cleaned: every ranking one of ``rankings``, every percentage 0 to 100,
    at most :data:`MAX_PLACES` places, all together exactly 100 (the error's ``field``
    is ``split`` or ``split:<ranking>``)."""
    cleaned: dict[str, tuple[Decimal, ...]] = {}
    for ranking, places in split.items():
        name = f"split:{ranking}"
        if ranking not in rankings:
            raise PayoutError("unknown_ranking", f"no ranking {ranking!r}", field=name)
        if isinstance(places, str | bytes) or not isinstance(places, Sequence):
            raise PayoutError("invalid_split", "a list of percentages", field=name)
        if len(places) > MAX_PLACES:
            raise PayoutError("invalid_split", "too many places", field=name)
        pcts = tuple(check_percent(p, field=name) for p in places)
        while pcts and pcts[-1] == 0:
            pcts = pcts[:-1]
        if pcts:
            cleaned[ranking] = pcts
    total = sum((p for pcts in cleaned.values() for p in pcts), ZERO)
    if total != HUNDRED:
        raise PayoutError("split_not_100", f"the split adds up to {total}, not 100", field="split")
    return cleaned


def house_cut(collected: Decimal, *, percent: Decimal, fixed: Decimal, unit: Decimal) -> Decimal:
    """``percent`` % of ``collected`` rounded down, plus ``fixed``; at most ``collected``."""
    return min(collected, round_down(collected * percent / HUNDRED, unit) + fixed)


@dataclass(frozen=True, slots=True)
class PlaceGroup:
    """Entrants sharing a place of a finishing order: ``rank`` is the group's best place;
    ``final`` is false for the group still playing (as
    :class:`tournaments.pairing.Place`)."""

    rank: int
    entrants: tuple[Hashable, ...]
    final: bool = True


@dataclass(frozen=True, slots=True)
class Payout:
    """One entrant's prize: in ``ranking``, the places ``rank`` to ``last`` (among the
    paid entrants) shared with ``shared_by - 1`` others; ``percent`` of the prize pool."""

    ranking: str
    rank: int
    last: int
    entrant: Hashable
    percent: Decimal
    amount: Decimal
    shared_by: int = 1
    final: bool = True

    @property
    def label(self) -> str:
        """``"1"``, ``"3-4"``."""
        return str(self.rank) if self.last == self.rank else f"{self.rank}-{self.last}"


@dataclass(frozen=True, slots=True)
class PoolResult:
    """A pool worked out (see the module docstring for the terms). ``shares``: ranking ->
    each place's share of the prize pool, rounded down (the prize list)."""

    fee: Decimal
    paid: int
    collected: Decimal
    house: Decimal
    prize_pool: Decimal
    payouts: tuple[Payout, ...]
    unclaimed: Decimal
    remainder: Decimal
    shares: dict[str, tuple[Decimal, ...]] = field(default_factory=dict)

    @property
    def paid_out(self) -> Decimal:
        return sum((p.amount for p in self.payouts), ZERO)

    @property
    def final(self) -> bool:
        """Whether every payout is final (no group still playing among them)."""
        return all(p.final for p in self.payouts)


def paid_order(groups: Sequence[PlaceGroup], paid: Collection[Hashable]) -> list[PlaceGroup]:
    """``groups`` (best first) with the unpaid left out and the places numbered again
    among the paid: a group keeps its entrants' order, an empty group goes."""
    out: list[PlaceGroup] = []
    rank = 1
    for group in sorted(groups, key=lambda g: g.rank):
        kept = tuple(e for e in group.entrants if e in paid)
        if kept:
            out.append(PlaceGroup(rank, kept, group.final))
            rank += len(kept)
    return out


def pool_payouts(
    *,
    fee: Decimal,
    paid: Collection[Hashable],
    orders: Mapping[str, Sequence[PlaceGroup]],
    split: Mapping[str, Sequence[Decimal]],
    unit: Decimal,
    house_percent: Decimal = ZERO,
    house_fixed: Decimal = ZERO,
) -> PoolResult:
    """The pool of ``paid`` entrants at ``fee`` each, paid out by ``split`` (cleaned by
    :func:`check_split`, or empty: nothing paid out) over ``orders`` (ranking -> place
    groups, best first). Rounding: each amount down to ``unit``."""
    paid = set(paid)
    collected = fee * len(paid)
    house = house_cut(collected, percent=house_percent, fixed=house_fixed, unit=unit)
    prize_pool = collected - house
    payouts: list[Payout] = []
    unclaimed_pct = ZERO
    shares: dict[str, tuple[Decimal, ...]] = {}
    for ranking, pcts in split.items():
        shares[ranking] = tuple(round_down(prize_pool * p / HUNDRED, unit) for p in pcts)
        held = 0
        for group in paid_order(orders.get(ranking, ()), paid):
            first = group.rank - 1
            if first >= len(pcts):
                break
            k = len(group.entrants)
            pct = sum(pcts[first : first + k], ZERO)
            held = min(first + k, len(pcts))
            amount = round_down(prize_pool * pct / HUNDRED / k, unit)
            payouts.extend(
                Payout(
                    ranking=ranking,
                    rank=group.rank,
                    last=group.rank + k - 1,
                    entrant=e,
                    percent=pct / k,
                    amount=amount,
                    shared_by=k,
                    final=group.final,
                )
                for e in group.entrants
            )
        unclaimed_pct += sum(pcts[held:], ZERO)
    unclaimed = round_down(prize_pool * unclaimed_pct / HUNDRED, unit)
    paid_out = sum((p.amount for p in payouts), ZERO)
    return PoolResult(
        fee=fee,
        paid=len(paid),
        collected=collected,
        house=house,
        prize_pool=prize_pool,
        payouts=tuple(payouts),
        unclaimed=unclaimed,
        remainder=prize_pool - paid_out - unclaimed,
        shares=shares,
    )
