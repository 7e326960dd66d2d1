"""The API of online chouette play (issue 19): start a game, read it, act, the team's chat.

Reading a game is public except the caller's own ``actions`` (what the caller may do now,
also as someone's proxy) and the team's chat (``team-messages``: the team's members
only, 403 ``not_in_team`` for the box, the partner and anyone else). Every action names
the ``expected_version`` it was made against (409 ``stale_version`` when the game moved
on). Errors leave as ``{"code", "detail"}``: 400 (``invalid_action``, ``illegal_play``,
``invalid_answer``, ...), 403 (``not_in_game``, ``not_a_proxy``, ``proxy_answers_only``),
404, 409 (``not_your_turn``, ``decision_pending``, ``not_your_decision``,
``cube_not_available``, ``box_must_take_half``, ``game_over``,
``online_game_in_progress``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from chouette.models import MAX_DECISION_SECONDS, TEAM_MESSAGE_LENGTH
from chouette.online import alarms, selectors, services
from chouette.online.cubes import ANSWERS, CUBE_FATES, PENDING_KINDS
from chouette.rules import RESULT_KINDS
from games.api.common import error_responses
from games.engine.clock import PRESETS
from games.errors import PermissionDenied
from games.models import Player

ERRORS = error_responses()
#: A member's place in the team (the acting captain is said apart).
MEMBER_ROLES = ("captain", "member")


# ====================================================================== serializers
class OnlinePlayerOutput(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()


class OnlineMemberOutput(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    role = serializers.ChoiceField(choices=list(MEMBER_ROLES))
    acting_captain = serializers.BooleanField(
        help_text="Moves the team's checkers since the captain left the game."
    )
    cube = serializers.IntegerField(
        help_text="The member's cube now; for a member out of the game, the value of the "
        "double they dropped (dropped: pays half of it) or the box dropped (wins half of it)."
    )
    owner = serializers.ChoiceField(choices=["box", "member"], allow_null=True)
    fate = serializers.ChoiceField(choices=list(CUBE_FATES))
    pending = serializers.ChoiceField(choices=list(PENDING_KINDS), allow_null=True)
    consented = serializers.BooleanField()
    beavers = serializers.IntegerField()
    raccoons = serializers.IntegerField()
    away = serializers.BooleanField(
        help_text="Away from the table (named a proxy): never made the mover; the proxy "
        "answers the cube decisions."
    )
    proxy_name = serializers.CharField(allow_null=True, help_text="The proxy of a member away.")


class OnlineDecisionOutput(serializers.Serializer):
    decider = serializers.IntegerField(help_text="Who answers it (the box, or the member).")
    decider_name = serializers.CharField()
    member = serializers.IntegerField(help_text="Whose cube it is about.")
    member_name = serializers.CharField()
    kind = serializers.ChoiceField(choices=list(PENDING_KINDS))
    answers = serializers.ListField(child=serializers.ChoiceField(choices=list(ANSWERS)))
    offered = serializers.IntegerField(
        help_text="The cube value the double offers; for a settlement, the points offered "
        "(+: the box pays the member)."
    )
    members = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The members it is about: one, or in classic every member of the team's "
        "double (the box answers it once).",
    )


class OnlinePlayOutput(serializers.Serializer):
    position_id = serializers.CharField()
    play = serializers.CharField()


class OnlineBoxTargetOutput(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    cube = serializers.IntegerField()


class OnlineMyDecisionOutput(serializers.Serializer):
    member = serializers.IntegerField()
    member_name = serializers.CharField()
    kind = serializers.ChoiceField(choices=list(PENDING_KINDS))
    answers = serializers.ListField(child=serializers.ChoiceField(choices=list(ANSWERS)))
    as_player = serializers.IntegerField(
        required=False, help_text="Answered as this member's proxy: send it as as_player."
    )
    members = serializers.ListField(child=serializers.IntegerField(), required=False)


class OnlineActionsOutput(serializers.Serializer):
    roll = serializers.BooleanField(required=False)
    play = OnlinePlayOutput(many=True, required=False)
    choose_double = serializers.ListField(child=serializers.IntegerField(), required=False)
    box_double = OnlineBoxTargetOutput(many=True, required=False)
    propose_double = serializers.BooleanField(required=False)
    double = serializers.BooleanField(required=False)
    decisions = OnlineMyDecisionOutput(many=True, required=False)
    proxy_decisions = OnlineMyDecisionOutput(many=True, required=False)


class OnlineClockOutput(serializers.Serializer):
    running = serializers.ChoiceField(choices=["box", "team"], allow_null=True)
    delay_ms = serializers.IntegerField()
    delay_left_ms = serializers.IntegerField(allow_null=True)
    reserves_ms = serializers.DictField(child=serializers.IntegerField())


class OnlinePointsOutput(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.IntegerField()


class OnlineResultOutput(serializers.Serializer):
    winner = serializers.ChoiceField(choices=["box", "team"], allow_null=True)
    kind = serializers.ChoiceField(choices=list(RESULT_KINDS), allow_null=True)
    flagged = serializers.ChoiceField(choices=["box", "team"], allow_null=True)
    undone = serializers.BooleanField()
    points = OnlinePointsOutput(many=True)


class OnlineWindowOutput(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=["decision", "away"],
        help_text="decision: the open cube decisions take their defaults; away: nobody at "
        "the table moves for the side on roll, which then forfeits (a gammon).",
    )
    seconds = serializers.IntegerField(allow_null=True)
    defaults = serializers.ListField(
        child=serializers.ListField(),
        required=False,
        help_text="[decider, member, kind, answer]: exactly what the window's end applies.",
    )
    side = serializers.ChoiceField(choices=["box", "team"], required=False, allow_null=True)


class OnlineLogOutput(serializers.Serializer):
    seq = serializers.IntegerField()
    kind = serializers.CharField(
        help_text="The action (roll, play, answer...), or a timeout: defaults (the "
        "decision window), flag (the move clock), forfeit (the away window); away (a "
        "player left or came back)."
    )
    actor = serializers.IntegerField(allow_null=True)
    actor_name = serializers.CharField()
    by_name = serializers.CharField(help_text="Pressed by this proxy.")
    data = serializers.DictField()
    text = serializers.CharField(help_text="The row in words, in the request's language.")
    at = serializers.DateTimeField()


class OnlineGameOutput(serializers.Serializer):
    id = serializers.IntegerField()
    session = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["playing", "finished", "abandoned"])
    version = serializers.IntegerField()
    profile = serializers.ChoiceField(choices=["classic", "individual"])
    box = OnlinePlayerOutput()
    partner = OnlinePlayerOutput(allow_null=True)
    captain = serializers.IntegerField()
    acting_captain = serializers.IntegerField(allow_null=True)
    members = OnlineMemberOutput(many=True)
    side_on_roll = serializers.ChoiceField(choices=["box", "team"], allow_null=True)
    phase = serializers.CharField()
    dice = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    mover = serializers.IntegerField(allow_null=True)
    mover_name = serializers.CharField(allow_null=True)
    position_id = serializers.CharField()
    pips = serializers.DictField(child=serializers.IntegerField())
    initial_cube = serializers.IntegerField()
    decisions = OnlineDecisionOutput(many=True)
    decision_deadline = serializers.DateTimeField(allow_null=True)
    decision_default = serializers.ChoiceField(choices=["take", "drop"])
    decision_ms_left = serializers.IntegerField(allow_null=True)
    window = OnlineWindowOutput(allow_null=True)
    away = serializers.ListField(child=serializers.IntegerField())
    unmanned = serializers.ChoiceField(choices=["box", "team"], allow_null=True)
    clock = OnlineClockOutput(allow_null=True)
    viewer = serializers.IntegerField(allow_null=True)
    viewer_role = serializers.ChoiceField(choices=["box", "partner", "member", "out", "spectator"])
    in_team = serializers.BooleanField()
    actions = OnlineActionsOutput()
    result = OnlineResultOutput(allow_null=True)
    log = OnlineLogOutput(
        many=True, help_text="The newest rows of the game's log, oldest first, in words."
    )


class OnlineStartInput(serializers.Serializer):
    expected_version = serializers.IntegerField(required=False, min_value=0)


class OnlineActionInput(serializers.Serializer):
    action = serializers.ChoiceField(choices=list(services.ACTIONS))
    expected_version = serializers.IntegerField(min_value=0)
    position_id = serializers.CharField(required=False, max_length=20)
    member = serializers.IntegerField(required=False)
    members = serializers.ListField(child=serializers.IntegerField(), required=False, max_length=64)
    answer = serializers.ChoiceField(choices=list(ANSWERS), required=False)
    value = serializers.IntegerField(required=False, min_value=1, max_value=6)
    as_player = serializers.IntegerField(required=False)


class OnlineVersionInput(serializers.Serializer):
    expected_version = serializers.IntegerField(required=False, min_value=0)


class TeamMessageInput(serializers.Serializer):
    text = serializers.CharField(required=False, allow_blank=True, max_length=TEAM_MESSAGE_LENGTH)
    play = serializers.CharField(required=False, allow_blank=True, max_length=20)


class TeamMessageOutput(serializers.Serializer):
    id = serializers.IntegerField()
    author = serializers.IntegerField(source="author_id")
    author_name = serializers.CharField(source="author.name")
    text = serializers.CharField()
    play = serializers.CharField()
    created_at = serializers.DateTimeField()


class OnlineSettingsInput(serializers.Serializer):
    decision_seconds = serializers.IntegerField(min_value=0, max_value=MAX_DECISION_SECONDS)
    decision_default = serializers.ChoiceField(choices=["take", "drop"])
    clock_preset = serializers.ChoiceField(choices=["", *PRESETS], required=False, allow_blank=True)
    expected_version = serializers.IntegerField(required=False, min_value=0)


class OnlineSettingsOutput(serializers.Serializer):
    decision_seconds = serializers.IntegerField()
    decision_default = serializers.CharField()
    clock_preset = serializers.CharField()
    version = serializers.IntegerField()


# ====================================================================== views
def _valid(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return dict(data.validated_data)


def _viewer(request: Request) -> int | None:
    player = Player.of_user(request.user)
    return None if player is None else player.pk


def _game_response(request: Request, game_id: int, code: int = status.HTTP_200_OK) -> Response:
    game = selectors.online_game_get(game_id=game_id)
    view = selectors.online_game_view(game, viewer=_viewer(request))
    view["log"] = selectors.online_moves(game)
    return Response(OnlineGameOutput(view).data, status=code)


class OnlineGameStartApi(APIView):
    """Start the session's next game online, from its seating (a writer of the session;
    409 ``online_game_in_progress`` when one is being played)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=OnlineStartInput, responses={201: OnlineGameOutput, **ERRORS})
    def post(self, request: Request, session_id: int) -> Response:
        data = _valid(OnlineStartInput, request)
        game = services.online_game_start(
            session_id=session_id, by=request.user, expected_version=data.get("expected_version")
        )
        return _game_response(request, game.pk, status.HTTP_201_CREATED)


