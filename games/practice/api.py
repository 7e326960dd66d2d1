"""The practice opponent's API: who it is, its levels, and whether it can play here.
A member invites it through the match API (``POST /api/v1/matches/`` with
``bot_level``), as anyone."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import PlayerRef
from games.models import BOT_LEVELS
from games.practice import services


class LevelOutput(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()


class PracticeOutput(serializers.Serializer):
    player = PlayerRef(help_text="The computer opponent's player: invite it by this id.")
    available = serializers.BooleanField()
    reason = serializers.CharField(
        allow_null=True, help_text="Why it cannot play on this server (null when it can)."
    )
    levels = LevelOutput(many=True)
    rated = serializers.BooleanField(help_text="Always false: practice matches are not rated.")


class PracticeApi(APIView):
    """The practice opponent (GNU Backgammon): its player id, its levels (beginner =
    gnubg 0-ply with noise ... world class = 2-ply) and whether it can play here."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=PracticeOutput)
    def get(self, request: Request) -> Response:
        reason = services.bot_unavailable_reason()
        data = {
            "player": services.bot_player_get_or_create(),
            "available": reason is None,
            "reason": reason,
            "levels": [{"key": key, "label": str(label)} for key, label in BOT_LEVELS],
            "rated": False,
        }
        return Response(PracticeOutput(data).data)
