"""The wall display (``?wall=1`` of the flight page, ``templates/tournaments/flight_wall.html``
with ``static/tournaments/wall.js``): what it adds to the flight page's context, and the
QR code to the flight's public page that the wall and the printed sheets
(:mod:`tournaments.pages.paper`) carry.

The wall shows everything it holds on one screen: each bracket part, or a Swiss / round
robin's standings beside the current round's pairings (:func:`current_round`: the last
round the page shows, with its tables and results). ``wall.js`` scales the parts to fit
the screen together, side by side or stacked, or turns through them when they cannot fit
legibly; the view only says what there is.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _

from games.codes import qr_svg
from tournaments import selectors
from tournaments.models import Flight


def flight_url(request: HttpRequest, flight: Flight) -> str:
    """The flight's public page as an absolute URL (what the QR codes open)."""
    return request.build_absolute_uri(
        reverse("tournaments:flight", kwargs={"slug": flight.event.slug, "flight_id": flight.pk})
    )


def current_round(page: selectors.BracketPage) -> dict[str, Any] | None:
    """A Swiss / round robin's current round as the page shows it: the last one with
    pairings, its matches by table (``None`` before the draw and for brackets)."""
    if page.flight.is_bracket or not page.parts.get(""):
        return None
    number = max(page.parts[""])
    rows = sorted(page.parts[""][number], key=lambda m: (m.table is None, m.table or 0, m.index))
    return {
        "number": number,
        "title": _("Round %(number)d") % {"number": number},
        "matches": rows,
    }


def wall_context(request: HttpRequest, page: selectors.BracketPage) -> dict[str, Any]:
    """What the wall shows besides the flight page's parts and standings."""
    url = flight_url(request, page.flight)
    return {"current_round": current_round(page), "flight_url": url, "qr": qr_svg(url)}
