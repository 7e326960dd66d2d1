"""Adding many players to a flight at once (issue 29, item 11): the club's players as a
list of boxes (sorted by name, narrowed by a filter box in the page), a shortcut that
ticks the players of the club's last event, and a text box for new guests, one name per
line. One post enters them all (:func:`tournaments.services.bulkentries.entries_add`);
the answer says who was entered, who was in already and who is still waiting for a
place. A refusal shows the form again as it was ticked and typed; nothing is entered."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from games.errors import ApplicationError
from games.models import Player
from tournaments.models import IN_FLIGHT, Entry, Event, Flight
from tournaments.pages.common import explain_refusal
from tournaments.pages.director import director_required
from tournaments.services import bulkentries


def last_event(event: Event) -> Event | None:
    """The club's event before ``event`` (the server is one club's: its latest other
    event starting no later, with players in it)."""
    return (
        Event.objects.exclude(pk=event.pk)
        .filter(starts_on__lte=event.starts_on, flights__entries__isnull=False)
        .order_by("-starts_on", "-pk")
        .distinct()
        .first()
    )


def last_event_players(event: Event) -> set[int]:
    """The players who played in ``event``'s flights (not those who only registered)."""
    return set(
        Entry.objects.filter(flight__event=event, status__in=IN_FLIGHT).values_list(
            "player_id", flat=True
        )
    )


def _ids(values: list[str]) -> list[int]:
    out = []
    for value in values:
        try:
            out.append(int(value))
        except ValueError:
            continue  # not a box this page offers
    return out


def _render(
    request: HttpRequest,
    event: Event,
    flight: Flight,
    *,
    ticked: set[int],
    names: str = "",
    error: str = "",
    result: bulkentries.EntriesAdded | None = None,
    status: int = 200,
) -> HttpResponse:
    entered = {e.player_id: e for e in Entry.objects.filter(flight=flight).select_related("player")}
    players = [
        {
            "pk": p.pk,
            "name": p.name,
            "club": p.club,
            "rating": p.rating,
            "entry": entered.get(p.pk),
            "ticked": p.pk in ticked,
        }
        for p in Player.objects.filter(is_active=True).order_by("name")
    ]
    previous = last_event(event)
    return render(
        request,
        "tournaments/entries_add.html",
        {
            "event": event,
            "flight": flight,
            "players": players,
            "names": names,
            "error": error,
            "result": result,
            "last_event": previous,
            "version": flight.version,
        },
        status=status,
    )


@director_required
def entries_add(request: HttpRequest, event: Event, flight_id: int) -> HttpResponse:
    """The form (GET; ``?last=1`` ticks the last event's players) and its one post."""
    flight = get_object_or_404(Flight.objects.select_related("event"), pk=flight_id, event=event)
    if request.method != "POST":
        ticked: set[int] = set()
        previous = last_event(event) if request.GET.get("last") else None
        if previous is not None:
            ticked = last_event_players(previous)
        return _render(request, event, flight, ticked=ticked)
    player_ids = _ids(request.POST.getlist("player"))
    text = request.POST.get("names", "")
    try:
        version: Any = int(request.POST.get("version", ""))
    except ValueError:
        version = None
    try:
        result = bulkentries.entries_add(
            flight_id=flight.pk,
            by=request.user,
            player_ids=player_ids,
            names=text.splitlines(),
            version=version,
        )
    except ApplicationError as exc:
        flight.refresh_from_db()
        return _render(
            request,
            event,
            flight,
            ticked=set(player_ids),
            names=text,
            error=explain_refusal(exc),
            status=exc.status,
        )
    flight.refresh_from_db()
    return _render(request, event, flight, ticked=set(), result=result)
