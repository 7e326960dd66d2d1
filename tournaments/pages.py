"""Tournament pages: the public event, bracket, pairings, standings and finishing order;
the director's pages that run the day; a player's own result report.

Plain Django function views, like :mod:`games.pages`. Every page works without
JavaScript: each action is a form post to the same services the API uses
(:mod:`tournaments.services`), answered by a redirect (POST-redirect-GET) and, when a
service refuses, the error's human message through :mod:`django.contrib.messages`.

Who sees what:

* anyone: the event list, an event, a flight (bracket as SVG, ``?wall=1`` for a wall
  display, pairings and results per round as tables, standings, finishing order and its
  CSV);
* the event's directors (or superusers): the event's admin page, a flight's admin page
  and a match's admin page, and every director post. Anonymous users are sent to log
  in, anyone else gets 403 (the services check again);
* a player (``request.user.player``): on the flight page, a report form and a confirm
  button for their own open matches only.

The flight page reads everything in the four queries of
:func:`tournaments.selectors.flight_bracket` (plus the session's), whatever the field
size: the bracket is resolved, laid out and drawn in Python
(:mod:`tournaments.bracketview`).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games import selectors as game_selectors
from games.engine.clock import PRESETS
from games.errors import ApplicationError, ValidationFailed
from games.models import Game, Player
from games.tableclock_pages import format_clock_ms
from tournaments import bracketview, bridge, pairing, selectors
from tournaments.models import (
    BRACKET_FORMATS,
    BUILDER_OPTIONS,
    OPEN,
    PARTS,
    ClockPolicy,
    Entry,
    Event,
    Flight,
    Format,
    TournamentMatch,
)
from tournaments.services import draw, entries, events, flights, online, results

#: Seconds between the refreshes of the wall display and of the director's list of
#: unfinished matches (no JavaScript needed).
WALL_REFRESH_SECONDS = 30
MANAGE_REFRESH_SECONDS = 30
#: Players listed for one search on the registration form.
SEARCH_LIMIT = 20
#: Cube values offered on the game-by-game form.
CUBES = (1, 2, 4, 8, 16, 32, 64)


# ====================================================================== words
def part_title(part: str) -> str:
    """The name of a part (``ranking``) of a flight, for headings."""
    return {
        "main": _("Main draw"),
        "consolation": _("Consolation"),
        "last_chance": _("Last chance"),
        "winners": _("Winners' bracket"),
        "losers": _("Losers' bracket"),
        "final": _("Grand final"),
        "": _("Rounds"),
    }.get(part, part)


def round_title(name: bracketview.RoundName) -> str:
    """A bracket column's title, translated (:data:`bracketview.RoundTitle`)."""
    if name.code == "final":
        return _("Final")
    if name.code == "semi_final":
        return _("Semi-final")
    if name.code == "quarter_final":
        return _("Quarter-final")
    if name.code == "reset":
        return _("Second final")
    return _("Round %(number)d") % {"number": name.number}


def _labels() -> bracketview.Labels:
    return bracketview.Labels(
        bye=_("bye"),
        pending="—",
        walkover=_("w/o"),
        table=_("Table %(number)s") % {"number": "{}"},
    )


def _status_text(row: TournamentMatch) -> str:
    if row.status in OPEN and row.online_match_id:
        return _("playing online")
    if row.status == TournamentMatch.Status.REPORTED:
        return _("reported")
    return ""


# ====================================================================== access
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


def _back(request: HttpRequest, default: str) -> HttpResponseRedirect:
    """Redirect to the form's ``next`` (a local address) or ``default``."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return HttpResponseRedirect(target)
    return HttpResponseRedirect(default)


def _error(request: HttpRequest, exc: ApplicationError) -> None:
    """Show a service's refusal: its message, and the details people need."""
    text = str(exc.detail)
    other = exc.extra.get("other")
    if exc.code == "report_mismatch" and isinstance(other, Mapping):
        text += " " + _("Your opponent's report: %(a)s-%(b)s.") % {
            "a": other.get("score_a"),
            "b": other.get("score_b"),
        }
    slots = exc.extra.get("slots")
    if exc.code == "later_results_depend" and isinstance(slots, list):
        text += " " + _("Matches: %(slots)s.") % {"slots": ", ".join(map(str, slots))}
    messages.error(request, text)


def _form_error(request: HttpRequest, form: forms.Form) -> None:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else error)


