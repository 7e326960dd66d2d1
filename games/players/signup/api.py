"""The sign-up's API (issue 30): ``POST /api/v1/auth/signup/`` (anyone; the page's rules
and throttle), and for staff the sign-ups (``GET /api/v1/signups/``) and their decision
(``POST /api/v1/signups/<id>/approve/`` and ``.../refuse/``, with the version read: 409
when it was decided or changed since)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import PAGE_PARAMETERS, error_responses
from games.api.pagination import Pagination
from games.errors import ValidationFailed
from games.models import SignUp
from games.players.signup import selectors, services
from games.players.signup.throttles import SignupThrottle


def _site_url(request: Request) -> str:
    return settings.SITE_URL or request.build_absolute_uri("/")


class SignupInput(serializers.Serializer):
    name = serializers.CharField(max_length=200, help_text="the name as the club should show it")
    username = serializers.CharField(max_length=150)
    email = serializers.CharField(max_length=254)
    password = serializers.CharField(max_length=4096, trim_whitespace=False)
    claim = serializers.BooleanField(
        default=False,
        help_text="the person is the club's player of this name who has no login: staff "
        "must approve (409 name_taken with claimable true says such a player exists)",
    )


class SignupSentOutput(serializers.Serializer):
    state = serializers.CharField(help_text="always `confirmation_sent`")
    detail = serializers.CharField()


class SignupApi(APIView):
    """Sign up: an inactive login, and a confirmation link e-mailed in the request's
    language. The answer is the same whether the address is new or already has a login
    (its owner is mailed instead): it tells nobody which addresses have logins."""

    authentication_classes: list[Any] = []
    permission_classes = [permissions.AllowAny]
    throttle_classes = [SignupThrottle]

    @extend_schema(
        request=SignupInput,
        responses={
            202: SignupSentOutput,
            **error_responses(
                {
                    400: "`invalid`, `invalid_name`, `invalid_username`, `invalid_email`, "
                    "`invalid_password`, `nothing_to_claim` (each with its `field`); "
                    "nothing is written.",
                    403: "`signup_closed`: the club takes no sign-ups.",
                    409: "`name_taken` (with `claimable`: true when a player without a "
                    "login has this name: send `claim`), `username_taken`.",
                    429: "`throttled`: too many sign-ups from this address (Retry-After).",
                }
            ),
        },
    )
    def post(self, request: Request) -> Response:
        data = SignupInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        services.signup_create(
            name=values["name"],
            username=values["username"],
            email=values["email"],
            password=values["password"],
            claim=values["claim"],
            language=translation.get_language() or settings.LANGUAGE_CODE,
            site_url=_site_url(request),
        )
        return Response(
            {
                "state": "confirmation_sent",
                "detail": _("A confirmation link is on its way to %(email)s.")
                % {"email": values["email"].strip()},
            },
            status=status.HTTP_202_ACCEPTED,
        )


class ResendInput(serializers.Serializer):
    email = serializers.CharField(max_length=254)


class SignupResendApi(APIView):
    """The confirmation link again, to an address with a sign-up waiting for it (at most
    once a minute). The same answer for any address: it tells nobody which signed up."""

    authentication_classes: list[Any] = []
    permission_classes = [permissions.AllowAny]
    throttle_classes = [SignupThrottle]

    @extend_schema(
        request=ResendInput,
        responses={
            202: SignupSentOutput,
            **error_responses(
                {
                    400: "`invalid`: no `email`.",
                    429: "`throttled`: counted with the sign-ups from this address.",
                }
            ),
        },
    )
    def post(self, request: Request) -> Response:
        data = ResendInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.signup_resend(email=data.validated_data["email"], site_url=_site_url(request))
        return Response(
            {
                "state": "confirmation_sent",
                "detail": _(
                    "If a sign-up at that address waits for its confirmation, a new link is "
                    "on its way (at most one a minute)."
                ),
            },
            status=status.HTTP_202_ACCEPTED,
        )


class ClaimOutput(serializers.Serializer):
    id = serializers.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.name")
    rating = serializers.DecimalField(source="player.rating", max_digits=7, decimal_places=2)
    experience = serializers.IntegerField(source="player.experience")
    rated_results = serializers.IntegerField()
    online_matches = serializers.IntegerField()
    last_result_at = serializers.DateTimeField(allow_null=True)


class SignupOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    username = serializers.CharField()
    email = serializers.CharField()
    state = serializers.ChoiceField(choices=SignUp.State.choices)
    version = serializers.IntegerField(help_text="send it back with a decision")
    created_at = serializers.DateTimeField()
    confirmed_at = serializers.DateTimeField(allow_null=True)
    decided_at = serializers.DateTimeField(allow_null=True)
    player = serializers.IntegerField(source="player_id", allow_null=True)
    claim = serializers.SerializerMethodField()

    @extend_schema_field(ClaimOutput(allow_null=True))
    def get_claim(self, signup: SignUp) -> Any:
        record = self.context.get("records", {}).get(signup.claim_id)
        return None if record is None else ClaimOutput(record).data


class DecisionInput(serializers.Serializer):
    version = serializers.IntegerField(
        min_value=0, required=False, help_text="the version read; left out: no check"
    )


STAFF_ERRORS = {
    401: "Not logged in.",
    403: "`permission_denied`: staff only.",
}


class SignupListApi(APIView):
    """The sign-ups, waiting ones by default (``?state=``), oldest first, each claim
    with the claimed player's record."""

    permission_classes = [permissions.IsAdminUser]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "state",
                {"type": "string", "enum": list(SignUp.State.values)},
                description="waiting (the default), unconfirmed, approved or refused",
            ),
            *PAGE_PARAMETERS,
        ],
        responses={
            200: SignupOutput(many=True),
            **error_responses({400: "`invalid_state`.", **STAFF_ERRORS}),
        },
    )
    def get(self, request: Request) -> Response:
        state = request.query_params.get("state", SignUp.State.WAITING)
        if state not in SignUp.State.values:
            raise ValidationFailed(
                "invalid_state", _("Unknown sign-up state: %(state)s.") % {"state": state}
            )
        rows = SignUp.objects.filter(state=state).order_by("created_at", "pk")
        paginator = Pagination()
        page = list(paginator.paginate_queryset(rows, request, view=self) or [])
        records = selectors.claim_records(page)
        return paginator.get_paginated_response(
            SignupOutput(page, many=True, context={"records": records}).data
        )


