"""The chouette API: sessions, seating, game entry (preview and record), undo, summary.

Reading is public (a club's scoreboard is meant to be seen). Every write, and the game
preview, needs a login and goes through :mod:`chouette.services`, which decides who may
do it: the session's players with a login, the club's scorekeeper
(``chouette.keep_score``) and staff (403 ``not_in_session`` otherwise, also for starting
a session one does not play in). Errors leave as ``{"code", "detail"}`` (``config.api``):
401 without a login, 403, 404, 409 (a stale ``expected_version``, ``session_ended``,
``session_open``, ``nothing_to_undo``), 400 with the rules' code (``entry_seating_mismatch``,
``missing_result``, ...; ``reason`` holds the rules' English explanation)."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from chouette import rules, selectors
from chouette.models import ChouetteEvent, ChouetteSession
from chouette.services.games import game_edit, game_preview, game_record, game_undo_last
from chouette.services.proxies import participant_proxy_set
from chouette.services.seating import (
    session_come_back,
    session_join,
    session_join_guest,
    session_seating_set,
    session_sit_out,
)
from chouette.services.sessions import session_create, session_end, session_reopen, session_split
from chouette.services.summary import session_summary
from chouette.stored import profile_of
from games.api.common import ErrorOutput, error_responses, query_choice
from games.api.pagination import MAX_PAGE_SIZE, Pagination
from games.errors import ValidationFailed

from .serializers import (
    GameInput,
    GameOutput,
    GuestInput,
    PreviewOutput,
    ProxyInput,
    RecordedGameOutput,
    SeatingInput,
    SeatInput,
    SessionCreateInput,
    SessionDetailOutput,
    SessionOutput,
    SplitInput,
    SummaryOutput,
    VersionInput,
)

ERRORS = error_responses()
#: The refusals of the scorekeeper's hand changes (issue 27), with their codes.
SEATING_ERRORS = error_responses(
    {
        400: "reseat_players_differ, duplicate_player, invalid_player, too_few_players",
        401: "not logged in",
        403: "not_in_session",
        404: "session_not_found",
        409: "seating_unchanged, online_game_in_progress, session_ended, stale_version",
    }
)
EDIT_ERRORS = error_responses(
    {
        400: "the entry's own refusals (the rules' codes: entry_seating_mismatch, ...)",
        401: "not logged in",
        403: "not_in_session",
        404: "session_not_found, game_not_found",
        409: "online_game_not_editable, edit_breaks_later_game (game: the later game), "
        "online_game_in_progress, session_ended, stale_version",
    }
)
#: Sessions listed by ``GET /chouette/sessions/`` (newest first).
LIST_LIMIT = 100


def _valid(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return dict(data.validated_data)


def _points(points: dict[Any, int], names: dict[int, str]) -> list[dict[str, Any]]:
    return [
        {"player": int(p), "name": names.get(int(p), str(p)), "points": v}
        for p, v in points.items()
    ]


def seating_data(
    seating: rules.Seating, profile: rules.Profile, names: dict[int, str]
) -> dict[str, Any]:
    partner = seating.partner(profile)

    def name(player: Any) -> str:
        return names.get(int(player), str(player))

    seats = [{"player": seating.box, "name": name(seating.box), "role": "box", "position": 0}]
    for i, player in enumerate(seating.line, start=1):
        role = "captain" if i == 1 else "partner" if player == partner else "team"
        seats.append({"player": player, "name": name(player), "role": role, "position": i})
    for i, player in enumerate(seating.out, start=len(seating.seated)):
        seats.append({"player": player, "name": name(player), "role": "out", "position": i})
    return {
        "box": seating.box,
        "box_name": name(seating.box),
        "captain": seating.captain,
        "captain_name": name(seating.captain),
        "partner": partner,
        "partner_name": None if partner is None else name(partner),
        "team": list(seating.team(profile)),
        "line": list(seating.line),
        "out": list(seating.out),
        "seats": seats,
    }


def _game_data(line: selectors.GameLine, names: dict[int, str]) -> dict[str, Any]:
    def name(player: Any) -> str:
        return names.get(int(player), str(player))

    return {
        "number": line.number,
        "event": line.event.pk,
        "seq": line.event.seq,
        "entry": line.event.data,
        "box": line.box,
        "box_name": name(line.box),
        "captain": line.captain,
        "captain_name": name(line.captain),
        "partner": line.partner,
        "partner_name": None if line.partner is None else name(line.partner),
        "winner": line.winner,
        "kind": line.kind,
        "members": [
            {
                "player": m["player"],
                "name": name(m["player"]),
                "cube": m.get("cube", 1),
                "fate": m.get("fate", "took"),
                "beavers": m.get("beavers", 0),
                "raccoons": m.get("raccoons", 0),
                "settled": m.get("settled"),
                "points": line.points.get(int(m["player"]), 0),
            }
            for m in line.members
        ],
        "extras": [
            {
                **x,
                "taker_name": name(x["taker"]),
                "giver_name": name(x["giver"]),
            }
            for x in line.extras
        ],
        "points": _points(line.points, names),
        "created_at": line.event.created_at,
    }


#: Games in the session detail by default (the newest); every game: ``GET .../games/``.
DETAIL_GAMES = selectors.LAST_GAMES


def _games_limit(request: Request | None) -> int:
    text = None if request is None else request.query_params.get("games_limit")
    if text is None:
        return DETAIL_GAMES
    digits = text.lstrip("0")
    if not (text.isascii() and text.isdigit()) or not digits:
        raise ValidationFailed(
            "invalid_limit",
            _("games_limit is a whole number from 1 (at most %(max)d games are sent).")
            % {"max": MAX_PAGE_SIZE},
        )
    # A long run of digits is served as the most (int() refuses past 4300 digits).
    return MAX_PAGE_SIZE if len(digits) > 6 else min(int(digits), MAX_PAGE_SIZE)


def detail_data(session_id: int, *, games: int = DETAIL_GAMES) -> dict[str, Any]:
    try:
        board = selectors.scoreboard(session_id=session_id, last=games)
    except ChouetteSession.DoesNotExist:
        raise Http404 from None
    session = board.session
    return {
        **SessionOutput(session).data,
        "rolls": session.rolls,
        "rolled_by_server": session.rolled_by_server,
        "start_seating": session.start_seating,
        "seating": seating_data(board.seating, board.profile, board.names),
        "players": [_seat_data(s) for s in board.seats],
        "games": [_game_data(g, board.names) for g in board.games],
        "game_count": board.game_count,
    }


def _seat_data(seat: selectors.Seat) -> dict[str, Any]:
    return {
        "player": seat.player_id,
        "name": seat.name,
        "role": seat.role,
        "position": seat.position,
        "total": seat.total,
        "last_cube": seat.last_cube,
        "last_fate": seat.last_fate,
        "proxy": seat.proxy_id,
        "proxy_name": seat.proxy_name,
    }


def _detail(session_id: int, code: int = status.HTTP_200_OK) -> Response:
    return Response(SessionDetailOutput(detail_data(session_id)).data, status=code)


GAMES_LIMIT = OpenApiParameter(
    "games_limit",
    int,
    required=False,
    description=f"How many of the newest games the detail lists: {DETAIL_GAMES} by default, "
    f"at most {MAX_PAGE_SIZE} (every game, paged: GET .../games/).",
)


def _version(data: dict[str, Any]) -> int | None:
    return data.get("expected_version")


# ====================================================================== sessions
class SessionListApi(APIView):
    """Sessions, the newest first. ``POST``: start a session (one of its players, the
    club's scorekeeper or staff; 403 ``not_in_session`` otherwise): the players, the
    stake, the rule profile, and the roll-off (the table's ``rolls``, or none and the
    server rolls)."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        responses={200: SessionOutput(many=True)},
        parameters=[
            OpenApiParameter("status", str, enum=ChouetteSession.Status.values, required=False)
        ],
    )
    def get(self, request: Request) -> Response:
        rows = ChouetteSession.objects.all()
        wanted = query_choice(request, "status", ChouetteSession.Status.values)
        if wanted is not None:
            rows = rows.filter(status=wanted)
        return Response(SessionOutput(rows[:LIST_LIMIT], many=True).data)

    @extend_schema(request=SessionCreateInput, responses={201: SessionDetailOutput, **ERRORS})
    def post(self, request: Request) -> Response:
        data = _valid(SessionCreateInput, request)
        rolls, order = data.get("rolls"), data.get("seating")
        players = data.get("players")
        if players is None and order is None:
            raise ValidationFailed("players_missing", _("Give the players, or the seating order."))
        session = session_create(
            by=request.user,
            name=data["name"],
            player_ids=order if players is None else players,
            order=None if order is None else list(order),
            stake_per_point=data.get("stake_per_point"),
            currency=data.get("currency", ""),
            profile=data.get("profile") or {},
            rolls=None if rolls is None else {r["player"]: list(r["rolls"]) for r in rolls},
        )
        return _detail(session.pk, status.HTTP_201_CREATED)


