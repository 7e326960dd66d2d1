"""The director's pages and posts (only the event's directors, or superusers: anonymous
users are sent to log in, anyone else gets 403, and the services check again): a new
event, the event's page (flights, unfinished matches with their clocks, settings,
directors) and a flight's page (round settings, entries, the draw, publishing rounds);
a match's page is :mod:`tournaments.pages.matchmanage`, the same rule and topics.
Each follows the event's ``desk:<id>`` topic live (:mod:`tournaments.live`), and the
online matches whose clocks or score it shows: what changes is redrawn, the forms are
left alone."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping, Sequence
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.clocks.pages import format_clock_ms
from games.errors import ApplicationError
from games.models import Game, Player
from games.play import selectors as game_selectors
from games.play.live import match_topic
from games.web import next_or
from tournaments import bracketview, bridge, live, overlaps, pairing, selectors
from tournaments.models import (
    FORMAT_PARTS,
    OPEN,
    Entry,
    Event,
    Flight,
    FlightRound,
    Format,
    TournamentMatch,
)
from tournaments.pages import confirm
from tournaments.pages.common import (
    TIEBREAK_LABELS,
    act,
    explain_refusal,
    optional_int,
    part_title,
    round_title,
    status_text,
)
from tournaments.pages.forms import (
    DirectorForm,
    EventForm,
    EventSettingsForm,
    FlightForm,
    RoundForm,
)
from tournaments.services import draw, entries, events, flights

#: Online matches whose moves the event's page follows live, those with a clock first (a
#: page follows at most 16 topics, games.live.consumer.MAX_TOPICS): the others show
#: their clocks and scores as of the page's last redraw.
FOLLOWED_CLOCKS = 12
#: Players listed for one search on the registration form.
SEARCH_LIMIT = 20


def director_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The view gets the event (by ``slug``) when the user directs it; anonymous users
    are sent to log in, other users get 403."""

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        event = get_object_or_404(Event, slug=slug)
        if not event.is_director(request.user):
            raise DjangoPermissionDenied
        return view(request, event, *args, **kwargs)

    return wrapper


def _form_error(request: HttpRequest, form: forms.Form) -> None:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else error)


def _live_topics(event: Event, online_ids: Sequence[int | None] = ()) -> str:
    """What a director's page follows live (:mod:`tournaments.live`): the event's desk,
    and the online matches it shows the clocks or score of."""
    topics = [live.desk_topic(event.pk)]
    topics += [match_topic(pk) for pk in online_ids[:FOLLOWED_CLOCKS] if pk is not None]
    return " ".join(topics)


def _manage_url(event: Event) -> str:
    return reverse("tournaments:event-manage", kwargs={"slug": event.slug})


def _flight_of(event: Event, flight_id: int) -> Flight:
    return get_object_or_404(Flight, pk=flight_id, event=event)


def _flight_manage_url(event: Event, flight_id: int) -> str:
    return reverse("tournaments:flight-manage", kwargs={"slug": event.slug, "flight_id": flight_id})


def _posted_part(post: QueryDict) -> str:
    """The part a round form posts: ``part``, or ``ranking``, its former name (a page
    opened before the rename; accepted for one release, like the API's)."""
    return post.get("part", post.get("ranking", ""))


def _with_part(post: QueryDict) -> QueryDict:
    """``post`` with its part under ``part`` (:func:`_posted_part`)."""
    if "part" in post or "ranking" not in post:
        return post
    data = post.copy()
    data["part"] = post["ranking"]
    return data


def _parts(flight: Flight) -> tuple[str, ...]:
    if flight.bracket:
        return tuple(pairing.Bracket.from_dict(flight.bracket).parts)
    return FORMAT_PARTS[flight.format]


def _round_plan(
    flight: Flight, flight_entries: Sequence[Entry]
) -> tuple[dict[str, list[bracketview.RoundName]], str]:
    """The rounds of each part (:func:`tournaments.bridge.round_plan`) and a line for the
    round settings saying which round is the final and the semi-final."""
    drawn = flight.status != Flight.Status.REGISTRATION
    count = sum(
        1
        for e in flight_entries
        if (e.seed is not None if drawn else e.status != Entry.Status.WITHDRAWN)
    )
    plan = bridge.round_plan(flight, count)
    lines = []
    for part, names in plan.items():
        named = ", ".join(
            f"{r.number} = {round_title(r)}" for r in names if r.code in ("final", "semi_final")
        )
        line = _("%(part)s: rounds %(first)d to %(last)d") % {
            "part": part_title(part),
            "first": names[0].number,
            "last": names[-1].number,
        }
        lines.append(f"{line} ({named})" if named else line)
    text = "; ".join(lines)
    if not drawn and flight.is_bracket:
        text = _("With the %(count)d entries so far: %(rounds)s. The draw sets the count.") % {
            "count": count,
            "rounds": text,
        }
    return plan, text


