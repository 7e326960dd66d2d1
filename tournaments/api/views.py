"""The tournaments API: events, flights, entries, the draw, rounds and results.

Reading is public (an event's page, bracket, standings and finishing order are meant to
be seen). Every write needs a login and goes through :mod:`tournaments.services`, which
decides who may do it: the event's directors run the event; the two players of a match
report and confirm its result. Errors leave as ``{"code", "detail"}`` (``config.api``):
401 without a login, 403 ``not_a_director`` / ``not_your_match``, 404, 409 (a stale
``expected_version``, a result that no longer fits), 400 with the reason (a game-by-game
sheet refused by the match rules names the game in ``game``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Prefetch
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import ErrorOutput, error_responses, json_parsers, query_choice
from games.errors import NotFound
from tournaments import selectors
from tournaments.models import Entry, Event, Flight, TournamentMatch
from tournaments.overlaps import overlap_warnings
from tournaments.services.draw import flight_draw, round_publish
from tournaments.services.entries import entry_register, entry_withdraw
from tournaments.services.events import (
    event_add_director,
    event_create,
    event_finish,
    event_publish,
    event_reopen,
    event_update,
)
from tournaments.services.flights import flight_create, flight_round_set
from tournaments.services.online import match_start_online
from tournaments.services.results import (
    match_set_table,
    result_confirm,
    result_correct,
    result_enter,
    result_report,
)

from . import bulk
from .serializers import (
    CorrectionInput,
    DirectorAddInput,
    DirectorResultInput,
    DrawInput,
    EntryOutput,
    EntryRegisterInput,
    EntryRegisterOutput,
    EventCreateInput,
    EventDetailOutput,
    EventOutput,
    EventUpdateInput,
    FlightCreateInput,
    FlightDetailOutput,
    FlightRoundInput,
    FlightRoundOutput,
    OnlineMatchOutput,
    PlaceOutput,
    PublishInput,
    ResultInput,
    StandingOutput,
    StartOnlineInput,
    TableInput,
    TournamentMatchOutput,
    VersionInput,
)

ERRORS = error_responses()


def _valid(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return dict(data.validated_data)


def _events() -> Any:
    return Event.objects.prefetch_related("directors")


def _match_output(match_id: int) -> Response:
    row = TournamentMatch.objects.get(pk=match_id)
    return Response(TournamentMatchOutput(row).data)


def _result_args(data: dict[str, Any]) -> dict[str, Any]:
    games = data.get("games")
    return {
        "score_a": data.get("score_a"),
        "score_b": data.get("score_b"),
        "games": None if games is None else [dict(g) for g in games],
        "expected_version": data.get("expected_version"),
    }


# ====================================================================== events
class EventListApi(generics.ListAPIView):
    """Events, the newest first. ``POST``: a new event (needs the permission to add
    events; the creator becomes its first director)."""

    serializer_class = EventOutput
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    def get_queryset(self) -> Any:
        # Drafts are their directors' only (selectors.visible_events).
        return selectors.visible_events(self.request.user).prefetch_related("directors")

    @extend_schema(request=EventCreateInput, responses={201: EventOutput, **ERRORS})
    def post(self, request: Request) -> Response:
        data = _valid(EventCreateInput, request)
        event = event_create(by=request.user, **data)
        return Response(EventOutput(event).data, status=status.HTTP_201_CREATED)


def _event_output(event_id: int, viewer: Any) -> Response:
    event = (
        _events()
        .prefetch_related(Prefetch("flights", Flight.objects.order_by("id")))
        .filter(pk=event_id)
        .first()
    )
    # A draft is answered as one that does not exist: the same code, so that a 404 does
    # not tell that there is a draft behind it (issue 30).
    if event is None or not selectors.event_visible(event, viewer):
        raise NotFound("event_not_found", _("There is no event with this id."))
    return Response(EventDetailOutput(event).data)


def _visible_flight(request: Request, flight_id: int) -> Flight:
    """The flight, unless its event is a draft the user does not direct (404, as one that
    does not exist)."""
    flight = Flight.objects.select_related("event").filter(pk=flight_id).first()
    if flight is None or not selectors.event_visible(flight.event, request.user):
        raise NotFound("flight_not_found", _("There is no flight with this id."))
    return flight


class EventDetailApi(APIView):
    """An event with its flights. ``PATCH``: change its name, date, location or whether
    it is rated (its directors only; ``rated`` only while none of its results is rated:
    409 ``event_has_results``)."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: EventDetailOutput, 404: ErrorOutput})
    def get(self, request: Request, event_id: int) -> Response:
        return _event_output(event_id, request.user)

    @extend_schema(request=EventUpdateInput, responses={200: EventDetailOutput, **ERRORS})
    def patch(self, request: Request, event_id: int) -> Response:
        data = EventUpdateInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        event_update(event_id=event_id, by=request.user, **data.validated_data)
        return _event_output(event_id, request.user)


