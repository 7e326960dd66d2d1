"""Who may ask for a match's analysis, checked once for the API, the match page and the
admin's users alike (issue 28): :func:`analysis_request_by` refuses with a stable code,
changing nothing, then queues through :func:`games.analysis.services.analysis_request`.

A match's analysis may be asked for by one of its players (their login), the user who
imported its ``.mat`` file, or staff; only once the match is finished (a match still
played would be analysed half). Asked again while it is queued or running, nothing
changes: the job under way answers for it.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.analysis.services import analysis_request
from games.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from games.models import Match, MatchAnalysis
from games.ratings.performance import analysis_may_request

#: The strengths a request may choose (gnubg's lookahead): a quick pass, or its default.
PLIES = (0, 2)


def analysis_request_by(
    *, match_id: int, user: Any, plies: int | None = None, again: bool = False
) -> MatchAnalysis:
    """Queue ``match_id``'s analysis for ``user``: 404 ``match_not_found``, 403
    ``not_a_player``, 400 ``invalid_plies``, 409 ``match_not_finished``."""
    match = Match.objects.select_related("player1", "player2").filter(pk=match_id).first()
    if match is None:
        raise NotFound("match_not_found", _("There is no match with this id."))
    if not analysis_may_request(user, match):
        raise PermissionDenied(
            "not_a_player",
            _("Only a player of the match, or staff, may ask for its analysis."),
        )
    if plies is not None and plies not in PLIES:
        raise ValidationFailed(
            "invalid_plies",
            _("The analysis looks 0 or 2 plies ahead."),
            extra={"field": "plies"},
        )
    if match.status != Match.Status.FINISHED:
        raise Conflict(
            "match_not_finished",
            _("The match is not finished: it can be analysed once it is over."),
        )
    current = MatchAnalysis.objects.filter(match_id=match_id).values_list("status", flat=True)
    pending = (MatchAnalysis.Status.QUEUED, MatchAnalysis.Status.RUNNING)
    if again and current.first() in pending:
        again = False  # under way already: the job answers for this request too
    return analysis_request(
        match_id=match_id,
        plies=plies,
        requested_by=user if user.is_authenticated else None,
        again=again,
    )
