"""The one WebSocket endpoint, ``/ws/live/``: a page follows its topics over it.

Messages from the client (JSON)::

    {"op": "watch", "topic": "match:12", "since": [2, 7]}   # since: versioned topics
    {"op": "unwatch", "topic": "match:12"}

to the client::

    {"t": "watching", "topic": ..., "pos": [2, 9]}      # pos: versioned topics only
    {"t": "refused", "topic": ..., "code": "forbidden", "detail": "..."}
    {"t": "event", "topic": ..., "pos": [2, 8], "prev": [2, 7], ...}  # the topic's event
    {"t": "changed", "topic": ...}                      # fetch the fragment again
    {"t": "resync", "topic": ..., "pos": [3, 1]}        # too far behind: fetch the state

Each connection keeps, per versioned topic, the position of the last event it sent. An
event at or before it is dropped (never twice); an event whose ``prev`` is that position is
sent; anything else means something was missed (a publisher elsewhere overtook another,
or the client came back with an old position), and the gap is read from the topic's
authoritative log (its ``replay``) before going on. The consumer handles one message at a
time, so a replay and the live events that arrive during it cannot interleave.
"""

from __future__ import annotations

import logging
from typing import Any

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.errors import ApplicationError
from games.live.topics import Position, ReplayTooOld, TopicKind, topic_group, topic_kind

log = logging.getLogger(__name__)

#: Topics one connection may follow at once (a page follows two or three).
MAX_TOPICS = 16
#: Largest message accepted from a client, in characters.
MAX_MESSAGE = 1024


class LiveConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    async def dispatch(self, message: dict[str, Any]) -> None:
        """Each message's handler, without Channels' ``aclose_old_connections`` first:
        that is a trip to a thread for every message, which was half of the socket
        server's CPU in bench/live.py. No handler here touches the database but through
        ``database_sync_to_async``, which closes old connections around each call."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        # Refusals speak the page's language: the cookie the language switch sets, else
        # the site's default (the socket has no LocaleMiddleware).
        cookie = self.scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME, "")
        languages = {code for code, _name in settings.LANGUAGES}
        self.language = cookie if cookie in languages else settings.LANGUAGE_CODE
        self.watching: dict[str, Position | None] = {}  # topic -> last position sent
        await self.accept()

    async def disconnect(self, code: int) -> None:
        for topic in list(getattr(self, "watching", {})):
            await self.channel_layer.group_discard(topic_group(topic), self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is None or len(text_data) > MAX_MESSAGE:
            await self._refuse("", "bad_message", _("A message is a short JSON object."))
            return
        await super().receive(text_data=text_data)

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        import json

        try:
            return json.loads(text_data)
        except (ValueError, RecursionError):  # a bad message is refused, never a crash
            return None

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict) or not isinstance(content.get("topic"), str):
            await self._refuse("", "bad_message", _("A message is {op, topic}."))
            return
        topic = content["topic"]
        op = content.get("op")
        if op == "watch":
            await self._watch(topic, content.get("since"))
        elif op == "unwatch":
            if self.watching.pop(topic, 0) != 0:
                await self.channel_layer.group_discard(topic_group(topic), self.channel_name)
        else:
            await self._refuse(topic, "bad_message", _("op is watch or unwatch."))

    # ------------------------------------------------------------------ watching
    async def _watch(self, topic: str, since: Any) -> None:
        if topic not in self.watching and len(self.watching) >= MAX_TOPICS:
            await self._refuse(topic, "too_many_topics", _("Too many topics on one connection."))
            return
        try:
            kind, key = topic_kind(topic)
        except ApplicationError as exc:
            await self._refuse(topic, exc.code, exc.detail)
            return
        position = _position(since)
        # Join first, then read the log: an event committed in between is either in the
        # replay or queued behind it, and then dropped as already sent.
        await self.channel_layer.group_add(topic_group(topic), self.channel_name)
        try:
            # One trip to the database thread for both: a page's socket opens with it.
            admitted = await database_sync_to_async(_admit)(
                kind, self.scope.get("user"), key, position, self.language
            )
        except ApplicationError as exc:
            await self.channel_layer.group_discard(topic_group(topic), self.channel_name)
            await self._refuse(topic, exc.code, exc.detail)
            return
        if admitted is None:
            self.watching[topic] = None
            await self.send_json({"t": "watching", "topic": topic})
            return
        await self._send_replay(topic, *admitted)
        await self.send_json({"t": "watching", "topic": topic, "pos": self.watching[topic]})

    async def _catch_up(self, topic: str, since: Position | None) -> None:
        kind, key = topic_kind(topic)
        replayed = await database_sync_to_async(_replay)(kind, key, since)
        await self._send_replay(topic, *replayed)

    async def _send_replay(
        self, topic: str, events: list[dict[str, Any]] | None, current: Position
    ) -> None:
        self.watching[topic] = current
        if events is None:
            await self.send_json({"t": "resync", "topic": topic, "pos": current})
            return
        for event in events:
            await self.send_json({"t": "event", **event, "topic": topic})

    async def _refuse(self, topic: str, code: str, detail: str | Promise) -> None:
        with translation.override(self.language):
            text = str(detail)
        await self.send_json({"t": "refused", "topic": topic, "code": code, "detail": text})

    # ------------------------------------------------------------------ from the layer
    async def live_event(self, message: dict[str, Any]) -> None:
        event = message["event"]
        topic = event["topic"]
        if topic not in self.watching:
            return
        last = self.watching[topic]
        pos, prev = event.get("pos"), event.get("prev")
        if last is not None and pos <= last:
            return  # sent already (in a replay, or twice by the layer)
        if last is None or prev == last:
            self.watching[topic] = pos
            await self.send_json({"t": "event", **event})
            return
        await self._catch_up(topic, last)  # a gap: read it from the log

    async def live_changed(self, message: dict[str, Any]) -> None:
        if message["topic"] in self.watching:
            await self.send_json({"t": "changed", "topic": message["topic"]})


def _admit(
    kind: TopicKind, user: Any, key: str, since: Position | None, language: str
) -> tuple[list[dict[str, Any]] | None, Position] | None:
    """May ``user`` follow the topic (raises when not, in ``language``), and for a
    versioned topic what to send first: the events after ``since`` (``None``: resync)
    and the position."""
    with translation.override(language):
        kind.authorize(user, key)
    if kind.replay is None:
        return None
    return _replay(kind, key, since)


def _replay(
    kind: TopicKind, key: str, since: Position | None
) -> tuple[list[dict[str, Any]] | None, Position]:
    assert kind.replay is not None
    try:
        return kind.replay(key, since)
    except ReplayTooOld:
        return None, kind.replay(key, None)[1]


def _position(since: Any) -> Position | None:
    if (
        isinstance(since, list)
        and 1 <= len(since) <= 4
        and all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 2**31 for n in since)
    ):
        return list(since)
    return None
