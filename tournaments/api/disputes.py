"""The tournaments API's disputes (issue 29): a director decides a disputed match (the
two players' reports differ; both are in the match's ``report_a`` and ``report_b``) by
choosing one report or typing the score, with a reason
(:func:`tournaments.services.disputes.match_dispute_resolve`)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import error_responses
from tournaments.services.disputes import match_dispute_resolve

from .serializers import ResultInput, TournamentMatchOutput
from .views import _match_output, _result_args, _valid

ERRORS = error_responses()


class DisputeResolveInput(ResultInput):
    # Not a choice field: its choices are walkover_winner's, which the schema names once.
    choice = serializers.CharField(
        max_length=1,
        allow_blank=True,
        required=False,
        default="",
        help_text="a: side a's report, b: side b's; '' (or omitted): the score_a / score_b "
        "or games given (else 400 invalid_choice)",
    )
    reason = serializers.CharField(max_length=500, help_text="kept in the audit list")


class MatchDisputeApi(APIView):
    """A director decides a disputed match (its status ``disputed``: the two players'
    reports differ): ``choice`` a or b takes that player's report, or the score (or the
    games) given, with a ``reason``. Audited (a correction of kind ``dispute``: the old
    is both reports, the new the result that stands); the result then stands as the
    director's and the bracket advances. 409 ``not_disputed`` when the match is not
    disputed (or was decided already), ``stale_version``; 400 ``reason_required``,
    ``choice_and_score`` (a report chosen and a score given), the match rules' codes; 403
    ``not_a_director``."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=DisputeResolveInput, responses={200: TournamentMatchOutput, **ERRORS})
    def post(self, request: Request, match_id: int) -> Response:
        data = _valid(DisputeResolveInput, request)
        match_dispute_resolve(
            match_id=match_id,
            by=request.user,
            choice=data["choice"],
            reason=data["reason"],
            **_result_args(data),
        )
        return _match_output(match_id)
