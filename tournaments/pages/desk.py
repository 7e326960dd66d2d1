"""The night's desk (issue 17): the director's check-in desk of an event, and the
players' own pages: checking in with the event's code, registering for a flight open
for it and withdrawing that registration.

* the desk (``/events/<slug>/manage/desk/``, directors only): every flight's entries,
  searchable by name, one tap to tick a player in and one to mark the entry fee paid,
  the counts ("checked in 9 of 11, paid 8"), the registrations to confirm or refuse and
  the waitlist, the flight's self-registration setting, the event's check-in code, and
  after the draw a no-show withdrawn in one tap (walkovers). It follows the event's
  ``desk:<id>`` topic live, so two directors at two phones see each other's ticks;
* ``/events/<slug>/check-in/`` (a logged-in player): the code typed, throttled
  (:mod:`tournaments.throttles`), then :func:`tournaments.services.desk.event_check_in`;
* a flight's public page shows a player the registration form and where they stand
  (:func:`registration_context`, ``tournaments/partials/registration.html``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from games.errors import ApplicationError
from games.models import Player
from games.web import next_or
from tournaments import live, selectors
from tournaments.models import HOLDS_PLACE, Entry, Event, Flight
from tournaments.pages import confirm
from tournaments.pages.common import act, explain_refusal, optional_int
from tournaments.pages.director import director_required, warn_overlaps
from tournaments.services import desk, entries, registration
from tournaments.throttles import check_in_allowed


def _desk_url(event: Event) -> str:
    return reverse("tournaments:desk", kwargs={"slug": event.slug})


def _entry_of(event: Event, entry_id: int) -> Entry:
    return get_object_or_404(
        Entry.objects.select_related("player"), pk=entry_id, flight__event=event
    )


def _flag(request: HttpRequest, name: str) -> bool:
    return request.POST.get(name, "1") not in ("0", "", "false", "off")


# ====================================================================== the director's desk
@director_required
def desk_page(request: HttpRequest, event: Event) -> HttpResponse:
    query = request.GET.get("q", "").strip()
    flights = selectors.event_desk(event_id=event.pk, query=query)
    return render(
        request,
        "tournaments/desk.html",
        {
            "event": event,
            "flights": flights,
            # Disputed results, flagged at the top of the desk (issue 29).
            "disputes": selectors.event_disputes(event_id=event.pk),
            "query": query,
            "check_in_url": request.build_absolute_uri(
                reverse("tournaments:check-in", kwargs={"slug": event.slug})
            ),
            "live_topics": live.desk_topic(event.pk),
        },
    )


@director_required
@require_POST
def desk_check_in(request: HttpRequest, event: Event, entry_id: int) -> HttpResponseRedirect:
    entry = _entry_of(event, entry_id)
    on = _flag(request, "checked_in")
    return act(
        request,
        lambda: desk.entry_check_in(entry_id=entry.pk, by=request.user, checked_in=on),
        to=next_or(request, _desk_url(event)),
        success=(_("%(name)s is checked in.") if on else _("%(name)s is not checked in."))
        % {"name": entry.player.name},
    )


@director_required
@require_POST
def desk_paid(request: HttpRequest, event: Event, entry_id: int) -> HttpResponseRedirect:
    entry = _entry_of(event, entry_id)
    on = _flag(request, "paid")
    return act(
        request,
        lambda: desk.entry_set_paid(entry_id=entry.pk, by=request.user, paid=on),
        to=next_or(request, _desk_url(event)),
        success=(_("%(name)s has paid.") if on else _("%(name)s has not paid."))
        % {"name": entry.player.name},
    )


@director_required
@require_POST
def desk_confirm(request: HttpRequest, event: Event, entry_id: int) -> HttpResponseRedirect:
    entry = _entry_of(event, entry_id)
    return act(
        request,
        lambda: registration.entry_confirm(entry_id=entry.pk, by=request.user),
        to=next_or(request, _desk_url(event)),
        success=lambda done: (
            warn_overlaps(request, done)
            or _("%(name)s is in the flight.") % {"name": entry.player.name}
        ),
    )


@director_required
@require_POST
def desk_refuse(request: HttpRequest, event: Event, entry_id: int) -> HttpResponseRedirect:
    entry = _entry_of(event, entry_id)
    return act(
        request,
        lambda: registration.entry_refuse(entry_id=entry.pk, by=request.user),
        to=next_or(request, _desk_url(event)),
        success=_("The registration of %(name)s is refused.") % {"name": entry.player.name},
    )


@director_required
@require_POST
def desk_withdraw(request: HttpRequest, event: Event, entry_id: int) -> HttpResponse:
    """A no-show (or anyone) withdrawn from the desk; after the draw the opponents get
    walkovers (:func:`tournaments.services.entries.entry_withdraw`). Asked first (issue
    29): only the confirmation's post acts."""
    entry = _entry_of(event, entry_id)
    if not confirm.confirmed(request):
        return confirm.withdraw_confirmation(
            request, event, entry, back=next_or(request, _desk_url(event))
        )
    return act(
        request,
        lambda: entries.entry_withdraw(entry_id=entry.pk, by=request.user),
        to=next_or(request, _desk_url(event)),
        success=_("%(name)s is withdrawn.") % {"name": entry.player.name},
    )


