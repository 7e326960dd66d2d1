"""The match-play API: one view per operation, input and output serializers, and every
write through a service. Errors leave as ``{"code", "detail"}`` (``config.api``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import error_responses, query_choice, request_player
from games.errors import PermissionDenied, ValidationFailed
from games.models import Game, Match, MatchInvitation, Player
from games.play import alarms, invitations, replay, selectors, services
from games.play.serializers import (
    ActionInput,
    GameActionOutput,
    GameReplayOutput,
    GameStateOutput,
    InvitationOutput,
    MatchCreateInput,
    MatchDetailOutput,
    MatchOutput,
)

#: What the writes answer besides the refusals every write has (games.api.schema).
CREATE_ERRORS = error_responses(
    {
        400: "`invalid`, `invalid_clock`, `same_player`, `inactive_player`, `invalid_length`, "
        "`opponent_no_login` (only a player who can log in can be invited), "
        "`invitation_required` (`start` for your own match); against the computer: "
        "`bot_level_required`, `bot_variant` (standard or nackgammon only), `not_a_bot` (a "
        "level for a person).",
        403: "`no_player`, `not_a_player`: only a match you play in (or staff); `no_login`.",
        409: "`invitation_exists`: the two players have an open invitation (its id in "
        "`invitation`).",
        503: "`bot_unavailable`: GNU Backgammon cannot play on this server (the reason in "
        "`detail`).",
    }
)
ANSWER_ERRORS = error_responses(
    {
        403: "`no_player`, `not_invited` (only the invited player answers), `not_inviter` "
        "(only the inviter withdraws).",
        404: "`invitation_not_found`.",
        409: "`invitation_answered`: accepted, declined or withdrawn already (its `status`).",
    }
)
START_ERRORS = error_responses(
    {
        403: "`no_player`, `not_a_player`.",
        404: "`match_not_found`.",
        409: "`match_already_started`, `match_called_off`, `invitation_pending` (the invited "
        "player starts it by accepting).",
    }
)
END_ERRORS = error_responses(
    {
        400: "`not_money_session`: a match is played out.",
        403: "`no_player`, `not_a_player`.",
        404: "`match_not_found`.",
        409: "`match_not_playing`, `game_in_progress`.",
    }
)
REMATCH_ERRORS = error_responses(
    {
        400: "`opponent_no_login`: the other player cannot log in to answer.",
        403: "`no_player`, `not_a_player`: only a player of the match; `no_login`.",
        404: "`match_not_found`.",
        409: "`match_not_finished`; `invitation_exists`: the two players have an open "
        "invitation (its id in `invitation`).",
    }
)
ACTION_ERRORS = error_responses(
    {
        400: "`invalid`, or the rules' code (e.g. `must_use_larger_die`).",
        403: "`no_player`, `not_a_player`.",
        404: "`game_not_found`.",
        409: "`stale_version` (with the game's `version`), `session_ended`, `out_of_time`, "
        "or an action that no longer fits the game.",
    }
)


def _viewer_index(request: Request, game: Game) -> int | None:
    player = Player.of_user(request.user)
    return None if player is None else game.match.player_index(player.pk)


def _home(player: Player | None) -> str:
    """Where the requester draws their home board (their setting; seed 000's bottom
    right for a visitor or an account without a player), as the match page does."""
    return player.board_orientation if player is not None else "right"


class MatchListApi(APIView):
    """List matches (newest first) or create one between two players.

    A match you play in is an invitation to the other player (who must be able to log
    in): it waits until they accept it (``/api/v1/invitations/``), and its ``invitation``
    says so. Staff may arrange a match between two other players, started at once with
    ``start``."""

    @extend_schema(
        parameters=[OpenApiParameter("status", str, enum=[s for s, _ in Match.Status.choices])],
        responses=MatchOutput(many=True),
    )
    def get(self, request: Request) -> Response:
        wanted = query_choice(request, "status", Match.Status.values)
        matches = selectors.match_list(status=wanted)
        return Response(MatchOutput(matches, many=True).data)

    @extend_schema(request=MatchCreateInput, responses={201: MatchDetailOutput, **CREATE_ERRORS})
    def post(self, request: Request) -> Response:
        data = MatchCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        values: dict[str, Any] = data.validated_data
        player1, player2 = values["player1"], values["player2"]
        settings = {
            "length": values["length"],
            "rules": values["rules"],
            "clock": values["clock"],
            "timeout_claim": values["timeout_claim"],
            "created_by": request.user,
        }
        mine = Player.of_user(request.user)
        if request.user.is_staff and (mine is None or mine.pk not in (player1.pk, player2.pk)):
            # Staff arrange a match between two others, with or without a player of
            # their own (the README says they may).
            match = services.match_arrange(
                player1=player1, player2=player2, start=values["start"], **settings
            )
            match_id = match.pk
        else:
            me = request_player(request)  # 403 no_player: inviting needs a player
            if me.pk not in (player1.pk, player2.pk):
                raise PermissionDenied(
                    "not_a_player", _("You may only create matches you play in.")
                )
            settings["bot_level"] = values["bot_level"]
            if values["start"]:
                raise ValidationFailed(
                    "invitation_required",
                    _("Your opponent starts the match by accepting your invitation."),
                    extra={"field": "start"},
                )
            opponent = player2 if me.pk == player1.pk else player1
            invitation = invitations.invitation_send(inviter=me, invitee=opponent, **settings)
            match_id = invitation.match_id
        match = selectors.match_get(match_id=match_id)
        return Response(MatchDetailOutput(match).data, status=status.HTTP_201_CREATED)


class MatchDetailApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=MatchDetailOutput)
    def get(self, request: Request, match_id: int) -> Response:
        match = selectors.match_get(match_id=match_id)
        return Response(MatchDetailOutput(match).data)


class MatchStartApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={201: GameStateOutput, **START_ERRORS})
    def post(self, request: Request, match_id: int) -> Response:
        me = request_player(request)
        game = services.match_start(match_id=match_id, by=me)
        game = selectors.game_get(game_id=game.pk)
        view = selectors.game_view(game=game, viewer_index=_viewer_index(request, game))
        view["home"] = _home(me)
        return Response(view, status=status.HTTP_201_CREATED)


class MatchEndSessionApi(APIView):
    """End a money session between games (either player); 409 ``game_in_progress``
    while a game is under way."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: MatchDetailOutput, **END_ERRORS})
    def post(self, request: Request, match_id: int) -> Response:
        services.match_end_session(match_id=match_id, by=request_player(request))
        return Response(MatchDetailOutput(selectors.match_get(match_id=match_id)).data)


