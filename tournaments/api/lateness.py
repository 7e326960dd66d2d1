"""The tournaments API's lateness operations (docs/rules.md R15): a flight's lateness
rule, and a late player of a match (the opponent's starting score, or a forfeit)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import error_responses
from tournaments.pairing import lateness as rule
from tournaments.services.lateness import flight_set_lateness, match_set_lateness

from .serializers import FlightDetailOutput, TournamentMatchOutput
from .views import _flight_output, _match_output, _valid

ERRORS = error_responses()


class FlightLatenessInput(serializers.Serializer):
    lateness = serializers.BooleanField(help_text="lateness penalties on or off")
    lateness_grace = serializers.IntegerField(
        min_value=0,
        max_value=rule.MAX_GRACE,
        required=False,
        help_text="minutes of grace before the first penalty point (omitted: unchanged)",
    )
    lateness_per_point = serializers.IntegerField(
        min_value=1,
        max_value=rule.MAX_PER_POINT,
        required=False,
        help_text="a penalty point per so many minutes, or part of them (omitted: unchanged)",
    )


class MatchLatenessInput(serializers.Serializer):
    # Not a choice field: its choices are walkover_winner's, which the schema names once.
    side = serializers.CharField(
        max_length=1,
        allow_blank=True,
        help_text="the late side, a or b ('' clears the lateness; else 400 invalid_side)",
    )
    minutes = serializers.IntegerField(
        min_value=0, max_value=rule.MAX_MINUTES, required=False, allow_null=True
    )
    arrived_at = serializers.DateTimeField(
        required=False,
        allow_null=True,
        help_text="instead of minutes: when the player arrived (counted from the round's "
        "starts_at)",
    )
    expected_version = serializers.IntegerField(required=False, allow_null=True)


class FlightLatenessApi(APIView):
    """Set the flight's lateness rule (its directors only): after a grace period, a
    penalty point per so many minutes for the late player's opponent; past half the
    match length a forfeit. Changes until a match has started (409 ``matches_started``)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=FlightLatenessInput, responses={200: FlightDetailOutput, **ERRORS})
    def post(self, request: Request, flight_id: int) -> Response:
        data = _valid(FlightLatenessInput, request)
        flight_set_lateness(flight_id=flight_id, by=request.user, **data)
        return _flight_output(flight_id, request.user)


class MatchLatenessApi(APIView):
    """Record (or clear, ``side: ""``) a late player before the match's result (its
    directors only; 409 ``lateness_off`` when the flight has no lateness rule,
    ``result_exists`` after the result). The penalty points are the opponent's starting
    score (``start_score_a``/``start_score_b``); a forfeit is a walkover at once."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=MatchLatenessInput, responses={200: TournamentMatchOutput, **ERRORS})
    def post(self, request: Request, match_id: int) -> Response:
        data = _valid(MatchLatenessInput, request)
        match_set_lateness(
            match_id=match_id,
            by=request.user,
            side=data["side"],
            minutes=data.get("minutes"),
            arrived_at=data.get("arrived_at"),
            expected_version=data.get("expected_version"),
        )
        return _match_output(match_id)
