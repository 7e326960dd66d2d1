"""Template context for every page."""

from __future__ import annotations

import functools
from typing import Any

from django.http import HttpRequest


def notifications(request: HttpRequest) -> dict[str, Any]:
    """``unread_notifications`` for the header: the logged-in player's unread count, or
    ``None`` for a user without a player; ``my_player_id``: that player's id (the
    header's link to their own page), or ``None``. Callables sharing one query, so that
    it runs only when a template shows either, and at most once per page; anonymous
    visitors cost nothing."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}

    @functools.cache
    def header() -> tuple[int, int] | None:
        from games.notifications.services import notification_header_for_user

        return notification_header_for_user(user_id=user.pk)

    def unread() -> int | None:
        found = header()
        return None if found is None else found[1]

    def my_player_id() -> int | None:
        found = header()
        return None if found is None else found[0]

    return {"unread_notifications": unread, "my_player_id": my_player_id}
