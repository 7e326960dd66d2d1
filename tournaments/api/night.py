"""The tournaments API of the director's night (issue 29, item 3): every match of an
event that matters tonight, the same rows as the phone view
(``/events/<slug>/manage/night/``, :mod:`tournaments.tonight`): the ones to enter now
first, then those waiting for players, then the results. The event's directors only. A
result is entered with ``POST /api/v1/tournament-matches/<id>/result/``."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import error_responses
from games.errors import NotFound
from tournaments import tonight
from tournaments.models import Event, TournamentMatch
from tournaments.services.common import require_director


class NightRowOutput(serializers.Serializer):
    id = serializers.IntegerField(source="match.pk", help_text="the tournament match")
    flight = serializers.IntegerField(source="flight.pk")
    flight_name = serializers.CharField(source="flight.name")
    slot_key = serializers.CharField(source="match.slot_key")
    part = serializers.CharField(source="match.part", help_text="'' in a one-part flight")
    round = serializers.IntegerField(source="match.round")
    round_title = serializers.CharField(help_text="the round's name (Final…), else ''")
    group = serializers.CharField(
        help_text="open (to enter now: both players known, its round published), "
        "waiting (for players or for its round), done"
    )
    table = serializers.IntegerField(source="match.table", allow_null=True)
    status = serializers.ChoiceField(source="match.status", choices=TournamentMatch.Status.choices)
    flagged = serializers.BooleanField(help_text="a report waits: reported or disputed")
    entry_a = serializers.IntegerField(source="match.entry_a_id", allow_null=True)
    entry_b = serializers.IntegerField(source="match.entry_b_id", allow_null=True)
    name_a = serializers.CharField(help_text="side a's player, '' while unknown")
    name_b = serializers.CharField(help_text="side b's player, '' while unknown")
    match_length = serializers.IntegerField(source="match.match_length")
    score_a = serializers.IntegerField(source="match.score_a", allow_null=True)
    score_b = serializers.IntegerField(source="match.score_b", allow_null=True)
    online_match = serializers.IntegerField(source="match.online_match_id", allow_null=True)
    version = serializers.IntegerField(
        source="match.version", help_text="send it back with the result (409 when stale)"
    )


class NightOutput(serializers.Serializer):
    event = serializers.IntegerField()
    query = serializers.CharField()
    sort = serializers.CharField(help_text="table or name")
    rows = NightRowOutput(many=True, help_text="open first, then waiting, then done")


class EventNightApi(APIView):
    """The night of an event (its directors): its drawn flights' matches, the ones to
    enter now first (by table, or ``sort=name``), then those waiting for players, then
    the results (the latest first); ``q``: a player's name, or a table number."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "q", OpenApiTypes.STR, description="a player's name or words of it, or a table"
            ),
            OpenApiParameter("sort", OpenApiTypes.STR, description="table (the default) or name"),
        ],
        responses={200: NightOutput, **error_responses((401, 403, 404))},
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = Event.objects.filter(pk=event_id).first()
        if event is None:
            raise NotFound("event_not_found", _("There is no event with this id."))
        require_director(request.user, event)
        night = tonight.event_night(
            event_id=event.pk,
            query=request.query_params.get("q", ""),
            sort=request.query_params.get("sort", "table"),
        )
        body = {"event": event.pk, "query": night.query, "sort": night.sort, "rows": night.rows}
        return Response(NightOutput(body).data)
