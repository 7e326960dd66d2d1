"""The match page's "Analyse" form (issue 28): a player of a finished match, its
importer or staff asks for GNU Backgammon's analysis; the same checks and throttle as
``POST /api/v1/matches/<id>/analysis/`` (:mod:`games.analysis.requesting`). What the
match page shows of the analysis is :mod:`games.play.pages` reading
:mod:`games.ratings.performance`."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from games.analysis.api import AnalysisThrottle
from games.analysis.requesting import analysis_request_by
from games.api.throttles import attempt_allowed
from games.errors import ApplicationError
from games.play import live
from games.web import show_refusal


@login_required
@require_POST
def match_analyse_page(request: HttpRequest, match_id: int) -> HttpResponseRedirect:
    """Queue the match's analysis (``again``: anew); back to the match page, which shows
    the job's state (and follows it live)."""
    target = reverse("games:match", kwargs={"match_id": match_id}) + "#match-analysis"
    allowed, wait = attempt_allowed(request, AnalysisThrottle)
    if not allowed:
        messages.error(
            request,
            ngettext(
                "Too many analyses asked for: try again in %(seconds)d second.",
                "Too many analyses asked for: try again in %(seconds)d seconds.",
                wait,
            )
            % {"seconds": wait},
        )
        return HttpResponseRedirect(target)
    try:
        analysis_request_by(
            match_id=match_id, user=request.user, again=request.POST.get("again") == "1"
        )
    except ApplicationError as exc:
        show_refusal(request, exc)
        return HttpResponseRedirect(target)
    live.publish_match_changed(match_id=match_id)
    messages.success(
        request, _("The match is queued for analysis by GNU Backgammon: this page follows it.")
    )
    return HttpResponseRedirect(target)