@director_required
@require_POST
def desk_new_code(request: HttpRequest, event: Event) -> HttpResponseRedirect:
    return act(
        request,
        lambda: desk.event_new_check_in_code(event_id=event.pk, by=request.user),
        to=_desk_url(event),
        success=_("The event has a new check-in code: the old one no longer works."),
    )


@director_required
@require_POST
def flight_registration(request: HttpRequest, event: Event, flight_id: int) -> HttpResponseRedirect:
    """Open or close a flight for players' own registration, with its places."""
    flight = get_object_or_404(Flight, pk=flight_id, event=event)
    to = next_or(request, _desk_url(event))
    try:
        capacity = optional_int(request.POST.get("capacity", ""))
    except ValueError:
        capacity = -1  # refused by the service, with its sentence
    return act(
        request,
        lambda: registration.flight_set_registration(
            flight_id=flight.pk,
            by=request.user,
            open=request.POST.get("open") == "on",
            capacity=capacity,
        ),
        to=to,
        success=_("The registration settings of %(flight)s were saved.") % {"flight": flight.name}
        + _draft_note(event, open=request.POST.get("open") == "on"),
    )


def _draft_note(event: Event, *, open: bool) -> str:
    """Issue 29: registration opened on a draft event, which players cannot see yet."""
    if not open or event.status != Event.Status.DRAFT:
        return ""
    return " " + _(
        "The event is still a draft: players cannot reach it to register until it is published."
    )


def _left_out_text(result: desk.DrawResult) -> str:
    if not result.left_out:
        return _("The draw is made; every player had checked in.")
    names = ", ".join(e.player.name for e in result.left_out)
    return ngettext(
        "The draw is made. Left out, not checked in: %(names)s.",
        "The draw is made. Left out, not checked in (%(count)d): %(names)s.",
        len(result.left_out),
    ) % {"names": names, "count": len(result.left_out)}


@director_required
@require_POST
def flight_draw_checked_in(request: HttpRequest, event: Event, flight_id: int) -> HttpResponse:
    """The draw of the checked-in players only (the flight page's second draw button),
    asked first (issue 29): only the confirmation's post acts."""
    flight = get_object_or_404(Flight, pk=flight_id, event=event)
    manage = reverse(
        "tournaments:flight-manage", kwargs={"slug": event.slug, "flight_id": flight.pk}
    )
    try:
        seed = optional_int(request.POST.get("seed", ""))
    except ValueError:
        messages.error(request, _("The random seed is a whole number."))
        return redirect(next_or(request, manage))
    if not confirm.confirmed(request):
        return confirm.draw_confirmation(request, event, flight, checked_in_only=True)
    return act(
        request,
        lambda: desk.flight_draw_checked_in(
            flight_id=flight.pk,
            by=request.user,
            seed=seed,
            publish=request.POST.get("publish", "first"),
        ),
        to=next_or(request, manage),
        success=_left_out_text,
    )


