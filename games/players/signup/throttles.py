"""The sign-up's throttle: posts of the sign-up form and of the resend form, and the API's
sign-up, counted together per client address (the ``signup`` rate,
``SIGNUP_THROTTLE_RATE``), in the cache as DRF's throttles are.

The address is read as ``config.security.client_ip`` reads it for the login's throttle and
django-axes (REMOTE_ADDR, or behind ``TRUSTED_PROXY_COUNT`` proxies the address the
outermost one added), written again here because ``games`` imports nothing of ``config``.
DRF's own ``get_ident`` is not used: with no proxy count set it trusts any
X-Forwarded-For the client sends, so a client could name a new address each time.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle


def client_address(request: Any) -> str | None:
    count = settings.TRUSTED_PROXY_COUNT
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if count and forwarded:
        addresses = [a.strip() for a in forwarded.split(",")]
        return addresses[-min(count, len(addresses))] or None
    return request.META.get("REMOTE_ADDR")


class SignupThrottle(SimpleRateThrottle):
    scope = "signup"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": client_address(request)}


def signup_attempt_allowed(request: Any) -> tuple[bool, int]:
    """For a page: whether this post may go on (it is counted), else the seconds to wait."""
    counter = SignupThrottle()
    if counter.allow_request(request, None):
        return True, 0
    return False, max(1, round(counter.wait() or 1))