class MatchRematchApi(APIView):
    """From a finished match, invite the other player to a new match with the same
    settings (length, rules, clock); the answer is the invitation, whose match waits for
    them to accept."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={201: InvitationOutput, **REMATCH_ERRORS})
    def post(self, request: Request, match_id: int) -> Response:
        invitation = invitations.match_rematch(
            match_id=match_id, by=request_player(request), created_by=request.user
        )
        return Response(
            InvitationOutput(selectors.invitation_get(invitation_id=invitation.pk)).data,
            status=status.HTTP_201_CREATED,
        )


class InvitationListApi(APIView):
    """The invitations to a match you sent or received, newest first (at most 100);
    ``status`` keeps those (``pending``: the ones waiting for an answer)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, enum=[s for s, _ in MatchInvitation.Status.choices])
        ],
        responses={200: InvitationOutput(many=True), **error_responses({403: "`no_player`."})},
    )
    def get(self, request: Request) -> Response:
        wanted = query_choice(request, "status", MatchInvitation.Status.values)
        found = selectors.invitation_list(player=request_player(request), status=wanted)
        return Response(InvitationOutput(found, many=True).data)


def _invitation(invitation_id: int) -> Response:
    return Response(InvitationOutput(selectors.invitation_get(invitation_id=invitation_id)).data)


class InvitationAcceptApi(APIView):
    """Accept an invitation (the invited player): the match starts; its first game is
    the answer's ``current_game``."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: InvitationOutput, **ANSWER_ERRORS})
    def post(self, request: Request, invitation_id: int) -> Response:
        invitations.invitation_accept(invitation_id=invitation_id, by=request_player(request))
        return _invitation(invitation_id)


class InvitationDeclineApi(APIView):
    """Decline an invitation (the invited player): the match is called off."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: InvitationOutput, **ANSWER_ERRORS})
    def post(self, request: Request, invitation_id: int) -> Response:
        invitations.invitation_decline(invitation_id=invitation_id, by=request_player(request))
        return _invitation(invitation_id)


class InvitationWithdrawApi(APIView):
    """Withdraw an invitation nobody answered yet (its sender): the match is called off."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: InvitationOutput, **ANSWER_ERRORS})
    def post(self, request: Request, invitation_id: int) -> Response:
        invitations.invitation_withdraw(invitation_id=invitation_id, by=request_player(request))
        return _invitation(invitation_id)


class GameDetailApi(APIView):
    """A game's state as the requester sees it, with the actions legal for them now."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=GameStateOutput)
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.game_get(game_id=game_id)
        if alarms.game_alarm_if_due(game):  # a flag or notice that is due happens now
            game = selectors.game_get(game_id=game_id)
        view = selectors.game_view(game=game, viewer_index=_viewer_index(request, game))
        view["home"] = _home(Player.of_user(request.user))
        return Response(view)


