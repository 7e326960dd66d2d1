"""Player API: read-only for now (players are created by directors in the admin)."""

from __future__ import annotations

from rest_framework import generics
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors

from .serializers import PlayerOutput


class PlayerListApi(generics.ListAPIView):
    serializer_class = PlayerOutput

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return selectors.player_list()


class PlayerDetailApi(APIView):
    serializer_class = PlayerOutput

    def get(self, request: Request, player_id: int) -> Response:
        player = selectors.player_get(player_id=player_id)
        return Response(PlayerOutput(player).data)
