"""What anyone reads: the event list, an event, a flight (its bracket drawn as SVG, or
its Swiss / round robin standings, the pairings and results per round, the finishing
order and its CSV; ``?wall=1``: the bracket full screen), and the tournaments section of
the player page. A player sees the report form of their own open matches on the flight
page (:mod:`tournaments.pages.player` takes the posts). The event and flight pages and
the wall follow their topics live (:mod:`tournaments.live`): a result appears on them
without a reload."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from games.models import Player
from tournaments import bracketview, bridge, live, pairing, selectors
from tournaments.analysis import flight_pr_table
from tournaments.models import OPEN, Event, Flight, TournamentMatch
from tournaments.pages import desk
from tournaments.pages.common import (
    CUBES,
    TIEBREAK_LABELS,
    game_lines,
    part_title,
    round_title,
    status_text,
    unpublished,
)
from tournaments.pages.mats import may_upload
from tournaments.pages.wall import wall_context


def _labels() -> bracketview.Labels:
    return bracketview.Labels(
        bye=_("bye"),
        pending="—",
        walkover=_("w/o"),
        table=_("Table %(number)s") % {"number": "{}"},
    )


def event_list(request: HttpRequest) -> HttpResponse:
    """The events: the published ones, and the drafts the viewer directs."""
    events = selectors.visible_events(request.user).annotate(
        flight_count=Count("flights", distinct=True)
    )
    can_create = request.user.is_authenticated and request.user.has_perm("tournaments.add_event")
    return render(
        request, "tournaments/event_list.html", {"events": events, "can_create": can_create}
    )


def event_page(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    if not selectors.event_visible(event, request.user):
        return unpublished(request)
    flights = selectors.with_player_counts(event.flights.all()).order_by("id")
    return render(
        request,
        "tournaments/event_detail.html",
        {
            "event": event,
            "flights": flights,
            "is_director": event.is_director(request.user),
            "directors": event.directors.order_by("username"),
            "live_topics": live.event_topic(event.pk),
        },
    )


def _flight_or_404(slug: str, flight_id: int, viewer: Any) -> selectors.BracketPage:
    """The flight as ``viewer`` may see it (a draft event's: its directors only; the
    unpublished rounds: hidden from the others, :func:`selectors.flight_bracket`)."""
    try:
        page = selectors.flight_bracket(flight_id=flight_id, viewer=viewer)
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
    drawn = selectors.hide_unpublished(resolved, page.hidden) if page.hidden else resolved
    names = {e.pk: e.player.name for e in page.entries}
    details = {
        m.slot_key: bracketview.SlotDetail(
            score_a=_score_text(m, "a"),
            score_b=_score_text(m, "b"),
            table=m.table if m.status in OPEN else None,
            status=status_text(m),
            href=href(m),
        )
        for m in page.matches
    }
    layouts = bracketview.layout(
        bracket, drawn, names, details=details, round_title=round_title, labels=_labels()
    )
    parts = []
    titles: dict[tuple[str, int], str] = {}
    for lay in layouts:
        title = part_title(lay.part)
        accessible = _("Bracket: %(part)s") % {"part": title}
        parts.append(
            {
                "name": lay.part,
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
            titles[(lay.part, col.round)] = col.title
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


def _rounds(
    page: selectors.BracketPage, titles: Mapping[tuple[str, int], str]
) -> list[dict[str, Any]]:
    """Pairings and results per round, parts in play order, for the tables."""
    bracket_parts = (
        list(pairing.Bracket.from_dict(page.flight.bracket).parts) if page.flight.bracket else []
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
                "game_rows": game_lines(m.match_length),
            }
        )
    return mine


def flight_page(request: HttpRequest, slug: str, flight_id: int) -> HttpResponse:
    """The bracket (SVG) or the Swiss / round robin standings, pairings and results per
    round, the finishing order; ``?wall=1``: the bracket full screen for a wall display."""
    try:
        page = _flight_or_404(slug, flight_id, request.user)
    except Http404:
        if Flight.objects.filter(pk=flight_id, event__slug=slug).exists():
            return unpublished(request)  # issue 29: a draft event's flight, say why
        raise
    flight = page.flight
    wall = request.GET.get("wall") == "1"
    is_director = page.is_director

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
    tiebreaks = [TIEBREAK_LABELS.get(t, t) for t in bridge.tiebreak_order(flight)]
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
        "live_topics": live.flight_topic(flight.pk),
    }
    if wall:
        context.update(wall_context(request, page))
        return render(request, "tournaments/flight_wall.html", context)
    me = Player.of_user(request.user)
    me_id = me.pk if me is not None else None
    context.update(
        {
            "rounds": _rounds(page, titles),
            "my_matches": _my_matches(page, me),
            # Issue 28: the .mat upload of a match played at the board, the PR table.
            "mat_ids": {
                m.pk for m in page.matches if may_upload(m, player_id=me_id, director=is_director)
            },
            "pr": flight_pr_table(matches=page.matches, viewer=request.user, director=is_director),
            "cubes": CUBES,
            "entries": page.entries,
            "player_count": selectors.flight_player_count(flight, page.entries),
            # Self-registration (issue 17): the viewer's own and the waitlist.
            **desk.registration_context(flight, request.user),
        }
    )
    return render(request, "tournaments/flight_detail.html", context)


def flight_finishing_order_csv(request: HttpRequest, slug: str, flight_id: int) -> HttpResponse:
    flight = get_object_or_404(Flight.objects.select_related("event"), pk=flight_id)
    if flight.event.slug != slug or not selectors.event_visible(flight.event, request.user):
        raise Http404
    text = selectors.flight_finishing_order_csv(flight=flight, part_title=part_title)
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="{flight.event.slug}-{flight.pk}-finishing-order.csv"'
    )
    return response


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


def wall_flight(request: HttpRequest, page: selectors.BracketPage) -> dict[str, Any]:
    """What a wall shows of one flight (issue 29: the event wall,
    :mod:`tournaments.pages.eventwall`, shows each running flight this way, as the
    flight page's ``?wall=1`` does): the bracket parts, or the standings and the current
    round's pairings, and the QR code to the flight's page."""
    parts: list[dict[str, Any]] = []
    if page.flight.is_bracket and page.flight.bracket:
        parts, _titles, _order = _brackets(page, href=lambda m: "", min_scale=0)
    return {
        "flight": page.flight,
        "parts": parts,
        "standings": [] if page.flight.is_bracket else _standings(page),
        **wall_context(request, page),
    }
