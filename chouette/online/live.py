"""Online chouette, live: the ``chouette_game:<id>`` and ``chouette_team:<id>`` topics.

* ``chouette_game:<id>`` is versioned: every row of the game's log
  (:class:`~chouette.models.ChouetteOnlineAction`) is an event at position
  ``[version]``, so a page that comes back after its socket dropped is sent what it
  missed (or told to fetch the state when too far behind). Anyone may follow it, as
  anyone may watch the game: the board, the dice and every cube are public.
* ``chouette_team:<id>`` is the team's consultation: a plain "changed" when a member
  writes. Only the team's members may follow it (the box and the partner are refused),
  and the event carries no text: the page fetches it, and the page shows the chat to the
  team only.

A game's start and end also touch the session's topic (``chouette:<session id>``): the
scoreboard shows the game being played and, when it ends, the new totals; every table
page shows the next game when it starts.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from chouette.live import session_changed
from chouette.models import ChouetteOnlineAction, ChouetteOnlineGame
from games import wallclock
from games.errors import NotFound, PermissionDenied
from games.live import publish
from games.live.topics import Event, Position, ReplayTooOld, int_key, register_topic
from games.models import Player

REPLAY_LIMIT = 300


def game_topic(game_id: int) -> str:
    return f"chouette_game:{game_id}"


def team_topic(game_id: int) -> str:
    return f"chouette_team:{game_id}"


def _event(row: ChouetteOnlineAction, game_id: int) -> Event:
    return {
        "game": game_id,
        "version": row.seq,
        "pos": [row.seq],
        "prev": [row.seq - 1],
        "kind": row.kind,
        "player": row.actor_id,
        "data": row.data,
        "at": wallclock.to_ms(row.created_at) if row.created_at else None,
    }


def game_changed(game: ChouetteOnlineGame, row: ChouetteOnlineAction, *, session_id: int) -> None:
    """After commit: the game's new log row (``row``, just written) to its followers; the
    scoreboard (and every table page, which shows the next game when it starts) when the
    game starts or ends, not at every move."""
    publish.publish_events(game_topic(game.pk), [_event(row, game.pk)])
    if game.version == 1 or not game.is_playing:
        session_changed(session_id)


def team_changed(game_id: int) -> None:
    publish.touch(team_topic(game_id))


def game_authorize(user: Any, key: str) -> None:
    if not ChouetteOnlineGame.objects.filter(pk=int_key(key)).exists():
        raise NotFound("online_game_not_found", _("There is no online chouette game with this id."))


def game_replay(key: str, since: Position | None) -> tuple[list[Event], Position]:
    game_id = int_key(key)
    version = (
        ChouetteOnlineGame.objects.filter(pk=game_id).values_list("version", flat=True).first()
    )
    current: Position = [version or 0]
    if since is None or since == current:
        return [], current
    if len(since) != 1 or since > current:
        raise ReplayTooOld
    rows = list(
        ChouetteOnlineAction.objects.filter(game_id=game_id, seq__gt=since[0]).order_by("seq")[
            : REPLAY_LIMIT + 1
        ]
    )
    if len(rows) > REPLAY_LIMIT:
        raise ReplayTooOld
    return [_event(r, game_id) for r in rows], current


def team_authorize(user: Any, key: str) -> None:
    game = ChouetteOnlineGame.objects.filter(pk=int_key(key)).only("table").first()
    if game is None:
        raise NotFound("online_game_not_found", _("There is no online chouette game with this id."))
    me = Player.of_user(user)
    if me is None or me.pk not in game.table.get("members", ()):
        raise PermissionDenied("not_in_team", _("Only the team reads and writes here."))


def register() -> None:
    register_topic("chouette_game", authorize=game_authorize, replay=game_replay)
    register_topic("chouette_team", authorize=team_authorize)