class SessionDetailApi(APIView):
    """A session: its seating (box, captain, partner, team, out), every player's running
    total and the last game's cube, and the newest games (``games_limit``, newest first;
    every game, paged: ``GET .../games/``)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[GAMES_LIMIT],
        responses={200: SessionDetailOutput, 400: ErrorOutput, 404: ErrorOutput},
    )
    def get(self, request: Request, session_id: int) -> Response:
        data = detail_data(session_id, games=_games_limit(request))
        return Response(SessionDetailOutput(data).data)


class _SeatApi(APIView):
    permission_classes = [permissions.IsAuthenticated]
    service: Any = None

    @extend_schema(request=SeatInput, responses={200: SessionDetailOutput, **ERRORS})
    def post(self, request: Request, session_id: int) -> Response:
        data = _valid(SeatInput, request)
        type(self).service(
            session_id=session_id,
            by=request.user,
            player_id=data["player"],
            expected_version=_version(data),
        )
        return _detail(session_id)


class SessionJoinApi(_SeatApi):
    """A newcomer joins at the end of the line."""

    service = staticmethod(session_join)


class SessionSeatingApi(APIView):
    """The scorekeeper sets box, captain and line by hand between games (issue 27): the
    whole new seating, the same seated players each once (those sitting out stay out),
    recorded with the seating before and who set it. 400 ``reseat_players_differ``,
    ``duplicate_player``, ``invalid_player``, ``too_few_players``; 409
    ``seating_unchanged``, ``online_game_in_progress``, ``session_ended``,
    ``stale_version``."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=SeatingInput, responses={200: SessionDetailOutput, **SEATING_ERRORS})
    def put(self, request: Request, session_id: int) -> Response:
        data = _valid(SeatingInput, request)
        session_seating_set(
            session_id=session_id,
            by=request.user,
            box=data["box"],
            line=data["line"],
            expected_version=_version(data),
        )
        return _detail(session_id)


