"""Template context for every page."""

from __future__ import annotations

import functools
from typing import Any

from django.http import HttpRequest


def notifications(request: HttpRequest) -> dict[str, Any]:
    """``unread_notifications`` for the header: the logged-in player's unread count, or
    ``None`` for a user without a player. A callable, so that the one query it costs runs
    only when a template shows it, and at most once per page; anonymous visitors cost
    nothing."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}

    @functools.cache
    def unread() -> int | None:
        from games.notifications.services import notification_unread_count_for_user

        return notification_unread_count_for_user(user_id=user.pk)

    return {"unread_notifications": unread}
