"""The table clock API (over-the-board play, R12): create and list clocks, read one as
the server sees it now, and operate it (start, tap, pause, resume, finish).

Reading is public. Logged-in users create clocks; the creator and the directors (staff)
operate them. Every write goes through :mod:`games.clocks.services`; errors leave as
``{"code", "detail"}`` (``config.api``), and a 409 also carries the clock as it is now
(``clock``), so a tablet re-syncs from the refusal itself."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import wallclock
from games.api.common import ErrorOutput, error_responses, query_choice
from games.clocks import selectors as clock_selectors
from games.clocks import services as tableclocks
from games.engine.clock import PRESETS
from games.errors import Conflict
from games.models import Match, Player, TableClock


# ====================================================================== shapes
class TableClockPlayerOutput(serializers.Serializer):
    name = serializers.CharField()
    player = serializers.IntegerField(allow_null=True, help_text="the club member, if linked")


class TableClockOutput(serializers.Serializer):
    """The clock computed from its stored state at the server's time: every client
    shows the same times. Players are 0 (player 1) and 1 (player 2)."""

    id = serializers.IntegerField()
    label = serializers.CharField()
    players = TableClockPlayerOutput(many=True)
    match = serializers.IntegerField(allow_null=True)
    preset = serializers.CharField(help_text="the preset the settings came from; empty: custom")
    match_length = serializers.IntegerField(help_text="for per-point reserves; 0: money")
    settings = serializers.DictField(help_text="the clock settings (ms), as the engine has them")
    status = serializers.CharField(
        help_text="ready, running, paused, flagged (a player ran out of time) or finished"
    )
    version = serializers.IntegerField(help_text="send it back with every write")
    server_time = serializers.DateTimeField(help_text="the moment these readings are for")
    running = serializers.IntegerField(allow_null=True, help_text="whose clock runs now")
    turn = serializers.IntegerField(
        allow_null=True, help_text="whose turn it is (also while paused)"
    )
    delay_ms = serializers.IntegerField(help_text="the delay of every turn")
    delay_left_ms = serializers.IntegerField(allow_null=True, help_text="of the turn's player")
    reserves_ms = serializers.ListField(child=serializers.IntegerField())
    deadline = serializers.DateTimeField(allow_null=True, help_text="when the running player flags")
    flagged = serializers.IntegerField(allow_null=True, help_text="who ran out of time")
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class TableClockCreateInput(serializers.Serializer):
    label = serializers.CharField(max_length=60, help_text="e.g. Table 7")
    player1_name = serializers.CharField(
        max_length=80, required=False, allow_blank=True, default=""
    )
    player2_name = serializers.CharField(
        max_length=80, required=False, allow_blank=True, default=""
    )
    player1 = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), required=False, allow_null=True, default=None
    )
    player2 = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), required=False, allow_null=True, default=None
    )
    match = serializers.PrimaryKeyRelatedField(
        queryset=Match.objects.select_related("player1", "player2"),
        required=False,
        allow_null=True,
        default=None,
        help_text="gives the players, length, score and (without `clock`) its clock",
    )
    clock = serializers.JSONField(
        required=False,
        allow_null=True,
        default=None,
        help_text=f"R12: a preset name ({', '.join(PRESETS)}) or custom clock settings "
        "(delay_ms, reserve_ms, reserve_per_point_ms, ...). Invalid: 400 invalid_clock.",
    )
    match_length = serializers.IntegerField(
        min_value=0,
        max_value=tableclocks.MAX_MATCH_LENGTH,
        required=False,
        allow_null=True,
        default=None,
        help_text="for per-point reserves (usbgf, galaxy-casual); 0: money",
    )
    score = serializers.ListField(
        child=serializers.IntegerField(min_value=0),
        min_length=2,
        max_length=2,
        required=False,
        allow_null=True,
        default=None,
        help_text="the score when the clock is brought in (USBGF deducts per point scored)",
    )


class TableClockStartInput(serializers.Serializer):
    player = serializers.IntegerField(min_value=0, max_value=1, help_text="whose clock runs first")
    version = serializers.IntegerField(min_value=0, required=False, allow_null=True, default=None)


class TableClockTapInput(serializers.Serializer):
    player = serializers.IntegerField(
        min_value=0, max_value=1, help_text="whose half is tapped: that player's turn ends"
    )
    version = serializers.IntegerField(min_value=0)


class TableClockControlInput(serializers.Serializer):
    version = serializers.IntegerField(
        min_value=0,
        required=False,
        allow_null=True,
        default=None,
        help_text="the version you saw (recommended): a stale one is 409 stale_version",
    )


class TableClockConflictOutput(ErrorOutput):
    version = serializers.IntegerField()
    clock = TableClockOutput(help_text="the clock as it is now: re-sync from it")


WRITE_ERRORS = {
    **error_responses(
        {
            400: "`invalid`, `invalid_player`.",
            401: "Not logged in.",
            403: "`not_clock_operator`: neither its creator nor a director.",
            404: "`table_clock_not_found`.",
        }
    ),
    409: OpenApiResponse(
        TableClockConflictOutput,
        description="`stale_version`, `not_your_clock`, `clock_not_started`, "
        "`clock_already_started`, `clock_paused`, `clock_not_paused`, `clock_flagged`, "
        "`clock_finished`.",
    ),
}


def _output(clock: TableClock) -> dict[str, Any]:
    return TableClockOutput(clock_selectors.table_clock_view(clock)).data


def _read(clock_id: int) -> TableClock:
    """A clock for reading: a flag that is due is recorded first."""
    clock = clock_selectors.table_clock_get(clock_id=clock_id)
    if tableclocks.table_clocks_flag_due(table_clocks=[clock]):
        clock = clock_selectors.table_clock_get(clock_id=clock_id)
    return clock


def _write(clock_id: int, action: Callable[[], TableClock]) -> Response:
    """Run a write; a 409 carries the clock as it is now."""
    try:
        clock = action()
    except Conflict as exc:
        exc.extra = {**exc.extra, "clock": _output(_read(clock_id))}
        raise
    return Response(_output(clock))


# ====================================================================== views
class TableClockListApi(APIView):
    """The table clocks (live ones by default: the director's view), or a new one."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "status",
                str,
                enum=[clock_selectors.LIVE, "all", *TableClock.Status.values],
                description="`live` (default): every clock not finished.",
            )
        ],
        responses=TableClockOutput(many=True),
    )
    def get(self, request: Request) -> Response:
        wanted = query_choice(
            request,
            "status",
            (clock_selectors.LIVE, "all", *TableClock.Status.values),
            default=clock_selectors.LIVE,
        )
        found = clock_selectors.table_clock_list(status=None if wanted == "all" else wanted)
        if tableclocks.table_clocks_flag_due(table_clocks=found):
            found = clock_selectors.table_clock_list(status=None if wanted == "all" else wanted)
        at = wallclock.now()
        views = [clock_selectors.table_clock_view(c, at=at) for c in found]
        return Response(TableClockOutput(views, many=True).data)

    @extend_schema(
        request=TableClockCreateInput,
        responses={201: TableClockOutput, 400: ErrorOutput, 401: ErrorOutput},
    )
    def post(self, request: Request) -> Response:
        data = TableClockCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        values: dict[str, Any] = data.validated_data
        clock = tableclocks.table_clock_create(
            label=values["label"],
            clock=values["clock"],
            player1_name=values["player1_name"],
            player2_name=values["player2_name"],
            player1=values["player1"],
            player2=values["player2"],
            match=values["match"],
            match_length=values["match_length"],
            score=None if values["score"] is None else tuple(values["score"]),
            created_by=request.user,
        )
        return Response(_output(clock), status=status.HTTP_201_CREATED)


