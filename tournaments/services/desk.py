"""The night's desk (issue 17): check-in and the entry fee, and the draw of the players
who came.

* :func:`entry_check_in` - a director ticks a player in (or out again);
* :func:`event_check_in` - a player checks in on their phone at the venue with the
  event's code (``Event.check_in_code``, shown on the desk page): every entry of theirs
  in the event's flights not drawn yet. A wrong code is refused (400 ``wrong_code``);
  the pages and the API throttle the attempts (``check_in`` rate), so a code cannot be
  found by trying;
* :func:`entry_set_paid` - a director marks the entry fee paid or not: the one writer of
  ``Entry.paid_at`` (the prize pool counts the paid entries);
* :func:`flight_draw_checked_in` - the draw of the checked-in players only: the active
  entries not checked in are withdrawn first (reported back), then
  :func:`tournaments.services.draw.flight_draw`, in one transaction. After the draw a
  no-show is withdrawn as usual (:func:`tournaments.services.entries.entry_withdraw`:
  walkovers for the opponents);
* :func:`event_new_check_in_code` - a fresh code (the old one got about).

A check-in or a payment changes no draw: the flight's version stays, only the desk's
pages are told (:func:`tournaments.live.desk_changed`); the flight is locked all the
same, so a tick and the draw come one after the other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games import wallclock
from games.codes import same_code
from games.errors import Conflict, NotFound, ValidationFailed
from games.models import Player
from tournaments import live
from tournaments.models import HOLDS_PLACE, Entry, Event, Flight, new_check_in_code
from tournaments.services.common import lock_flight, require_director
from tournaments.services.draw import flight_draw

#: The entries that may be paid for: in the flight (a withdrawal keeps its payment) or
#: to confirm.
PAYABLE = (Entry.Status.ACTIVE, Entry.Status.PENDING, Entry.Status.WITHDRAWN)


def _locked_entry(entry_id: int) -> tuple[Flight, Entry]:
    flight_id = Entry.objects.filter(pk=entry_id).values_list("flight_id", flat=True).first()
    if flight_id is None:
        raise NotFound("entry_not_found", _("There is no entry with this id."))
    flight = lock_flight(flight_id)
    return flight, Entry.objects.select_related("player").get(pk=entry_id)


def entry_check_in(*, entry_id: int, by: Any, checked_in: bool = True) -> Entry:
    """A director ticks the player of an entry in (``checked_in``) or out again. An entry
    already ticked in keeps its first time."""
    with transaction.atomic():
        flight, entry = _locked_entry(entry_id)
        require_director(by, flight.event)
        if entry.status not in HOLDS_PLACE:
            raise Conflict(
                "not_entered", _("Only a player entered in the flight (or to confirm) checks in.")
            )
        if flight.status == Flight.Status.FINISHED:
            raise Conflict("flight_finished", _("This flight is over."))
        if checked_in and entry.checked_in_at is None:
            entry.checked_in_at = wallclock.now()
        elif not checked_in:
            entry.checked_in_at = None
        entry.save(update_fields=["checked_in_at"])
        live.desk_changed(flight.event_id)
        return entry


def entry_set_paid(*, entry_id: int, by: Any, paid: bool) -> Entry:
    """A director marks the entry fee of an entry paid (``paid``; a paid entry keeps its
    first time) or not paid. The one writer of ``Entry.paid_at``."""
    with transaction.atomic():
        flight, entry = _locked_entry(entry_id)
        require_director(by, flight.event)
        if entry.status not in PAYABLE:
            raise Conflict("not_entered", _("This registration is not in the flight."))
        if paid and entry.paid_at is None:
            entry.paid_at = wallclock.now()
        elif not paid:
            entry.paid_at = None
        entry.save(update_fields=["paid_at"])
        live.desk_changed(flight.event_id)
        return entry


def event_check_in(*, event_id: int, by: Any, code: str) -> list[Entry]:
    """A player checks in with the event's code: each of their entries (active or to
    confirm) in the event's flights that are not drawn yet. Refused: a wrong code (400
    ``wrong_code``), no entry in the event (409 ``not_entered``), only drawn flights
    (409 ``already_drawn``: the director ticks them in). Returns the entries checked in."""
    with transaction.atomic():
        player = Player.of_user_or_refuse(by)
        event = Event.objects.filter(pk=event_id).first()
        if event is None:
            raise NotFound("event_not_found", _("There is no event with this id."))
        if not same_code(code, event.check_in_code):
            raise ValidationFailed(
                "wrong_code",
                _("This is not the event's check-in code: it is shown at the director's desk."),
                extra={"field": "code"},
            )
        flight_ids = sorted(
            Entry.objects.filter(
                flight__event=event, player=player, status__in=HOLDS_PLACE
            ).values_list("flight_id", flat=True)
        )
        if not flight_ids:
            raise Conflict("not_entered", _("You are not entered in a flight of this event."))
        open_ids = [
            f.pk
            for f in (lock_flight(pk) for pk in flight_ids)  # in id order: no deadlock
            if f.status == Flight.Status.REGISTRATION
        ]
        if not open_ids:
            raise Conflict(
                "already_drawn",
                _("The draw has been made: tell the director at the desk that you are here."),
            )
        entries = list(
            Entry.objects.filter(
                flight_id__in=open_ids, player=player, status__in=HOLDS_PLACE
            ).select_related("flight")
        )
        now = wallclock.now()
        for entry in entries:
            if entry.checked_in_at is None:
                entry.checked_in_at = now
        Entry.objects.bulk_update(entries, ["checked_in_at"])
        live.desk_changed(event.pk)
        return entries


def event_new_check_in_code(*, event_id: int, by: Any) -> Event:
    """A director gives the event a fresh check-in code (the old one stops working)."""
    with transaction.atomic():
        event = Event.objects.select_for_update().filter(pk=event_id).first()
        if event is None:
            raise NotFound("event_not_found", _("There is no event with this id."))
        require_director(by, event)
        event.check_in_code = new_check_in_code()
        event.save(update_fields=["check_in_code"])
        live.desk_changed(event.pk)
        return event


@dataclass(frozen=True)
class DrawResult:
    """The flight drawn, and the entries left out of it as not checked in."""

    flight: Flight
    left_out: list[Entry]


def flight_draw_checked_in(
    *, flight_id: int, by: Any, seed: int | None = None, publish: str = "first"
) -> DrawResult:
    """The draw of the players who checked in: every active entry not checked in is
    withdrawn first (``left_out``), then the draw as :func:`flight_draw` makes it (with
    its ``publish`` choice); all or nothing. Refused when nobody checked in (409
    ``nobody_checked_in``: the draw would leave everyone out) and as the draw refuses."""
    with transaction.atomic():
        flight = lock_flight(flight_id)
        require_director(by, flight.event)
        if flight.status != Flight.Status.REGISTRATION:
            raise Conflict("already_drawn", _("This flight has been drawn already."))
        active = list(
            flight.entries.filter(status=Entry.Status.ACTIVE)
            .select_related("player")
            .order_by("created_at", "pk")
        )
        if not any(e.checked_in_at is not None for e in active):
            raise Conflict(
                "nobody_checked_in",
                _("Nobody has checked in: the draw would leave every player out."),
            )
        absent = [e for e in active if e.checked_in_at is None]
        Entry.objects.filter(pk__in=[e.pk for e in absent]).update(status=Entry.Status.WITHDRAWN)
        for entry in absent:
            entry.status = Entry.Status.WITHDRAWN
        drawn = flight_draw(flight_id=flight_id, by=by, seed=seed, publish=publish)
        return DrawResult(drawn, absent)