class SessionJoinGuestApi(APIView):
    """A newcomer who is not yet a club member joins by name: a guest player (no login)
    is made and joins at the end of the line. 409 ``player_exists`` (``player_id``: join
    that player instead) or ``namesake_exists`` (``players``: the same name with other
    accents; send ``namesake_ok`` if the newcomer is someone else); 400 ``invalid_name``."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=GuestInput, responses={200: SessionDetailOutput, **ERRORS})
    def post(self, request: Request, session_id: int) -> Response:
        data = _valid(GuestInput, request)
        session_join_guest(
            session_id=session_id,
            by=request.user,
            name=data["name"],
            namesake_ok=data["namesake_ok"],
            expected_version=_version(data),
        )
        return _detail(session_id)


class SessionSitOutApi(_SeatApi):
    """A seated player sits out between games (a box who sits out hands the box to the
    captain)."""

    service = staticmethod(session_sit_out)


class SessionComeBackApi(_SeatApi):
    """A player sitting out comes back at the end of the line."""

    service = staticmethod(session_come_back)


class SessionProxyApi(APIView):
    """A member away from the table names a proxy, another player of the session who
    takes their cube decisions (``proxy``: null clears it). Who may: the member
    themself, the session's writers. 400 ``proxy_self``, ``proxy_not_in_session``,
    ``not_a_participant``; 409 ``proxy_chained`` (the proxy is away too, or the member
    answers for someone). The detail's ``players`` show each one's ``proxy``."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ProxyInput, responses={200: SessionDetailOutput, **ERRORS})
    def post(self, request: Request, session_id: int) -> Response:
        data = _valid(ProxyInput, request)
        participant_proxy_set(
            session_id=session_id,
            by=request.user,
            player_id=data["player"],
            proxy_id=data["proxy"],
            expected_version=_version(data),
        )
        return _detail(session_id)


