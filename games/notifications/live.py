"""Notifications, live: the ``user:<user id>`` topic (games.live).

Every page a logged-in user has open follows their own topic (the header's unread count,
``templates/base.html``; the notification list, ``/notifications/``). It is touched when
an in-app notification is created for them and when they read one or all of theirs.

Who may follow it: the user themself, nobody else (anonymous visitors neither).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.errors import PermissionDenied
from games.live import publish
from games.live.topics import int_key, register_topic


def user_topic(user_id: int) -> str:
    return f"user:{user_id}"


def user_changed(*user_ids: int | None) -> None:
    """The notifications of these users changed (after commit)."""
    publish.touch(*(user_topic(pk) for pk in user_ids if pk is not None))


def user_authorize(user: Any, key: str) -> None:
    user_id = int_key(key)
    if user is None or not getattr(user, "is_authenticated", False) or user.pk != user_id:
        raise PermissionDenied("forbidden", _("Only the user themself may follow this."))


def register() -> None:
    register_topic("user", authorize=user_authorize)
