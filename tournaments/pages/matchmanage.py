"""The director's page of one tournament match and its posts: enter, confirm or correct
its result (with the audit list of corrections), set its table, start it online
(:mod:`tournaments.pages.director`'s access rule and live topics; a disputed result's
decision is :mod:`tournaments.pages.disputes`, a lateness :mod:`tournaments.pages.lateness`)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.errors import ApplicationError
from games.web import next_or
from tournaments import bridge
from tournaments.models import OPEN, ClockPolicy, Entry, Event, ResultCorrection, TournamentMatch
from tournaments.pages.common import (
    CUBES,
    act,
    dispute_sentence,
    explain_refusal,
    game_lines,
    later_matches,
    match_of,
    optional_int,
    posted_version,
    refused_game,
    result_input,
    result_sentence,
    round_title,
)
from tournaments.pages.director import _flight_page, _live_topics, _mark_waiting, director_required
from tournaments.services import results


def _match_manage_url(event: Event, match_id: int) -> str:
    return reverse("tournaments:match-manage", kwargs={"slug": event.slug, "match_id": match_id})


def _correction_lines(row: TournamentMatch) -> list[dict[str, Any]]:
    """The match's corrections, newest first, each old and new result in words
    (:func:`result_sentence`, with the players of the result's own entries). Two
    queries."""
    corrections = list(row.corrections.select_related("by").order_by("-at", "-id"))
    ids = {
        value
        for c in corrections
        for result in (c.old, c.new)
        for value in (result.get("entry_a"), result.get("entry_b"))
        if isinstance(value, int)
    }
    ids |= {pk for pk in (row.entry_a_id, row.entry_b_id) if pk is not None}
    names = dict(Entry.objects.filter(pk__in=ids).values_list("pk", "player__name"))

    def sides(result: dict[str, Any]) -> dict[str, str]:
        # Corrections stored before the entries were kept: the match's sides now.
        a = result.get("entry_a", row.entry_a_id)
        b = result.get("entry_b", row.entry_b_id)
        return {"a": names.get(a, ""), "b": names.get(b, "")}

    return [
        {
            "c": c,
            "old": dispute_sentence(c.old, sides(c.old))
            if c.kind == ResultCorrection.Kind.DISPUTE
            else result_sentence(c.old, sides(c.old)),
            "new": result_sentence(c.new, sides(c.new)),
        }
        for c in corrections
    ]


@director_required
def match_manage(request: HttpRequest, event: Event, match_id: int) -> HttpResponse:
    """One match: enter, confirm or correct its result (with the audit list), set its
    table, start it online."""
    return _match_page(request, event, match_id)


def _match_page(
    request: HttpRequest, event: Event, match_id: int, *, refused: ApplicationError | None = None
) -> HttpResponse:
    """The match's page; after a ``refused`` post, with what was typed and the refusal
    next to the result fields (on the wrong game's line when it names one)."""
    row = get_object_or_404(
        TournamentMatch.objects.select_related(
            "flight", "entry_a__player", "entry_b__player", "online_match", "decided_by"
        ),
        pk=match_id,
        flight__event=event,
    )
    corrections = _correction_lines(row)
    settings = row.flight.rounds.filter(part=row.part, number=row.round).first()
    _mark_waiting([row], {(row.part, row.round): settings} if settings else {})
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
            "round_title": next(
                (
                    round_title(r)
                    for r in bridge.round_plan(row.flight, 0).get(row.part, [])
                    if r.number == row.round and r.code != "round"
                ),
                "",
            ),
            "reports": reports,
            "corrections": corrections,
            "game_rows": game_lines(
                row.match_length,
                request.POST if refused else None,
                error_game=refused_game(refused) if refused else None,
                error=explain_refusal(refused) if refused else "",
            ),
            "typed": request.POST if refused else {},
            "games_typed": bool(refused)
            and any(k.endswith("-winner") and v for k, v in request.POST.items()),
            # Issue 29: the later matches a correction would change, as links.
            "later_matches": (later := later_matches(row, refused)),
            "result_error": (str(refused.detail) if later else explain_refusal(refused))
            if refused and refused_game(refused) is None
            else "",
            "cubes": CUBES,
            "is_open": row.status in OPEN and row.entry_a_id and row.entry_b_id,
            "can_correct": row.decided_at is not None
            and row.status in (TournamentMatch.Status.CONFIRMED, TournamentMatch.Status.WALKOVER),
            "can_confirm": row.status == TournamentMatch.Status.REPORTED and len(reports) == 1,
            "can_start_online": row.status == TournamentMatch.Status.READY
            and row.online_match_id is None,
            "clock_allowed": policy == ClockPolicy.ALLOWED,
            "live_topics": _live_topics(event, [row.online_match_id] if row.status in OPEN else []),
        },
        status=refused.status if refused else 200,
    )


@director_required
@require_POST
def match_enter(request: HttpRequest, event: Event, match_id: int) -> HttpResponse:
    """A director enters a result: final score, game by game, or a walkover. Refused:
    the page it came from again (the match's, or the flight's quick scores, ``quick``),
    with what was typed and the refusal next to the match or the wrong game."""
    row = match_of(event, match_id)
    try:
        results.result_enter(
            match_id=row.pk,
            by=request.user,
            expected_version=posted_version(request),
            **result_input(request, walkover=True),
        )
    except ApplicationError as exc:
        if request.POST.get("quick") == "1":
            return _flight_page(request, event, row.flight_id, quick=(row.pk, exc))
        return _match_page(request, event, row.pk, refused=exc)
    messages.success(request, _("The result was entered."))
    return redirect(next_or(request, _match_manage_url(event, row.pk)))


@director_required
@require_POST
def match_correct(request: HttpRequest, event: Event, match_id: int) -> HttpResponse:
    """A director corrects a result that stands (audited, with the reason). Refused: the
    page again with what was typed, the refusal next to the fields."""
    row = match_of(event, match_id)
    try:
        results.result_correct(
            match_id=row.pk,
            by=request.user,
            reason=request.POST.get("reason", ""),
            reset_later=request.POST.get("reset_later") == "on",
            expected_version=posted_version(request),
            **result_input(request, walkover=True),
        )
    except ApplicationError as exc:
        return _match_page(request, event, row.pk, refused=exc)
    messages.success(request, _("The result was corrected."))
    return redirect(_match_manage_url(event, row.pk))


@director_required
@require_POST
def match_set_table(request: HttpRequest, event: Event, match_id: int) -> HttpResponseRedirect:
    row = match_of(event, match_id)
    try:
        table = optional_int(request.POST.get("table", ""))
    except ValueError:
        messages.error(request, _("Tables are numbered 1 to 999."))
        return redirect(_match_manage_url(event, row.pk))
    return act(
        request,
        lambda: results.match_set_table(match_id=row.pk, by=request.user, table=table),
        to=next_or(request, _match_manage_url(event, row.pk)),
        success=_("The table was saved."),
    )
