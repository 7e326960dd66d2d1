"""The analysis API (issue 28): ``GET /api/v1/matches/<id>/analysis/`` (the job's status
and progress, both players' figures, the analysed decisions) and ``POST`` (ask for it).

The figures are the stored ones (:mod:`games.models.analysis` defines them), read by
:mod:`games.ratings.performance`; a player whose PR the requester may not see (setting
``ANALYSIS_PR_PUBLIC``) is listed with ``visible: false``, figures ``null`` and none of
their decisions.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from games.analysis.requesting import PLIES, analysis_request_by
from games.api.common import error_responses, query_flag
from games.api.throttles import CodeThrottle
from games.models import DecisionAnalysis, Match, MatchAnalysis
from games.play import live
from games.play.selectors import match_get
from games.ratings import performance

STATUSES = [performance.NONE, *MatchAnalysis.Status.values]

REQUEST_ERRORS = error_responses(
    {
        400: "`invalid` (the body), `invalid_plies` (0 or 2).",
        403: "`not_a_player`: only a player of the match, its importer or staff.",
        404: "`match_not_found`.",
        409: "`match_not_finished`: a match is analysed once it is over.",
    }
)


class AnalysisThrottle(CodeThrottle):
    """Asking for analyses, per user (each is CPU-seconds of gnubg)."""

    scope = "analysis_request"


class AnalysisInput(serializers.Serializer):
    plies = serializers.ChoiceField(
        choices=list(PLIES),
        required=False,
        help_text='gnubg\'s lookahead: 2 (its default, "world class") or 0 (a quick pass); '
        "the club's setting when left out",
    )
    again = serializers.BooleanField(
        default=False,
        help_text="analyse a match analysed already anew (its figures stay until the new "
        "run stores its own); a failed one is always queued anew",
    )


class AnalysisPlayerOutput(serializers.Serializer):
    """One player's figures, as gnubg's ``show statistics match`` gives them."""

    player = serializers.IntegerField(help_text="the player's id")
    name = serializers.CharField()
    index = serializers.IntegerField(help_text="0: player 1, 1: player 2")
    visible = serializers.BooleanField(
        help_text="false: the club shows PR to the player only; the figures are null"
    )
    unforced_moves = serializers.IntegerField(allow_null=True)
    close_cube_decisions = serializers.IntegerField(allow_null=True)
    error_total_emg = serializers.FloatField(allow_null=True)
    error_rate_memg = serializers.FloatField(allow_null=True, help_text="per decision")
    pr = serializers.FloatField(allow_null=True, help_text="error rate / 2 (XG's scale)")
    snowie_error_rate = serializers.FloatField(allow_null=True)
    luck_rate_memg = serializers.FloatField(allow_null=True, help_text="per move")
    luck_adjusted_result = serializers.FloatField(
        allow_null=True,
        help_text="gnubg's: % of match winning chances (points in a money session); null "
        "when the match was not played to its end",
    )
    rating_words = serializers.CharField(allow_null=True, help_text="gnubg's, e.g. `Expert`")
    luck_words = serializers.CharField(allow_null=True, help_text="gnubg's, e.g. `None`")
    counts = serializers.BooleanField(
        allow_null=True, help_text="in the player's PR averages (played out, >= 30 decisions)"
    )


class AnalysisDecisionOutput(serializers.Serializer):
    game = serializers.IntegerField(help_text="the game's number in the match")
    ordinal = serializers.IntegerField(help_text="the decision's place in its game, from 1")
    seq = serializers.IntegerField(
        help_text="the game's log row (`seq`) the decision made (a no-double: the roll after it)"
    )
    player = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=DecisionAnalysis.Kind.values)
    dice = serializers.CharField(help_text='a move\'s dice ("63"); empty for a cube decision')
    played = serializers.CharField(
        help_text="the play in gnubg's notation, or the cube action: `no_double`, `double`, "
        "`take`, `drop`, `beaver`"
    )
    best = serializers.CharField(help_text="gnubg's best, in the same words")
    equity_lost = serializers.FloatField(help_text="EMG, >= 0")
    mark = serializers.ChoiceField(
        choices=DecisionAnalysis.Mark.values, help_text="gnubg's: `doubtful`, `bad`, `very_bad`"
    )
    luck = serializers.FloatField(allow_null=True, help_text="the roll's luck (EMG; moves)")
    luck_mark = serializers.ChoiceField(choices=DecisionAnalysis.LuckMark.values)
    forced = serializers.BooleanField()


class MatchAnalysisOutput(serializers.Serializer):
    match = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=STATUSES,
        help_text="`none`: nobody asked for it yet (a finished match is "
        "analysed by itself once the job is set up)",
    )
    progress = serializers.IntegerField(help_text="0-100 while running")
    plies = serializers.IntegerField(allow_null=True)
    failure_code = serializers.CharField(help_text="when failed: a stable code")
    failure_reason = serializers.CharField(help_text="when failed: why, for people")
    version = serializers.IntegerField(help_text="changes with every status or progress")
    players = AnalysisPlayerOutput(many=True, help_text="empty until analysed")
    decisions = AnalysisDecisionOutput(many=True)


_FIGURES = (
    "unforced_moves",
    "close_cube_decisions",
    "error_total_emg",
    "error_rate_memg",
    "pr",
    "snowie_error_rate",
    "luck_rate_memg",
    "luck_adjusted_result",
    "rating_words",
    "luck_words",
    "counts",
)


def analysis_output(figures: performance.MatchFigures, *, brief: bool = False) -> dict[str, Any]:
    """A match's analysis as the API gives it (:class:`MatchAnalysisOutput`); ``brief``:
    without the decisions (a page following the job's progress)."""
    analysis = figures.analysis
    players = []
    for f in figures.players:
        shown = {"player": f.player.pk, "name": f.player.name, "index": f.index}
        shown["visible"] = f.visible
        for name in _FIGURES:
            shown[name] = None if f.row is None else getattr(f.row, name)
        players.append(shown)
    decisions = [
        {
            "game": d.game_number,
            "ordinal": d.ordinal,
            "seq": d.action_seq,
            "player": d.player_index,
            "kind": d.kind,
            "dice": d.dice,
            "played": d.played,
            "best": d.best,
            "equity_lost": d.equity_lost,
            "mark": d.mark,
            "luck": d.luck,
            "luck_mark": d.luck_mark,
            "forced": d.forced,
        }
        for d in ([] if brief else performance.match_decisions(figures=figures))
    ]
    return {
        "match": figures.match.pk,
        "status": figures.status,
        "progress": figures.progress,
        "plies": figures.plies,
        "failure_code": figures.failure_code,
        "failure_reason": figures.failure_reason,
        "version": 0 if analysis is None else analysis.version,
        "players": players,
        "decisions": decisions,
    }


def _match(match_id: int) -> Match:
    return match_get(match_id=match_id)


class MatchAnalysisApi(APIView):
    """GNU Backgammon's analysis of a match: its status (``none``, ``queued``,
    ``running`` with ``progress``, ``done``, ``failed`` with the reason), both players'
    figures and every analysed decision (GET, anyone; a player's figures as the club's PR
    setting allows); ask for it (POST: a player of the finished match, its importer or
    staff), answered 202 with the status."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    throttle_classes = [AnalysisThrottle]

    def get_throttles(self) -> list[BaseThrottle]:
        # Reading is free; asking costs gnubg's CPU time.
        return [] if self.request.method in permissions.SAFE_METHODS else super().get_throttles()

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "brief",
                bool,
                description="true: without `decisions` (to follow the job's progress)",
            )
        ],
        responses=MatchAnalysisOutput,
    )
    def get(self, request: Request, match_id: int) -> Response:
        brief = query_flag(request, "brief")
        match = _match(match_id)
        figures = performance.match_figures(match=match, viewer=request.user)
        return Response(analysis_output(figures, brief=brief))

    @extend_schema(request=AnalysisInput, responses={202: MatchAnalysisOutput, **REQUEST_ERRORS})
    def post(self, request: Request, match_id: int) -> Response:
        data = AnalysisInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        analysis_request_by(
            match_id=match_id, user=request.user, plies=values.get("plies"), again=values["again"]
        )
        live.publish_match_changed(match_id=match_id)
        match = _match(match_id)
        figures = performance.match_figures(match=match, viewer=request.user)
        return Response(analysis_output(figures), status=status.HTTP_202_ACCEPTED)
