"""Self-registration (issue 17): a flight open for it takes players' own registrations
from their phone; a director confirms (or refuses) each; with a ``capacity`` the
registrations beyond it wait on a waitlist, in order, and move up when a place is free.

An entry's way in (``Entry.status``): a player registers -> ``pending`` (a place is
held for them) or, when every place is held, ``waitlisted``; a director confirms ->
``active`` (in the draw), or refuses -> ``refused``. Only ``active`` entries are drawn.
A place is held by the ``active`` and ``pending`` entries (:data:`HOLDS_PLACE`); a
director's own entries (:func:`tournaments.services.entries.entry_register`) are
``active`` at once and may go beyond the capacity (the director's call). Whenever a
place is freed before the draw (a player withdraws their registration, a director
withdraws or refuses an entry, the capacity is raised or removed), the first on the
waitlist (registration order) moves up to ``pending`` and is told
(``registration_promoted``, :mod:`tournaments.notifications`): :func:`promote_waitlist`.

Two players taking the last place at once are serialised by the flight's lock (every
write here locks the flight first): one gets it, the other the waitlist.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from games.models import Player
from games.notifications.services import Notice, notify_all
from tournaments.models import HOLDS_PLACE, Entry, Flight
from tournaments.services.common import lock_flight, require_director, touch

#: The largest capacity a flight may be given.
MAX_CAPACITY = 999


def _closed_by_draw() -> Conflict:
    return Conflict("already_drawn", _("The draw has been made: registration is closed."))


def _notice(flight: Flight, entry: Entry, kind: str) -> Notice:
    return Notice(
        recipient=entry.player,
        kind=kind,
        subject=f"entry:{entry.pk}:{kind}",
        context={
            "event": flight.event.name,
            "flight": flight.name,
            "event_slug": flight.event.slug,
            "flight_id": flight.pk,
        },
    )


def promote_waitlist(flight: Flight) -> list[Entry]:
    """With ``flight`` locked, before the draw: while a place is free, the first entry on
    the waitlist (registration order) moves up to ``pending`` and is told. Returns the
    entries moved up (none after the draw: the waitlist then stays as it is)."""
    if flight.status != Flight.Status.REGISTRATION:
        return []
    waiting = flight.entries.filter(status=Entry.Status.WAITLISTED).order_by("created_at", "pk")
    if flight.capacity is None:
        moving = list(waiting.select_related("player__user"))
    else:
        free = flight.capacity - flight.entries.filter(status__in=HOLDS_PLACE).count()
        moving = list(waiting.select_related("player__user")[: max(free, 0)])
    if not moving:
        return []
    Entry.objects.filter(pk__in=[e.pk for e in moving]).update(status=Entry.Status.PENDING)
    for entry in moving:
        entry.status = Entry.Status.PENDING
    notify_all([_notice(flight, e, "registration_promoted") for e in moving])
    return moving


def _locked_entry(entry_id: int) -> tuple[Flight, Entry]:
    flight_id = Entry.objects.filter(pk=entry_id).values_list("flight_id", flat=True).first()
    if flight_id is None:
        raise NotFound("entry_not_found", _("There is no entry with this id."))
    flight = lock_flight(flight_id)
    return flight, Entry.objects.select_related("player__user").get(pk=entry_id)


def entry_self_register(*, flight_id: int, by: Any) -> Entry:
    """A player registers themselves for a flight open for it, before the draw:
    ``pending`` while places are free, else ``waitlisted`` (the waitlist's last)."""
    with transaction.atomic():
        player = Player.of_user_or_refuse(by)
        flight = lock_flight(flight_id)
        if not flight.self_registration:
            raise Conflict(
                "registration_closed",
                _("This flight does not take registrations from players: ask a director."),
            )
        if flight.status != Flight.Status.REGISTRATION:
            raise _closed_by_draw()
        if not player.is_active:
            raise ValidationFailed("inactive_player", _("This player is not active."))
        existing = Entry.objects.filter(flight=flight, player=player).first()
        if existing is not None:
            raise Conflict(
                "already_entered",
                _("You are registered for this flight already."),
                extra={"entry": existing.pk, "status": existing.status},
            )
        taken = flight.entries.filter(status__in=HOLDS_PLACE).count()
        full = flight.capacity is not None and taken >= flight.capacity
        entry = Entry.objects.create(
            flight=flight,
            player=player,
            rating=player.rating,
            status=Entry.Status.WAITLISTED if full else Entry.Status.PENDING,
        )
        touch(flight)
        return entry


def entry_self_withdraw(*, entry_id: int, by: Any) -> Entry:
    """A player withdraws their own registration or entry before the draw (after it, a
    director withdraws them: the opponents get walkovers). A place freed goes to the
    first on the waitlist."""
    with transaction.atomic():
        player = Player.of_user_or_refuse(by)
        flight, entry = _locked_entry(entry_id)
        if entry.player_id != player.pk:
            raise PermissionDenied("not_your_entry", _("This is not your entry."))
        if entry.status in (Entry.Status.WITHDRAWN, Entry.Status.REFUSED):
            raise Conflict("already_withdrawn", _("This entry is already withdrawn."))
        if flight.status != Flight.Status.REGISTRATION:
            raise Conflict(
                "already_drawn", _("The draw has been made: ask a director to withdraw you.")
            )
        entry.status = Entry.Status.WITHDRAWN
        entry.save(update_fields=["status"])
        promote_waitlist(flight)
        touch(flight)
        return entry


def entry_confirm(*, entry_id: int, by: Any) -> Entry:
    """A director confirms a registration to confirm: the entry is in the draw."""
    with transaction.atomic():
        flight, entry = _locked_entry(entry_id)
        require_director(by, flight.event)
        if entry.status == Entry.Status.WAITLISTED:
            raise Conflict(
                "waitlisted",
                _(
                    "This player is on the waitlist: they move up when a place is free "
                    "(or give the flight more places)."
                ),
            )
        if entry.status != Entry.Status.PENDING:
            raise Conflict("not_to_confirm", _("This entry has no registration to confirm."))
        if flight.status != Flight.Status.REGISTRATION:
            raise _closed_by_draw()
        entry.status = Entry.Status.ACTIVE
        entry.save(update_fields=["status"])
        notify_all([_notice(flight, entry, "registration_confirmed")])
        touch(flight)
        return entry


def entry_refuse(*, entry_id: int, by: Any) -> Entry:
    """A director refuses a registration (to confirm, or on the waitlist); the place it
    held goes to the first on the waitlist."""
    with transaction.atomic():
        flight, entry = _locked_entry(entry_id)
        require_director(by, flight.event)
        if entry.status not in (Entry.Status.PENDING, Entry.Status.WAITLISTED):
            raise Conflict(
                "not_a_registration", _("Only a registration to confirm or waiting is refused.")
            )
        entry.status = Entry.Status.REFUSED
        entry.save(update_fields=["status"])
        notify_all([_notice(flight, entry, "registration_refused")])
        promote_waitlist(flight)
        touch(flight)
        return entry


def flight_set_registration(
    *, flight_id: int, by: Any, open: bool, capacity: int | None = None
) -> Flight:
    """A director opens (or closes) a flight for players' own registration before the
    draw, with at most ``capacity`` places (``None``: no cap). More places (or none)
    move the waitlist up; fewer keep the places already held."""
    with transaction.atomic():
        flight = lock_flight(flight_id)
        require_director(by, flight.event)
        if flight.status != Flight.Status.REGISTRATION:
            raise _closed_by_draw()
        if capacity is not None and (
            isinstance(capacity, bool)
            or not isinstance(capacity, int)
            or not 1 <= capacity <= MAX_CAPACITY
        ):
            raise ValidationFailed(
                "invalid_capacity",
                _("A flight has 1 to %(max)d places (or no cap).") % {"max": MAX_CAPACITY},
                extra={"field": "capacity"},
            )
        flight.self_registration = bool(open)
        flight.capacity = capacity
        promote_waitlist(flight)
        touch(flight, "self_registration", "capacity")
        return flight