# ====================================================================== public pages
def event_list(request: HttpRequest) -> HttpResponse:
    events = Event.objects.annotate(flight_count=Count("flights"))
    can_create = request.user.is_authenticated and request.user.has_perm("tournaments.add_event")
    return render(
        request, "tournaments/event_list.html", {"events": events, "can_create": can_create}
    )


def event_page(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    flights = event.flights.annotate(
        entry_count=Count("entries", distinct=True),
    ).order_by("id")
    return render(
        request,
        "tournaments/event_detail.html",
        {
            "event": event,
            "flights": flights,
            "is_director": event.is_director(request.user),
            "directors": event.directors.order_by("username"),
        },
    )


def _flight_or_404(slug: str, flight_id: int) -> selectors.BracketPage:
    try:
        page = selectors.flight_bracket(flight_id=flight_id)
    except Flight.DoesNotExist:
        raise Http404 from None
    if page.event.slug != slug:
        raise Http404
    return page


def _resolved(page: selectors.BracketPage) -> tuple[pairing.Bracket, dict[str, Any]]:
    bracket = pairing.Bracket.from_dict(page.flight.bracket or {})
    return bracket, bridge.resolve(page.flight, page.entries, page.matches, bracket=bracket)


def _score_text(row: TournamentMatch, side: str) -> str:
    value = row.score_a if side == "a" else row.score_b
    return "" if value is None or row.decided_at is None else str(value)


def _brackets(
    page: selectors.BracketPage, *, href: Callable[[TournamentMatch], str], min_scale: float
) -> tuple[list[dict[str, Any]], dict[tuple[str, int], str], dict[str, list[dict[str, Any]]]]:
    """The flight's bracket parts drawn as SVG, the round titles by (part, round), and the
    finishing order by ranking (from the same resolution, no query)."""
    bracket, resolved = _resolved(page)
    names = {e.pk: e.player.name for e in page.entries}
    details = {
        m.slot_key: bracketview.SlotDetail(
            score_a=_score_text(m, "a"),
            score_b=_score_text(m, "b"),
            table=m.table if m.status in OPEN else None,
            status=_status_text(m),
            href=href(m),
        )
        for m in page.matches
    }
    layouts = bracketview.layout(
        bracket, resolved, names, details=details, round_title=round_title, labels=_labels()
    )
    parts = []
    titles: dict[tuple[str, int], str] = {}
    for lay in layouts:
        title = part_title(lay.flight)
        accessible = _("Bracket: %(part)s") % {"part": title}
        parts.append(
            {
                "flight": lay.flight,
                "title": title,
                "svg": mark_safe(  # noqa: S308 - built by render_svg, every text escaped
                    bracketview.render_svg(lay, title=accessible, min_scale=min_scale)
                ),
                "champion": lay.champion.text if lay.champion is not None else "",
                # Drawn at most at its natural size on a page (the wall view fills the
                # screen instead); never below render_svg's min-width (then it scrolls).
                "max_width": round(lay.width),
            }
        )
        for col in lay.columns:
            titles[(lay.flight, col.round)] = col.title
    by_id = {e.pk: e for e in page.entries}
    order = {
        ranking: [
            {
                "label": place.label,
                "final": place.final,
                "names": [by_id[int(x)].player.name for x in place.entrants],
            }
            for place in places
        ]
        for ranking, places in pairing.finishing_order(bracket, resolved).items()
    }
    return parts, titles, order


def _standings(page: selectors.BracketPage) -> list[dict[str, Any]]:
    by_id = {e.pk: e for e in page.entries}
    table = bridge.standings(page.flight, page.entries, page.matches)
    return [{"s": s, "entry": by_id[int(s.player)]} for s in table]


TIEBREAK_LABELS = {
    "wins": gettext_lazy("Wins"),
    "buchholz": gettext_lazy("Buchholz"),
    "point_difference": gettext_lazy("Point difference"),
    "head_to_head": gettext_lazy("Head-to-head"),
}


def _rounds(
    page: selectors.BracketPage, titles: Mapping[tuple[str, int], str]
) -> list[dict[str, Any]]:
    """Pairings and results per round, parts in play order, for the tables."""
    bracket_parts = (
        list(pairing.Bracket.from_dict(page.flight.bracket).flights) if page.flight.bracket else []
    )
    ordered = [p for p in bracket_parts if p in page.parts] + [
        p for p in page.parts if p not in bracket_parts
    ]
    out = []
    for part in ordered:
        for number in sorted(page.parts[part]):
            settings = page.rounds.get((part, number))
            rows = page.parts[part][number]
            out.append(
                {
                    "part": part,
                    "part_title": part_title(part) if part else "",
                    "number": number,
                    "title": titles.get((part, number))
                    or _("Round %(number)d") % {"number": number},
                    "settings": settings,
                    "length": rows[0].match_length if rows else page.flight.match_length,
                    "matches": rows,
                }
            )
    return out


def _my_matches(page: selectors.BracketPage, me: Player | None) -> list[dict[str, Any]]:
    """The viewer's open matches with what they may do: report, confirm, play online."""
    if me is None:
        return []
    mine = []
    for m in page.matches:
        if m.status not in OPEN or not (m.entry_a_id and m.entry_b_id):
            continue
        assert m.entry_a is not None and m.entry_b is not None
        if me.pk == m.entry_a.player_id:
            side, opponent = "a", m.entry_b
        elif me.pk == m.entry_b.player_id:
            side, opponent = "b", m.entry_a
        else:
            continue
        my_report = m.report_a if side == "a" else m.report_b
        their_report = m.report_b if side == "a" else m.report_a
        mine.append(
            {
                "match": m,
                "side": side,
                "opponent": opponent,
                "my_report": my_report,
                "their_report": their_report,
                "can_confirm": m.status == TournamentMatch.Status.REPORTED
                and their_report is not None
                and my_report is None,
                "game_rows": _game_rows(m.match_length),
            }
        )
    return mine


def _game_rows(length: int) -> range:
    """Enough game lines for the longest match to ``length`` (a point a game)."""
    return range(1, min(max(2 * length - 1, 1), 49) + 1)


def flight_page(request: HttpRequest, slug: str, flight_id: int) -> HttpResponse:
    """The bracket (SVG) or the Swiss / round robin standings, pairings and results per
    round, the finishing order; ``?wall=1``: the bracket full screen for a wall display."""
    page = _flight_or_404(slug, flight_id)
    flight = page.flight
    wall = request.GET.get("wall") == "1"
    is_director = page.event.is_director(request.user)

    def href(m: TournamentMatch) -> str:
        if wall:
            return ""
        if is_director:
            return reverse("tournaments:match-manage", kwargs={"slug": slug, "match_id": m.pk})
        return f"#match-{m.pk}"

    parts: list[dict[str, Any]] = []
    titles: dict[tuple[str, int], str] = {}
    order: dict[str, list[dict[str, Any]]] = {}
    if flight.is_bracket and flight.bracket:
        parts, titles, order = _brackets(page, href=href, min_scale=0 if wall else 0.8)
    standings = [] if flight.is_bracket else _standings(page)
    tiebreaks = [
        TIEBREAK_LABELS.get(t, t) for t in flight.options.get("tiebreaks", pairing.DEFAULT_ORDER)
    ]
    context = {
        "event": page.event,
        "flight": flight,
        "parts": parts,
        "standings": standings,
        "tiebreaks": tiebreaks,
        "order": [
            {"ranking": r, "title": part_title(r), "places": places} for r, places in order.items()
        ],
        "is_director": is_director,
        "refresh_seconds": WALL_REFRESH_SECONDS,
    }
    if wall:
        return render(request, "tournaments/flight_wall.html", context)
    context.update(
        {
            "rounds": _rounds(page, titles),
            "my_matches": _my_matches(page, Player.of_user(request.user)),
            "cubes": CUBES,
            "entries": page.entries,
        }
    )
    return render(request, "tournaments/flight_detail.html", context)


def flight_finishing_order_csv(request: HttpRequest, slug: str, flight_id: int) -> HttpResponse:
    flight = get_object_or_404(Flight.objects.select_related("event"), pk=flight_id)
    if flight.event.slug != slug:
        raise Http404
    text = selectors.flight_finishing_order_csv(flight=flight)
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="{flight.event.slug}-{flight.pk}-finishing-order.csv"'
    )
    return response


