"""A Swiss or round robin flight's tie-break order on its own director's page (issue 29:
it could only be given when the flight was made, and then only through the API). The
flight's page shows the order with a link here; a refusal shows this page again with
what was chosen."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from games.errors import ApplicationError
from tournaments import bridge
from tournaments.models import Event, Flight
from tournaments.pages.common import TIEBREAK_LABELS, explain_refusal
from tournaments.pages.director import director_required
from tournaments.pages.forms import TiebreakForm
from tournaments.services import flights


@director_required
def flight_tiebreaks(request: HttpRequest, event: Event, flight_id: int) -> HttpResponse:
    """The form (a post saves it and goes back to the flight's page)."""
    flight = get_object_or_404(Flight, pk=flight_id, event=event)
    if flight.is_bracket:
        raise Http404("a knockout has no tie-breaks")
    form = TiebreakForm.of_flight(flight.options)
    status = 200
    if request.method == "POST":
        form = TiebreakForm(request.POST)
        if form.is_valid():
            try:
                flights.flight_set_tiebreaks(
                    flight_id=flight.pk, by=request.user, tiebreaks=form.cleaned_data["tiebreaks"]
                )
            except ApplicationError as exc:
                form.add_error("tiebreak_1", explain_refusal(exc))
            else:
                messages.success(request, _("The tie-breaks were saved."))
                return redirect(
                    reverse(
                        "tournaments:flight-manage",
                        kwargs={"slug": event.slug, "flight_id": flight.pk},
                    )
                )
        status = 400
    return render(
        request,
        "tournaments/flight_tiebreaks.html",
        {
            "event": event,
            "flight": flight,
            "form": form,
            "order": [TIEBREAK_LABELS.get(t, t) for t in bridge.tiebreak_order(flight)],
            "finished": flight.status == Flight.Status.FINISHED,
        },
        status=status,
    )
