"""Join a session from a phone with its join code (issue 19): ``POST
/api/v1/chouette/join/``, the API's side of ``/chouette/join/``
(:mod:`chouette.pages.joining`).

Who may, and why: :mod:`chouette.services.joining` (the code is the capability). No login is
needed: with a login (token or session) the club member joins as their player; without
one, ``name`` is the newcomer's, a guest player (or ``guest_id``, a guest already known
without a login, as a ``player_exists`` / ``namesake_exists`` refusal offers). The
attempts count against the ``chouette_join`` throttle with the join page's (429)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from chouette.services.joining import session_join_by_code
from chouette.throttles import JoinThrottle
from games.api.common import ErrorOutput, error_responses


class JoinInput(serializers.Serializer):
    code = serializers.CharField(
        max_length=20, help_text="the session's join code (on its scoreboard; any case)"
    )
    name = serializers.CharField(
        max_length=200,
        allow_blank=True,
        required=False,
        default="",
        help_text="without a login: the newcomer's name (a guest player is made); with a "
        "login it is not used (the member joins as their player)",
    )
    namesake_ok = serializers.BooleanField(
        default=False,
        help_text="the name is another player's with other accents, and the newcomer is "
        "someone else (otherwise 409 namesake_exists)",
    )
    guest_id = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=2**31 - 1,
        help_text="without a login: join as this guest player (no login), as offered by "
        "409 player_exists / namesake_exists; 403 player_has_login otherwise",
    )


class JoinedPlayer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class JoinOutput(serializers.Serializer):
    session = serializers.IntegerField(help_text="the session's id")
    session_name = serializers.CharField()
    version = serializers.IntegerField(help_text="the session's version after the join")
    player = JoinedPlayer(help_text="who joined, at the end of the line")
    guest = serializers.BooleanField(help_text="joined as a guest (no login)")


class SessionJoinByCodeApi(APIView):
    """Join the open session that has this join code, at the end of the line. 400
    ``wrong_code`` (no open session has it) or ``invalid_name``; 403 ``player_has_login``;
    404 ``player_not_found``; 409 ``player_exists`` (``player_id``, ``has_login``),
    ``namesake_exists`` (``players``), ``already_seated``, ``sitting_out``; 429."""

    permission_classes = [permissions.AllowAny]
    throttle_classes = [JoinThrottle]

    @extend_schema(
        request=JoinInput,
        responses={
            201: JoinOutput,
            **error_responses(),
            429: OpenApiResponse(ErrorOutput, description="throttled"),
        },
    )
    def post(self, request: Request) -> Response:
        data = JoinInput(data=request.data)
        data.is_valid(raise_exception=True)
        found = data.validated_data
        joined = session_join_by_code(
            code=found["code"],
            by=request.user,
            name=found.get("name", ""),
            namesake_ok=found["namesake_ok"],
            guest_id=found.get("guest_id"),
        )
        session = joined.session
        body = {
            "session": session.pk,
            "session_name": session.name,
            "version": session.version,
            "player": {"id": joined.player.pk, "name": joined.player.name},
            "guest": joined.player.user_id is None,
        }
        return Response(JoinOutput(body).data, status=status.HTTP_201_CREATED)
