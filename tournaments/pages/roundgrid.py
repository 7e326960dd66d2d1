"""The round settings of a flight as one grid (issue 29, item 11): a row per round of
each part (:func:`tournaments.services.roundgrid.grid_rows`), its match length, clock
preset, clock use and start time, all saved with one post
(:func:`tournaments.services.roundgrid.flight_rounds_set`). A refusal shows the grid
again with everything as typed and the wrong row marked and named; nothing is saved.
A round already played is shown, not offered."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import ApplicationError
from games.play.presets import preset_choices
from tournaments.models import ClockPolicy, Event, Flight
from tournaments.pages.common import explain_refusal, part_title, round_title
from tournaments.pages.director import director_required
from tournaments.services import roundgrid

#: The ``datetime-local`` input's format.
LOCAL_FORMAT = "%Y-%m-%dT%H:%M"


def _local(value: datetime.datetime | None) -> str:
    return timezone.localtime(value).strftime(LOCAL_FORMAT) if value else ""


def _parsed_int(text: str) -> Any:
    """A typed number as a number; anything else as typed, for the service to refuse
    with its reason (one set of rules for the page and the API)."""
    text = text.strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        return text


def _parsed_time(text: str) -> Any:
    text = text.strip()
    if not text:
        return None
    for fmt in (LOCAL_FORMAT, "%Y-%m-%d %H:%M"):
        try:
            return timezone.make_aware(datetime.datetime.strptime(text, fmt))  # noqa: DTZ007
        except ValueError:
            continue
    return text


def _posted(post: QueryDict, count: int) -> tuple[list[int], list[dict[str, Any]]]:
    """The rows posted (``r-<i>-...``; a played round's row posts nothing): their grid
    indexes, and the rows for the service."""
    indexes, rows = [], []
    for i in range(count):
        if f"r-{i}-number" not in post:
            continue
        indexes.append(i)
        rows.append(
            {
                "part": post.get(f"r-{i}-part", ""),
                "number": _parsed_int(post.get(f"r-{i}-number", "")),
                "match_length": _parsed_int(post.get(f"r-{i}-match_length", "")),
                "clock_preset": post.get(f"r-{i}-clock_preset"),
                "clock_policy": post.get(f"r-{i}-clock_policy") or None,
                "starts_at": _parsed_time(post.get(f"r-{i}-starts_at", "")),
            }
        )
    return indexes, rows


def _grid_url(event: Event, flight_id: int) -> str:
    return reverse("tournaments:flight-rounds", kwargs={"slug": event.slug, "flight_id": flight_id})


def _render(
    request: HttpRequest,
    event: Event,
    flight: Flight,
    *,
    typed: QueryDict | None = None,
    error_row: int | None = None,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    rows = []
    for i, row in enumerate(roundgrid.grid_rows(flight)):
        name = row.name
        values = {
            "match_length": str(row.match_length),
            "clock_preset": row.clock_preset,
            "clock_policy": row.clock_policy,
            "starts_at": _local(row.starts_at),
        }
        if typed is not None and f"r-{i}-number" in typed:
            values = {k: typed.get(f"r-{i}-{k}", "") for k in values}
        rows.append(
            {
                "index": i,
                "part": row.part,
                "number": row.number,
                "label": roundgrid.row_label(row.part, row.number),
                "part_title": part_title(row.part) if row.part else "",
                "title": round_title(name) if name and name.code != "round" else "",
                "played": row.played,
                "matches": row.matches,
                "values": values,
                "error": error if i == error_row else "",
            }
        )
    for i, row in enumerate(rows):  # "Fill down": only where a round below can take it
        row["fill"] = not row["played"] and any(
            not r["played"] for r in rows[i + 1 :] if r["part"] == row["part"]
        )
    return render(
        request,
        "tournaments/flight_rounds.html",
        {
            "event": event,
            "flight": flight,
            "rows": rows,
            "error": error,
            "presets": [("", _("no clock")), *preset_choices()],
            "policies": ClockPolicy.choices,
            "version": flight.version,
        },
        status=status,
    )


@director_required
def flight_rounds(request: HttpRequest, event: Event, flight_id: int) -> HttpResponse:
    """The grid (GET) and its one save (POST)."""
    flight = get_object_or_404(Flight.objects.select_related("event"), pk=flight_id, event=event)
    if request.method != "POST":
        return _render(request, event, flight)
    indexes, rows = _posted(request.POST, len(roundgrid.grid_rows(flight)))
    version = _parsed_int(request.POST.get("version", ""))
    try:
        saved = roundgrid.flight_rounds_set(
            flight_id=flight.pk,
            by=request.user,
            rounds=rows,
            version=version if isinstance(version, int) else None,
        )
    except ApplicationError as exc:
        flight.refresh_from_db()
        row = exc.extra.get("row")
        error_row = indexes[row] if isinstance(row, int) and 0 <= row < len(indexes) else None
        return _render(
            request,
            event,
            flight,
            typed=request.POST,
            error_row=error_row,
            error=explain_refusal(exc),
            status=exc.status,
        )
    if saved:
        messages.success(request, _("The round settings were saved."))
    else:
        messages.info(request, _("Nothing was changed."))
    return redirect(_grid_url(event, flight.pk))
