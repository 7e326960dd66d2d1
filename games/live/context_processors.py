"""Template context for every page: the live topics the page's header follows."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest


def live(request: HttpRequest) -> dict[str, Any]:
    """``live_user_topic``: a logged-in user's own topic (``user:<id>``; the header's
    notification count follows it). Pages add theirs in ``live_topics``."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"live_user_topic": f"user:{user.pk}"}