# ====================================================================== the players' pages
def _my_entries(event: Event, player: Player | None) -> list[Entry]:
    if player is None:
        return []
    return list(
        Entry.objects.filter(flight__event=event, player=player)
        .select_related("flight")
        .order_by("flight_id")
    )


@login_required
def check_in(request: HttpRequest, slug: str) -> HttpResponse:
    """A player checks in at the venue with the event's code (their entries of the
    event's flights not drawn yet)."""
    event = get_object_or_404(Event, slug=slug)
    player = Player.of_user(request.user)
    code = ""
    error = ""
    status = 200
    if request.method == "POST":
        code = request.POST.get("code", "")[:20]
        allowed, wait = check_in_allowed(request)
        if not allowed:
            error = _("Too many attempts: try again in %(seconds)d seconds.") % {"seconds": wait}
            status = 429
        else:
            try:
                done = desk.event_check_in(event_id=event.pk, by=request.user, code=code)
            except ApplicationError as exc:
                error = explain_refusal(exc)
                status = exc.status
            else:
                messages.success(
                    request,
                    _("You are checked in: %(flights)s.")
                    % {"flights": ", ".join(e.flight.name for e in done)},
                )
                return redirect("tournaments:check-in", slug=event.slug)
    return render(
        request,
        "tournaments/check_in.html",
        {
            "event": event,
            "player": player,
            "code": code,
            "error": error,
            "my_entries": _my_entries(event, player),
        },
        status=status,
    )


def registration_context(flight: Flight, user: Any) -> dict[str, Any]:
    """What a flight's public page shows of self-registration: whether the viewer may
    register, their own entry (and place on the waitlist), the registrations to confirm
    and the waitlist in order (two queries at most; none once the flight is drawn: then
    registration is over and the page shows the draw)."""
    if flight.status != Flight.Status.REGISTRATION:
        return {"registration": {}}
    waiting = selectors.flight_waitlist(flight=flight)
    player = Player.of_user(user)
    mine = None
    if player is not None:
        mine = Entry.objects.filter(flight=flight, player=player).first()
    waitlist = [e for e in waiting if e.status == Entry.Status.WAITLISTED]
    return {
        "registration": {
            "open": flight.self_registration and flight.status == Flight.Status.REGISTRATION,
            "logged_in": getattr(user, "is_authenticated", False),
            "player": player,
            "mine": mine,
            "can_withdraw": mine is not None
            and flight.status == Flight.Status.REGISTRATION
            and mine.status in (*HOLDS_PLACE, Entry.Status.WAITLISTED),
            "position": next(
                (i for i, e in enumerate(waitlist, start=1) if mine and e.pk == mine.pk), None
            ),
            "pending": [e for e in waiting if e.status == Entry.Status.PENDING],
            "waitlist": waitlist,
        }
    }


def _flight_url(event: Event, flight_id: int) -> str:
    return reverse("tournaments:flight", kwargs={"slug": event.slug, "flight_id": flight_id})


@login_required
@require_POST
def flight_register(request: HttpRequest, slug: str, flight_id: int) -> HttpResponseRedirect:
    """A player registers for a flight open for it (from its public page)."""
    event = get_object_or_404(Event, slug=slug)
    flight = get_object_or_404(Flight, pk=flight_id, event=event)

    def done(entry: Entry) -> str:
        if entry.status == Entry.Status.WAITLISTED:
            return _("Every place is taken: you are on the waitlist.")
        warn_overlaps(request, entry)  # issue 29: another flight at the same time
        return _("You are registered: a director confirms your place.")

    return act(
        request,
        lambda: registration.entry_self_register(flight_id=flight.pk, by=request.user),
        to=_flight_url(event, flight.pk),
        success=done,
    )


@login_required
@require_POST
def registration_withdraw(request: HttpRequest, slug: str, entry_id: int) -> HttpResponseRedirect:
    """A player withdraws their own registration (before the draw)."""
    event = get_object_or_404(Event, slug=slug)
    entry = get_object_or_404(Entry, pk=entry_id, flight__event=event)
    return act(
        request,
        lambda: registration.entry_self_withdraw(entry_id=entry.pk, by=request.user),
        to=next_or(request, _flight_url(event, entry.flight_id)),
        success=_("Your registration is withdrawn."),
    )