_ACTIONS = frozenset(ActionInput().fields["action"].choices)
_RESIGN_KINDS = frozenset(ActionInput().fields["kind"].choices)


def _plain_action_input(data: Any) -> dict[str, Any] | None:
    """The common, well-formed action body accepted without building a DRF serializer
    (which deep-copies its fields on every request: a twentieth of a move's server time,
    bench/moves.py). Exactly the rules of :class:`ActionInput`, but only for JSON-typed
    values; ``None`` sends anything else to the serializer."""
    if not isinstance(data, dict):
        return None
    action, version = data.get("action"), data.get("version")
    if not isinstance(action, str) or action not in _ACTIONS:
        return None
    if type(version) is not int or version < 0:
        return None
    values: dict[str, Any] = {"action": action, "version": version}
    if "play" in data:
        play = data["play"]
        if not isinstance(play, str) or len(play) > 80:
            return None
        values["play"] = play.strip()  # as DRF's CharField trims
    if "position_id" in data:
        position = data["position_id"]
        if not isinstance(position, str) or not position.strip() or len(position) > 14:
            return None
        values["position_id"] = position.strip()
    if "kind" in data:
        kind = data["kind"]
        if kind is not None and not (isinstance(kind, str) and kind in _RESIGN_KINDS):
            return None
        values["kind"] = kind
    if "value" in data:
        value = data["value"]
        if type(value) is not int or not 1 <= value <= 6:
            return None
        values["value"] = value
    return values


class GameActionsApi(APIView):
    """The game's action log (GET) and the one way to act in a game (POST).

    Every POST names the game ``version`` it was made against: a stale version is 409
    ``stale_version``, a rule breach 400 with the engine's code, a game you don't play
    403 ``not_a_player``."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=GameActionOutput(many=True))
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.game_get(game_id=game_id)
        return Response(GameActionOutput(game.actions.order_by("seq"), many=True).data)

    @extend_schema(request=ActionInput, responses={200: GameStateOutput, **ACTION_ERRORS})
    def post(self, request: Request, game_id: int) -> Response:
        values = _plain_action_input(request.data)
        if values is None:  # anything unusual: DRF checks it and names what is wrong
            data = ActionInput(data=request.data)
            data.is_valid(raise_exception=True)
            values = data.validated_data
        me = request_player(request)
        common = {"game_id": game_id, "player": me, "expected_version": values["version"]}
        kind = values["action"]
        if kind == "roll":
            outcome = services.game_roll(**common)
        elif kind == "play":
            outcome = services.game_play(
                **common,
                play=values.get("play", ""),
                result_position_id=values.get("position_id", ""),
            )
        elif kind == "choose_double":
            outcome = services.game_choose_double(**common, value=values.get("value", 0))
        elif kind == "double":
            outcome = services.cube_offer(**common)
        elif kind == "take":
            outcome = services.cube_take(**common)
        elif kind == "drop":
            outcome = services.cube_drop(**common)
        elif kind == "beaver":
            outcome = services.cube_beaver(**common)
        elif kind == "resign":
            outcome = services.resign_offer(**common, kind=values.get("kind"))
        elif kind == "accept_resignation":
            outcome = services.resign_accept(**common)
        elif kind == "claim_timeout":
            outcome = services.game_claim_timeout(**common)
        else:  # decline_resignation (the serializer allows nothing else)
            outcome = services.resign_decline(**common)
        index = outcome.game.match.player_index(me.pk)
        view = selectors.game_view(game=outcome.game, viewer_index=index, state=outcome.state)
        view["next_game"] = None if outcome.next_game is None else outcome.next_game.pk
        view["home"] = _home(me)  # as the request found it: the finishing switch comes after
        return Response(view)


class GameReplayApi(APIView):
    """Every step of a game, from its action log replayed by the engine (issue 27): the
    starting position, each roll with its play, each cube action, resignation and
    timeout, with the dice, the cube, the play in notation and the Position and Match
    IDs after it. Any game anyone may see: played here, in a tournament or imported.
    Two queries whatever the game's length."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: GameReplayOutput, **error_responses({404: "`game_not_found`."})})
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.game_get(game_id=game_id)
        match = game.match
        start = selectors.game_replay_start(game=game)
        return Response(
            {
                "game": game.pk,
                "match": match.pk,
                "number": game.number,
                "players": [match.player1.name, match.player2.name],
                "score": list(start.match.score),
                "match_length": match.length,
                "crawford": start.match.crawford,
                "steps": [replay.step_output(s) for s in replay.game_replay_steps(game=game)],
            }
        )
