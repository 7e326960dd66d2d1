"""Disputes on the director's pages (issue 29): the post of the match page's dispute
form (accept one player's report, or type the score, with a reason:
:func:`tournaments.services.disputes.match_dispute_resolve`). The form itself, with
both reports side by side, is ``tournaments/partials/dispute_resolve.html`` on the match
page; a disputed match is flagged in red (``tournaments/partials/dispute_flag.html``) on
the flight's page, the desk and wherever open matches are listed."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.errors import ApplicationError
from tournaments.models import Event
from tournaments.pages.common import match_of, posted_version, result_input
from tournaments.pages.director import director_required
from tournaments.pages.matchmanage import _match_manage_url, _match_page
from tournaments.services.disputes import match_dispute_resolve


@director_required
@require_POST
def match_dispute(request: HttpRequest, event: Event, match_id: int) -> HttpResponse:
    """A director decides a disputed match. Refused: the match page again with what was
    typed (the reason too) and the refusal next to the fields."""
    row = match_of(event, match_id)
    try:
        typed = result_input(request)
        match_dispute_resolve(
            match_id=row.pk,
            by=request.user,
            choice=request.POST.get("choice", ""),
            reason=request.POST.get("reason", ""),
            expected_version=posted_version(request),
            **typed,
        )
    except ApplicationError as exc:
        return _match_page(request, event, row.pk, refused=exc)
    messages.success(request, _("The dispute is decided: the result stands."))
    return redirect(_match_manage_url(event, row.pk))
