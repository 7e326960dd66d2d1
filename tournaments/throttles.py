"""The check-in's throttle (issue 17): an event's check-in code is short (6 letters of
31), so the attempts to type one are counted per user (or, without a login, per client
address): the ``check_in`` rate of ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``
(:class:`games.api.throttles.CodeThrottle`). The check-in page
(:mod:`tournaments.pages.desk`) and the API's check-in (:mod:`tournaments.api.desk`)
count together: at 10 a minute, finding a code by trying takes decades."""

from __future__ import annotations

from typing import Any

from games.api.throttles import CodeThrottle, attempt_allowed


class CheckInThrottle(CodeThrottle):
    scope = "check_in"


def check_in_allowed(request: Any) -> tuple[bool, int]:
    """For a page: whether this attempt may go on, and else the seconds to wait."""
    return attempt_allowed(request, CheckInThrottle)
