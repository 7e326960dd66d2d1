"""The ``.mat`` file of a match played at the board (issue 28): the page where a director
or one of the match's players uploads it, for its analysis. Who may and what must
agree: :mod:`tournaments.services.mats`. A refusal is shown in the page with the form
as it was typed and chosen (400, 403, 409), as on the games' import page."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from games.errors import ApplicationError
from games.models import MatchAnalysis
from games.play import interchange
from tournaments import selectors
from tournaments.models import Event, TournamentMatch
from tournaments.services.common import side_of_user
from tournaments.services.mats import mat_upload_text, match_mat_upload

#: A pasted text longer than this is not sent back into the form after a refusal.
_KEEP_TEXT = interchange.MAX_MAT_BYTES


def may_upload(row: TournamentMatch, *, player_id: int | None, director: bool) -> bool:
    """Whether the flight page offers the upload of ``row``'s file to a viewer (their
    player ``player_id``): a match with both players, not played online here, not a
    walkover or bye, for a director or one of its two players (the service decides in
    the end)."""
    if row.online_match_id is not None or not (row.entry_a_id and row.entry_b_id):
        return False
    if row.status in (
        TournamentMatch.Status.PENDING,
        TournamentMatch.Status.WALKOVER,
        TournamentMatch.Status.BYE,
    ):
        return False
    assert row.entry_a is not None and row.entry_b is not None
    return director or player_id in (row.entry_a.player_id, row.entry_b.player_id)


@login_required
def match_mat(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """Upload (or paste) the match's ``.mat`` file; its recorded match and analysis."""
    event = get_object_or_404(Event, slug=slug)
    row = get_object_or_404(
        TournamentMatch.objects.select_related(
            "flight", "entry_a__player", "entry_b__player", "mat_match"
        ),
        pk=match_id,
        flight__event=event,
    )
    director = event.is_director(request.user)
    if not selectors.event_visible(event, request.user) or not (
        director or side_of_user(row, request.user)
    ):
        raise DjangoPermissionDenied
    context: dict[str, Any] = {"event": event, "flight": row.flight, "m": row}
    context["is_director"] = director
    status = 200
    if request.method == "POST":
        text = request.POST.get("text", "")
        try:
            text = mat_upload_text(upload=request.FILES.get("file"), text=text)
            match_mat_upload(
                match_id=row.pk,
                by=request.user,
                text=text,
                first_side=request.POST.get("first_side", ""),
            )
        except ApplicationError as exc:
            context["error"] = exc.detail
            context["error_code"] = exc.code
            context["error_field"] = exc.extra.get("field") if exc.extra else None
            status = exc.status
        else:
            messages.success(request, _("The match file was recorded; its analysis is on its way."))
            return redirect("tournaments:match-mat", slug=slug, match_id=row.pk)
        context["text"] = text if len(text) <= _KEEP_TEXT else ""
        context["first_side"] = request.POST.get("first_side", "")
    if row.mat_match_id is not None:
        context["analysis"] = MatchAnalysis.objects.filter(match_id=row.mat_match_id).first()
    return render(request, "tournaments/match_mat.html", context, status=status)
