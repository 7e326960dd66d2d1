"""Reads of the night's money (issue 17), for pages and the API: a flight's rankings, its
money settings (the format's defaults while it has none), and its payouts worked out by
the pure :mod:`tournaments.payouts` from the paid entries and the finishing order
(:func:`tournaments.selectors.flight_finishing_order`). The terms are that module's.

The payouts are **final** once the flight is (``Flight.Status.FINISHED``); before, they
are the preview "if it ended as it stands". A bounded number of queries: the flight's
finishing order's, plus the money settings, the side pools and their entrants.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from tournaments import payouts, selectors
from tournaments.models import (
    DEFAULT_SIDE_POOL_SPLIT,
    DEFAULT_SPLITS,
    FORMAT_PARTS,
    Entry,
    Flight,
    FlightMoney,
    Format,
    SidePool,
    SidePoolEntry,
)
from tournaments.payouts import PayoutError, PlaceGroup, PoolResult


def money_message(code: str) -> str:
    """The sentence of a refused money setting (:class:`tournaments.payouts.PayoutError`
    codes and the money services' own)."""
    return {
        "invalid_currency": _("Unknown currency; known: %(known)s.")
        % {"known": ", ".join(payouts.CURRENCIES)},
        "invalid_amount": _("An amount is a number of 0 or more."),
        "amount_not_in_unit": _("Amounts are in whole units of the event's currency."),
        "invalid_percent": _("A percentage is a number from 0 to 100 (two decimals at most)."),
        "invalid_split": _("A split is a list of percentages, place 1 first."),
        "unknown_ranking": _("This flight has no such part to pay prizes in."),
        "split_not_100": _("The split's percentages must add up to exactly 100."),
        "payouts_final": _("The flight is finished: its payouts are final."),
        "name_required": _("Give the side pool a name."),
        "side_pool_name_taken": _("The flight already has a side pool of this name."),
        "already_in_pool": _("The player is in this side pool already."),
        "not_in_pool": _("The player is not in this side pool."),
        "side_pool_not_found": _("There is no side pool with this id."),
        "entry_not_found": _("There is no entry with this id in this flight."),
        "nothing_to_add": _("Tick the players to put in the pool or to mark paid."),
    }.get(code, code)


def flight_rankings(flight: Flight) -> tuple[str, ...]:
    """The rankings prizes can be paid in (``main``, ``consolation``, ``last_chance``;
    ``""``: the standings), the main one first."""
    if flight.format == Format.DOUBLE_ELIMINATION:
        return ("main",)
    return FORMAT_PARTS[flight.format]


def _decimals(split: Any) -> dict[str, tuple[Decimal, ...]]:
    return {str(k): tuple(Decimal(str(p)) for p in v) for k, v in dict(split or {}).items()}


@dataclass(frozen=True)
class MoneySettings:
    """A flight's money settings; ``is_set`` false: none yet (no fee, the format's
    default split)."""

    fee: Decimal
    house_percent: Decimal
    house_fixed: Decimal
    split: dict[str, tuple[Decimal, ...]]
    currency: str
    is_set: bool

    @property
    def unit(self) -> Decimal:
        return payouts.currency_unit(self.currency)


def money_settings(*, flight: Flight, row: FlightMoney | None = None) -> MoneySettings:
    """The flight's settings (one query, none given ``row``)."""
    if row is None:
        row = FlightMoney.objects.filter(flight=flight).first()
    currency = flight.event.currency
    if row is None:
        return MoneySettings(
            Decimal(0), Decimal(0), Decimal(0), _decimals(DEFAULT_SPLITS[flight.format]),
            currency, False,
        )  # fmt: skip
    unit = payouts.currency_unit(currency)
    return MoneySettings(
        row.fee.quantize(unit),
        payouts.check_percent(row.house_percent, field="house_percent"),
        row.house_fixed.quantize(unit),
        _decimals(row.split),
        currency,
        True,
    )


def default_side_pool_split(flight: Flight) -> dict[str, list[int]]:
    return {flight_rankings(flight)[0]: list(DEFAULT_SIDE_POOL_SPLIT)}


@dataclass(frozen=True)
class PayoutLine:
    """One prize: the entry and its :class:`tournaments.payouts.Payout`."""

    entry: Entry
    payout: payouts.Payout


@dataclass(frozen=True)
class PoolView:
    """A pool worked out: ``pool`` is ``None`` for the main pool; ``members``: a side
    pool's entrants with their paid flags (``None``: not yet), in the order they joined;
    ``unpaid``: the entries counted out."""

    name: str
    result: PoolResult
    lines: list[PayoutLine]
    split: dict[str, tuple[Decimal, ...]]
    unpaid: list[Entry]
    pool: SidePool | None = None
    members: list[SidePoolEntry] = field(default_factory=list)


@dataclass(frozen=True)
class FlightPayouts:
    flight: Flight
    settings: MoneySettings
    main: PoolView
    side_pools: list[PoolView]
    rankings: tuple[str, ...]

    @property
    def final(self) -> bool:
        return self.flight.status == Flight.Status.FINISHED

    @property
    def currency(self) -> str:
        return self.settings.currency


def _orders(flight: Flight) -> tuple[dict[str, list[PlaceGroup]], dict[int, Entry]]:
    orders: dict[str, list[PlaceGroup]] = {}
    entries: dict[int, Entry] = {}
    for ranking, places in selectors.flight_finishing_order(flight=flight).items():
        orders[ranking] = [
            PlaceGroup(p.rank, tuple(e.pk for e in p.entries), p.final) for p in places
        ]
        entries.update({e.pk: e for p in places for e in p.entries})
    return orders, entries


def _pool_view(
    name: str,
    result: PoolResult,
    entries: dict[int, Entry],
    split: dict[str, tuple[Decimal, ...]],
    unpaid: list[Entry],
    **more: Any,
) -> PoolView:
    lines = [PayoutLine(entries[int(str(p.entrant))], p) for p in result.payouts]
    return PoolView(name, result, lines, split, unpaid, **more)


def flight_payouts(*, flight: Flight) -> FlightPayouts:
    """The flight's main pool and side pools worked out (see the module docstring)."""
    settings = money_settings(flight=flight)
    unit = settings.unit
    orders, placed = _orders(flight)
    everyone = {e.pk: e for e in flight.entries.select_related("player")}
    everyone.update(placed)
    paid = {pk for pk, e in everyone.items() if e.paid_at is not None}
    main_split = settings.split if settings.is_set else {}
    main = payouts.pool_payouts(
        fee=settings.fee,
        paid=paid,
        orders=orders,
        split=main_split,
        unit=unit,
        house_percent=settings.house_percent,
        house_fixed=settings.house_fixed,
    )
    # Issue 29: only the players who play; a withdrawn or waitlisted entry owes nothing.
    unpaid = sorted(
        (e for pk, e in everyone.items() if pk not in paid and e.status == Entry.Status.ACTIVE),
        key=lambda e: e.player.name,
    )
    pools = []
    for pool in flight.side_pools.prefetch_related("entries").order_by("id"):
        # (An entry of another flight, put in by hand in the admin, is left out.)
        members = [m for m in pool.entries.all() if m.entry_id in everyone]
        for member in members:
            member.entry = everyone[member.entry_id]
        in_pool = {m.entry_id for m in members if m.paid_at is not None}
        split = _decimals(pool.split)
        result = payouts.pool_payouts(
            fee=pool.fee.quantize(unit), paid=in_pool, orders=orders, split=split, unit=unit
        )
        unpaid_members = [m.entry for m in members if m.paid_at is None]
        pools.append(
            _pool_view(
                pool.name, result, everyone, split, unpaid_members, pool=pool, members=members
            )
        )
    return FlightPayouts(
        flight=flight,
        settings=settings,
        main=_pool_view(_("Prize pool"), main, everyone, main_split, unpaid),
        side_pools=pools,
        rankings=flight_rankings(flight),
    )


__all__ = [
    "FlightPayouts",
    "MoneySettings",
    "PayoutError",
    "PayoutLine",
    "PoolView",
    "default_side_pool_split",
    "flight_payouts",
    "flight_rankings",
    "money_message",
    "money_settings",
]