# ====================================================================== result input
def _int(value: str, *, required: bool = False) -> int | None:
    value = (value or "").strip()
    if not value:
        if required:
            raise ValueError(value)
        return None
    return int(value)


def _result_input(request: HttpRequest, *, walkover: bool = False) -> dict[str, Any]:
    """The result typed into the form: the final score, or game lines (``game-N-winner``,
    ``game-N-points``, ``game-N-cube``; a line without a winner is left out), or (for a
    director) a walkover. The services check it against the match rules."""
    post = request.POST
    try:
        if walkover and post.get("walkover") in ("a", "b"):
            return {"walkover_winner": post["walkover"]}
        games = []
        for number in range(1, 50):
            winner = post.get(f"game-{number}-winner", "")
            if winner not in ("1", "2"):
                continue
            cube = _int(post.get(f"game-{number}-cube", "")) or 1
            points = _int(post.get(f"game-{number}-points", "")) or cube
            games.append({"winner": int(winner), "points": points, "cube": cube})
        score_a = _int(post.get("score_a", ""))
        score_b = _int(post.get("score_b", ""))
    except ValueError:
        raise ValidationFailed(
            "invalid_number", _("Scores, points and cubes are whole numbers.")
        ) from None
    return {"score_a": score_a, "score_b": score_b, "games": games or None}


