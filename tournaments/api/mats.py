"""The tournaments API of issue 28: a match played at the board recorded from its
``.mat`` file (:mod:`tournaments.services.mats`), and a flight's PR table
(:mod:`tournaments.analysis`)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import ErrorOutput, error_responses, json_parsers
from games.models import MatchAnalysis
from tournaments import selectors
from tournaments.analysis import PrFigures, flight_pr_table
from tournaments.models import TournamentMatch
from tournaments.services.mats import mat_upload_text, match_mat_upload

from .serializers import TournamentMatchOutput
from .views import _valid, _visible_flight

ERRORS = error_responses()


class MatUploadInput(serializers.Serializer):
    file = serializers.FileField(
        required=False, help_text="the .mat file (multipart); or give its text in 'text'"
    )
    text = serializers.CharField(
        required=False, allow_blank=True, trim_whitespace=False, help_text="the .mat text"
    )
    # Not a choice field: its choices are walkover_winner's, which the schema names once
    # (the service refuses anything else: 400 invalid_side).
    first_side = serializers.CharField(
        required=False,
        default="",
        allow_blank=True,
        max_length=1,
        help_text="which side the file's player 1 is: a, b, or '' (by the names, else a)",
    )


class MatAnalysisOutput(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=MatchAnalysis.Status.choices)
    url = serializers.CharField(help_text="the analysis in the API")


class MatUploadOutput(serializers.Serializer):
    tournament_match = TournamentMatchOutput()
    match = serializers.IntegerField(help_text="the recorded match (games.Match)")
    url = serializers.CharField(help_text="the recorded match's page")
    analysis = MatAnalysisOutput()


class MatchMatApi(APIView):
    """Record the ``.mat`` file of a match played at the board, for its analysis: a
    director or one of its two players. The file must be this match (its length, 409
    ``mat_length_mismatch``; when a result stands, the same result, 409
    ``mat_result_mismatch``), played to the end (400 ``mat_unfinished``) and legal
    move by move (400 ``mat_*``, naming the game and move); with no result yet, the
    file's result is entered (a director) or reported (a player). One file per match
    (409 ``mat_exists``: a recorded match is never deleted). Its analysis is queued."""

    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [MultiPartParser, FormParser, *json_parsers()]

    @extend_schema(
        request={"multipart/form-data": MatUploadInput, "application/json": MatUploadInput},
        responses={201: MatUploadOutput, **ERRORS},
    )
    def post(self, request: Request, match_id: int) -> Response:
        data = _valid(MatUploadInput, request)
        text = mat_upload_text(upload=data.get("file"), text=data.get("text", ""))
        row = match_mat_upload(
            match_id=match_id,
            by=request.user,
            text=text,
            first_side=data["first_side"],
        )
        assert row.mat_match_id is not None
        analysis = MatchAnalysis.objects.get(match_id=row.mat_match_id)
        body = {
            "tournament_match": TournamentMatch.objects.get(pk=row.pk),
            "match": row.mat_match_id,
            "url": reverse("games:match", args=[row.mat_match_id]),
            "analysis": {
                "id": analysis.pk,
                "status": analysis.status,
                "url": f"/api/v1/matches/{row.mat_match_id}/analysis/",
            },
        }
        return Response(MatUploadOutput(body).data, status=status.HTTP_201_CREATED)


class PrFiguresOutput(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    pr = serializers.FloatField()
    error_rate_memg = serializers.FloatField()
    luck_rate_memg = serializers.FloatField()
    rating_words = serializers.CharField(help_text="gnubg's words for the figures")
    counts = serializers.BooleanField(help_text="in the averages (played out, 30 decisions)")


class PrRowOutput(serializers.Serializer):
    tournament_match = serializers.IntegerField()
    slot_key = serializers.CharField()
    part = serializers.CharField()
    round = serializers.IntegerField()
    match = serializers.IntegerField(help_text="the analysed match (games.Match)")
    source = serializers.ChoiceField(choices=["online", "file"])
    score_a = serializers.IntegerField(allow_null=True)
    score_b = serializers.IntegerField(allow_null=True)
    side_a = PrFiguresOutput(allow_null=True, help_text="null: not shown to you")
    side_b = PrFiguresOutput(allow_null=True, help_text="null: not shown to you")


class PrSummaryOutput(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    matches = serializers.IntegerField(help_text="analysed matches in the flight")
    counted = serializers.IntegerField(help_text="of those, the ones in the average")
    average_pr = serializers.FloatField(allow_null=True)


class FlightAnalysisOutput(serializers.Serializer):
    everything = serializers.BooleanField(
        help_text="every player's figures are shown (else only your own: ANALYSIS_PR_PUBLIC)"
    )
    matches = PrRowOutput(many=True)
    players = PrSummaryOutput(many=True, help_text="best average PR first")


def _figures(f: PrFigures | None) -> dict[str, Any] | None:
    return None if f is None else PrFiguresOutput(f).data


class FlightAnalysisApi(APIView):
    """A flight's analysed matches (online here or recorded from their ``.mat`` files)
    with each player's PR, error rate and luck, in round order, and each player's
    average PR in the flight. PR is shown to everyone when the club makes it public,
    else to the player themself and the event's directors."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: FlightAnalysisOutput, 404: ErrorOutput})
    def get(self, request: Request, flight_id: int) -> Response:
        flight = _visible_flight(request, flight_id)
        page = selectors.flight_bracket(flight_id=flight.pk, viewer=request.user)
        table = flight_pr_table(
            matches=page.matches, viewer=request.user, director=page.is_director
        )
        body = {
            "everything": table.everything,
            "matches": [
                {
                    "tournament_match": r.tmatch.pk,
                    "slot_key": r.tmatch.slot_key,
                    "part": r.tmatch.part,
                    "round": r.tmatch.round,
                    "match": r.match_id,
                    "source": r.source,
                    "score_a": r.tmatch.score_a,
                    "score_b": r.tmatch.score_b,
                    "side_a": _figures(r.side_a),
                    "side_b": _figures(r.side_b),
                }
                for r in table.rows
            ],
            "players": [PrSummaryOutput(s).data for s in table.summary],
        }
        return Response(body)