class SessionSplitApi(APIView):
    """Split a chouette of ``split_min_players`` (the profile's, default 8) seated players
    or more in two: the players who move start a new session (same profile and stake,
    seated in the order they sat here) and sit out of this one, where their totals stay.
    Answers the **new** session (201; its ``split_from`` names this one). 409
    ``split_too_few_players``; 400 ``split_side_too_small``, ``split_not_seated``."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=SplitInput, responses={201: SessionDetailOutput, **ERRORS})
    def post(self, request: Request, session_id: int) -> Response:
        data = _valid(SplitInput, request)
        players = data.get("players")
        new = session_split(
            session_id=session_id,
            by=request.user,
            player_ids_to_move=None if players is None else list(players),
            name=data["name"],
            expected_version=_version(data),
        )
        return _detail(new.pk, status.HTTP_201_CREATED)


class SessionEndApi(APIView):
    """End the session (no more games); the summary stays."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=VersionInput, responses={200: SessionDetailOutput, **ERRORS})
    def post(self, request: Request, session_id: int) -> Response:
        data = _valid(VersionInput, request)
        session_end(session_id=session_id, by=request.user, expected_version=_version(data))
        return _detail(session_id)


class SessionReopenApi(APIView):
    """Reopen a session ended by mistake (who may end it may reopen it; a player only
    within ``chouette.services.sessions.REOPEN_HOURS`` of the end, 403 ``reopen_too_late``
    after; 409 ``session_open`` if it has not ended). Its ledger is untouched."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=VersionInput, responses={200: SessionDetailOutput, **ERRORS})
    def post(self, request: Request, session_id: int) -> Response:
        data = _valid(VersionInput, request)
        session_reopen(session_id=session_id, by=request.user, expected_version=_version(data))
        return _detail(session_id)


class SessionSummaryApi(APIView):
    """Net points per player, money at the stake, and the fewest transfers that settle
    every debt (the summary so far while the session is open)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: SummaryOutput, 404: ErrorOutput})
    def get(self, request: Request, session_id: int) -> Response:
        found = session_summary(session_id=session_id)
        names, session = found.names, found.session
        return Response(
            SummaryOutput(
                {
                    "session": session.pk,
                    "status": session.status,
                    "stake_per_point": session.stake_per_point,
                    "currency": session.currency,
                    "players": [
                        {
                            "player": p.player,
                            "name": names.get(int(p.player), ""),
                            "points": p.points,
                            "money": p.money,
                        }
                        for p in found.summary.players
                    ],
                    "transfers": [
                        {
                            "payer": t.payer,
                            "payer_name": names.get(int(t.payer), ""),
                            "payee": t.payee,
                            "payee_name": names.get(int(t.payee), ""),
                            "points": t.points,
                            "money": t.money,
                        }
                        for t in found.summary.transfers
                    ],
                }
            ).data
        )


# ====================================================================== games
def _entry(data: dict[str, Any]) -> dict[str, Any]:
    entry = dict(data["entry"])
    entry["members"] = [dict(m) for m in entry["members"]]
    entry["initial_double_groups"] = [list(g) for g in entry.get("initial_double_groups", [])]
    entry["extras"] = [dict(x) for x in entry.get("extras", [])]
    return entry


