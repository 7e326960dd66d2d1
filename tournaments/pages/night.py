"""The director's phone view of the night (issue 29, item 3):
``/events/<slug>/manage/night/``, the event's directors only.

Every drawn flight's matches (:func:`tournaments.tonight.event_night`): the ones to enter
first, each with a small result form (the final score; game by game on the match's own
page), then those waiting for players, then the results, folded. Searchable by name and
table (``?q=``; ``static/tournaments/night.js`` filters as one types) and sorted by table
or name (``?sort=name``). The setup (print links, entries, walk-ins, lateness, round
settings) stays on the flight pages, linked below the list, so on a 390 px phone the
matches to enter are the first thing under the header. It follows the event's
``desk:<id>`` topic live (:mod:`tournaments.live`): a result entered elsewhere, a report
or a dispute redraws the rows without a reload.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games.errors import ApplicationError
from tournaments import live, tonight
from tournaments.models import FORMAT_PARTS, Event, Flight, TournamentMatch
from tournaments.pages.common import (
    explain_refusal,
    match_of,
    part_title,
    posted_version,
    result_input,
)
from tournaments.pages.director import director_required
from tournaments.services import results


def night_url(event: Event, *, query: str = "", sort: str = "table") -> str:
    """The night view's address, with its search and order when not the defaults."""
    url = reverse("tournaments:night", kwargs={"slug": event.slug})
    params = {k: v for k, v in (("q", query), ("sort", sort)) if v and v != "table"}
    return f"{url}?{urlencode(params)}" if params else url


def _parts_of(flight: Flight) -> tuple[str, ...]:
    return FORMAT_PARTS.get(flight.format, ("",))


def _where(row: tonight.NightRow, named_parts: bool) -> str:
    """Where a match is played in words: "Open · Consolation · Final"."""
    m = row.match
    words = [row.flight.name]
    if named_parts and m.part:
        words.append(part_title(m.part))
    words.append(row.round_title or _("Round %(number)d") % {"number": m.round})
    return " · ".join(words)


def _report(row: tonight.NightRow) -> str:
    """The one report of a reported match, "5-3" (side A's score first)."""
    report = row.match.report_a or row.match.report_b
    if not row.reported or not isinstance(report, dict):
        return ""
    return f"{report.get('score_a', '')}–{report.get('score_b', '')}"  # noqa: RUF001


def _night_page(
    request: HttpRequest,
    event: Event,
    *,
    query: str,
    sort: str,
    refused: tuple[TournamentMatch, ApplicationError] | None = None,
) -> HttpResponse:
    """The page; ``refused``: a result refused (the match, the refusal), shown on that
    match's row with the scores as typed."""
    night = tonight.event_night(event_id=event.pk, query=query, sort=sort)
    parts = {f.pk: len(_parts_of(f)) > 1 for f in night.flights}

    def rows(group: list[tonight.NightRow]) -> list[dict[str, Any]]:
        return [
            {"r": r, "m": r.match, "where": _where(r, parts[r.flight.pk]), "report": _report(r)}
            for r in group
        ]

    return render(
        request,
        "tournaments/night.html",
        {
            "event": event,
            "night": night,
            "open_rows": rows(night.open),
            "waiting_rows": rows(night.waiting),
            "done_rows": rows(night.done),
            "night_action": reverse("tournaments:night", kwargs={"slug": event.slug}),
            "clear_url": night_url(event, sort=night.sort),
            "query": night.query,
            "sort": night.sort,
            "by_table_url": night_url(event, query=night.query),
            "by_name_url": night_url(event, query=night.query, sort="name"),
            "back": night_url(event, query=night.query, sort=night.sort),
            "refused_match": refused[0].pk if refused else None,
            "refused_slot": refused[0].slot_key if refused else "",
            "refused_error": explain_refusal(refused[1]) if refused else "",
            "typed": request.POST if refused else {},
            "live_topics": live.desk_topic(event.pk),
        },
        status=refused[1].status if refused else 200,
    )


@director_required
@require_http_methods(["GET", "HEAD", "POST"])
def night_page(request: HttpRequest, event: Event) -> HttpResponse:
    """GET: the view. POST: a result entered from one of its rows (``match``: the
    match's id; :func:`results.result_enter`), then back to the view in the same search
    and order, the row moved to the results. Refused: the view again with the scores as
    typed and the refusal on that match's row. The form posts to the view's own address,
    so the live script (``static/games/live.js``) swaps the answer in either way."""
    source = request.POST if request.method == "POST" else request.GET
    query = source.get("q", "").strip()
    sort = source.get("sort", "table")
    if request.method != "POST":
        return _night_page(request, event, query=query, sort=sort)
    try:
        match_id = int(request.POST.get("match", ""))
    except ValueError:
        raise Http404 from None
    row = match_of(event, match_id)
    try:
        results.result_enter(
            match_id=row.pk,
            by=request.user,
            expected_version=posted_version(request),
            **result_input(request),
        )
    except ApplicationError as exc:
        return _night_page(request, event, query=query, sort=sort, refused=(row, exc))
    messages.success(
        request,
        _("%(match)s: the result was entered.") % {"match": f"{row.flight.name} {row.slot_key}"},
    )
    return redirect(night_url(event, query=query, sort=sort) + "#night-open")
