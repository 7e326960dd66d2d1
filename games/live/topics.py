"""The registry of topic kinds (see the package docstring for the terms).

A feature registers each kind it publishes, once, when its app is ready::

    register_topic("flight", authorize=flight_authorize)
    register_topic("match", authorize=match_authorize, replay=match_replay)

``authorize(user, key)`` raises an :class:`~games.errors.ApplicationError`
(``NotFound``, ``PermissionDenied``) when ``user`` may not follow the topic, the same
rule as for the page that shows it. ``replay(key, since)`` (versioned topics only)
returns the events after position ``since`` and the topic's current position, or raises
:class:`ReplayTooOld`. Both are synchronous and may query the database.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.errors import NotFound

#: A position in a versioned topic (for a match: ``[game number, game version]``).
Position = list[int]
Event = dict[str, Any]
Authorize = Callable[[Any, str], None]
Replay = Callable[[str, Position | None], tuple[list[Event], Position]]

TOPIC_RE = re.compile(r"^([a-z][a-z_]{0,30}):([A-Za-z0-9_-]{1,40})$")


class ReplayTooOld(Exception):
    """The client is too far behind to be sent every event: it fetches the state."""


@dataclass(frozen=True)
class TopicKind:
    name: str
    authorize: Authorize
    replay: Replay | None = None


_KINDS: dict[str, TopicKind] = {}


def register_topic(name: str, *, authorize: Authorize, replay: Replay | None = None) -> None:
    _KINDS[name] = TopicKind(name, authorize, replay)


def topic_kind(topic: str) -> tuple[TopicKind, str]:
    """The registered kind and the key of ``topic``; ``NotFound`` for anything else."""
    found = TOPIC_RE.match(topic) if isinstance(topic, str) else None
    kind = _KINDS.get(found.group(1)) if found else None
    if found is None or kind is None:
        raise NotFound("unknown_topic", _("There is nothing to follow by this name."))
    return kind, found.group(2)


def topic_group(topic: str) -> str:
    """The channel layer group of ``topic`` (group names allow no colon)."""
    return "live." + topic.replace(":", ".")


def int_key(key: str) -> int:
    """A topic key that must be a row id; ``NotFound`` otherwise."""
    if not (key.isascii() and key.isdigit()) or len(key) > 18:
        raise NotFound("unknown_topic", _("There is nothing to follow by this name."))
    return int(key)
