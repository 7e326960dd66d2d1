"""Players entered in several flights that run at the same time (issue 29): a warning,
never a refusal (a player may well play a side flight between rounds; the director
decides). Reads only; used by the director's pages, the desk and the API.

When two flights of an event run at the same time (:func:`simultaneous`):

* both have round start times (``FlightRound.starts_at``): their windows, from their
  first round's start to their last timed round's start, overlap;
* otherwise by their status: both drawn (running), or both still in registration.

A finished flight runs at the same time as nothing. The entries that count are those
holding a place (active, to confirm: :data:`~tournaments.models.HOLDS_PLACE`)."""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Max, Min
from django.utils.translation import gettext as _

from tournaments.models import HOLDS_PLACE, Entry, Flight


@dataclass(frozen=True)
class Window:
    """A flight's time, as far as it is known: its status and its timed rounds' span."""

    flight_id: int
    status: str
    first: datetime.datetime | None
    last: datetime.datetime | None


def simultaneous(x: Window, y: Window) -> bool:
    """Whether two flights of one event run at the same time (the module's rules)."""
    if x.flight_id == y.flight_id:
        return False
    if Flight.Status.FINISHED in (x.status, y.status):
        return False
    if x.first and x.last and y.first and y.last:
        return x.first <= y.last and y.first <= x.last
    return (x.status == Flight.Status.REGISTRATION) == (y.status == Flight.Status.REGISTRATION)


def _windows(event_id: int) -> dict[int, tuple[Flight, Window]]:
    """The event's flights with their windows (one query)."""
    flights = Flight.objects.filter(event_id=event_id).annotate(
        first_start=Min("rounds__starts_at"), last_start=Max("rounds__starts_at")
    )
    return {
        f.pk: (f, Window(f.pk, f.status, f.first_start, f.last_start))  # type: ignore[attr-defined]
        for f in flights
    }


def flight_overlaps(flight: Flight) -> dict[int, list[Flight]]:
    """Entry id (of ``flight``'s entries holding a place) -> the other flights of the
    event, running at the same time, where its player holds a place too (two queries)."""
    windows = _windows(flight.event_id)
    own = windows.get(flight.pk)
    if own is None:
        return {}
    others = {pk: f for pk, (f, w) in windows.items() if simultaneous(own[1], w)}
    if not others:
        return {}
    rows = Entry.objects.filter(
        flight__event_id=flight.event_id, status__in=HOLDS_PLACE
    ).values_list("pk", "flight_id", "player_id")
    mine: dict[int, int] = {}
    elsewhere: dict[int, list[int]] = defaultdict(list)
    for pk, flight_id, player_id in rows:
        if flight_id == flight.pk:
            mine[player_id] = pk
        elif flight_id in others:
            elsewhere[player_id].append(flight_id)
    return {
        pk: [others[f] for f in sorted(elsewhere[player_id])]
        for player_id, pk in mine.items()
        if elsewhere.get(player_id)
    }


def entry_overlaps(entry: Entry) -> list[Flight]:
    """The other flights of the entry's event, running at the same time as its flight,
    where its player holds a place too (two queries)."""
    windows = _windows(entry.flight.event_id)
    own = windows.get(entry.flight_id)
    if own is None:
        return []
    others = {pk: f for pk, (f, w) in windows.items() if simultaneous(own[1], w)}
    ids = Entry.objects.filter(
        flight_id__in=list(others), player_id=entry.player_id, status__in=HOLDS_PLACE
    ).values_list("flight_id", flat=True)
    return [others[f] for f in sorted(ids)]


def flight_names(flights: Iterable[Flight]) -> str:
    return ", ".join(f.name for f in flights)


def overlap_warnings(entry: Entry, flights: Sequence[Flight] | None = None) -> list[str]:
    """The warning shown when ``entry`` is made or confirmed (empty: none)."""
    flights = entry_overlaps(entry) if flights is None else flights
    if not flights:
        return []
    return [
        _("%(name)s also plays in %(flights)s, at the same time.")
        % {"name": entry.player.name, "flights": flight_names(flights)}
    ]
