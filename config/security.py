"""Brute-force protection (issue 16): who a request comes from, and the refusals.

django-axes counts failed logins per username and client address (settings,
"security"); once it refuses a pair, :func:`lockout_response` answers -- a page in the
visitor's language, or ``{"code": "locked_out", "detail"}`` under ``/api/`` -- with 429
and a ``Retry-After`` of the cool-off. One address trying many usernames (password
spraying) meets the throttles instead: the token endpoint's (config.tokens) and the login
page's (:class:`LoginView`), both per address, both before any password is hashed. All
read the client's address through :func:`client_ip`, so they count the same person
behind the proxy.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from games.api.throttles import AtomicRateThrottle, client_ip


def cool_off_seconds() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


def lockout_message() -> str:
    minutes = max(1, cool_off_seconds() // 60)
    return _(
        "Too many failed logins with this username from your address. "
        "Try again in %(minutes)d minutes."
    ) % {"minutes": minutes}


def lockout_response(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """axes' AXES_LOCKOUT_CALLABLE: the refusal of a locked-out login (429)."""
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"code": "locked_out", "detail": lockout_message()},
            status=settings.AXES_HTTP_RESPONSE_CODE,
        )
        response["Retry-After"] = str(cool_off_seconds())
        return response
    return refusal_page(
        request,
        message=lockout_message(),
        retry_after=cool_off_seconds(),
        status=settings.AXES_HTTP_RESPONSE_CODE,
    )


def refusal_page(
    request: HttpRequest, *, message: str, retry_after: int, status: int = 429, title: str = ""
) -> HttpResponse:
    """The page of a refused login (locked out or throttled), with Retry-After; ``title``
    for another refusal (a password reset asked too often, config.passwords)."""
    context = {"message": message, "title": title}
    response = render(request, "registration/lockout.html", context, status=status)
    response["Retry-After"] = str(retry_after)
    return response


class LoginThrottle(AtomicRateThrottle):
    """Login page posts per client address (the ``login`` rate of DEFAULT_THROTTLE_RATES),
    counted atomically in Redis (games.api.throttles). Redis down: 503, not 500."""

    scope = "login"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": client_ip(request)}


class LoginView(auth_views.LoginView):
    """Django's login page, refusing with 429 an address that posts too often (and with
    the 503 page, config.api.ServiceUnavailableMiddleware, while Redis cannot count)."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        throttle = LoginThrottle()
        if not throttle.allow_request(request, self):
            seconds = max(1, round(throttle.wait() or 1))
            message = _(
                "Too many login attempts from your address. Try again in %(seconds)d seconds."
            ) % {"seconds": seconds}
            return refusal_page(request, message=message, retry_after=seconds)
        return super().post(request, *args, **kwargs)


class TokenThrottle(LoginThrottle):
    """``POST /api/v1/auth/token/`` per client address (the ``auth_token`` rate)."""

    scope = "auth_token"