@login_required
def event_create(request: HttpRequest) -> HttpResponse:
    """A new event (needs the ``tournaments.add_event`` permission); its creator directs it."""
    if not request.user.has_perm("tournaments.add_event"):
        raise DjangoPermissionDenied
    form = EventForm(request.POST or None, initial={"starts_on": timezone.localdate()})
    if request.method == "POST" and form.is_valid():
        try:
            event = events.event_create(by=request.user, **form.cleaned_data)
        except ApplicationError as exc:
            form.add_error(None, str(exc.detail))
        else:
            messages.success(request, _("The event was created."))
            return redirect("tournaments:event-manage", slug=event.slug)
    status = 400 if request.method == "POST" else 200
    return render(request, "tournaments/event_new.html", {"form": form}, status=status)


def _unfinished(event: Event) -> list[dict[str, Any]]:
    """The event's open matches, with the running clocks of those played online
    (three queries: the matches, the clocked games)."""
    rows = list(selectors.event_unfinished_matches(event_id=event.pk))
    _mark_waiting_in_event(event, rows)
    online_ids = [m.online_match_id for m in rows if m.online_match_id]
    games: dict[int, Game] = {}
    if online_ids:
        for game in Game.objects.filter(
            match_id__in=online_ids, is_over=False, clock__isnull=False
        ).order_by("number"):
            games[game.match_id] = game  # the last one: the game being played
    at = timezone.now()
    out = []
    for m in rows:
        clock = None
        game = games.get(m.online_match_id) if m.online_match_id else None
        if game is not None:
            view = game_selectors.clock_view(game, at=at)
            if view is not None:
                clock = [
                    {
                        "reserve": format_clock_ms(view["reserves_ms"][i]),
                        "running": view["running"] == i,
                        "flagged": view["flagged"] == i,
                    }
                    for i in (0, 1)
                ]
        out.append({"match": m, "clock": clock, "status": status_text(m)})
    return out


def _settings_form(event: Event, data: Any = None) -> EventSettingsForm:
    """The settings form (:class:`EventSettingsForm`): shown with ``rated`` locked once
    results are rated; a post takes ``rated`` when it has it."""
    return EventSettingsForm(
        data,
        initial={
            "name": event.name,
            "starts_on": event.starts_on,
            "location": event.location,
            "rated": str(event.rated),
        },
        rated_locked=data is None and selectors.event_has_rated_results(event_id=event.pk),
        auto_id="event-%s",  # the new flight's form on the same page has a "name" too
    )


@director_required
def event_manage(request: HttpRequest, event: Event) -> HttpResponse:
    """The director's page of an event: its flights, a new flight, the unfinished
    matches with running clocks, the event's settings, the directors."""
    return _event_page(request, event)


#: The new flight's form field a refusal of ``flight_create`` is about (by its code).
FLIGHT_FIELDS = {
    "name_required": "name",
    "flight_name_taken": "name",
    "invalid_format": "format",
    "invalid_seeding": "seeding",
    "invalid_length": "match_length",
    "invalid_clock": "clock_preset",
    "clock_preset_required": "clock_preset",
    "invalid_clock_policy": "clock_policy",
    "invalid_rounds": "rounds",
    "invalid_tiebreaks": "tiebreak_1",
}


def _event_page(
    request: HttpRequest, event: Event, *, flight_form: FlightForm | None = None
) -> HttpResponse:
    """The event's page; ``flight_form``: a refused new flight, shown again as typed
    with the refusal next to its field."""
    event_flights = selectors.with_player_counts(event.flights.all())
    unfinished = _unfinished(event)
    return render(
        request,
        "tournaments/event_manage.html",
        {
            "event": event,
            "flights": event_flights.order_by("id"),
            "flight_form": flight_form or FlightForm(),
            "settings_form": _settings_form(event),
            "director_form": DirectorForm(),
            "unfinished": unfinished,
            "directors": event.directors.order_by("username"),
            "flight_form_refused": flight_form is not None,
            # The online matches' moves too: their clocks first, then their scores.
            "live_topics": _live_topics(
                event,
                [
                    row["match"].online_match_id
                    for row in sorted(unfinished, key=lambda row: row["clock"] is None)
                ],
            ),
        },
        status=400 if flight_form is not None else 200,
    )


