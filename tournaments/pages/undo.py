"""Nothing irreversible in one tap (issue 29, item 2): the undo of a draw, reinstating a
withdrawn player and the seeds by hand (the confirmations: :mod:`tournaments.pages.confirm`).

* ``/events/<slug>/manage/flights/<id>/undraw/``: undo the draw
  (:func:`tournaments.services.undraw.flight_undraw`), confirmed first;
* ``/events/<slug>/manage/entries/<id>/reinstate/``: a withdrawn entry back in
  (:func:`tournaments.services.entries.entry_reinstate`), from the flight's page or the
  desk (``next``);
* ``/events/<slug>/manage/flights/<id>/seeds/``: the seeds by hand, a number box per
  active entry (:func:`tournaments.services.seeding.flight_set_seeds`); a refusal shows
  the form again as typed with the wrong rows marked.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from games.errors import ApplicationError
from games.web import next_or
from tournaments.models import Entry, Event, Flight
from tournaments.pages.common import act, explain_refusal
from tournaments.pages.confirm import confirm_page, confirmed, manage_url, names_of
from tournaments.pages.director import director_required
from tournaments.services import entries, seeding, undraw
from tournaments.services.draw import manual_seeding


# ====================================================================== undo the draw
@director_required
@require_POST
def flight_undraw(request: HttpRequest, event: Event, flight_id: int) -> HttpResponse:
    """Undo the draw: the first post is answered with what it will do (or why it cannot
    be done), the confirmed one undoes it."""
    flight = get_object_or_404(Flight, pk=flight_id, event=event)
    to = manage_url(event, flight.pk)
    version = request.POST.get("version", "")
    if not confirmed(request):
        if flight.status != Flight.Status.DRAWN:
            messages.error(request, _("This flight has not been drawn yet."))
            return redirect(to)
        row = undraw.blocking_match(flight)
        if row is not None:
            messages.error(request, explain_refusal(undraw.undraw_refusal(row)))
            return redirect(to)
        stay = list(
            flight.entries.filter(status=Entry.Status.WITHDRAWN, seed__isnull=False)
            .select_related("player")
            .order_by("seed")
        )
        lines = [
            ngettext(
                "The draw of %(flight)s is undone: its %(count)d match is deleted, with its "
                "table; the seeds are cleared and the rounds unpublished.",
                "The draw of %(flight)s is undone: its %(count)d matches are deleted, with "
                "their tables; the seeds are cleared and the rounds unpublished.",
                flight.matches.count(),
            )
            % {"flight": flight.name, "count": flight.matches.count()},
            _("The flight is back in registration: make the draw again when you are ready."),
            ngettext(
                "%(names)s, withdrawn after the draw, stays withdrawn "
                "(reinstate them if they play).",
                "%(names)s, withdrawn after the draw, stay withdrawn "
                "(reinstate them if they play).",
                len(stay),
            )
            % {"names": names_of(stay)}
            if stay
            else "",
            _("Players who were told of their matches should hear that the draw is made again."),
        ]
        return confirm_page(
            request,
            title=_("Undo the draw of %(flight)s?") % {"flight": flight.name},
            lines=lines,
            button=_("Undo the draw"),
            back=to,
            back_label=flight.name,
        )
    try:
        expected = int(version) if version else None
    except ValueError:
        expected = -1  # refused as stale by the service
    return act(
        request,
        lambda: undraw.flight_undraw(flight_id=flight.pk, by=request.user, version=expected),
        to=to,
        success=_("The draw is undone: the flight is back in registration."),
    )


# ====================================================================== reinstate
@director_required
@require_POST
def entry_reinstate(request: HttpRequest, event: Event, entry_id: int) -> HttpResponse:
    """A withdrawn entry back in its flight (reinstating takes nothing away: no
    confirmation)."""
    entry = get_object_or_404(
        Entry.objects.select_related("player"), pk=entry_id, flight__event=event
    )
    return act(
        request,
        lambda: entries.entry_reinstate(entry_id=entry.pk, by=request.user),
        to=next_or(request, manage_url(event, entry.flight_id)),
        success=_("%(name)s is reinstated.") % {"name": entry.player.name},
    )


# ====================================================================== seeds by hand
def _seed_rows(
    flight: Flight, typed: dict[str, str] | None, wrong: set[int]
) -> list[dict[str, Any]]:
    """The active entries in seed order (by hand where numbered, then by rating), each
    with the number to show: what was typed after a refusal, else the stored number, or
    (none stored yet) its place in the rating order."""
    active = list(
        flight.entries.filter(status=Entry.Status.ACTIVE)
        .select_related("player")
        .order_by("created_at", "pk")
    )
    by_id = {e.pk: e for e in active}
    order = [by_id[int(pk)] for pk in manual_seeding(active).order] if active else []
    none_stored = all(e.manual_seed is None for e in active)
    rows = []
    for position, e in enumerate(order, start=1):
        if typed is not None:
            value = typed.get(f"seed-{e.pk}", "")
        elif none_stored:
            value = str(position)
        else:
            value = "" if e.manual_seed is None else str(e.manual_seed)
        rows.append({"entry": e, "value": value, "wrong": e.pk in wrong})
    if typed is not None:  # shown in the order typed (a move, a refusal)
        rows.sort(
            key=lambda r: (
                not r["value"].isdigit(),
                int(r["value"] or 0) if r["value"].isdigit() else 0,
            )
        )
    return rows


def _moved(typed: dict[str, str], move: str) -> dict[str, str]:
    """The numbers after an up or down button (``"<entry id>:up"``/``":down"``): the rows
    in their typed order, the one moved swapped with its neighbour, all numbered 1, 2, ...
    again (nothing is saved until "Save the seeds")."""
    pk, _sep, way = move.partition(":")
    keys = list(typed)
    order = sorted(
        keys,
        key=lambda k: (
            not typed[k].isdigit(),
            int(typed[k]) if typed[k].isdigit() else 0,
            keys.index(k),
        ),
    )
    key = f"seed-{pk}"
    if key in order:
        i = order.index(key)
        j = i - 1 if way == "up" else i + 1
        if 0 <= j < len(order):
            order[i], order[j] = order[j], order[i]
    return {k: str(n) for n, k in enumerate(order, start=1)}


@director_required
@require_http_methods(["GET", "POST"])
def flight_seeds(request: HttpRequest, event: Event, flight_id: int) -> HttpResponse:
    """The seeds by hand: a number per active entry (empty: seeded by rating after the
    numbered ones). Saving seeds the flight by hand."""
    flight = get_object_or_404(Flight, pk=flight_id, event=event)
    error = ""
    wrong: set[int] = set()
    typed: dict[str, str] | None = None
    status = 200
    if request.method == "POST" and request.POST.get("move"):
        typed = _moved(
            {k: v.strip() for k, v in request.POST.items() if k.startswith("seed-")},
            request.POST["move"],
        )
    elif request.method == "POST":
        typed = {k: v.strip() for k, v in request.POST.items() if k.startswith("seed-")}
        wanted: list[tuple[int, int | None]] = []
        for key, value in typed.items():
            try:
                pk = int(key.removeprefix("seed-"))
            except ValueError:
                continue
            if not value:
                wanted.append((pk, None))
                continue
            try:
                wanted.append((pk, int(value)))
            except ValueError:
                wanted.append((pk, -1))  # refused by the service, naming the row
        try:
            version = int(request.POST.get("version", ""))
        except ValueError:
            version = None
        try:
            seeding.flight_set_seeds(
                flight_id=flight.pk, by=request.user, seeds=wanted, version=version
            )
        except ApplicationError as exc:
            status = exc.status
            error = explain_refusal(exc)
            named = exc.extra.get("entries") or [exc.extra.get("entry")]
            wrong = {pk for pk in named if isinstance(pk, int)}
            names = [
                e.player.name for e in flight.entries.filter(pk__in=wrong).select_related("player")
            ]
            if names:
                error += " " + _("Check: %(names)s.") % {"names": ", ".join(sorted(names))}
            flight.refresh_from_db()
        else:
            messages.success(request, _("The seeds are saved: the draw seeds this flight by hand."))
            return redirect(manage_url(event, flight.pk))
    return render(
        request,
        "tournaments/flight_seeds.html",
        {
            "event": event,
            "flight": flight,
            "rows": _seed_rows(flight, typed, wrong),
            "error": error,
            "drawn": flight.status != Flight.Status.REGISTRATION,
            "moved": request.method == "POST" and bool(request.POST.get("move")) and not error,
        },
        status=status,
    )
