"""Ratings in the API (issue 8): a player's results with each rating change's calculation,
and the leaderboard. Public reading, like the pages."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import PlayerOutput
from games.errors import ValidationFailed
from games.players import selectors
from games.ratings import selectors as ratings_selectors
from games.ratings.forms import LeaderboardFilter


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
            OpenApiParameter("name", str, description="A part of the name, any case."),
        ],
        responses=LeaderboardRowOutput(many=True),
    )
    def get(self, request: Request) -> Response:
        form = LeaderboardFilter(request.query_params)
        if not form.is_valid():
            field, errors = next(iter(form.errors.items()))
            raise ValidationFailed(f"invalid_{field}", str(errors[0]))
        rows = ratings_selectors.leaderboard(**form.arguments())
        return Response(LeaderboardRowOutput(rows, many=True).data)
