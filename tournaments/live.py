"""Tournaments, live: the ``event:<id>``, ``flight:<id>`` and ``desk:<event id>`` topics
(games.live). Each is an unversioned topic: a "changed" message, after which the page
fetches itself again and swaps its live regions.

``flight:<id>``
    A flight's public page and its wall (``?wall=1``): the bracket, pairings and results
    by round, standings, the finishing order. Touched by every write that bumps the
    flight's version (:func:`tournaments.services.common.touch`): entries, the draw,
    round settings and publishing, results entered, reported, confirmed, corrected or
    recorded by an online match, walkovers, tables, a match started online.
``event:<id>``
    The event's public page (its flights, their players and status): touched with each of
    its flights, and by the event's own writes (settings, directors, a new flight).
``desk:<event id>``
    The director's pages of the event (event, flight and match manage, the check-in
    desk, the night view): touched with both of the above, and alone by a check-in or a
    payment (:func:`desk_changed`), which no public page shows.

Who may follow them: ``flight`` and ``event`` whoever may see those pages: anyone once
the event is published, only its directors (and superusers) while it is a draft, whose
pages answer 404 to everyone else (``tournaments.selectors.event_visible``); a draft's
topics are refused to the others as one that does not exist is, so a socket tells no more
than the page. ``desk`` only the event's directors (and superusers), as its pages are
(``tournaments.pages.director.director_required``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.errors import NotFound, PermissionDenied
from games.live import publish
from games.live.topics import int_key, register_topic
from tournaments.models import Event, Flight
from tournaments.selectors import event_visible


def flight_topic(flight_id: int) -> str:
    return f"flight:{flight_id}"


def event_topic(event_id: int) -> str:
    return f"event:{event_id}"


def desk_topic(event_id: int) -> str:
    return f"desk:{event_id}"


def flight_changed(flight: Flight) -> None:
    """A flight changed (after commit): its pages, its event's and the director's."""
    publish.touch(
        flight_topic(flight.pk), event_topic(flight.event_id), desk_topic(flight.event_id)
    )


def event_changed(event_id: int) -> None:
    """An event's own facts changed (after commit): its page and the director's."""
    publish.touch(event_topic(event_id), desk_topic(event_id))


def desk_changed(event_id: int) -> None:
    """Only the director's pages changed (after commit): a check-in, a payment."""
    publish.touch(desk_topic(event_id))


# ====================================================================== the topics
def flight_authorize(user: Any, key: str) -> None:
    flight = Flight.objects.filter(pk=int_key(key)).select_related("event").first()
    if flight is None or not event_visible(flight.event, user):
        raise NotFound("flight_not_found", _("There is no flight with this id."))


def event_authorize(user: Any, key: str) -> None:
    event = Event.objects.filter(pk=int_key(key)).first()
    if event is None or not event_visible(event, user):
        raise NotFound("event_not_found", _("There is no event with this id."))


def desk_authorize(user: Any, key: str) -> None:
    event = Event.objects.filter(pk=int_key(key)).first()
    if event is None:
        raise NotFound("event_not_found", _("There is no event with this id."))
    if not event.is_director(user):
        raise PermissionDenied("forbidden", _("Only the event's directors may follow this."))


def register() -> None:
    register_topic("flight", authorize=flight_authorize)
    register_topic("event", authorize=event_authorize)
    register_topic("desk", authorize=desk_authorize)
