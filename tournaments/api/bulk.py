"""Routine work in one request (issue 29, item 11): every round's settings of a flight
(``PUT /api/v1/flights/<id>/rounds/``, the method beside the one-round ``POST``), many
players entered at once (``POST /api/v1/flights/<id>/entries/bulk/``), many players put
in a side pool at once (``POST /api/v1/side-pools/<id>/entries/bulk/``). Each is all or
none: the refusal names the row (``row``), the line (``line``) or the player."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import error_responses
from tournaments.models import Entry, Flight, SidePoolEntry
from tournaments.services import bulkentries, money, roundgrid

from .serializers import CLOCK_PRESET_HELP, CLOCK_USE_HELP, EntryOutput

ERRORS = error_responses()


class RoundRowInput(serializers.Serializer):
    """One round's settings; a setting left out (or null) stays as it is. The values are
    checked by the service, which names the row of a wrong one."""

    part = serializers.CharField(
        max_length=20, allow_blank=True, default="", help_text="the bracket part; '' for Swiss"
    )
    number = serializers.IntegerField(min_value=1, max_value=64)
    match_length = serializers.IntegerField(required=False, allow_null=True)
    clock_preset = serializers.CharField(
        max_length=20,
        required=False,
        allow_null=True,
        allow_blank=True,
        help_text=CLOCK_PRESET_HELP,
    )
    clock_policy = serializers.CharField(
        max_length=10, required=False, allow_null=True, help_text=CLOCK_USE_HELP
    )
    starts_at = serializers.DateTimeField(required=False, allow_null=True)


class RoundGridInput(serializers.Serializer):
    rounds = RoundRowInput(many=True, help_text="the rounds to set, any number of them")
    version = serializers.IntegerField(
        required=False, allow_null=True, help_text="the flight's version seen (409 if stale)"
    )


class RoundRowOutput(serializers.Serializer):
    part = serializers.CharField()
    number = serializers.IntegerField()
    title = serializers.CharField(help_text="final, semi_final, ... or round")
    match_length = serializers.IntegerField()
    clock_preset = serializers.CharField()
    clock_policy = serializers.CharField()
    starts_at = serializers.DateTimeField(allow_null=True)
    matches = serializers.IntegerField()
    played = serializers.BooleanField(help_text="every match decided or under way: it keeps")


class RoundGridOutput(serializers.Serializer):
    version = serializers.IntegerField()
    changed = serializers.IntegerField(help_text="how many rounds changed")
    rounds = RoundRowOutput(many=True)


def round_grid_output(flight: Flight, changed: int = 0) -> dict[str, Any]:
    return {
        "version": flight.version,
        "changed": changed,
        "rounds": [
            {
                "part": r.part,
                "number": r.number,
                "title": r.name.code if r.name else "round",
                "match_length": r.match_length,
                "clock_preset": r.clock_preset,
                "clock_policy": r.clock_policy,
                "starts_at": r.starts_at,
                "matches": r.matches,
                "played": r.played,
            }
            for r in roundgrid.grid_rows(flight)
        ],
    }


def rounds_put(request: Request, flight_id: int) -> Response:
    """The body of ``FlightRoundsApi.put`` (:mod:`tournaments.api.views`)."""
    data = RoundGridInput(data=request.data)
    data.is_valid(raise_exception=True)
    rows = [
        {k: v for k, v in dict(row).items() if v is not None or k in ("part", "number")}
        for row in data.validated_data["rounds"]
    ]
    saved = roundgrid.flight_rounds_set(
        flight_id=flight_id,
        by=request.user,
        rounds=rows,
        version=data.validated_data.get("version"),
    )
    flight = Flight.objects.get(pk=flight_id)
    return Response(RoundGridOutput(round_grid_output(flight, len(saved))).data)


class BulkEntriesInput(serializers.Serializer):
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**31 - 1),
        required=False,
        default=list,
        max_length=bulkentries.MAX_BULK,
        help_text="existing players' ids",
    )
    names = serializers.ListField(
        child=serializers.CharField(max_length=200, allow_blank=True, trim_whitespace=False),
        required=False,
        default=list,
        max_length=bulkentries.MAX_BULK,
        help_text="new players' names, one each (a refusal names its line: index + 1); a name "
        "that is a player's already enters that player",
    )
    version = serializers.IntegerField(
        required=False, allow_null=True, help_text="the flight's version seen (409 if stale)"
    )


class BulkEntriesOutput(serializers.Serializer):
    entered = EntryOutput(many=True)
    already = EntryOutput(many=True, help_text="players in the flight before, as they are")
    created = serializers.ListField(
        child=serializers.IntegerField(), help_text="the new players' ids"
    )
    capacity = serializers.IntegerField(allow_null=True)
    held = serializers.IntegerField(help_text="places held now (active and to confirm)")
    version = serializers.IntegerField()


class FlightEntriesBulkApi(APIView):
    """Enter many players at once: existing ones by id and new ones by name, each by the
    rules of entering one (after the draw: late entries); all or none."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=BulkEntriesInput, responses={200: BulkEntriesOutput, **ERRORS})
    def post(self, request: Request, flight_id: int) -> Response:
        data = BulkEntriesInput(data=request.data)
        data.is_valid(raise_exception=True)
        result = bulkentries.entries_add(
            flight_id=flight_id,
            by=request.user,
            player_ids=data.validated_data["players"],
            names=data.validated_data["names"],
            version=data.validated_data.get("version"),
        )
        rows = Entry.objects.select_related("player").in_bulk(
            [e.pk for e in result.entered + result.already]
        )
        return Response(
            BulkEntriesOutput(
                {
                    "entered": [rows[e.pk] for e in result.entered],
                    "already": [rows[e.pk] for e in result.already],
                    "created": [p.pk for p in result.created],
                    "capacity": result.capacity,
                    "held": result.held,
                    "version": result.version,
                }
            ).data
        )


class SidePoolBulkInput(serializers.Serializer):
    entries = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**31 - 1),
        required=False,
        default=list,
        max_length=500,
        help_text="entries of the flight to put in the pool",
    )
    paid = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**31 - 1),
        required=False,
        default=list,
        max_length=500,
        help_text="entries (new or in the pool) to mark paid now",
    )


class SidePoolBulkEntrantOutput(serializers.Serializer):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    paid = serializers.BooleanField()
    paid_at = serializers.DateTimeField(allow_null=True)


class SidePoolEntriesBulkApi(APIView):
    """Put many entries in the side pool and mark many paid, in one request (all or
    none); answers the entrants that changed."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=SidePoolBulkInput, responses={200: SidePoolBulkEntrantOutput(many=True), **ERRORS}
    )
    def post(self, request: Request, pool_id: int) -> Response:
        data = SidePoolBulkInput(data=request.data)
        data.is_valid(raise_exception=True)
        changed = money.side_pool_enter_many(
            pool_id=pool_id,
            by=request.user,
            entry_ids=data.validated_data["entries"],
            paid_ids=data.validated_data["paid"],
        )
        members = SidePoolEntry.objects.select_related("entry__player").filter(
            pk__in=[m.pk for m in changed]
        )
        out = [
            {
                "entry": m.entry_id,
                "name": m.entry.player.name,
                "paid": m.paid_at is not None,
                "paid_at": m.paid_at,
            }
            for m in members.order_by("entry__player__name")
        ]
        return Response(SidePoolBulkEntrantOutput(out, many=True).data, status=status.HTTP_200_OK)
