"""A player's posts on their own matches (the services refuse anyone else's): report a
result, confirm the opponent's report, start the match online. A director may post them
too."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.web import next_or
from tournaments.models import Event, TournamentMatch
from tournaments.pages.common import act, match_of, posted_version, result_input
from tournaments.services import online, results
from tournaments.services.common import side_of_user


def _flight_url(event: Event, flight_id: int) -> str:
    return reverse("tournaments:flight", kwargs={"slug": event.slug, "flight_id": flight_id})


def _reported(row: TournamentMatch, user: Any) -> str:
    if row.decided_at is not None:
        return _("Both reports agree: the result stands.")
    if row.status == TournamentMatch.Status.DISPUTED:
        # The second of two reports that differ (issue 29): stored, not refused.
        opponent = row.entry_a if side_of_user(row, user) == "b" else row.entry_b
        return _("Your report differs from %(name)s's: both are kept, the director decides.") % {
            "name": opponent.player.name if opponent else _("your opponent")
        }
    return _("Result reported: your opponent is asked to confirm it.")


@login_required
@require_POST
def match_report(request: HttpRequest, slug: str, match_id: int) -> HttpResponseRedirect:
    """A player reports their own match (the service refuses anyone else)."""
    event = get_object_or_404(Event, slug=slug)
    row = match_of(event, match_id)
    return act(
        request,
        lambda: results.result_report(
            match_id=row.pk,
            by=request.user,
            expected_version=posted_version(request),
            **result_input(request),
        ),
        to=next_or(request, _flight_url(event, row.flight_id)),
        success=lambda row: _reported(row, request.user),
    )


@login_required
@require_POST
def match_confirm(request: HttpRequest, slug: str, match_id: int) -> HttpResponseRedirect:
    """The opponent of the player who reported (or a director) confirms the report."""
    event = get_object_or_404(Event, slug=slug)
    row = match_of(event, match_id)
    return act(
        request,
        lambda: results.result_confirm(
            match_id=row.pk, by=request.user, expected_version=posted_version(request)
        ),
        to=next_or(request, _flight_url(event, row.flight_id)),
        success=_("Result confirmed."),
    )


@login_required
@require_POST
def match_start_online(request: HttpRequest, slug: str, match_id: int) -> HttpResponseRedirect:
    """A player of the match (or a director) starts it online: to the match page."""
    event = get_object_or_404(Event, slug=slug)
    row = match_of(event, match_id)
    clock = {"1": True, "0": False}.get(request.POST.get("clock", ""))
    return act(
        request,
        lambda: online.match_start_online(match_id=row.pk, by=request.user, clock=clock),
        to=next_or(request, _flight_url(event, row.flight_id)),
        then=lambda online_match: reverse("games:match", kwargs={"match_id": online_match.pk}),
    )
