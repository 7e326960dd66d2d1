"""A forgotten password (issue 30): the login page's "Forgot your password?" and
``POST /api/v1/auth/password-reset/``.

Both take an e-mail address and answer the same whatever it is -- the page goes on to
"a link is on its way", the API answers 202 -- so that neither tells whether an address
has a login. The request only looks the logins up and enqueues one task per login
(:func:`games.players.logins.password_reset_request`), the same small work whether or
not the address is known, so that the time the answer takes tells nothing either, and no
web worker waits on a slow mail server. The worker (on the ``notifications`` queue) makes
the link and mails it through the notifications' transport, as the director's
invitation does, in the language of the one who asked, with the link on ``SITE_URL``
(else the address the request came to) to Django's confirm page, which checks the new
password with ``AUTH_PASSWORD_VALIDATORS``.

Asking is throttled (atomically in Redis: games.api.throttles), both per client address (one
person trying many addresses, or flooding mailboxes) and per address typed (many people,
or one behind many proxies, flooding one mailbox): the ``password_reset`` rate
(``PASSWORD_RESET_THROTTLE_RATE``) each. A refusal is 429 with Retry-After: the page of
:func:`config.security.refusal_page`, or ``{"code": "throttled"}`` under the API. Both
count whether or not the address is known, so a refusal tells nothing either.
"""

from __future__ import annotations

import hashlib
import math
from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm, SetPasswordForm
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.security import client_ip, refusal_page
from games.api.common import ErrorOutput
from games.api.throttles import AtomicRateThrottle
from games.players import logins

SCOPE = "password_reset"


class PasswordResetThrottle(AtomicRateThrottle):
    """Requests for a reset link per client address (the ``password_reset`` rate)."""

    scope = SCOPE

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": f"ip-{client_ip(request)}"}


class PasswordResetEmailThrottle(AtomicRateThrottle):
    """Requests for a reset link per address typed, known or not (case aside; hashed: the
    cache holds no address)."""

    scope = SCOPE

    def __init__(self, email: str) -> None:
        super().__init__()
        self.digest = hashlib.sha256(email.strip().casefold().encode()).hexdigest()

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": f"email-{self.digest}"}


def _wait(throttle: AtomicRateThrottle) -> int:
    return max(1, math.ceil(throttle.wait() or 1))


def _site_url(request: HttpRequest) -> str:
    return str(settings.SITE_URL or request.build_absolute_uri("/"))


class PasswordResetView(auth_views.PasswordResetView):
    """Django's "forgotten password" page (``templates/registration/password_reset_form.html``):
    throttled per client address before the form is read and per address typed once it
    is valid; the mail sent by our service, not Django's form."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        throttle = PasswordResetThrottle()
        if not throttle.allow_request(request, self):
            return self._refuse(request, _wait(throttle))
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        email = form.cleaned_data["email"]
        throttle = PasswordResetEmailThrottle(email)
        if not throttle.allow_request(self.request, self):
            return self._refuse(self.request, _wait(throttle))
        logins.password_reset_request(email=email, site_url=_site_url(self.request))
        return HttpResponseRedirect(self.get_success_url())

    @staticmethod
    def _refuse(request: HttpRequest, seconds: int) -> HttpResponse:
        minutes = max(1, math.ceil(seconds / 60))
        message = ngettext(
            "Too many requests for a new password. Try again in %(minutes)d minute.",
            "Too many requests for a new password. Try again in %(minutes)d minutes.",
            minutes,
        ) % {"minutes": minutes}
        return refusal_page(
            request, message=message, retry_after=seconds, title=_("Too many requests")
        )


class NewPasswordForm(SetPasswordForm):
    """Django's, with what the password validators say at the new password's field (the
    first), where the reader typed it; Django puts it under the confirmation. A mismatch
    stays at the confirmation, alone."""

    def validate_password_for_user(self, user: Any, password_field_name: str = "") -> None:
        if "new_password2" not in self.errors:
            super().validate_password_for_user(user, "new_password1")


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's confirm page (the reset and the invitation e-mails' link), with
    :class:`NewPasswordForm`."""

    form_class = NewPasswordForm


class PasswordResetInput(serializers.Serializer):
    email = serializers.EmailField(max_length=254, help_text="the e-mail address of the login")


class PasswordResetApi(APIView):
    """Mail a link to choose a new password to each login with this e-mail address, in
    the request's language. 202 whether or not a login has the address (the answer never
    tells); 400 for what is no e-mail address; 429 ``throttled`` (with Retry-After) per
    client address and per address typed."""

    authentication_classes: list[Any] = []  # anyone, logged in or not; no CSRF to check
    permission_classes = [permissions.AllowAny]
    throttle_classes = [PasswordResetThrottle]

    @extend_schema(
        request=PasswordResetInput,
        responses={
            202: OpenApiResponse(description="accepted: a link is mailed if a login has it"),
            400: OpenApiResponse(ErrorOutput, description="invalid, parse_error"),
            413: OpenApiResponse(ErrorOutput, description="request_too_large"),
            429: OpenApiResponse(ErrorOutput, description="throttled"),
        },
    )
    def post(self, request: Request) -> Response:
        data = PasswordResetInput(data=request.data)
        data.is_valid(raise_exception=True)
        email = data.validated_data["email"]
        throttle = PasswordResetEmailThrottle(email)
        if not throttle.allow_request(request, self):
            raise exceptions.Throttled(_wait(throttle))
        logins.password_reset_request(email=email, site_url=_site_url(request))
        return Response(status=status.HTTP_202_ACCEPTED)
