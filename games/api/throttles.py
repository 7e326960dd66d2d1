"""Throttles of short codes typed by people (issue 17, issue 19): a code of 6 letters
of 31 is found by trying unless the attempts are counted. Per user, or without a login
per client address, in the cache as DRF's throttles are; each app names its scope (a
rate of ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``), and its pages and API count
together through :func:`attempt_allowed`."""

from __future__ import annotations

from typing import Any

from rest_framework.throttling import SimpleRateThrottle


class CodeThrottle(SimpleRateThrottle):
    """Subclasses set ``scope``."""

    def get_cache_key(self, request: Any, view: Any) -> str:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            ident = f"user-{user.pk}"
        else:
            ident = f"addr-{self.get_ident(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


def attempt_allowed(request: Any, throttle: type[CodeThrottle]) -> tuple[bool, int]:
    """For a page: whether this attempt may go on (it is counted), else the seconds to
    wait."""
    counter = throttle()
    if counter.allow_request(request, None):
        return True, 0
    return False, max(1, round(counter.wait() or 1))
