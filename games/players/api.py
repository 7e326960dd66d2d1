"""The players API: who the requester is, the club's players."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import PlayerOutput, PlayerRef
from games.models import Player
from games.players import selectors


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
