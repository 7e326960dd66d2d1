"""The director's lateness posts (docs/rules.md R15): a flight's lateness rule, and a
late player of a match (the opponent's starting score, or a forfeit). The services
(:mod:`tournaments.services.lateness`) check everything."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.http import HttpRequest, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.models import Event, Flight, FlightRound, TournamentMatch
from tournaments.pages.common import act, match_of, optional_int, posted_version
from tournaments.pages.director import director_required
from tournaments.services import lateness


def _match_url(event: Event, match_id: int) -> str:
    return reverse("tournaments:match-manage", kwargs={"slug": event.slug, "match_id": match_id})


def _arrived_at(row: TournamentMatch, value: str) -> datetime.datetime | None:
    """A time of day (``HH:MM``) on the day of the round's start (today without one:
    the service then asks for the minutes)."""
    arrived = datetime.time.fromisoformat(value)
    starts_at = (
        FlightRound.objects.filter(flight_id=row.flight_id, part=row.part, number=row.round)
        .values_list("starts_at", flat=True)
        .first()
    )
    day = timezone.localtime(starts_at).date() if starts_at else timezone.localdate()
    return timezone.make_aware(datetime.datetime.combine(day, arrived))


@director_required
@require_POST
def match_lateness(request: HttpRequest, event: Event, match_id: int) -> HttpResponseRedirect:
    """Record (or clear) the match's late player: minutes late or the time of arrival."""
    row = match_of(event, match_id)
    to = _match_url(event, row.pk)
    side = request.POST.get("side", "")
    try:
        minutes = optional_int(request.POST.get("minutes", ""))
        arrived = (request.POST.get("arrived", "") or "").strip()
        arrived_at = _arrived_at(row, arrived) if arrived and side else None
    except ValueError:
        messages.error(request, _("Minutes late are a whole number; a time is hours:minutes."))
        return redirect(to)
    return act(
        request,
        lambda: lateness.match_set_lateness(
            match_id=row.pk,
            by=request.user,
            side=side,
            minutes=minutes if side else None,
            arrived_at=arrived_at,
            expected_version=posted_version(request),
        ),
        to=to,
        success=lambda m: (
            _("The late player forfeited: the match is a walkover.")
            if m.late_forfeit
            else _("The lateness was saved.")
            if m.late_side
            else _("The lateness was cleared.")
        ),
    )


@director_required
@require_POST
def flight_lateness(request: HttpRequest, event: Event, flight_id: int) -> HttpResponseRedirect:
    """Save the flight's lateness rule (on or off, grace minutes, minutes per point)."""
    flight = get_object_or_404(Flight, pk=flight_id, event=event)
    to = reverse("tournaments:flight-manage", kwargs={"slug": event.slug, "flight_id": flight.pk})
    try:
        grace = optional_int(request.POST.get("lateness_grace", ""))
        per_point = optional_int(request.POST.get("lateness_per_point", ""))
    except ValueError:
        messages.error(request, _("Minutes are whole numbers."))
        return redirect(to)
    return act(
        request,
        lambda: lateness.flight_set_lateness(
            flight_id=flight.pk,
            by=request.user,
            lateness=request.POST.get("lateness") == "on",
            lateness_grace=grace,
            lateness_per_point=per_point,
        ),
        to=to,
        success=_("The lateness rule was saved."),
    )