@director_required
@require_POST
def flight_create(request: HttpRequest, event: Event) -> HttpResponse:
    """A new flight. Refused (by the form or the service): the event's page again with
    everything typed and the refusal next to the field it is about."""
    form = FlightForm(request.POST)
    if not form.is_valid():
        return _event_page(request, event, flight_form=form)
    try:
        flight = flights.flight_create(event_id=event.pk, by=request.user, **form.service_kwargs())
    except ApplicationError as exc:
        form.add_error(FLIGHT_FIELDS.get(exc.code), explain_refusal(exc))
        return _event_page(request, event, flight_form=form)
    messages.success(request, _("The flight was created."))
    return redirect(_flight_manage_url(event, flight.pk))


@director_required
@require_POST
def event_update(request: HttpRequest, event: Event) -> HttpResponseRedirect:
    """Save the event's settings (:func:`~tournaments.services.events.event_update`:
    ``rated`` only until the first result is rated)."""
    form = _settings_form(event, request.POST)
    if not form.is_valid():
        _form_error(request, form)
        return redirect(_manage_url(event))
    return act(
        request,
        lambda: events.event_update(event_id=event.pk, by=request.user, **form.cleaned_data),
        to=_manage_url(event),
        success=_("The event's settings were saved."),
    )


@director_required
@require_POST
def event_status(request: HttpRequest, event: Event, action: str) -> HttpResponseRedirect:
    """Publish the event, end it (a ticked ``confirm`` box: ending is the director's
    act, never a finished flight's) or reopen it."""
    if action == "finish" and request.POST.get("confirm") != "on":
        messages.error(request, _("Tick the box to confirm that the event is over."))
        return redirect(_manage_url(event))
    service, done = {
        "publish": (events.event_publish, _("The event is published: everyone sees it.")),
        "finish": (events.event_finish, _("The event is over.")),
        "reopen": (events.event_reopen, _("The event is open again.")),
    }[action]
    return act(
        request,
        lambda: service(event_id=event.pk, by=request.user),
        to=_manage_url(event),
        success=done,
    )


@director_required
@require_POST
def event_add_director(request: HttpRequest, event: Event) -> HttpResponseRedirect:
    form = DirectorForm(request.POST)
    if not form.is_valid():
        _form_error(request, form)
        return redirect(_manage_url(event))
    user = get_user_model().objects.filter(username=form.cleaned_data["username"]).first()
    if user is None:
        messages.error(request, _("There is no user of this name."))
        return redirect(_manage_url(event))
    return act(
        request,
        lambda: events.event_add_director(event_id=event.pk, by=request.user, user=user),
        to=_manage_url(event),
        success=_("%(name)s directs this event too.") % {"name": user},
    )


@director_required
def flight_manage(request: HttpRequest, event: Event, flight_id: int) -> HttpResponse:
    """The director's page of a flight: round settings, entries (search players, add
    walk-ins, withdraw), the draw, publishing rounds, the matches to enter."""
    return _flight_page(request, event, flight_id)


