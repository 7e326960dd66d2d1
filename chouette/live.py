"""Chouette, live: the ``chouette:<session id>`` topic (games.live).

The scoreboard, its wall (``?wall=1``) and a player's own total (``/chouette/<id>/me/``)
follow it: seating, the last game's cubes, running totals and the last games. Every
write of a session touches it, after commit: a game recorded or undone, a seat change
(join, sit out, come back, a join from a phone), the end, a new join code.

Who may follow it: anyone, as anyone may read a scoreboard; a session that does not exist
is refused.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from chouette.models import ChouetteSession
from games.errors import NotFound
from games.live import publish
from games.live.topics import int_key, register_topic


def session_topic(session_id: int) -> str:
    return f"chouette:{session_id}"


def session_changed(session_id: int) -> None:
    publish.touch(session_topic(session_id))


def session_authorize(user: Any, key: str) -> None:
    if not ChouetteSession.objects.filter(pk=int_key(key)).exists():
        raise NotFound("session_not_found", _("There is no chouette session with this id."))


def register() -> None:
    register_topic("chouette", authorize=session_authorize)