class _DecisionApi(APIView):
    permission_classes = [permissions.IsAdminUser]

    def decide(self, request: Request, signup_id: int, action: Any) -> Response:
        data = DecisionInput(data=request.data)
        data.is_valid(raise_exception=True)
        signup = action(
            signup_id=signup_id,
            by=request.user,
            version=data.validated_data.get("version"),
            site_url=_site_url(request),
        )
        records = selectors.claim_records([signup])
        return Response(SignupOutput(signup, context={"records": records}).data)


DECISION_RESPONSES = {
    200: SignupOutput,
    **error_responses(
        {
            **STAFF_ERRORS,
            400: "`invalid`.",
            404: "`signup_not_found`.",
            409: "`signup_not_waiting` (already decided, or not confirmed), `stale_signup` "
            "(`version` is not the stored one; both with the current `state` and "
            "`version`), `player_has_login`, `name_taken`, `signup_no_login`; nothing is "
            "changed.",
        }
    ),
}


class SignupApproveApi(_DecisionApi):
    """Approve a waiting sign-up: the login becomes active, linked to the claimed player
    or to a new one of its name; the person is mailed."""

    @extend_schema(request=DecisionInput, responses=DECISION_RESPONSES)
    def post(self, request: Request, signup_id: int) -> Response:
        return self.decide(request, signup_id, services.signup_approve)


class SignupRefuseApi(_DecisionApi):
    """Refuse a waiting sign-up: the login is deleted; the person is mailed."""

    @extend_schema(request=DecisionInput, responses=DECISION_RESPONSES)
    def post(self, request: Request, signup_id: int) -> Response:
        return self.decide(request, signup_id, services.signup_refuse)