def _flight_page(
    request: HttpRequest,
    event: Event,
    flight_id: int,
    *,
    quick: tuple[int, ApplicationError] | None = None,
) -> HttpResponse:
    """The flight's page; ``quick``: a quick score refused (the match, the refusal),
    shown on that match's line with the scores typed."""
    flight = _flight_of(event, flight_id)
    flight_entries = list(flight.entries.select_related("player").order_by("seed", "pk"))
    _mark_overlaps(flight, flight_entries)
    query = request.GET.get("q", "").strip()
    found: list[Player] = []
    if query:
        entered = {e.player_id for e in flight_entries}
        found = [
            p
            for p in Player.search(query)
            .filter(is_active=True)
            .order_by("name")[: SEARCH_LIMIT + len(entered)]
            if p.pk not in entered
        ][:SEARCH_LIMIT]
    settings = {(r.part, r.number): r for r in flight.rounds.all()}
    matches = list(
        flight.matches.select_related("entry_a__player", "entry_b__player").order_by(
            "part", "round", "index"
        )
    )
    keys = sorted(
        {(m.part, m.round) for m in matches} | set(settings),
        key=lambda k: (_parts(flight).index(k[0]) if k[0] in _parts(flight) else 99, k[1]),
    )
    plan, plan_help = _round_plan(flight, flight_entries)
    titles = {
        (p, r.number): round_title(r)
        for p, names in plan.items()
        for r in names
        if r.code != "round"
    }
    for m in matches:  # "M4-1 Final" in the match lists
        m.round_title = titles.get((m.part, m.round), "")  # type: ignore[attr-defined]
    _mark_waiting(matches, settings)
    rounds = [
        {
            "part": part,
            "part_title": part_title(part) if part else "",
            "number": number,
            "title": titles.get((part, number), ""),
            "settings": settings.get((part, number)),
            "count": sum(1 for m in matches if (m.part, m.round) == (part, number)),
        }
        for part, number in keys
    ]
    swiss_next = None
    if flight.format == Format.SWISS and flight.status == Flight.Status.DRAWN:
        published = [n for (p, n), r in settings.items() if r.published_at and p == ""]
        following = max(published, default=0) + 1
        if following <= flight.options.get("rounds", 0):
            swiss_next = following
    return render(
        request,
        "tournaments/flight_manage.html",
        {
            "event": event,
            "flight": flight,
            "entries": flight_entries,
            "active_count": sum(1 for e in flight_entries if e.status == Entry.Status.ACTIVE),
            "checked_in_count": sum(
                1
                for e in flight_entries
                if e.status == Entry.Status.ACTIVE and e.checked_in_at is not None
            ),
            "query": query,
            "found": found,
            "rounds_help": plan_help,  # partials/round_settings_link.html
            "rounds": rounds,
            "open_matches": [m for m in matches if m.status in OPEN],
            "done_matches": [m for m in matches if m.decided_at is not None],
            "swiss_next": swiss_next,
            "is_swiss": flight.format == Format.SWISS,
            # Issue 29: the tie-break order (Swiss, round robin), changed on its own page.
            "tiebreak_order": [TIEBREAK_LABELS.get(t, t) for t in bridge.tiebreak_order(flight)],
            "live_topics": _live_topics(event),
            # Where the quick scores send the director back to (not the refused post's
            # address when the page is shown again after one).
            "back": _flight_manage_url(event, flight.pk) if quick else request.get_full_path(),
            "quick_match": quick[0] if quick else None,
            "quick_error": explain_refusal(quick[1]) if quick else "",
            "typed": request.POST if quick else {},
        },
        status=quick[1].status if quick else 200,
    )


@director_required
@require_POST
def flight_round_set(request: HttpRequest, event: Event, flight_id: int) -> HttpResponseRedirect:
    flight = _flight_of(event, flight_id)
    form = RoundForm(_with_part(request.POST), parts=_parts(flight))
    if not form.is_valid():
        _form_error(request, form)
        return redirect(_flight_manage_url(event, flight.pk))
    data = form.cleaned_data
    starts_at = data.get("starts_at")
    if isinstance(starts_at, datetime.datetime) and timezone.is_naive(starts_at):
        starts_at = timezone.make_aware(starts_at)
    return act(
        request,
        lambda: flights.flight_round_set(
            flight_id=flight.pk,
            by=request.user,
            part=data.get("part") or "",
            number=data["number"],
            match_length=data.get("match_length"),
            clock_preset=None if data.get("clock_preset") == "-" else data.get("clock_preset", ""),
            clock_policy=data.get("clock_policy") or None,
            starts_at=starts_at,
        ),
        to=_flight_manage_url(event, flight.pk),
        success=_("The round's settings were saved."),
    )


@director_required
@require_POST
def entry_register(request: HttpRequest, event: Event, flight_id: int) -> HttpResponseRedirect:
    """Enter an existing player (``player``) or a walk-in (``name``)."""
    flight = _flight_of(event, flight_id)
    try:
        player_id = optional_int(request.POST.get("player", ""))
    except ValueError:
        player_id = 0
    return act(
        request,
        lambda: entries.entry_register(
            flight_id=flight.pk,
            by=request.user,
            player_id=player_id,
            name=request.POST.get("name", "") if player_id is None else "",
        ),
        to=next_or(request, _flight_manage_url(event, flight.pk)),
        success=lambda entry: (
            warn_overlaps(request, entry) or _("%(name)s is entered.") % {"name": entry.player.name}
        ),
    )


