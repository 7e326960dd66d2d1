"""The tournaments API of the night's desk (issue 17): the check-in desk of an event,
ticking players in and marking the entry fee paid (the event's directors), a player's
check-in with the event's code (throttled: :mod:`tournaments.throttles`), and
self-registration: register, withdraw one's own registration, the registrations and the
waitlist in order, confirm or refuse (directors), a flight's registration settings.
Every write goes through :mod:`tournaments.services.desk` or
:mod:`tournaments.services.registration`."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import ErrorOutput, error_responses
from games.errors import NotFound
from games.models import Player
from tournaments import selectors
from tournaments.models import Entry, Event, Flight
from tournaments.services import desk, registration
from tournaments.services.common import require_director
from tournaments.throttles import CheckInThrottle

from .serializers import DrawInput, EntryOutput

ERRORS = error_responses()


# ====================================================================== shapes
class DeskEntryOutput(serializers.ModelSerializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    flight = serializers.IntegerField(source="flight_id")

    class Meta:
        model = Entry
        fields = [
            "id",
            "flight",
            "player",
            "name",
            "rating",
            "status",
            "seed",
            "checked_in_at",
            "paid_at",
            "created_at",
        ]
        read_only_fields = fields


class DeskFlightOutput(serializers.Serializer):
    id = serializers.IntegerField(source="flight.pk")
    name = serializers.CharField(source="flight.name")
    status = serializers.CharField(source="flight.status")
    self_registration = serializers.BooleanField(source="flight.self_registration")
    capacity = serializers.IntegerField(source="flight.capacity", allow_null=True)
    places = serializers.IntegerField(help_text="entries holding a place: active and to confirm")
    checked_in = serializers.IntegerField(help_text="of those, checked in")
    paid = serializers.IntegerField(help_text="entries with the fee paid")
    entries = DeskEntryOutput(many=True, help_text="active, to confirm and withdrawn")
    waitlist = DeskEntryOutput(many=True, help_text="in order: the first moves up first")


class DeskOutput(serializers.Serializer):
    event = serializers.IntegerField()
    check_in_code = serializers.CharField()
    flights = DeskFlightOutput(many=True)


class CheckInInput(serializers.Serializer):
    checked_in = serializers.BooleanField(default=True)


class PaidInput(serializers.Serializer):
    paid = serializers.BooleanField()


class CodeInput(serializers.Serializer):
    code = serializers.CharField(max_length=20, help_text="the event's check-in code")


class RegistrationSettingsInput(serializers.Serializer):
    open = serializers.BooleanField(help_text="players may register themselves")
    capacity = serializers.IntegerField(
        min_value=1,
        max_value=registration.MAX_CAPACITY,
        required=False,
        allow_null=True,
        default=None,
        help_text="at most so many places (null: no cap)",
    )


class RegistrationSettingsOutput(serializers.ModelSerializer):
    class Meta:
        model = Flight
        fields = ["id", "self_registration", "capacity", "version"]
        read_only_fields = fields


class RegistrationOutput(EntryOutput):
    """A registration as :class:`FlightRegistrationsApi` lists it: the entry's shape, with
    the rating only for whom may see it (see there)."""

    rating = serializers.DecimalField(
        max_digits=7,
        decimal_places=2,
        allow_null=True,
        read_only=True,
        help_text="the rating at registration; null unless you direct the event or it is yours",
    )

    def to_representation(self, instance: Entry) -> dict[str, Any]:
        body = super().to_representation(instance)
        if not self.context.get("full") and instance.player_id != self.context.get("me"):
            body["rating"] = None
        return body


class DrawnOutput(serializers.Serializer):
    flight = serializers.IntegerField()
    left_out = serializers.ListField(
        child=serializers.IntegerField(), help_text="the entries withdrawn as not checked in"
    )


def _valid(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return dict(data.validated_data)


def _entry(entry: Entry) -> Response:
    return Response(DeskEntryOutput(Entry.objects.select_related("player").get(pk=entry.pk)).data)


# ====================================================================== the desk
class EventDeskApi(APIView):
    """The check-in desk of an event (its directors): the check-in code, and flight by
    flight the entries with their check-in and payment, the counts and the waitlist."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: DeskOutput, **error_responses((401, 403, 404))})
    def get(self, request: Request, event_id: int) -> Response:
        event = Event.objects.filter(pk=event_id).first()
        if event is None:
            raise NotFound("event_not_found", _("There is no event with this id."))
        require_director(request.user, event)
        body = {
            "event": event.pk,
            "check_in_code": event.check_in_code,
            "flights": selectors.event_desk(event_id=event.pk),
        }
        return Response(DeskOutput(body).data)


class EntryCheckInApi(APIView):
    """A director ticks a player in (``checked_in``: true, the default) or out again."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=CheckInInput, responses={200: DeskEntryOutput, **ERRORS})
    def post(self, request: Request, entry_id: int) -> Response:
        data = _valid(CheckInInput, request)
        return _entry(
            desk.entry_check_in(entry_id=entry_id, by=request.user, checked_in=data["checked_in"])
        )


class EntryPaidApi(APIView):
    """A director marks the entry fee paid or not paid."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=PaidInput, responses={200: DeskEntryOutput, **ERRORS})
    def post(self, request: Request, entry_id: int) -> Response:
        data = _valid(PaidInput, request)
        return _entry(desk.entry_set_paid(entry_id=entry_id, by=request.user, paid=data["paid"]))