class TableClockDetailApi(APIView):
    """One clock as the server sees it now (a flag that is due is recorded first)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: TableClockOutput, 404: ErrorOutput})
    def get(self, request: Request, clock_id: int) -> Response:
        return Response(_output(_read(clock_id)))


class TableClockStartApi(APIView):
    """Start a ready clock with ``player``'s clock running."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=TableClockStartInput, responses={200: TableClockOutput, **WRITE_ERRORS})
    def post(self, request: Request, clock_id: int) -> Response:
        data = TableClockStartInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        return _write(
            clock_id,
            lambda: tableclocks.table_clock_start(
                clock_id=clock_id,
                player=values["player"],
                expected_version=values["version"],
                by=request.user,
            ),
        )


class TableClockTapApi(APIView):
    """``player`` taps their half: their turn ends, the other player's clock runs.
    Only the running player may tap (409 ``not_your_clock``); the ``version`` is
    required (409 ``stale_version``)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=TableClockTapInput, responses={200: TableClockOutput, **WRITE_ERRORS})
    def post(self, request: Request, clock_id: int) -> Response:
        data = TableClockTapInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        return _write(
            clock_id,
            lambda: tableclocks.table_clock_tap(
                clock_id=clock_id,
                player=values["player"],
                expected_version=values["version"],
                by=request.user,
            ),
        )


class _ControlApi(APIView):
    permission_classes = [permissions.IsAuthenticated]
    service: Callable[..., TableClock]

    def _run(self, request: Request, clock_id: int) -> Response:
        data = TableClockControlInput(data=request.data)
        data.is_valid(raise_exception=True)
        version = data.validated_data["version"]
        service = type(self).service
        return _write(
            clock_id,
            lambda: service(clock_id=clock_id, expected_version=version, by=request.user),
        )


class TableClockPauseApi(_ControlApi):
    """Stop a running clock where it is (the flag is recorded instead if time is up)."""

    service = staticmethod(tableclocks.table_clock_pause)

    @extend_schema(
        request=TableClockControlInput, responses={200: TableClockOutput, **WRITE_ERRORS}
    )
    def post(self, request: Request, clock_id: int) -> Response:
        return self._run(request, clock_id)


class TableClockResumeApi(_ControlApi):
    """Restart a paused clock: the same turn goes on."""

    service = staticmethod(tableclocks.table_clock_resume)

    @extend_schema(
        request=TableClockControlInput, responses={200: TableClockOutput, **WRITE_ERRORS}
    )
    def post(self, request: Request, clock_id: int) -> Response:
        return self._run(request, clock_id)


class TableClockFinishApi(_ControlApi):
    """Stop the clock for good (the game or match at the table is over)."""

    service = staticmethod(tableclocks.table_clock_finish)

    @extend_schema(
        request=TableClockControlInput, responses={200: TableClockOutput, **WRITE_ERRORS}
    )
    def post(self, request: Request, clock_id: int) -> Response:
        return self._run(request, clock_id)
