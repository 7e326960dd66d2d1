"""The players API: who the requester is, the club's players, a player's results with
each rating change's calculation (issue 8)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import PlayerOutput, PlayerRef
from games.models import Player
from games.players import selectors
from games.ratings import selectors as ratings_selectors


class MeOutput(serializers.Serializer):
    username = serializers.CharField()
    player = PlayerRef(allow_null=True)


class MeApi(APIView):
    """Who the token (or session) belongs to: the user and the linked player."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=MeOutput)
    def get(self, request: Request) -> Response:
        player = Player.of_user(request.user)
        return Response(
            {
                "username": request.user.get_username(),
                "player": None if player is None else {"id": player.pk, "name": player.name},
            }
        )


class PlayerListApi(generics.ListAPIView):
    serializer_class = PlayerOutput

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return selectors.player_list()


class PlayerDetailApi(APIView):
    @extend_schema(responses=PlayerOutput)
    def get(self, request: Request, player_id: int) -> Response:
        player = selectors.player_get(player_id=player_id)
        return Response(PlayerOutput(player).data)


class CalculationOutput(serializers.Serializer):
    """The FIBS calculation of one rated result from one player's side."""

    difference = serializers.DecimalField(max_digits=7, decimal_places=2)
    p_upset = serializers.FloatField()
    p = serializers.FloatField()
    upset = serializers.BooleanField(help_text="The lower-rated player won.")
    k = serializers.FloatField()
    change = serializers.DecimalField(max_digits=7, decimal_places=2)
    rating_before = serializers.DecimalField(max_digits=7, decimal_places=2)
    rating_after = serializers.DecimalField(max_digits=7, decimal_places=2)
    experience_before = serializers.IntegerField()
    experience_after = serializers.IntegerField()


class OpponentOutput(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()


class PlayerResultOutput(serializers.Serializer):
    id = serializers.IntegerField(source="row.pk")
    source = serializers.CharField(source="row.source")
    at = serializers.DateTimeField()
    length = serializers.IntegerField()
    opponent = OpponentOutput()
    opponent_rating_before = serializers.DecimalField(
        max_digits=7, decimal_places=2, allow_null=True
    )
    won = serializers.BooleanField()
    rated = serializers.BooleanField(source="row.rated")
    match = serializers.IntegerField(source="row.match_id", allow_null=True)
    link = serializers.CharField(allow_null=True)
    calculation = CalculationOutput(allow_null=True)


class PlayerResultsApi(generics.ListAPIView):
    """A player's results (rated or not), newest first, each with its calculation."""

    serializer_class = PlayerResultOutput

    def get_queryset(self):  # type: ignore[no-untyped-def]
        player = selectors.player_get(player_id=self.kwargs["player_id"])
        return ratings_selectors.player_results(player_id=player.pk)

    def paginate_queryset(self, queryset):  # type: ignore[no-untyped-def]
        page = super().paginate_queryset(queryset)
        rows = list(queryset) if page is None else page
        return ratings_selectors.player_sides(rows, self.kwargs["player_id"])