class EventCheckInApi(APIView):
    """A player checks in at the venue with the event's code: their entries in the
    event's flights not drawn yet. 400 ``wrong_code``, 409 ``not_entered`` /
    ``already_drawn``; attempts are throttled per user (429)."""

    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [CheckInThrottle]

    @extend_schema(
        request=CodeInput,
        responses={
            200: DeskEntryOutput(many=True),
            **ERRORS,
            429: OpenApiResponse(ErrorOutput, description="throttled"),
        },
    )
    def post(self, request: Request, event_id: int) -> Response:
        data = _valid(CodeInput, request)
        done = desk.event_check_in(event_id=event_id, by=request.user, code=data["code"])
        rows = Entry.objects.filter(pk__in=[e.pk for e in done]).select_related("player")
        return Response(DeskEntryOutput(rows.order_by("flight_id"), many=True).data)


class FlightDrawCheckedInApi(APIView):
    """The draw of the checked-in players only: the active entries not checked in are
    withdrawn first (``left_out``). 409 ``nobody_checked_in``, and the draw's refusals."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=DrawInput, responses={200: DrawnOutput, **ERRORS})
    def post(self, request: Request, flight_id: int) -> Response:
        data = _valid(DrawInput, request)
        result = desk.flight_draw_checked_in(
            flight_id=flight_id,
            by=request.user,
            seed=data.get("seed"),
            publish=data.get("publish", "first"),
        )
        body = {"flight": result.flight.pk, "left_out": [e.pk for e in result.left_out]}
        return Response(DrawnOutput(body).data)


# ====================================================================== self-registration
class FlightRegisterApi(APIView):
    """The player registers themselves for a flight open for it (before the draw):
    ``pending`` (a director confirms) or, with every place held, ``waitlisted``."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={201: EntryOutput, **ERRORS})
    def post(self, request: Request, flight_id: int) -> Response:
        entry = registration.entry_self_register(flight_id=flight_id, by=request.user)
        entry = Entry.objects.select_related("player").get(pk=entry.pk)
        return Response(EntryOutput(entry).data, status=status.HTTP_201_CREATED)


class FlightRegistrationsApi(APIView):
    """The flight's registrations to confirm and its waitlist, in registration order.
    ``POST`` (its directors): open or close it for self-registration, with its places.

    ``GET`` tells each reader what the flight's page does (issue 30: it told anyone
    everything, ratings too): its directors (and superusers) every registration in full;
    anyone else the names and statuses the public page lists while the flight takes
    registrations (nothing once drawn), with a rating only on their own registration,
    which they always see. A draft event's flight is 404 but to its directors, as its
    page is."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: RegistrationOutput(many=True), 404: ErrorOutput})
    def get(self, request: Request, flight_id: int) -> Response:
        flight = Flight.objects.select_related("event").filter(pk=flight_id).first()
        if flight is None or not selectors.event_visible(flight.event, request.user):
            raise NotFound("flight_not_found", _("There is no flight with this id."))
        rows = selectors.flight_waitlist(flight=flight)
        full = flight.event.is_director(request.user)
        me = Player.of_user(request.user)
        mine = me.pk if me is not None else None
        if not full and flight.status != Flight.Status.REGISTRATION:
            rows = [e for e in rows if e.player_id == mine]
        context = {"full": full, "me": mine}
        return Response(RegistrationOutput(rows, many=True, context=context).data)

    @extend_schema(
        request=RegistrationSettingsInput, responses={200: RegistrationSettingsOutput, **ERRORS}
    )
    def post(self, request: Request, flight_id: int) -> Response:
        data = _valid(RegistrationSettingsInput, request)
        flight = registration.flight_set_registration(
            flight_id=flight_id, by=request.user, open=data["open"], capacity=data["capacity"]
        )
        return Response(RegistrationSettingsOutput(flight).data)


class EntryWithdrawOwnApi(APIView):
    """The player withdraws their own registration or entry before the draw (the first
    on the waitlist moves up)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: EntryOutput, **ERRORS})
    def post(self, request: Request, entry_id: int) -> Response:
        entry = registration.entry_self_withdraw(entry_id=entry_id, by=request.user)
        return Response(EntryOutput(Entry.objects.select_related("player").get(pk=entry.pk)).data)


class EntryConfirmApi(APIView):
    """A director confirms a registration: the entry is in the draw."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: EntryOutput, **ERRORS})
    def post(self, request: Request, entry_id: int) -> Response:
        entry = registration.entry_confirm(entry_id=entry_id, by=request.user)
        return Response(EntryOutput(Entry.objects.select_related("player").get(pk=entry.pk)).data)


class EntryRefuseApi(APIView):
    """A director refuses a registration (to confirm or waiting)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: EntryOutput, **ERRORS})
    def post(self, request: Request, entry_id: int) -> Response:
        entry = registration.entry_refuse(entry_id=entry_id, by=request.user)
        return Response(EntryOutput(Entry.objects.select_related("player").get(pk=entry.pk)).data)
