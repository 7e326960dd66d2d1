"""Events: create one (its creator directs it), change its settings, add a director,
publish it, end it (the director's act: a finished flight does not end it) and reopen it."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from games.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from tournaments import live
from tournaments.models import IN_LEDGER, Event, Flight, TournamentMatch
from tournaments.services.common import require_director


def event_create(
    *,
    by: Any,
    name: str,
    starts_on: date,
    location: str = "",
    slug: str = "",
    rated: bool = True,
) -> Event:
    """A new event in draft, directed by its creator (needs ``tournaments.add_event``).
    ``rated``: its results count for the players' ratings (``Event.rated``)."""
    if not getattr(by, "is_authenticated", False) or not by.has_perm("tournaments.add_event"):
        raise PermissionDenied("cannot_create_event", _("You may not create events."))
    name = (name or "").strip()
    if not name:
        raise ValidationFailed("name_required", _("Give the event a name."))
    slug = slugify(slug or name)[:120]
    if not slug:
        raise ValidationFailed("invalid_slug", _("The web address needs letters or digits."))
    if Event.objects.filter(slug=slug).exists():
        raise Conflict("slug_taken", _("Another event already uses this web address."))
    try:
        with transaction.atomic():
            event = Event.objects.create(
                name=name,
                slug=slug,
                starts_on=starts_on,
                location=location,
                rated=rated,
                created_by=by,
            )
            event.directors.add(by)
    except IntegrityError:  # a concurrent create took the slug
        raise Conflict("slug_taken", _("Another event already uses this web address.")) from None
    return event


def event_update(
    *,
    event_id: int,
    by: Any,
    name: str | None = None,
    starts_on: date | None = None,
    location: str | None = None,
    rated: bool | None = None,
) -> Event:
    """Change an event's name, date, place or ``rated`` (``None``: unchanged); its
    directors may. The web address stays (links to it are out there).

    ``rated`` (whether the results count for the ratings) is decided for each result as
    it comes to stand, so it changes only while **no result of the event is in the
    rating ledger** (:data:`~tournaments.models.IN_LEDGER`: walkovers and byes do not
    count); after that a change is refused (409 ``event_has_results``; giving the value
    it has is no change and passes). A club decides this before the first match; rating
    the event's results again afterwards would be a correction of each of them
    (:func:`games.ratings.services.rating_correct`: one replay of the ledger per result, under the
    ledger's lock), not a setting, so it is not offered here.

    Concurrency: with ``rated``, the event's flights are locked first (in id order, the
    order in which result writes take a flight and then touch the event), then the event:
    a result being recorded meanwhile either commits before the check (and is seen) or
    waits and then reads the new flag (``results._rate`` reads it after its flight lock)."""
    try:
        event = Event.objects.get(pk=event_id)
    except Event.DoesNotExist:
        raise NotFound("event_not_found", _("There is no event with this id.")) from None
    require_director(by, event)
    if name is not None:
        name = name.strip()
        if not name:
            raise ValidationFailed("name_required", _("Give the event a name."))
    if location is not None:
        location = location.strip()
    with transaction.atomic():
        if rated is not None:
            list(
                Flight.objects.select_for_update()
                .filter(event_id=event_id)
                .order_by("pk")
                .values_list("pk", flat=True)
            )
        event = Event.objects.select_for_update().get(pk=event_id)
        was_rated = event.rated
        fields = []
        for field, value in (
            ("name", name),
            ("starts_on", starts_on),
            ("location", location),
            ("rated", rated),
        ):
            if value is not None and getattr(event, field) != value:
                setattr(event, field, value)
                fields.append(field)
        if "rated" in fields and (
            TournamentMatch.objects.filter(IN_LEDGER, flight__event_id=event_id).exists()
        ):
            raise Conflict(
                "event_has_results",
                _(
                    "Results of this event already count in the rating list: whether it is "
                    "rated can no longer be changed."
                ),
                extra={"rated": was_rated},
            )
        if fields:
            event.save(update_fields=fields)
            live.event_changed(event.pk)
    return event


def event_add_director(*, event_id: int, by: Any, user: Any) -> Event:
    """Make ``user`` a director of the event (a director may)."""
    with transaction.atomic():
        try:
            event = Event.objects.select_for_update().get(pk=event_id)
        except Event.DoesNotExist:
            raise NotFound("event_not_found", _("There is no event with this id.")) from None
        require_director(by, event)
        if not getattr(user, "is_active", False):
            raise ValidationFailed("inactive_user", _("Only active users can direct an event."))
        event.directors.add(user)
        live.event_changed(event.pk)
    return event


def _locked_event(event_id: int) -> Event:
    try:
        return Event.objects.select_for_update().get(pk=event_id)
    except Event.DoesNotExist:
        raise NotFound("event_not_found", _("There is no event with this id.")) from None


def event_publish(*, event_id: int, by: Any) -> Event:
    """Show a draft event to everyone (its directors may): until then only its directors
    (and superusers) see it, on the pages and in the API. The draw publishes a draft
    event too. Publishing a published event changes nothing."""
    with transaction.atomic():
        event = _locked_event(event_id)
        require_director(by, event)
        if event.status == Event.Status.DRAFT:
            event.status = Event.Status.RUNNING
            event.save(update_fields=["status"])
            live.event_changed(event.pk)
    return event


def event_finish(*, event_id: int, by: Any) -> Event:
    """End the event (its directors may): no new flight after. A finished flight never
    ends its event; this is the director's act.

    Refused (409 ``flights_unfinished``, ``extra["flights"]``: their ids and names) while
    a drawn flight is not finished: its matches would be left without results. Flights
    never drawn do not stop it (nothing was played in them). A draft event is published
    by ending it (its results, if any, are for everyone). Ending a finished event
    changes nothing; :func:`event_reopen` undoes it."""
    with transaction.atomic():
        list(
            Flight.objects.select_for_update()
            .filter(event_id=event_id)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        event = _locked_event(event_id)
        require_director(by, event)
        if event.status == Event.Status.FINISHED:
            return event
        playing = list(
            event.flights.filter(status=Flight.Status.DRAWN).order_by("pk").values("id", "name")
        )
        if playing:
            raise Conflict(
                "flights_unfinished",
                _("These flights are still being played: %(names)s.")
                % {"names": ", ".join(f["name"] for f in playing)},
                extra={"flights": playing},
            )
        event.status = Event.Status.FINISHED
        event.save(update_fields=["status"])
        live.event_changed(event.pk)
    return event


def event_reopen(*, event_id: int, by: Any) -> Event:
    """Open a finished event again (a director ended it by mistake): it is running, new
    flights can be made. Reopening an event that is not finished changes nothing."""
    with transaction.atomic():
        event = _locked_event(event_id)
        require_director(by, event)
        if event.status == Event.Status.FINISHED:
            event.status = Event.Status.RUNNING
            event.save(update_fields=["status"])
            live.event_changed(event.pk)
    return event