def _version(request: HttpRequest) -> int | None:
    try:
        return _int(request.POST.get("version", ""))
    except ValueError:
        return None


def _match_of(event: Event, match_id: int) -> TournamentMatch:
    return get_object_or_404(
        TournamentMatch.objects.select_related("flight"), pk=match_id, flight__event=event
    )


def _flight_url(event: Event, flight_id: int) -> str:
    return reverse("tournaments:flight", kwargs={"slug": event.slug, "flight_id": flight_id})


# ---------------------------------------------------------------------- a player's posts
@login_required
@require_POST
def match_report(request: HttpRequest, slug: str, match_id: int) -> HttpResponseRedirect:
    """A player reports their own match (the service refuses anyone else)."""
    event = get_object_or_404(Event, slug=slug)
    row = _match_of(event, match_id)
    try:
        done = results.result_report(
            match_id=row.pk,
            by=request.user,
            expected_version=_version(request),
            **_result_input(request),
        )
    except ApplicationError as exc:
        _error(request, exc)
    else:
        if done.decided_at is not None:
            messages.success(request, _("Both reports agree: the result stands."))
        else:
            messages.success(request, _("Result reported: your opponent is asked to confirm it."))
    return _back(request, _flight_url(event, row.flight_id))


@login_required
@require_POST
def match_confirm(request: HttpRequest, slug: str, match_id: int) -> HttpResponseRedirect:
    """The opponent of the player who reported (or a director) confirms the report."""
    event = get_object_or_404(Event, slug=slug)
    row = _match_of(event, match_id)
    try:
        results.result_confirm(match_id=row.pk, by=request.user, expected_version=_version(request))
    except ApplicationError as exc:
        _error(request, exc)
    else:
        messages.success(request, _("Result confirmed."))
    return _back(request, _flight_url(event, row.flight_id))


@login_required
@require_POST
def match_start_online(request: HttpRequest, slug: str, match_id: int) -> HttpResponseRedirect:
    """A player of the match (or a director) starts it online: to the match page."""
    event = get_object_or_404(Event, slug=slug)
    row = _match_of(event, match_id)
    clock = {"1": True, "0": False}.get(request.POST.get("clock", ""))
    try:
        online_match = online.match_start_online(match_id=row.pk, by=request.user, clock=clock)
    except ApplicationError as exc:
        _error(request, exc)
        return _back(request, _flight_url(event, row.flight_id))
    return redirect("games:match", match_id=online_match.pk)


# ====================================================================== director: events
RATED_HELP = gettext_lazy(
    "The results count for the players' ratings. It can be changed until the first result "
    "is recorded."
)


class EventForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    starts_on = forms.DateField(
        label=gettext_lazy("Starts on"), widget=forms.DateInput(attrs={"type": "date"})
    )
    location = forms.CharField(label=gettext_lazy("Location"), max_length=200, required=False)
    slug = forms.CharField(
        label=gettext_lazy("Web address"),
        max_length=120,
        required=False,
        help_text=gettext_lazy("Letters, digits and hyphens; made from the name when empty."),
    )
    rated = forms.BooleanField(
        label=gettext_lazy("Rated"), required=False, initial=True, help_text=RATED_HELP
    )