class EventDirectorsApi(APIView):
    """Add a director to the event (its directors only)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=DirectorAddInput, responses={200: EventOutput, **ERRORS})
    def post(self, request: Request, event_id: int) -> Response:
        data = _valid(DirectorAddInput, request)
        user = get_user_model().objects.filter(pk=data["user"]).first()
        if user is None:
            raise NotFound("user_not_found", _("There is no user with this id."))
        event = event_add_director(event_id=event_id, by=request.user, user=user)
        return Response(EventOutput(event).data)


class EventPublishApi(APIView):
    """Publish a draft event: everyone sees it (until then only its directors do; the
    first draw publishes it too). Its directors only; a published event is unchanged."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: EventOutput, **ERRORS})
    def post(self, request: Request, event_id: int) -> Response:
        event = event_publish(event_id=event_id, by=request.user)
        return Response(EventOutput(event).data)


class EventFinishApi(APIView):
    """End the event (its directors only; a finished flight does not end it). 409
    ``flights_unfinished`` while a drawn flight is not finished (``flights``: their ids
    and names); flights never drawn do not stop it."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: EventOutput, **ERRORS})
    def post(self, request: Request, event_id: int) -> Response:
        event = event_finish(event_id=event_id, by=request.user)
        return Response(EventOutput(event).data)


class EventReopenApi(APIView):
    """Open a finished event again (ended by mistake): running, new flights possible."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: EventOutput, **ERRORS})
    def post(self, request: Request, event_id: int) -> Response:
        event = event_reopen(event_id=event_id, by=request.user)
        return Response(EventOutput(event).data)


class EventFlightsApi(APIView):
    """Create a flight of the event (its directors only)."""

    permission_classes = [permissions.IsAuthenticated]
    # Nested objects: JSON only (games.api.common.json_parsers says why).
    parser_classes = json_parsers()

    @extend_schema(request=FlightCreateInput, responses={201: FlightDetailOutput, **ERRORS})
    def post(self, request: Request, event_id: int) -> Response:
        data = _valid(FlightCreateInput, request)
        flight = flight_create(event_id=event_id, by=request.user, **data)
        return _flight_output(flight.pk, request.user, status.HTTP_201_CREATED)


# ====================================================================== flights
def _flight_output(flight_id: int, viewer: Any, code: int = status.HTTP_200_OK) -> Response:
    """The flight as ``viewer`` sees it: without the unpublished rounds' matches unless
    they direct the event (:func:`selectors.flight_bracket`)."""
    try:
        page = selectors.flight_bracket(flight_id=flight_id, viewer=viewer)
    except Flight.DoesNotExist:
        raise NotFound("flight_not_found", _("There is no flight with this id.")) from None
    return Response(FlightDetailOutput(page.flight, context={"page": page}).data, status=code)


class FlightDetailApi(APIView):
    """A flight with its entries, round settings, the draw and every match."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: FlightDetailOutput, 404: ErrorOutput})
    def get(self, request: Request, flight_id: int) -> Response:
        return _flight_output(flight_id, request.user)


class FlightRoundsApi(APIView):
    """Set a round's match length, clock and start time (e.g. 5, 5, 7, 9, final 11):
    ``POST`` one round, ``PUT`` any number of rounds at once."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=FlightRoundInput, responses={200: FlightRoundOutput, **ERRORS})
    def post(self, request: Request, flight_id: int) -> Response:
        data = _valid(FlightRoundInput, request)
        row = flight_round_set(flight_id=flight_id, by=request.user, **data)
        return Response(FlightRoundOutput(row).data)

    @extend_schema(request=bulk.RoundGridInput, responses={200: bulk.RoundGridOutput, **ERRORS})
    def put(self, request: Request, flight_id: int) -> Response:
        """Issue 29: every round's settings in one request, all or none (the refusal
        names the row: ``row``, its index)."""
        return bulk.rounds_put(request, flight_id)


