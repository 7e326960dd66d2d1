"""The check-in's throttle (issue 17): an event's check-in code is short (6 letters of
31), so the attempts to type one are counted per user (or, without a login, per client
address), in the cache as DRF's throttles are (the ``check_in`` rate of
``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``). The check-in page
(:mod:`tournaments.pages.desk`) and the API's check-in (:mod:`tournaments.api.desk`)
count together: at 10 a minute, finding a code by trying takes decades."""

from __future__ import annotations

from typing import Any

from rest_framework.throttling import SimpleRateThrottle


class CheckInThrottle(SimpleRateThrottle):
    scope = "check_in"

    def get_cache_key(self, request: Any, view: Any) -> str:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            ident = f"user-{user.pk}"
        else:
            ident = f"addr-{self.get_ident(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


def check_in_allowed(request: Any) -> tuple[bool, int]:
    """For a page: whether this attempt may go on, and else the seconds to wait."""
    throttle = CheckInThrottle()
    if throttle.allow_request(request, None):
        return True, 0
    return False, max(1, round(throttle.wait() or 1))