class GamePreviewApi(APIView):
    """Validate a game entry and return each player's points and the next seating,
    saving nothing (the phone shows them before saving)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=GameInput, responses={200: PreviewOutput, **ERRORS})
    def post(self, request: Request, session_id: int) -> Response:
        data = _valid(GameInput, request)
        preview = game_preview(session_id=session_id, by=request.user, entry=_entry(data))
        session = ChouetteSession.objects.get(pk=session_id)
        names = selectors.player_names(session)
        return Response(
            PreviewOutput(
                {
                    "points": _points(preview.points, names),
                    "totals_after": _points(preview.totals_after, names),
                    "seating_after": seating_data(
                        preview.seating_after, profile_of(session), names
                    ),
                }
            ).data
        )


def _recorded(event: ChouetteEvent, code: int = status.HTTP_200_OK) -> Response:
    """The game written (or undone) with what a client shows next: the session's
    version, every running total and the new seating (no second request needed)."""
    board = selectors.scoreboard(session_id=event.session_id, last=0)
    return Response(
        RecordedGameOutput(
            {
                **_game_data(selectors.event_line(event, board.profile), board.names),
                "version": board.session.version,
                "undone": event.undone,
                "totals": _points(board.totals, board.names),
                "seating": seating_data(board.seating, board.profile, board.names),
                "game_count": board.game_count,
            }
        ).data,
        status=code,
    )


class GameRecordApi(generics.GenericAPIView):  # type: ignore[type-arg]
    """``GET``: the session's games that count (not undone), newest first, paged
    (``limit``/``offset``, the API's pagination). ``POST``: record a played game: the
    entry's box, captain, partner and team must be the current seating's; the ledger
    lines are stored and the seating moves on (R13). The answer carries the new running
    totals, the new seating and the session's version."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    pagination_class = Pagination
    serializer_class = GameOutput

    def get_queryset(self):  # type: ignore[no-untyped-def]
        try:
            session = ChouetteSession.objects.get(pk=self.kwargs["session_id"])
        except ChouetteSession.DoesNotExist:
            raise Http404 from None
        return selectors.counted_games(session)

    @extend_schema(
        responses={200: GameOutput(many=True), 400: ErrorOutput, 404: ErrorOutput},
    )
    def get(self, request: Request, session_id: int) -> Response:
        queryset = self.get_queryset()
        paginator = self.paginator
        assert paginator is not None
        events = list(paginator.paginate_queryset(queryset, request, view=self) or [])
        count = paginator.count  # type: ignore[attr-defined]
        offset = paginator.offset  # type: ignore[attr-defined]
        session = ChouetteSession.objects.get(pk=session_id)
        names = selectors.player_names(session)
        lines = selectors.game_lines(
            events, first_number=count - offset, profile=profile_of(session)
        )
        return paginator.get_paginated_response(
            GameOutput([_game_data(g, names) for g in lines], many=True).data
        )

    @extend_schema(request=GameInput, responses={201: RecordedGameOutput, **ERRORS})
    def post(self, request: Request, session_id: int) -> Response:
        data = _valid(GameInput, request)
        event = game_record(
            session_id=session_id,
            by=request.user,
            entry=_entry(data),
            expected_version=_version(data),
        )
        return _recorded(event, status.HTTP_201_CREATED)


class GameEditApi(APIView):
    """Correct game ``number`` (1 = the first that counts) typed in wrongly (issue 27):
    the entry replaces it where it was played (it must fit the seating it was played
    from), every later game is replayed with its players and its points recomputed, the
    ledger still sums to zero. The old entry stays in the log, marked undone; the answer
    is the corrected game. 404 ``game_not_found``; 409 ``online_game_not_editable``,
    ``edit_breaks_later_game`` (``game``: the later game that no longer fits),
    ``online_game_in_progress``, ``session_ended``, ``stale_version``; 400 with the
    rules' code."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=GameInput, responses={200: RecordedGameOutput, **EDIT_ERRORS})
    def put(self, request: Request, session_id: int, number: int) -> Response:
        data = _valid(GameInput, request)
        event = game_edit(
            session_id=session_id,
            by=request.user,
            number=number,
            entry=_entry(data),
            expected_version=_version(data),
        )
        return _recorded(event)


class GameUndoApi(APIView):
    """Undo the last game: totals and seating as if it had never been entered (the game
    stays in the history, marked undone)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=VersionInput, responses={200: RecordedGameOutput, **ERRORS})
    def post(self, request: Request, session_id: int) -> Response:
        data = _valid(VersionInput, request)
        event = game_undo_last(
            session_id=session_id, by=request.user, expected_version=_version(data)
        )
        return _recorded(event)
