"""The tournaments API of issue 29, item 2 (nothing irreversible): undo a flight's draw,
reinstate a withdrawn entry, a flight's seeds by hand. The API acts directly (an API
client confirms by calling); the services check and refuse as on the pages
(:mod:`tournaments.services.undraw`, :mod:`tournaments.services.entries`,
:mod:`tournaments.services.seeding`)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import error_responses
from tournaments.models import Entry
from tournaments.services.entries import entry_reinstate
from tournaments.services.seeding import MAX_SEED, flight_set_seeds
from tournaments.services.undraw import flight_undraw

from .serializers import EntryOutput, FlightDetailOutput
from .views import _flight_output, _valid

ERRORS = error_responses()


class FlightVersionInput(serializers.Serializer):
    version = serializers.IntegerField(
        required=False,
        min_value=0,
        help_text="the flight's version as last seen: refused (409 stale_version) if it moved",
    )


class SeedInput(serializers.Serializer):
    entry = serializers.IntegerField(help_text="an active entry of the flight")
    seed = serializers.IntegerField(
        allow_null=True, min_value=1, max_value=MAX_SEED, help_text="null: no number"
    )


class FlightUndrawApi(APIView):
    """Undo the draw while no match has a result, a report or was started (byes and the
    walkovers of withdrawals aside): the matches are deleted, the flight is back in
    registration (409 ``draw_has_results`` names the match that keeps it)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=FlightVersionInput, responses={200: FlightDetailOutput, **ERRORS})
    def post(self, request: Request, flight_id: int) -> Response:
        data = _valid(FlightVersionInput, request)
        flight_undraw(flight_id=flight_id, by=request.user, version=data.get("version"))
        return _flight_output(flight_id, request.user)


class EntryReinstateApi(APIView):
    """Put a withdrawn entry back: before the draw while a place is free; after it where
    their place is untouched (409 ``reinstate_too_late`` says why not)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=FlightVersionInput, responses={200: EntryOutput, **ERRORS})
    def post(self, request: Request, entry_id: int) -> Response:
        data = _valid(FlightVersionInput, request)
        entry = entry_reinstate(entry_id=entry_id, by=request.user, version=data.get("version"))
        entry = Entry.objects.select_related("player").get(pk=entry.pk)
        return Response(EntryOutput(entry).data)


class FlightSeedsApi(APIView):
    """Set the seeds by hand before the draw (the flight is then seeded by hand): a list
    of ``{entry, seed}``, unique positive numbers; entries not listed keep theirs."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=SeedInput(many=True), responses={200: FlightDetailOutput, **ERRORS})
    def put(self, request: Request, flight_id: int) -> Response:
        data = SeedInput(data=request.data, many=True)
        data.is_valid(raise_exception=True)
        flight_set_seeds(
            flight_id=flight_id,
            by=request.user,
            seeds=[(s["entry"], s["seed"]) for s in data.validated_data],
        )
        return _flight_output(flight_id, request.user)
