"""Seeds by hand (issue 29): the director numbers a flight's active entries before the
draw; :func:`tournaments.services.draw.flight_draw` seeds them in that order (the
entries left without a number after the numbered ones, by rating)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import Conflict, ValidationFailed
from tournaments.models import Entry, Flight
from tournaments.services.common import lock_flight, require_director, touch
from tournaments.services.undraw import check_flight_version

#: The highest seed number accepted (Entry.manual_seed is a small integer).
MAX_SEED = 999


def flight_set_seeds(
    *,
    flight_id: int,
    by: Any,
    seeds: Mapping[int, int | None] | Iterable[tuple[int, int | None]],
    version: int | None = None,
) -> Flight:
    """Store the director's seeds (entry id -> a positive number, or ``None``: no
    number) of a flight's active entries, and seed the flight by hand from now on.
    Entries not named keep their number. Refusals (nothing is stored): 400
    ``invalid_seed`` (not a whole number from 1 to :data:`MAX_SEED`, ``extra["entry"]``),
    ``duplicate_seed`` (two entries with one number, ``extra["entries"]``),
    ``unknown_entry`` (not an active entry of the flight); 409 ``already_drawn``,
    ``stale_version``."""
    pairs = list(seeds.items()) if isinstance(seeds, Mapping) else list(seeds)
    with transaction.atomic():
        flight = lock_flight(flight_id)
        require_director(by, flight.event)
        check_flight_version(flight, version)
        if flight.status != Flight.Status.REGISTRATION:
            raise Conflict(
                "already_drawn",
                _("This flight has been drawn already: undo the draw to change its seeds."),
            )
        active = {e.pk: e for e in flight.entries.filter(status=Entry.Status.ACTIVE)}
        wanted: dict[int, int | None] = {}
        for entry_id, number in pairs:
            if entry_id not in active:
                raise ValidationFailed(
                    "unknown_entry",
                    _("Entry %(entry)s is not an active entry of this flight.")
                    % {"entry": entry_id},
                    extra={"entry": entry_id},
                )
            if number is not None and (
                isinstance(number, bool)
                or not isinstance(number, int)
                or not 1 <= number <= MAX_SEED
            ):
                raise ValidationFailed(
                    "invalid_seed",
                    _("A seed is a whole number from 1 to %(max)d.") % {"max": MAX_SEED},
                    extra={"entry": entry_id},
                )
            wanted[entry_id] = number
        final = {pk: wanted.get(pk, e.manual_seed) for pk, e in active.items()}
        holders: dict[int, list[int]] = {}
        for pk, number in final.items():
            if number is not None:
                holders.setdefault(number, []).append(pk)
        for number, pks in sorted(holders.items()):
            if len(pks) > 1:
                raise ValidationFailed(
                    "duplicate_seed",
                    _("Seed %(seed)d is given to more than one player.") % {"seed": number},
                    extra={"seed": number, "entries": sorted(pks)},
                )
        changed = []
        for pk, number in final.items():
            if active[pk].manual_seed != number:
                active[pk].manual_seed = number
                changed.append(active[pk])
        Entry.objects.bulk_update(changed, ["manual_seed"])
        flight.seeding = Flight.SeedingMethod.MANUAL
        touch(flight, "seeding")
        return flight
