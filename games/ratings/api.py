"""Ratings in the API (issue 8): the leaderboard. Public reading, like the page. (A
player's results with each change's calculation are the players API's.)"""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import PlayerOutput
from games.errors import ValidationFailed
from games.ratings import selectors as ratings_selectors
from games.ratings.forms import LeaderboardFilter


class LeaderboardRowOutput(serializers.Serializer):
    rank = serializers.IntegerField()
    player = PlayerOutput()
    played = serializers.IntegerField(help_text="Rated matches in the period.")
    won = serializers.IntegerField()
    change = serializers.DecimalField(
        max_digits=9, decimal_places=2, help_text="Rating change in the period."
    )


class LeaderboardApi(APIView):
    """Active players by rating (see the leaderboard page for the filters)."""

    @extend_schema(
        parameters=[
            OpenApiParameter("club", str),
            OpenApiParameter("period", str, enum=list(ratings_selectors.PERIODS)),
            OpenApiParameter("min_experience", int),
            OpenApiParameter("name", str, description="A part of the name, any case, any accents."),
        ],
        responses=LeaderboardRowOutput(many=True),
    )
    def get(self, request: Request) -> Response:
        for field in ("club", "period", "min_experience", "name"):
            if len(request.query_params.getlist(field)) > 1:  # one value each, not a list
                raise ValidationFailed(f"invalid_{field}", _("Give this filter once."))
        form = LeaderboardFilter(request.query_params)
        if not form.is_valid():
            field, errors = next(iter(form.errors.items()))
            raise ValidationFailed(f"invalid_{field}", str(errors[0]))
        rows = ratings_selectors.leaderboard(**form.arguments())
        return Response(LeaderboardRowOutput(rows, many=True).data)
