"""The night's money (issue 17): a flight's money settings (entry fee, house cut, the split
of the prize pool per ranking, the event's currency), its side pools, who is in them and
who paid. The arithmetic is :mod:`tournaments.payouts`'s; the reads
:mod:`tournaments.prizes`'. Directors only.

Once a flight is finished its payouts are **final**: its money settings and side pools
no longer change (409 ``payouts_final``; a correction that opens the flight again opens
them too). The event's currency changes only while none of its flights is finished, and
only to one all its fees are whole amounts of. The entry fee's paid flag is the desk's
(``Entry.paid_at``); a side pool's is its own (``SidePoolEntry.paid_at``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.db import transaction

from games import wallclock
from games.errors import Conflict, NotFound, ValidationFailed
from tournaments import payouts
from tournaments.models import Entry, Event, Flight, FlightMoney, SidePool, SidePoolEntry
from tournaments.payouts import PayoutError
from tournaments.prizes import (
    default_side_pool_split,
    flight_rankings,
    money_message,
    money_settings,
)
from tournaments.services.common import lock_flight, require_director, touch


def _refusal(exc: PayoutError) -> ValidationFailed:
    return ValidationFailed(exc.code, money_message(exc.code), extra={"field": exc.field})


def _open(flight: Flight) -> None:
    if flight.status == Flight.Status.FINISHED:
        raise Conflict("payouts_final", money_message("payouts_final"))


def _split_text(split: Mapping[str, Sequence[Decimal]]) -> dict[str, list[str]]:
    return {ranking: [str(p) for p in pcts] for ranking, pcts in split.items()}


def _clean_split(flight: Flight, split: Any) -> dict[str, list[str]]:
    if not isinstance(split, Mapping):
        raise _refusal(PayoutError("invalid_split", "not a mapping", field="split"))
    try:
        return _split_text(payouts.check_split(split, flight_rankings(flight)))
    except PayoutError as exc:
        raise _refusal(exc) from None


def _amount(value: Any, unit: Decimal, field: str) -> Decimal:
    try:
        return payouts.check_amount(value, unit, field=field)
    except PayoutError as exc:
        raise _refusal(exc) from None


def _set_currency(event: Event, currency: str) -> None:
    """Refusals: unknown code; a flight of the event finished; a fee not whole in it."""
    currency = (currency or "").strip().upper()
    try:
        unit = payouts.currency_unit(currency)
    except PayoutError as exc:
        raise _refusal(exc) from None
    if currency == event.currency:
        return
    if event.flights.filter(status=Flight.Status.FINISHED).exists():
        raise Conflict("payouts_final", money_message("payouts_final"), extra={"field": "currency"})
    fees = list(FlightMoney.objects.filter(flight__event=event).values_list("fee", "house_fixed"))
    fees += [
        (fee, Decimal(0))
        for fee in SidePool.objects.filter(flight__event=event).values_list("fee", flat=True)
    ]
    for amounts in fees:
        for amount in amounts:
            if payouts.round_down(amount, unit) != amount:
                raise ValidationFailed(
                    "amount_not_in_unit",
                    money_message("amount_not_in_unit"),
                    extra={"field": "currency"},
                )
    event.currency = currency
    event.save(update_fields=["currency"])


def flight_money_set(
    *,
    flight_id: int,
    by: Any,
    fee: Any,
    house_percent: Any = 0,
    house_fixed: Any = 0,
    split: Mapping[str, Sequence[Any]] | None = None,
    currency: str | None = None,
) -> FlightMoney:
    """Set the flight's entry fee, house cut and split (``None``: the current one, or
    the format's default), and the event's ``currency`` when given. Refusals name the
    ``field`` (``fee``, ``house_percent``, ``house_fixed``, ``split`` or
    ``split:<ranking>``, ``currency``)."""
    with transaction.atomic():
        flight = lock_flight(flight_id)
        event = Event.objects.select_for_update().get(pk=flight.event_id)
        flight.event = event
        require_director(by, event)
        _open(flight)
        if currency is not None:
            _set_currency(event, currency)
        unit = payouts.currency_unit(event.currency)
        row = FlightMoney.objects.filter(flight=flight).first() or FlightMoney(flight=flight)
        row.fee = _amount(fee, unit, "fee")
        try:
            row.house_percent = payouts.check_percent(house_percent, field="house_percent")
        except PayoutError as exc:
            raise _refusal(exc) from None
        row.house_fixed = _amount(house_fixed, unit, "house_fixed")
        if split is None:
            split = money_settings(flight=flight, row=row if row.pk else None).split
        row.split = _clean_split(flight, split)
        row.save()
        touch(flight)
        return row


def _lock_pool(pool_id: int) -> tuple[Flight, SidePool]:
    flight_id = SidePool.objects.filter(pk=pool_id).values_list("flight_id", flat=True).first()
    if flight_id is None:
        raise NotFound("side_pool_not_found", money_message("side_pool_not_found"))
    flight = lock_flight(flight_id)
    return flight, SidePool.objects.get(pk=pool_id)


def side_pool_create(
    *,
    flight_id: int,
    by: Any,
    name: str,
    fee: Any,
    split: Mapping[str, Sequence[Any]] | None = None,
) -> SidePool:
    """A side pool of the flight with its ``fee`` and ``split`` (default: 70/30 over the
    flight's main ranking), nobody in it yet."""
    with transaction.atomic():
        flight = lock_flight(flight_id)
        require_director(by, flight.event)
        _open(flight)
        name = (name or "").strip()
        if not name:
            raise ValidationFailed(
                "name_required", money_message("name_required"), extra={"field": "name"}
            )
        unit = payouts.currency_unit(flight.event.currency)
        cleaned_fee = _amount(fee, unit, "fee")
        cleaned = _clean_split(flight, default_side_pool_split(flight) if split is None else split)
        if flight.side_pools.filter(name__iexact=name).exists():
            raise Conflict(
                "side_pool_name_taken",
                money_message("side_pool_name_taken"),
                extra={"field": "name"},
            )
        pool = SidePool.objects.create(flight=flight, name=name, fee=cleaned_fee, split=cleaned)
        touch(flight)
        return pool


def side_pool_delete(*, pool_id: int, by: Any) -> None:
    """Remove a side pool with its entrants (before the flight is finished)."""
    with transaction.atomic():
        flight, pool = _lock_pool(pool_id)
        require_director(by, flight.event)
        _open(flight)
        pool.delete()
        touch(flight)


def _member(pool: SidePool, entry_id: int) -> SidePoolEntry:
    member = SidePoolEntry.objects.filter(pool=pool, entry_id=entry_id).first()
    if member is None:
        raise NotFound("not_in_pool", money_message("not_in_pool"))
    return member


def side_pool_enter(*, pool_id: int, by: Any, entry_id: int, paid: bool = False) -> SidePoolEntry:
    """Put an entry of the pool's flight in the side pool (``paid``: and it paid)."""
    with transaction.atomic():
        flight, pool = _lock_pool(pool_id)
        require_director(by, flight.event)
        _open(flight)
        if not Entry.objects.filter(pk=entry_id, flight=flight).exists():
            raise NotFound("entry_not_found", money_message("entry_not_found"))
        if SidePoolEntry.objects.filter(pool=pool, entry_id=entry_id).exists():
            raise Conflict("already_in_pool", money_message("already_in_pool"))
        member = SidePoolEntry.objects.create(
            pool=pool, entry_id=entry_id, paid_at=wallclock.now() if paid else None
        )
        touch(flight)
        return member


def side_pool_leave(*, pool_id: int, by: Any, entry_id: int) -> None:
    """Take an entry out of the side pool."""
    with transaction.atomic():
        flight, pool = _lock_pool(pool_id)
        require_director(by, flight.event)
        _open(flight)
        _member(pool, entry_id).delete()
        touch(flight)


def side_pool_paid_set(*, pool_id: int, by: Any, entry_id: int, paid: bool) -> SidePoolEntry:
    """Mark an entrant of the side pool paid (now) or not paid."""
    with transaction.atomic():
        flight, pool = _lock_pool(pool_id)
        require_director(by, flight.event)
        _open(flight)
        member = _member(pool, entry_id)
        if paid != (member.paid_at is not None):
            member.paid_at = wallclock.now() if paid else None
            member.save(update_fields=["paid_at"])
            touch(flight)
        return member


def side_pool_enter_many(
    *, pool_id: int, by: Any, entry_ids: Sequence[int], paid_ids: Sequence[int] = ()
) -> list[SidePoolEntry]:
    """Many players of the pool's flight at once (issue 29): put the entries
    ``entry_ids`` in the side pool, and mark the entrants ``paid_ids`` (new or in the pool
    already) paid now. All or none: an entry not of the flight, or already in the pool,
    refuses the whole post naming the player (``extra["entry"]``). Returns the pool's
    entrants that changed."""
    with transaction.atomic():
        flight, pool = _lock_pool(pool_id)
        require_director(by, flight.event)
        _open(flight)
        wanted = list(dict.fromkeys(entry_ids))
        paid = set(paid_ids)
        for pk in [*wanted, *paid]:
            if isinstance(pk, bool) or not isinstance(pk, int):
                raise ValidationFailed(
                    "entry_not_found", money_message("entry_not_found"), extra={"entry": pk}
                )
        entries = Entry.objects.filter(flight=flight, pk__in=[*wanted, *paid]).select_related(
            "player"
        )
        names = {e.pk: e.player.name for e in entries}
        members = {m.entry_id: m for m in SidePoolEntry.objects.filter(pool=pool)}
        if not wanted and not paid:
            raise ValidationFailed("nothing_to_add", money_message("nothing_to_add"))
        for pk in [*wanted, *paid]:
            if pk not in names:
                raise NotFound(
                    "entry_not_found", money_message("entry_not_found"), extra={"entry": pk}
                )
        for pk in wanted:
            if pk in members:
                raise Conflict(
                    "already_in_pool",
                    f"{names[pk]}: {money_message('already_in_pool')}",
                    extra={"entry": pk},
                )
        for pk in paid:
            if pk not in members and pk not in wanted:
                raise NotFound(
                    "not_in_pool",
                    f"{names[pk]}: {money_message('not_in_pool')}",
                    extra={"entry": pk},
                )
        now = wallclock.now()
        changed = [
            SidePoolEntry.objects.create(
                pool=pool, entry_id=pk, paid_at=now if pk in paid else None
            )
            for pk in wanted
        ]
        for pk in paid:
            member = members.get(pk)
            if member is not None and member.paid_at is None:
                member.paid_at = now
                member.save(update_fields=["paid_at"])
                changed.append(member)
        if changed:
            touch(flight)
        return changed