class EventSettingsForm(forms.Form):
    """The event's settings on its director's page (the web address stays).

    ``rated`` is a pair of radio buttons, not a box: a post without it (they are shown
    disabled once results are rated, ``rated_locked``, and a browser does not send
    disabled inputs) leaves it as it is (``None``), while a post with it, e.g. from a page
    opened before the first result, is the service's to refuse, with its reason."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    starts_on = forms.DateField(
        label=gettext_lazy("Starts on"), widget=forms.DateInput(attrs={"type": "date"})
    )
    location = forms.CharField(label=gettext_lazy("Location"), max_length=200, required=False)
    rated = forms.TypedChoiceField(
        label=gettext_lazy("Ratings"),
        choices=[("True", gettext_lazy("Rated")), ("False", gettext_lazy("Not rated"))],
        coerce=lambda value: value == "True",
        empty_value=None,
        required=False,
        widget=forms.RadioSelect,
        help_text=RATED_HELP,
    )

    def __init__(self, *args: Any, rated_locked: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if rated_locked:
            self.fields["rated"].disabled = True
            self.fields["rated"].help_text = gettext_lazy(
                "Results of this event are in the rating list already: this no longer changes."
            )


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


def _clock_choices(*, keep: bool = False) -> list[tuple[str, Any]]:
    choices: list[tuple[str, Any]] = [("", gettext_lazy("no clock"))]
    choices += [(name, name) for name in PRESETS]
    if keep:
        choices.insert(0, ("-", gettext_lazy("(unchanged)")))
    return choices


class FlightForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80)
    format = forms.ChoiceField(label=gettext_lazy("Format"), choices=Format.choices)
    seeding = forms.ChoiceField(label=gettext_lazy("Seeding"), choices=Flight.SeedingMethod.choices)
    match_length = forms.IntegerField(
        label=gettext_lazy("Default match length"), min_value=1, max_value=25, initial=5
    )
    clock_preset = forms.ChoiceField(
        label=gettext_lazy("Clock"), choices=_clock_choices, required=False
    )
    clock_policy = forms.ChoiceField(
        label=gettext_lazy("Clocks"), choices=ClockPolicy.choices, initial=ClockPolicy.OFF
    )
    entry_rounds = forms.TypedChoiceField(
        label=gettext_lazy("Consolation / last chance entry"),
        choices=[
            (1, gettext_lazy("losers of round 1")),
            (2, gettext_lazy("losers of rounds 1 and 2")),
        ],
        coerce=int,
        initial=1,
        help_text=gettext_lazy("Main and consolation, main and last chance."),
    )
    last_entry_round = forms.IntegerField(
        label=gettext_lazy("Last main round feeding the consolation"),
        min_value=1,
        max_value=12,
        required=False,
        help_text=gettext_lazy("Progressive consolation; empty: up to the semi-finals."),
    )
    bracket_reset = forms.BooleanField(
        label=gettext_lazy("Bracket reset (a second final)"),
        required=False,
        help_text=gettext_lazy("Double elimination."),
    )
    rounds = forms.IntegerField(
        label=gettext_lazy("Swiss rounds"),
        min_value=1,
        max_value=30,
        required=False,
        help_text=gettext_lazy("Swiss: the number of rounds (required)."),
    )

    def service_kwargs(self) -> dict[str, Any]:
        """The arguments of :func:`flights.flight_create`: only the options of the
        chosen format."""
        data = self.cleaned_data
        fmt = data["format"]
        options: dict[str, Any] = {}
        if fmt in BRACKET_FORMATS:
            for name in BUILDER_OPTIONS[fmt]:
                if data.get(name) is not None:
                    options[name] = data[name]
        elif fmt == Format.SWISS:
            options["rounds"] = data.get("rounds")
        return {
            "name": data["name"],
            "format": fmt,
            "options": options,
            "seeding": data["seeding"],
            "match_length": data["match_length"],
            "clock_preset": data.get("clock_preset") or "",
            "clock_policy": data["clock_policy"],
        }


class DirectorForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("User name"), max_length=150)


def _unfinished(event: Event) -> list[dict[str, Any]]:
    """The event's open matches, with the running clocks of those played online
    (three queries: the matches, the clocked games)."""
    rows = list(selectors.event_unfinished_matches(event_id=event.pk))
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
        out.append({"match": m, "clock": clock, "status": _status_text(m)})
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
    flights = event.flights.annotate(entry_count=Count("entries", distinct=True)).order_by("id")
    return render(
        request,
        "tournaments/event_manage.html",
        {
            "event": event,
            "flights": flights,
            "flight_form": FlightForm(),
            "settings_form": _settings_form(event),
            "director_form": DirectorForm(),
            "unfinished": _unfinished(event),
            "directors": event.directors.order_by("username"),
            "refresh_seconds": MANAGE_REFRESH_SECONDS,
        },
    )


def _manage_url(event: Event) -> str:
    return reverse("tournaments:event-manage", kwargs={"slug": event.slug})


@director_required
@require_POST
def flight_create(request: HttpRequest, event: Event) -> HttpResponseRedirect:
    form = FlightForm(request.POST)
    if not form.is_valid():
        _form_error(request, form)
        return redirect(_manage_url(event))
    try:
        flight = flights.flight_create(event_id=event.pk, by=request.user, **form.service_kwargs())
    except ApplicationError as exc:
        _error(request, exc)
        return redirect(_manage_url(event))
    messages.success(request, _("The flight was created."))
    return redirect("tournaments:flight-manage", slug=event.slug, flight_id=flight.pk)


@director_required
@require_POST
def event_update(request: HttpRequest, event: Event) -> HttpResponseRedirect:
    """Save the event's settings (:func:`events.event_update`: ``rated`` only until
    the first result is rated)."""
    form = _settings_form(event, request.POST)
    if not form.is_valid():
        _form_error(request, form)
        return redirect(_manage_url(event))
    try:
        events.event_update(event_id=event.pk, by=request.user, **form.cleaned_data)
    except ApplicationError as exc:
        _error(request, exc)
    else:
        messages.success(request, _("The event's settings were saved."))
    return redirect(_manage_url(event))


@director_required
@require_POST
def event_add_director(request: HttpRequest, event: Event) -> HttpResponseRedirect:
    form = DirectorForm(request.POST)
    if form.is_valid():
        user = get_user_model().objects.filter(username=form.cleaned_data["username"]).first()
        if user is None:
            messages.error(request, _("There is no user of this name."))
        else:
            try:
                events.event_add_director(event_id=event.pk, by=request.user, user=user)
            except ApplicationError as exc:
                _error(request, exc)
            else:
                messages.success(request, _("%(name)s directs this event too.") % {"name": user})
    else:
        _form_error(request, form)
    return redirect(_manage_url(event))


# ====================================================================== director: flights
class RoundForm(forms.Form):
    ranking = forms.ChoiceField(label=gettext_lazy("Part"), required=False)
    number = forms.IntegerField(label=gettext_lazy("Round"), min_value=1, max_value=99)
    match_length = forms.IntegerField(
        label=gettext_lazy("Match length"), min_value=1, max_value=25, required=False
    )
    clock_preset = forms.ChoiceField(
        label=gettext_lazy("Clock"),
        choices=lambda: _clock_choices(keep=True),
        initial="-",
        required=False,
    )
    clock_policy = forms.ChoiceField(
        label=gettext_lazy("Clocks"),
        choices=[("", gettext_lazy("(unchanged)")), *ClockPolicy.choices],
        required=False,
    )
    starts_at = forms.DateTimeField(
        label=gettext_lazy("Starts at"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )

    def __init__(self, *args: Any, parts: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ranking"].choices = [(p, part_title(p)) for p in parts]


def _parts(flight: Flight) -> tuple[str, ...]:
    if flight.bracket:
        return tuple(pairing.Bracket.from_dict(flight.bracket).flights)
    return PARTS[flight.format]


def _flight_of(event: Event, flight_id: int) -> Flight:
    return get_object_or_404(Flight, pk=flight_id, event=event)


def _flight_manage_url(event: Event, flight_id: int) -> str:
    return reverse("tournaments:flight-manage", kwargs={"slug": event.slug, "flight_id": flight_id})


@director_required
def flight_manage(request: HttpRequest, event: Event, flight_id: int) -> HttpResponse:
    """The director's page of a flight: round settings, entries (search players, add
    walk-ins, withdraw), the draw, publishing rounds, the matches to enter."""
    flight = _flight_of(event, flight_id)
    entries = list(flight.entries.select_related("player").order_by("seed", "pk"))
    query = request.GET.get("q", "").strip()
    found: list[Player] = []
    if query:
        entered = {e.player_id for e in entries}
        found = [
            p
            for p in Player.objects.filter(name__icontains=query, is_active=True).order_by("name")[
                : SEARCH_LIMIT + len(entered)
            ]
            if p.pk not in entered
        ][:SEARCH_LIMIT]
    settings = {(r.ranking, r.number): r for r in flight.rounds.all()}
    matches = list(
        flight.matches.select_related("entry_a__player", "entry_b__player").order_by(
            "ranking", "round", "index"
        )
    )
    keys = sorted(
        {(m.ranking, m.round) for m in matches} | set(settings),
        key=lambda k: (_parts(flight).index(k[0]) if k[0] in _parts(flight) else 99, k[1]),
    )
    rounds = [
        {
            "part": part,
            "part_title": part_title(part) if part else "",
            "number": number,
            "settings": settings.get((part, number)),
            "count": sum(1 for m in matches if (m.ranking, m.round) == (part, number)),
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
            "entries": entries,
            "query": query,
            "found": found,
            "round_form": RoundForm(parts=_parts(flight)),
            "rounds": rounds,
            "open_matches": [m for m in matches if m.status in OPEN],
            "done_matches": [m for m in matches if m.decided_at is not None],
            "swiss_next": swiss_next,
            "is_swiss": flight.format == Format.SWISS,
        },
    )


@director_required
@require_POST
def flight_round_set(request: HttpRequest, event: Event, flight_id: int) -> HttpResponseRedirect:
    flight = _flight_of(event, flight_id)
    form = RoundForm(request.POST, parts=_parts(flight))
    if not form.is_valid():
        _form_error(request, form)
        return redirect(_flight_manage_url(event, flight.pk))
    data = form.cleaned_data
    starts_at = data.get("starts_at")
    if isinstance(starts_at, datetime.datetime) and timezone.is_naive(starts_at):
        starts_at = timezone.make_aware(starts_at)
    try:
        flights.flight_round_set(
            flight_id=flight.pk,
            by=request.user,
            ranking=data.get("ranking") or "",
            number=data["number"],
            match_length=data.get("match_length"),
            clock_preset=None if data.get("clock_preset") == "-" else data.get("clock_preset", ""),
            clock_policy=data.get("clock_policy") or None,
            starts_at=starts_at,
        )
    except ApplicationError as exc:
        _error(request, exc)
    else:
        messages.success(request, _("The round's settings were saved."))
    return redirect(_flight_manage_url(event, flight.pk))


@director_required
@require_POST
def entry_register(request: HttpRequest, event: Event, flight_id: int) -> HttpResponseRedirect:
    """Enter an existing player (``player``) or a walk-in (``name``)."""
    flight = _flight_of(event, flight_id)
    try:
        player_id = _int(request.POST.get("player", ""))
    except ValueError:
        player_id = 0
    try:
        entry = entries.entry_register(
            flight_id=flight.pk,
            by=request.user,
            player_id=player_id,
            name=request.POST.get("name", "") if player_id is None else "",
        )
    except ApplicationError as exc:
        _error(request, exc)
    else:
        messages.success(request, _("%(name)s is entered.") % {"name": entry.player.name})
    return _back(request, _flight_manage_url(event, flight.pk))


@director_required
@require_POST
def entry_withdraw(request: HttpRequest, event: Event, entry_id: int) -> HttpResponseRedirect:
    entry = get_object_or_404(
        Entry.objects.select_related("player"), pk=entry_id, flight__event=event
    )
    try:
        entries.entry_withdraw(entry_id=entry.pk, by=request.user)
    except ApplicationError as exc:
        _error(request, exc)
    else:
        messages.success(request, _("%(name)s is withdrawn.") % {"name": entry.player.name})
    return redirect(_flight_manage_url(event, entry.flight_id))


@director_required
@require_POST
def flight_draw(request: HttpRequest, event: Event, flight_id: int) -> HttpResponseRedirect:
    flight = _flight_of(event, flight_id)
    try:
        seed = _int(request.POST.get("seed", ""))
    except ValueError:
        messages.error(request, _("The random seed is a whole number."))
        return redirect(_flight_manage_url(event, flight.pk))
    try:
        draw.flight_draw(flight_id=flight.pk, by=request.user, seed=seed)
    except ApplicationError as exc:
        _error(request, exc)
    else:
        messages.success(request, _("The draw is made."))
    return redirect(_flight_manage_url(event, flight.pk))


@director_required
@require_POST
def round_publish(request: HttpRequest, event: Event, flight_id: int) -> HttpResponseRedirect:
    flight = _flight_of(event, flight_id)
    try:
        number = _int(request.POST.get("number", ""))
    except ValueError:
        number = 0
    try:
        row = draw.round_publish(
            flight_id=flight.pk,
            by=request.user,
            ranking=request.POST.get("ranking", ""),
            number=number,
        )
    except ApplicationError as exc:
        _error(request, exc)
    else:
        messages.success(request, _("Round %(number)d is published.") % {"number": row.number})
    return redirect(_flight_manage_url(event, flight.pk))


# ====================================================================== director: matches
@director_required
def match_manage(request: HttpRequest, event: Event, match_id: int) -> HttpResponse:
    """One match: enter, confirm or correct its result (with the audit list), set its
    table, start it online."""
    row = get_object_or_404(
        TournamentMatch.objects.select_related(
            "flight", "entry_a__player", "entry_b__player", "online_match", "decided_by"
        ),
        pk=match_id,
        flight__event=event,
    )
    corrections = list(row.corrections.select_related("by").order_by("-at", "-id"))
    settings = row.flight.rounds.filter(ranking=row.ranking, number=row.round).first()
    policy = settings.clock_policy if settings else row.flight.clock_policy
    reports = [
        (side, entry, report)
        for side, entry, report in (
            ("a", row.entry_a, row.report_a),
            ("b", row.entry_b, row.report_b),
        )
        if report
    ]
    return render(
        request,
        "tournaments/match_manage.html",
        {
            "event": event,
            "flight": row.flight,
            "m": row,
            "reports": reports,
            "corrections": corrections,
            "game_rows": _game_rows(row.match_length),
            "cubes": CUBES,
            "is_open": row.status in OPEN and row.entry_a_id and row.entry_b_id,
            "can_correct": row.decided_at is not None
            and row.status in (TournamentMatch.Status.CONFIRMED, TournamentMatch.Status.WALKOVER),
            "can_confirm": row.status == TournamentMatch.Status.REPORTED and len(reports) == 1,
            "can_start_online": row.status == TournamentMatch.Status.READY
            and row.online_match_id is None,
            "clock_allowed": policy == ClockPolicy.ALLOWED,
        },
    )


def _match_manage_url(event: Event, match_id: int) -> str:
    return reverse("tournaments:match-manage", kwargs={"slug": event.slug, "match_id": match_id})


@director_required
@require_POST
def match_enter(request: HttpRequest, event: Event, match_id: int) -> HttpResponseRedirect:
    """A director enters a result: final score, game by game, or a walkover."""
    row = _match_of(event, match_id)
    try:
        results.result_enter(
            match_id=row.pk,
            by=request.user,
            expected_version=_version(request),
            **_result_input(request, walkover=True),
        )
    except ApplicationError as exc:
        _error(request, exc)
    else:
        messages.success(request, _("The result was entered."))
    return _back(request, _match_manage_url(event, row.pk))


@director_required
@require_POST
def match_correct(request: HttpRequest, event: Event, match_id: int) -> HttpResponseRedirect:
    """A director corrects a result that stands (audited, with the reason)."""
    row = _match_of(event, match_id)
    try:
        results.result_correct(
            match_id=row.pk,
            by=request.user,
            reason=request.POST.get("reason", ""),
            reset_later=request.POST.get("reset_later") == "on",
            expected_version=_version(request),
            **_result_input(request, walkover=True),
        )
    except ApplicationError as exc:
        _error(request, exc)
    else:
        messages.success(request, _("The result was corrected."))
    return redirect(_match_manage_url(event, row.pk))


@director_required
@require_POST
def match_set_table(request: HttpRequest, event: Event, match_id: int) -> HttpResponseRedirect:
    row = _match_of(event, match_id)
    try:
        table = _int(request.POST.get("table", ""))
    except ValueError:
        messages.error(request, _("Tables are numbered 1 to 999."))
        return redirect(_match_manage_url(event, row.pk))
    try:
        results.match_set_table(match_id=row.pk, by=request.user, table=table)
    except ApplicationError as exc:
        _error(request, exc)
    else:
        messages.success(request, _("The table was saved."))
    return _back(request, _match_manage_url(event, row.pk))


# ====================================================================== the player page
def player_section_context(player: Player) -> dict[str, Any]:
    """The context of the player page's tournaments section
    (``tournaments/partials/player_placings.html``, registered in
    :meth:`tournaments.apps.TournamentsConfig.ready`): one query."""
    return {
        "placings": [
            {"p": p, "side_title": part_title(p.side_part) if p.side_part else ""}
            for p in selectors.player_placings(player_id=player.pk)
        ]
    }
