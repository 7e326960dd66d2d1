"""The players API: who the requester is and their own settings (issue 18), the club's
players, a player's results with each rating change's calculation (issue 8)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import (
    ErrorOutput,
    PlayerOutput,
    PlayerRef,
    error_responses,
    json_parsers,
    request_player,
)
from games.models import BoardOrientation, Player
from games.players import selectors, services
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


class MySettingsOutput(serializers.Serializer):
    board_orientation = serializers.ChoiceField(
        choices=BoardOrientation.choices,
        help_text="where the requester's home board is drawn: bottom right or bottom left",
    )
    switch_sides_after_match = serializers.BooleanField(
        help_text="the home board moves to the other side each time a match they played finishes"
    )
    auto_roll = serializers.BooleanField(
        help_text="the board rolls by itself when it is their turn and no double is possible"
    )
    auto_confirm_forced = serializers.BooleanField(
        help_text="the board submits a roll's play by itself when it is the only legal one"
    )
    turn_sound = serializers.BooleanField(
        help_text="a short beep on the match page when it becomes the requester's turn"
    )
    version = serializers.IntegerField(
        source="settings_version",
        help_text="bumped by every change (a match's switch too); send it back to be told "
        "(409 stale_settings) when the settings changed since you read them",
    )


class MySettingsInput(serializers.Serializer):
    # A plain string, not a choice: a wrong one is the service's own refusal with its
    # code (invalid_board_orientation), as the page gets it.
    board_orientation = serializers.CharField(
        max_length=10, required=False, help_text="right or left (400 invalid_board_orientation)"
    )
    switch_sides_after_match = serializers.BooleanField(required=False)
    auto_roll = serializers.BooleanField(required=False)
    auto_confirm_forced = serializers.BooleanField(required=False)
    turn_sound = serializers.BooleanField(required=False)
    version = serializers.IntegerField(
        min_value=0, required=False, help_text="the version read; left out: no check"
    )


class MySettingsApi(APIView):
    """The requester's board settings (seed 000): where the home board is drawn,
    whether it switches sides after each match, and whether the board rolls and plays a
    forced play by itself (issue 27). ``PATCH`` changes the fields given."""

    permission_classes = [permissions.IsAuthenticated]
    parser_classes = json_parsers()

    @extend_schema(
        responses={
            200: MySettingsOutput,
            **error_responses(
                {401: "Not logged in.", 403: "`no_player`: the account has no player."}
            ),
        }
    )
    def get(self, request: Request) -> Response:
        return Response(MySettingsOutput(request_player(request)).data)

    @extend_schema(
        request=MySettingsInput,
        responses={
            200: MySettingsOutput,
            400: OpenApiResponse(
                ErrorOutput,
                description="`invalid`, `invalid_board_orientation`; nothing is changed.",
            ),
            **error_responses(
                {
                    401: "Not logged in.",
                    403: "`no_player`: the account has no player.",
                    409: "`stale_settings`: `version` is not the stored one (the current "
                    "`version` and `board_orientation` are in the answer); nothing is changed.",
                }
            ),
        },
    )
    def patch(self, request: Request) -> Response:
        me = request_player(request)
        data = MySettingsInput(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        player = services.player_settings_update(
            player_id=me.pk,
            board_orientation=given.get("board_orientation"),
            switch_sides_after_match=given.get("switch_sides_after_match"),
            auto_roll=given.get("auto_roll"),
            auto_confirm_forced=given.get("auto_confirm_forced"),
            turn_sound=given.get("turn_sound"),
            expected_version=given.get("version"),
        )
        return Response(MySettingsOutput(player).data)


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
