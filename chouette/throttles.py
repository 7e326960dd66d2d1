"""The join code's throttle (issue 19): a session's join code is six letters of 31,
and anyone may type one (:mod:`chouette.services.joining` says why), so the attempts are
counted per user or, without a login, per client address: the ``chouette_join`` rate of
``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``. The join page (opening it with a code and
joining, :mod:`chouette.pages.joining`) and the API's join (:mod:`chouette.api.join`)
count together."""

from __future__ import annotations

from typing import Any

from games.api.throttles import CodeThrottle, attempt_allowed


class JoinThrottle(CodeThrottle):
    scope = "chouette_join"


def join_allowed(request: Any) -> tuple[bool, int]:
    """For a page: whether this attempt may go on, and else the seconds to wait."""
    return attempt_allowed(request, JoinThrottle)