class FlightEntriesApi(APIView):
    """Register a player: an existing one (``player``) or a walk-in (``name``). After
    the draw it is a late entry (it takes a bye where the format allows)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=EntryRegisterInput, responses={201: EntryRegisterOutput, **ERRORS})
    def post(self, request: Request, flight_id: int) -> Response:
        data = _valid(EntryRegisterInput, request)
        entry = entry_register(
            flight_id=flight_id,
            by=request.user,
            player_id=data.get("player"),
            name=data.get("name", ""),
        )
        entry = Entry.objects.select_related("player", "flight").get(pk=entry.pk)
        entry.warnings = overlap_warnings(entry)  # type: ignore[attr-defined]
        return Response(EntryRegisterOutput(entry).data, status=status.HTTP_201_CREATED)


class EntryWithdrawApi(APIView):
    """Withdraw a player; their open matches become walkovers for the opponents."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: EntryOutput, **ERRORS})
    def post(self, request: Request, entry_id: int) -> Response:
        entry = entry_withdraw(entry_id=entry_id, by=request.user)
        entry = Entry.objects.select_related("player").get(pk=entry.pk)
        return Response(EntryOutput(entry).data)


class FlightDrawApi(APIView):
    """Make the draw: seeding (by rating, or at random with a recorded seed), the
    bracket, the first round's matches (Swiss: round 1; round robin: every round)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=DrawInput, responses={200: FlightDetailOutput, **ERRORS})
    def post(self, request: Request, flight_id: int) -> Response:
        data = _valid(DrawInput, request)
        flight_draw(
            flight_id=flight_id, by=request.user, seed=data.get("seed"), publish=data["publish"]
        )
        return _flight_output(flight_id, request.user)


class FlightPublishApi(APIView):
    """Publish a round (Swiss: pair it from the standings first)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=PublishInput, responses={200: FlightRoundOutput, **ERRORS})
    def post(self, request: Request, flight_id: int) -> Response:
        data = _valid(PublishInput, request)
        row = round_publish(
            flight_id=flight_id,
            by=request.user,
            part=data["part"],
            number=data.get("number"),
        )
        return Response(FlightRoundOutput(row).data)


class FlightStandingsApi(APIView):
    """Swiss and round robin standings with the flight's tie-break order."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: StandingOutput(many=True), 404: ErrorOutput})
    def get(self, request: Request, flight_id: int) -> Response:
        flight = _visible_flight(request, flight_id)
        public = not flight.event.is_director(request.user)
        rows = [
            {
                "rank": r.standing.rank,
                "entry": r.entry.pk,
                "name": r.entry.player.name,
                "wins": r.standing.wins,
                "losses": r.standing.losses,
                "byes": r.standing.byes,
                "buchholz": r.standing.buchholz,
                "point_difference": r.standing.point_difference,
            }
            for r in selectors.flight_standings(flight=flight, public=public)
        ]
        return Response(StandingOutput(rows, many=True).data)


class FlightFinishingOrderApi(APIView):
    """The full finishing order of every ranking of the flight (for federation
    submissions). ``?as=csv``: the same as a CSV file for programs, the same in every
    language: the columns ``place,player_id,name,club,country,ranking`` (the ranking's
    code), no byte-order mark (people download the page's CSV, in their language).
    (Not ``format``: DRF keeps that parameter for choosing among its own renderers.)"""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("as", str, enum=["csv"], required=False, description="csv: a file")
        ],
        responses={
            (200, "application/json"): OpenApiResponse(PlaceOutput(many=True)),
            # ?as=csv: the same rows as a CSV file, columns named the same in every language.
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.STR,
                description="?as=csv: place,player_id,name,club,country,ranking (the "
                "ranking's code: main, consolation, last_chance; empty for Swiss)",
            ),
            (404, "application/json"): ErrorOutput,
        },
    )
    def get(self, request: Request, flight_id: int) -> Response | HttpResponse:
        flight = _visible_flight(request, flight_id)
        if query_choice(request, "as", ["csv"]) == "csv":
            response = HttpResponse(
                selectors.flight_finishing_order_data_csv(flight=flight),
                content_type="text/csv; charset=utf-8",
            )
            response["Content-Disposition"] = f'attachment; filename="flight-{flight.pk}.csv"'
            return response
        rows = [
            {
                "ranking": ranking,
                "place": place.label,
                "rank": place.rank,
                "entries": [e.pk for e in place.entries],
                "names": [e.player.name for e in place.entries],
                "final": place.final,
            }
            for ranking, places in selectors.flight_finishing_order(flight=flight).items()
            for place in places
        ]
        return Response(PlaceOutput(rows, many=True).data)


# ====================================================================== matches
class TournamentMatchDetailApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: TournamentMatchOutput, 404: ErrorOutput})
    def get(self, request: Request, match_id: int) -> Response:
        row = get_object_or_404(
            TournamentMatch.objects.select_related("flight__event"), pk=match_id
        )
        event = row.flight.event
        if not event.is_director(request.user) and (
            event.status == Event.Status.DRAFT
            or (row.part, row.round) not in selectors.published_rounds(row.flight)
        ):
            # A draft's, or an unpublished round's: only the directors see it.
            raise NotFound("match_not_found", _("There is no tournament match with this id."))
        return _match_output(match_id)


class ResultEnterApi(APIView):
    """The director enters the result: the final score, the games one by one (each
    checked: cube x 1/2/3, no cube in the Crawford game, the match ends exactly at N),
    or a walkover. The bracket advances at once. A disputed match is decided at
    ``.../dispute/`` instead (409 ``match_disputed`` here)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=DirectorResultInput, responses={200: TournamentMatchOutput, **ERRORS})
    def post(self, request: Request, match_id: int) -> Response:
        data = _valid(DirectorResultInput, request)
        result_enter(
            match_id=match_id,
            by=request.user,
            walkover_winner=data.get("walkover_winner", ""),
            **_result_args(data),
        )
        return _match_output(match_id)