class OnlineGameDetailApi(APIView):
    """An online game as the caller sees it (``actions``: what the caller may do now).
    What is due (a decision's time window, a flag) is acted on before it is read."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: OnlineGameOutput, 404: ERRORS[404]})
    def get(self, request: Request, game_id: int) -> Response:
        alarms.online_game_alarm(game_id=game_id)
        return _game_response(request, game_id)


class OnlineGameActApi(APIView):
    """One action: ``roll``, ``play`` (``position_id``), ``choose_double`` (``value``),
    ``propose_double`` (classic), ``consent`` (``answer`` yes/no), ``double``
    (individual), ``box_double`` (individual: ``members``, default every cube the box
    may turn) or ``answer`` (``member`` whose cube, ``answer``; ``as_player`` for a
    proxy). Answered with the game after it."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=OnlineActionInput, responses={200: OnlineGameOutput, **ERRORS})
    def post(self, request: Request, game_id: int) -> Response:
        data = _valid(OnlineActionInput, request)
        services.online_game_act(
            game_id=game_id,
            by=request.user,
            action=data["action"],
            expected_version=data["expected_version"],
            position_id=data.get("position_id"),
            member=data.get("member"),
            members=data.get("members"),
            answer=data.get("answer"),
            value=data.get("value"),
            as_player=data.get("as_player"),
        )
        return _game_response(request, game_id)