@director_required
@require_POST
def entry_withdraw(request: HttpRequest, event: Event, entry_id: int) -> HttpResponse:
    entry = get_object_or_404(
        Entry.objects.select_related("player", "flight"), pk=entry_id, flight__event=event
    )
    if not confirm.confirmed(request):  # issue 29: asked first, acted on confirm=1
        return confirm.withdraw_confirmation(
            request, event, entry, back=_flight_manage_url(event, entry.flight_id)
        )
    return act(
        request,
        lambda: entries.entry_withdraw(entry_id=entry.pk, by=request.user),
        to=_flight_manage_url(event, entry.flight_id),
        success=_("%(name)s is withdrawn.") % {"name": entry.player.name},
    )


@director_required
@require_POST
def flight_draw(request: HttpRequest, event: Event, flight_id: int) -> HttpResponse:
    flight = _flight_of(event, flight_id)
    try:
        seed = optional_int(request.POST.get("seed", ""))
    except ValueError:
        messages.error(request, _("The random seed is a whole number."))
        return redirect(_flight_manage_url(event, flight.pk))
    if not confirm.confirmed(request):  # issue 29: asked first, acted on confirm=1
        return confirm.draw_confirmation(request, event, flight, checked_in_only=False)
    return act(
        request,
        lambda: draw.flight_draw(
            flight_id=flight.pk,
            by=request.user,
            seed=seed,
            publish=request.POST.get("publish", "first"),
        ),
        to=_flight_manage_url(event, flight.pk),
        success=_("The draw is made."),
    )


@director_required
@require_POST
def round_publish(request: HttpRequest, event: Event, flight_id: int) -> HttpResponseRedirect:
    flight = _flight_of(event, flight_id)
    try:
        number = optional_int(request.POST.get("number", ""))
    except ValueError:
        number = 0
    return act(
        request,
        lambda: draw.round_publish(
            flight_id=flight.pk,
            by=request.user,
            part=_posted_part(request.POST),
            number=number,
        ),
        to=_flight_manage_url(event, flight.pk),
        success=lambda row: _("Round %(number)d is published.") % {"number": row.number},
    )


# ---------------------------------------------------------------------- play ahead (issue 29)
def _mark_waiting(
    matches: Sequence[TournamentMatch], settings: Mapping[tuple[str, int], FlightRound]
) -> None:
    """Mark (``waiting_round``) the open matches of a round not published: they take no
    result yet (:func:`tournaments.services.common.require_published`; with
    ``Flight.play_ahead`` off, until the round before is complete), so the director's
    pages must not show them "ready" at a table."""
    for m in matches:
        r = settings.get((m.part, m.round))
        m.waiting_round = m.status in OPEN and (r is None or r.published_at is None)  # type: ignore[attr-defined]


def _mark_waiting_in_event(event: Event, matches: Sequence[TournamentMatch]) -> None:
    """:func:`_mark_waiting` for matches of several flights of ``event`` (one query)."""
    shown = set(
        FlightRound.objects.filter(flight__event=event, published_at__isnull=False).values_list(
            "flight_id", "part", "number"
        )
    )
    for m in matches:
        m.waiting_round = (m.flight_id, m.part, m.round) not in shown  # type: ignore[attr-defined]


# ---------------------------------------------------------------------- several flights (issue 29)
def _mark_overlaps(flight: Flight, flight_entries: Sequence[Entry]) -> None:
    """Each entry's ``also_in``: the event's other flights running at the same time
    where its player holds a place too (:mod:`tournaments.overlaps`)."""
    found = overlaps.flight_overlaps(flight)
    for e in flight_entries:
        e.also_in = found.get(e.pk, [])  # type: ignore[attr-defined]


def warn_overlaps(request: HttpRequest, entry: Entry) -> None:
    """A warning (not a refusal) when the player just entered also plays in another
    flight at the same time (:func:`tournaments.overlaps.overlap_warnings`)."""
    for text in overlaps.overlap_warnings(entry):
        messages.warning(request, text)


# ---------------------------------------------------------------------- play ahead (issue 29)
@director_required
@require_POST
def flight_play_ahead(request: HttpRequest, event: Event, flight_id: int) -> HttpResponseRedirect:
    """Switch the flight's play ahead on or off (``flights.flight_set_play_ahead``)."""
    flight = _flight_of(event, flight_id)
    return act(
        request,
        lambda: flights.flight_set_play_ahead(
            flight_id=flight.pk, by=request.user, play_ahead=request.POST.get("play_ahead") == "on"
        ),
        to=_flight_manage_url(event, flight.pk),
        success=lambda f: _("Play ahead is on.") if f.play_ahead else _("Play ahead is off."),
    )