class ResultReportApi(APIView):
    """A player of the match reports its result; it stands when both report the same,
    or the opponent or a director confirms. When the two reports differ the second is
    stored too (200, the match's ``status`` ``disputed``, both reports in ``report_a``
    and ``report_b``): the director decides (``POST .../dispute/``)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ResultInput, responses={200: TournamentMatchOutput, **ERRORS})
    def post(self, request: Request, match_id: int) -> Response:
        data = _valid(ResultInput, request)
        result_report(match_id=match_id, by=request.user, **_result_args(data))
        return _match_output(match_id)


class ResultConfirmApi(APIView):
    """The opponent of the reporting player, or a director, confirms a reported result
    (409 ``match_disputed`` when the two reports differ: a director decides it)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=VersionInput, responses={200: TournamentMatchOutput, **ERRORS})
    def post(self, request: Request, match_id: int) -> Response:
        data = _valid(VersionInput, request)
        result_confirm(
            match_id=match_id, by=request.user, expected_version=data.get("expected_version")
        )
        return _match_output(match_id)


class ResultCorrectApi(APIView):
    """A director corrects a result that stands; the old and new results, who and when
    are kept. Refused (409 ``later_results_depend``) when later results depend on it,
    unless ``reset_later``: those are then cleared (each audited) and played again."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=CorrectionInput, responses={200: TournamentMatchOutput, **ERRORS})
    def post(self, request: Request, match_id: int) -> Response:
        data = _valid(CorrectionInput, request)
        result_correct(
            match_id=match_id,
            by=request.user,
            reason=data["reason"],
            reset_later=data["reset_later"],
            walkover_winner=data.get("walkover_winner", ""),
            **_result_args(data),
        )
        return _match_output(match_id)


class MatchTableApi(APIView):
    """Set (or clear) the table a match is played at."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=TableInput, responses={200: TournamentMatchOutput, **ERRORS})
    def post(self, request: Request, match_id: int) -> Response:
        data = _valid(TableInput, request)
        match_set_table(match_id=match_id, by=request.user, table=data["table"])
        return _match_output(match_id)


class MatchStartOnlineApi(APIView):
    """Start the match online (match play at the round's length and clock); when it
    finishes it reports its result itself."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=StartOnlineInput,
        responses={201: OnlineMatchOutput, **ERRORS},
    )
    def post(self, request: Request, match_id: int) -> Response:
        data = _valid(StartOnlineInput, request)
        match = match_start_online(match_id=match_id, by=request.user, clock=data["clock"])
        body = {"match": match.pk, "url": reverse("games:match", args=[match.pk])}
        return Response(OnlineMatchOutput(body).data, status=status.HTTP_201_CREATED)