class OnlineGameAbandonApi(APIView):
    """Abandon a game that can't be finished: nothing goes to the ledger."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=OnlineVersionInput, responses={200: OnlineGameOutput, **ERRORS})
    def post(self, request: Request, game_id: int) -> Response:
        data = _valid(OnlineVersionInput, request)
        services.online_game_abandon(
            game_id=game_id, by=request.user, expected_version=data.get("expected_version")
        )
        return _game_response(request, game_id)


class TeamMessagesApi(APIView):
    """The team's chat (the team's members only): ``GET`` the newest lines, ``POST`` a
    line (``text``) or a suggested play (``play``: a Position ID of the dice rolled)."""

    permission_classes = [permissions.IsAuthenticated]

    def _game_for_team(self, request: Request, game_id: int) -> Any:
        game = selectors.online_game_get(game_id=game_id)
        viewer = _viewer(request)
        if viewer is None or viewer not in game.table.get("members", ()):
            raise PermissionDenied("not_in_team", _("Only the team reads and writes here."))
        return game

    @extend_schema(responses={200: TeamMessageOutput(many=True), **ERRORS})
    def get(self, request: Request, game_id: int) -> Response:
        game = self._game_for_team(request, game_id)
        return Response(TeamMessageOutput(selectors.team_messages(game), many=True).data)

    @extend_schema(request=TeamMessageInput, responses={201: TeamMessageOutput, **ERRORS})
    def post(self, request: Request, game_id: int) -> Response:
        data = _valid(TeamMessageInput, request)
        message = services.online_team_message_post(
            game_id=game_id, by=request.user, text=data.get("text", ""), play=data.get("play", "")
        )
        return Response(TeamMessageOutput(message).data, status=status.HTTP_201_CREATED)


class OnlineSettingsApi(APIView):
    """The session's settings for online play (a writer, between games)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=OnlineSettingsInput, responses={200: OnlineSettingsOutput, **ERRORS})
    def put(self, request: Request, session_id: int) -> Response:
        data = _valid(OnlineSettingsInput, request)
        session = services.online_settings_update(
            session_id=session_id,
            by=request.user,
            decision_seconds=data["decision_seconds"],
            decision_default=data["decision_default"],
            clock_preset=data.get("clock_preset", ""),
            expected_version=data.get("expected_version"),
        )
        return Response(
            OnlineSettingsOutput(
                {
                    "decision_seconds": session.decision_seconds,
                    "decision_default": session.decision_default,
                    "clock_preset": services.clock_preset_of(session),
                    "version": session.version,
                }
            ).data
        )


__all__ = [
    "OnlineGameAbandonApi",
    "OnlineGameActApi",
    "OnlineGameDetailApi",
    "OnlineGameStartApi",
    "OnlineSettingsApi",
    "TeamMessagesApi",
]
