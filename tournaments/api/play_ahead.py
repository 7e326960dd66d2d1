"""The tournaments API's play ahead switch (issue 29, ``Flight.play_ahead``): in a
knockout, a next-round match is published and takes results as soon as both its
players are known."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import error_responses
from tournaments.services.flights import flight_set_play_ahead

from .serializers import FlightDetailOutput
from .views import _flight_output, _valid

ERRORS = error_responses()


class FlightPlayAheadInput(serializers.Serializer):
    play_ahead = serializers.BooleanField(
        help_text="on: a knockout's next-round match is published and takes results as soon "
        "as both its players are known; off: once the round before is complete"
    )


class FlightPlayAheadApi(APIView):
    """Switch the flight's play ahead on or off (its directors only; any time). Switched
    on in a drawn knockout, the rounds with a match ready are published at once and
    their players told; switched off, the published rounds stay published. Swiss and
    round robin flights do not use it (a Swiss round is paired from the whole round
    before)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=FlightPlayAheadInput, responses={200: FlightDetailOutput, **ERRORS})
    def post(self, request: Request, flight_id: int) -> Response:
        data = _valid(FlightPlayAheadInput, request)
        flight_set_play_ahead(flight_id=flight_id, by=request.user, **data)
        return _flight_output(flight_id, request.user)
