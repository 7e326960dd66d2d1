"""The sign-up's throttle: posts of the sign-up form and of the resend form, and the API's
sign-up, counted together per client address (the ``signup`` rate,
``SIGNUP_THROTTLE_RATE``), atomically as every throttle of the project
(games.api.throttles), the address read as the login's throttle and django-axes read it
(``games.api.throttles.client_ip``).
"""

from __future__ import annotations

from typing import Any

from games.api.throttles import AtomicRateThrottle, attempt_allowed, client_ip


class SignupThrottle(AtomicRateThrottle):
    scope = "signup"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": client_ip(request)}


def signup_attempt_allowed(request: Any) -> tuple[bool, int]:
    """For a page: whether this post may go on (it is counted), else the seconds to wait."""
    return attempt_allowed(request, SignupThrottle)
