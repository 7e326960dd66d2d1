"""Match play, live: the ``match:<id>`` topic (games.live).

Every committed row of a match's games' logs is an event, in the order of (game number,
seq): rolls, plays, cube actions, resignations and their answers, a timeout and its
claim (also when the Celery worker or the sweeper records the flag), and each new game's
opening roll. The position of an event is ``[game number, seq]`` -- ``seq`` is the
game's version after it -- and ``prev`` the position of the event before it in the
match (the first row of game ``n`` follows the last row of game ``n - 1``; the first row
of the match follows ``[0, 0]``). A clock switches with every action, so the action's
event is the switch: the page reads the clocks again with it. A money session ended
between games changes no log, so it is a plain ``changed``. The actions of a clocked game
also touch ``clocks:all``, the director's list of live clocks (:mod:`games.clocks.live`),
which shows the online clocks too.

Who may follow a match is who may see its page: today every match is public (anyone,
logged in or not); a match that does not exist is refused.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from games import wallclock
from games.errors import NotFound
from games.live import publish
from games.live.topics import Event, Position, ReplayTooOld, int_key, register_topic
from games.models import Game, GameAction, Match

#: Events replayed to a client that comes back; further behind, it fetches the state.
REPLAY_LIMIT = 300
#: The director's list of live clocks (games.clocks.live registers it): it shows the
#: running clocks of online games too, so every action of a clocked game touches it.
CLOCK_LIST_TOPIC = "clocks:all"


def match_topic(match_id: int) -> str:
    return f"match:{match_id}"


def action_event(
    *,
    match_id: int,
    game_id: int,
    number: int,
    row: GameAction,
    prev: Position,
) -> Event:
    return {
        "match": match_id,
        "game": game_id,
        "number": number,
        "version": row.seq,
        "pos": [number, row.seq],
        "prev": prev,
        "kind": row.kind,
        "player": row.player_index,
        "data": row.data,
        "at": wallclock.to_ms(row.created_at) if row.created_at else None,
    }


def publish_actions(
    *, game: Game, rows: Sequence[GameAction], after: Position | None = None
) -> None:
    """Publish ``rows`` (just logged, in seq order) of ``game`` after commit. ``after``:
    the position before the first row when it opens a game (the previous game's last)."""
    events = []
    for row in rows:
        if row.seq == 1:
            prev = after if after is not None else [game.number - 1, 0]
        else:
            prev = [game.number, row.seq - 1]
        events.append(
            action_event(
                match_id=game.match_id, game_id=game.pk, number=game.number, row=row, prev=prev
            )
        )
    publish.publish_events(match_topic(game.match_id), events)
    if events and game.clock is not None:
        publish.touch(CLOCK_LIST_TOPIC)  # the clock switched, stopped or flagged


def publish_match_changed(*, match_id: int) -> None:
    publish.touch(match_topic(match_id))


# ====================================================================== the topic
def match_authorize(user: Any, key: str) -> None:
    # One EXISTS, not selectors.match_get: that loads the players and the games, which
    # a socket's watch (every match page's load) does not need.
    if not Match.objects.filter(pk=int_key(key)).exists():
        raise NotFound("match_not_found", _("There is no match with this id."))


def match_replay(key: str, since: Position | None) -> tuple[list[Event], Position]:
    match_id = int_key(key)
    latest = (
        Game.objects.filter(match_id=match_id)
        .order_by("-number")
        .values_list("number", "version")
        .first()
    )
    current: Position = [0, 0] if latest is None else [latest[0], latest[1]]
    if since is None or since == current:
        return [], current
    if len(since) != 2 or since > current:
        raise ReplayTooOld  # not a position of this match: fetch the state
    number, version = since
    rows = list(
        GameAction.objects.filter(game__match_id=match_id)
        .filter(Q(game__number__gt=number) | Q(game__number=number, seq__gt=version))
        .select_related("game")
        .only("seq", "kind", "player_index", "data", "created_at", "game__id", "game__number")
        .order_by("game__number", "seq")[: REPLAY_LIMIT + 1]
    )
    if len(rows) > REPLAY_LIMIT:
        raise ReplayTooOld
    return list(_chain(match_id, rows, since)), current


def _chain(match_id: int, rows: Iterable[GameAction], since: Position) -> Iterable[Event]:
    prev = since
    for row in rows:
        event = action_event(
            match_id=match_id, game_id=row.game.pk, number=row.game.number, row=row, prev=prev
        )
        prev = event["pos"]
        yield event


def register() -> None:
    register_topic("match", authorize=match_authorize, replay=match_replay)
