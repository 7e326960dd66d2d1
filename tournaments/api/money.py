"""The night's money in the API (issue 17): a flight's money settings, its side pools and
their entrants, and its payouts (:mod:`tournaments.prizes`, terms in
:mod:`tournaments.payouts`). Writes are the directors' (:mod:`tournaments.services.money`;
a refusal names its ``field``). Amounts leave as decimal strings in whole units of the
event's ``currency`` (``"28800"`` HUF, ``"12.50"`` EUR).

Reading the settings and side pools is public (the fee is no secret); the payouts are
public once the flight is finished, and the directors' preview "if it ended as it stands"
before (403 ``payouts_not_final`` to anyone else)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import error_responses, json_parsers
from games.errors import PermissionDenied
from tournaments import payouts, prizes
from tournaments.models import Event, Flight, SidePool, SidePoolEntry
from tournaments.services import money

ERRORS = error_responses()
READ_ERRORS = error_responses([404])

AMOUNT = {"max_digits": 12, "decimal_places": 2}
SPLIT_HELP = (
    "Ranking (main, consolation, last_chance; '' for the standings) -> percentages for "
    "places 1, 2, ...; all together exactly 100."
)


def _text(amount: Decimal, unit: Decimal) -> str:
    return str(amount.quantize(unit))


def _percent(value: Decimal) -> str:
    """``"40"``, ``"12.5"``, ``"33.3333"``: to four decimals, no trailing zeros."""
    text = format(value.quantize(Decimal("0.0001")), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _split_out(split: Any) -> dict[str, list[str]]:
    return {str(k): [str(p) for p in v] for k, v in dict(split or {}).items()}


# ====================================================================== shapes
class SplitField(serializers.DictField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            child=serializers.ListField(
                child=serializers.DecimalField(max_digits=5, decimal_places=2), max_length=64
            ),
            help_text=SPLIT_HELP,
            **kwargs,
        )


class MoneySettingsInput(serializers.Serializer):
    fee = serializers.DecimalField(**AMOUNT)
    house_percent = serializers.DecimalField(max_digits=5, decimal_places=2, required=False)
    house_fixed = serializers.DecimalField(**AMOUNT, required=False)
    split = SplitField(required=False)
    currency = serializers.ChoiceField(choices=list(payouts.CURRENCIES), required=False)


class MoneySettingsOutput(serializers.Serializer):
    currency = serializers.CharField()
    fee = serializers.CharField()
    house_percent = serializers.CharField()
    house_fixed = serializers.CharField()
    split = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
    is_set = serializers.BooleanField(help_text="false: no settings yet (the format's defaults)")


class SidePoolInput(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    fee = serializers.DecimalField(**AMOUNT)
    split = SplitField(required=False)


class SidePoolEntrantOutput(serializers.Serializer):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    paid = serializers.BooleanField()
    paid_at = serializers.DateTimeField(allow_null=True)


class SidePoolOutput(serializers.Serializer):
    id = serializers.IntegerField()
    flight = serializers.IntegerField()
    name = serializers.CharField()
    fee = serializers.CharField()
    split = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
    entrants = SidePoolEntrantOutput(many=True)


class SidePoolEnterInput(serializers.Serializer):
    entry = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    paid = serializers.BooleanField(required=False, default=False)


class SidePoolPaidInput(serializers.Serializer):
    paid = serializers.BooleanField()


class PayoutOutput(serializers.Serializer):
    ranking = serializers.CharField()
    place = serializers.CharField(help_text='"1", or a shared place "3-4"')
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    percent = serializers.CharField(help_text="of the prize pool")
    amount = serializers.CharField()
    final = serializers.BooleanField(help_text="false: the place is still being played for")


class PoolOutput(serializers.Serializer):
    name = serializers.CharField()
    side_pool = serializers.IntegerField(allow_null=True)
    fee = serializers.CharField()
    paid = serializers.IntegerField(help_text="paid entrants")
    collected = serializers.CharField()
    house = serializers.CharField()
    prize_pool = serializers.CharField()
    unclaimed = serializers.CharField(help_text="shares of places no paid entrant holds")
    remainder = serializers.CharField(help_text="left over from rounding down")
    split = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
    payouts = PayoutOutput(many=True)


class PayoutsOutput(serializers.Serializer):
    flight = serializers.IntegerField()
    currency = serializers.CharField()
    final = serializers.BooleanField(help_text="false: a preview, if it ended as it stands")
    main = PoolOutput()
    side_pools = PoolOutput(many=True)


# ====================================================================== output data
def _settings_data(flight: Flight) -> dict[str, Any]:
    s = prizes.money_settings(flight=flight)
    return {
        "currency": s.currency,
        "fee": _text(s.fee, s.unit),
        "house_percent": str(s.house_percent),
        "house_fixed": _text(s.house_fixed, s.unit),
        "split": _split_out(s.split),
        "is_set": s.is_set,
    }


def _pool_data(pool: SidePool) -> dict[str, Any]:
    unit = payouts.currency_unit(pool.flight.event.currency)
    members = SidePoolEntry.objects.filter(pool=pool).select_related("entry__player")
    return {
        "id": pool.pk,
        "flight": pool.flight_id,
        "name": pool.name,
        "fee": _text(pool.fee, unit),
        "split": _split_out(pool.split),
        "entrants": [_member_data(m) for m in members.order_by("id")],
    }


def _member_data(member: SidePoolEntry) -> dict[str, Any]:
    return {
        "entry": member.entry_id,
        "name": member.entry.player.name,
        "paid": member.paid_at is not None,
        "paid_at": member.paid_at,
    }


def _pool_result(view: prizes.PoolView, unit: Decimal) -> dict[str, Any]:
    r = view.result
    return {
        "name": view.name,
        "side_pool": view.pool.pk if view.pool else None,
        "fee": _text(r.fee, unit),
        "paid": r.paid,
        "collected": _text(r.collected, unit),
        "house": _text(r.house, unit),
        "prize_pool": _text(r.prize_pool, unit),
        "unclaimed": _text(r.unclaimed, unit),
        "remainder": _text(r.remainder, unit),
        "split": _split_out(view.split),
        "payouts": [
            {
                "ranking": line.payout.ranking,
                "place": line.payout.label,
                "entry": line.entry.pk,
                "player": line.entry.player_id,
                "name": line.entry.player.name,
                "percent": _percent(line.payout.percent),
                "amount": _text(line.payout.amount, unit),
                "final": line.payout.final,
            }
            for line in view.lines
        ],
    }


def _pool_of(pool_id: int) -> SidePool:
    return get_object_or_404(SidePool.objects.select_related("flight__event"), pk=pool_id)


# ====================================================================== views
class FlightMoneyApi(APIView):
    """A flight's money settings: entry fee, house cut (percent of the fees plus a fixed
    amount), the split of the prize pool, the event's currency. ``PUT``: set them (its
    directors; refused once the flight is finished: 409 ``payouts_final``; a refusal
    names its ``field``)."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    # Nested objects: JSON only (games.api.common.json_parsers says why).
    parser_classes = json_parsers()

    @extend_schema(responses={200: MoneySettingsOutput, **READ_ERRORS})
    def get(self, request: Request, flight_id: int) -> Response:
        flight = get_object_or_404(Flight.objects.select_related("event"), pk=flight_id)
        return Response(MoneySettingsOutput(_settings_data(flight)).data)

    @extend_schema(request=MoneySettingsInput, responses={200: MoneySettingsOutput, **ERRORS})
    def put(self, request: Request, flight_id: int) -> Response:
        data = MoneySettingsInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        if "split" in values:
            values["split"] = {k: list(v) for k, v in values["split"].items()}
        money.flight_money_set(flight_id=flight_id, by=request.user, **values)
        flight = Flight.objects.select_related("event").get(pk=flight_id)
        return Response(MoneySettingsOutput(_settings_data(flight)).data)


