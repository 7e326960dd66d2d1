"""The event wall (issue 29): ``/events/<slug>/wall/``, for a screen in the playing room.

It shows every running flight of the event (drawn and not finished) in turn, each as
the flight's own wall shows it (:func:`tournaments.pages.public.wall_flight`,
``templates/tournaments/partials/wall_flight.html``), a page every ``?every=`` seconds
(default :data:`EVERY`). ``static/tournaments/wall.js`` scales each flight to the
screen with names at least 2.5 % of its height and turns through flights and pages.
The page follows ``event:<id>`` (:mod:`tournaments.live`; touched with each of the
event's flights), so results appear and a flight joins the rotation when its draw is
made, without a reload."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from tournaments import live, selectors
from tournaments.models import Event, Flight
from tournaments.pages.common import unpublished
from tournaments.pages.public import wall_flight

#: Seconds a page of the rotation stays on the screen, and the bounds of ``?every=``.
EVERY = 20
EVERY_MIN, EVERY_MAX = 1, 600


def every_seconds(value: str | None) -> int:
    """``?every=``: whole seconds within the bounds; anything else the default."""
    try:
        seconds = int(value or "")
    except ValueError:
        return EVERY
    return min(max(seconds, EVERY_MIN), EVERY_MAX)


def event_wall(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    if not selectors.event_visible(event, request.user):
        return unpublished(request)
    running = list(event.flights.filter(status=Flight.Status.DRAWN).order_by("id"))
    flights = []
    for number, flight in enumerate(running, start=1):
        page = selectors.flight_bracket(flight_id=flight.pk, viewer=request.user)
        shown = wall_flight(request, page)
        shown["turn"] = _("Flight %(number)d of %(count)d") % {
            "number": number,
            "count": len(running),
        }
        flights.append(shown)
    return render(
        request,
        "tournaments/event_wall.html",
        {
            "event": event,
            "flights": flights,
            "every": every_seconds(request.GET.get("every")),
            "live_topics": live.event_topic(event.pk),
        },
    )