class FlightSidePoolsApi(APIView):
    """A flight's side pools with their entrants. ``POST``: a new one (its directors;
    split default: 70/30 over the flight's main ranking)."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    # Nested objects: JSON only (games.api.common.json_parsers says why).
    parser_classes = json_parsers()

    @extend_schema(responses={200: SidePoolOutput(many=True), **READ_ERRORS})
    def get(self, request: Request, flight_id: int) -> Response:
        flight = get_object_or_404(Flight, pk=flight_id)
        pools = flight.side_pools.select_related("flight__event").order_by("id")
        return Response(SidePoolOutput([_pool_data(p) for p in pools], many=True).data)

    @extend_schema(request=SidePoolInput, responses={201: SidePoolOutput, **ERRORS})
    def post(self, request: Request, flight_id: int) -> Response:
        data = SidePoolInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        split = values.get("split")
        pool = money.side_pool_create(
            flight_id=flight_id,
            by=request.user,
            name=values["name"],
            fee=values["fee"],
            split=None if split is None else {k: list(v) for k, v in split.items()},
        )
        return Response(
            SidePoolOutput(_pool_data(_pool_of(pool.pk))).data, status=status.HTTP_201_CREATED
        )


class SidePoolDetailApi(APIView):
    """A side pool with its entrants. ``DELETE``: remove it (its flight's directors,
    before the flight is finished)."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: SidePoolOutput, **READ_ERRORS})
    def get(self, request: Request, pool_id: int) -> Response:
        return Response(SidePoolOutput(_pool_data(_pool_of(pool_id))).data)

    @extend_schema(request=None, responses={204: None, **ERRORS})
    def delete(self, request: Request, pool_id: int) -> Response:
        money.side_pool_delete(pool_id=pool_id, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SidePoolEntriesApi(APIView):
    """Put an entry of the flight in the side pool (``paid``: it paid its fee too)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=SidePoolEnterInput, responses={201: SidePoolEntrantOutput, **ERRORS})
    def post(self, request: Request, pool_id: int) -> Response:
        data = SidePoolEnterInput(data=request.data)
        data.is_valid(raise_exception=True)
        member = money.side_pool_enter(
            pool_id=pool_id,
            by=request.user,
            entry_id=data.validated_data["entry"],
            paid=data.validated_data["paid"],
        )
        member = SidePoolEntry.objects.select_related("entry__player").get(pk=member.pk)
        return Response(SidePoolEntrantOutput(_member_data(member)).data, status=201)


class SidePoolEntryApi(APIView):
    """An entrant of a side pool: ``PATCH`` marks it paid or not, ``DELETE`` takes it
    out (the flight's directors)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=SidePoolPaidInput, responses={200: SidePoolEntrantOutput, **ERRORS})
    def patch(self, request: Request, pool_id: int, entry_id: int) -> Response:
        data = SidePoolPaidInput(data=request.data)
        data.is_valid(raise_exception=True)
        member = money.side_pool_paid_set(
            pool_id=pool_id, by=request.user, entry_id=entry_id, paid=data.validated_data["paid"]
        )
        member = SidePoolEntry.objects.select_related("entry__player").get(pk=member.pk)
        return Response(SidePoolEntrantOutput(_member_data(member)).data)

    @extend_schema(request=None, responses={204: None, **ERRORS})
    def delete(self, request: Request, pool_id: int, entry_id: int) -> Response:
        money.side_pool_leave(pool_id=pool_id, by=request.user, entry_id=entry_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class FlightPayoutsApi(APIView):
    """The flight's payouts: the main pool and each side pool, what was collected, the
    house cut, each prize by place (shared places split evenly). Public once the flight
    is finished (``final``); before, its directors' preview "if it ended as it stands"
    (403 ``payouts_not_final`` to anyone else)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: PayoutsOutput, **error_responses([403, 404])})
    def get(self, request: Request, flight_id: int) -> Response:
        flight = get_object_or_404(Flight.objects.select_related("event"), pk=flight_id)
        shown = (
            flight.status == Flight.Status.FINISHED and flight.event.status != Event.Status.DRAFT
        )
        if not shown and not flight.event.is_director(request.user):
            raise PermissionDenied(
                "payouts_not_final",
                _("The payouts are shown once the flight is finished."),
            )
        found = prizes.flight_payouts(flight=flight)
        unit = found.settings.unit
        body = {
            "flight": flight.pk,
            "currency": found.currency,
            "final": found.final,
            "main": _pool_result(found.main, unit),
            "side_pools": [_pool_result(v, unit) for v in found.side_pools],
        }
        return Response(PayoutsOutput(body).data)
