"""Reads of online chouette play: a game as one viewer sees it (page and API alike).

What everybody sees: the board, the dice, every member's cube and fate, who must act and
every decision waiting, with the end of its time window; the moves. What only one
viewer gets: their own possible actions (also those they take as someone's proxy) and,
for the team's members, the team's chat (never the box's or the partner's).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from chouette import selectors as chouette_selectors
from chouette.models import (
    AWAY_WINDOW_SECONDS,
    ChouetteOnlineAction,
    ChouetteOnlineGame,
    ChouetteSession,
)
from chouette.online import texts
from chouette.online.table import BOX, Table
from chouette.stored import stake_of
from games import wallclock
from games.engine.clock import ClockState
from games.engine.notation import format_play
from games.engine.position import position_id
from games.errors import NotFound
from games.models import Player

#: Moves listed on the page (the newest last); the API pages the whole log.
MOVES_SHOWN = 40
#: Team messages shown (the newest last).
TEAM_MESSAGES_SHOWN = 50


def online_game_get(*, game_id: int) -> ChouetteOnlineGame:
    try:
        return ChouetteOnlineGame.objects.select_related("session", "event").get(pk=game_id)
    except ChouetteOnlineGame.DoesNotExist:
        raise NotFound(
            "online_game_not_found", "There is no online chouette game with this id."
        ) from None


def session_current_game(session: ChouetteSession) -> ChouetteOnlineGame | None:
    """The game being played, else the last one (finished or abandoned), else ``None``."""
    games = session.online_games.select_related("event")
    playing = games.filter(status=ChouetteOnlineGame.Status.PLAYING).first()
    return playing or games.order_by("-number").first()


def game_proxies(session: ChouetteSession, table: Table) -> dict[int, int]:
    """Member -> proxy for this game: the session's proxies (``ChouetteParticipant.proxy``)
    of the team's members, by a proxy not on the box's side (nobody answers for the cube
    they play against: :func:`chouette.rules.game_proxies`)."""
    box_side = {table.box, table.partner}
    return {
        member: proxy
        for member, proxy in chouette_selectors.session_proxies(session).items()
        if member in table.members and proxy not in box_side
    }


def proxies_for(session: ChouetteSession, table: Table, player_id: int | None) -> list[int]:
    """The members of this game ``player_id`` answers for as their proxy."""
    if player_id is None:
        return []
    return [m for m, p in game_proxies(session, table).items() if p == player_id]


def _names(table: Table) -> dict[int, str]:
    ids = {table.box, *table.members} | ({table.partner} if table.partner else set())
    return dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))


def session_away(session: ChouetteSession) -> list[int]:
    """The players away from the table: those who named a proxy (docs/rules.md R13,
    "Played online": a player who named a proxy has left the table)."""
    return list(chouette_selectors.session_proxies(session))


def absent_deciders(session: ChouetteSession, table: Table) -> list[int]:
    """The deciders of the open decisions whom nobody at the table answers for: away,
    with no proxy in this game (the box, a member whose proxy is on the box's side)."""
    proxies = game_proxies(session, table)
    return [
        d.decider for d in table.decisions if d.decider in table.away and d.decider not in proxies
    ]


def window_seconds(session: ChouetteSession, table: Table) -> int | None:
    """How long the present wait may last, in seconds (``None``: no limit):

    * a cube decision waits: the session's decision window (``decision_seconds``); a
      session without one (0) still gives a decision nobody at the table can answer
      :data:`~chouette.models.AWAY_WINDOW_SECONDS`;
    * the side on roll has nobody at the table to move for it (:attr:`Table.unmanned`)
      and the game has no move clock (a clock decides by its flag): the decision window,
      or :data:`~chouette.models.AWAY_WINDOW_SECONDS` when the session has none. Then the
      side forfeits (a gammon), so a game always ends.
    """
    seconds = session.decision_seconds
    if table.decisions:
        if seconds:
            return int(seconds)
        return AWAY_WINDOW_SECONDS if absent_deciders(session, table) else None
    if table.unmanned is not None:
        return int(seconds) or AWAY_WINDOW_SECONDS
    return None


def window_deadline(
    session: ChouetteSession, game: ChouetteOnlineGame, table: Table
) -> datetime | None:
    """When the present wait ends (:func:`window_seconds`), from ``decisions_since``."""
    if game.decisions_since is None or table.is_over:
        return None
    if table.unmanned is not None and not table.decisions and game.clock is not None:
        return None  # the move clock decides
    seconds = window_seconds(session, table)
    if seconds is None:
        return None
    return game.decisions_since + timedelta(seconds=seconds)


def decision_deadline(game: ChouetteOnlineGame, table: Table) -> datetime | None:
    return window_deadline(game.session, game, table)


def online_game_view(
    game: ChouetteOnlineGame, *, viewer: int | None, at: datetime | None = None
) -> dict[str, Any]:
    """Everything a page or a client shows of ``game`` to ``viewer`` (a player id, or
    ``None`` for a spectator)."""
    at = at or wallclock.now()
    table = Table.from_dict(game.table)
    names = _names(table)
    acting = table.acting_captain
    proxies = chouette_selectors.session_proxies(game.session) if table.away else {}
    proxy_names = dict(
        Player.objects.filter(pk__in=set(proxies.values())).values_list("pk", "name")
    )
    members = []
    for c in table.cubes:
        role = "captain" if c.player == table.captain else "member"
        members.append(
            {
                "player": c.player,
                "name": names.get(c.player, "?"),
                "role": role,
                "acting_captain": c.player == acting and c.player != table.captain,
                "cube": c.value,
                "owner": c.owner,
                "fate": c.fate,
                "pending": c.pending,
                "consented": c.consented,
                "beavers": c.beavers,
                "raccoons": c.raccoons,
                "settlement": c.settlement,
                "away": c.player in table.away,
                "proxy_name": proxy_names.get(proxies.get(c.player, 0)),
            }
        )
    decisions = [
        {
            "decider": d.decider,
            "decider_name": names.get(d.decider, "?"),
            "member": d.member,
            "member_name": names.get(d.member, "?"),
            "kind": d.kind,
            "answers": list(d.answers),
            "offered": _offered(table, d.member, d.kind),
            "members": [d.member],
        }
        for d in table.decisions
    ]
    decisions = _one_team_double(table, decisions)
    deadline = decision_deadline(game, table)
    in_team = viewer is not None and viewer in table.members
    mine = _actions(table, viewer, names) if game.is_playing and viewer is not None else {}
    proxy_for = proxies_for(game.session, table, viewer) if game.is_playing else []
    for member in proxy_for:
        theirs = [d for d in table.decisions if d.decider == member]
        if theirs:
            mine.setdefault("proxy_decisions", []).extend(
                {
                    "member": d.member,
                    "member_name": names.get(d.member, "?"),
                    "as_player": member,
                    "kind": d.kind,
                    "answers": list(d.answers),
                }
                for d in theirs
            )
    board = table.board
    view: dict[str, Any] = {
        "id": game.pk,
        "session": game.session_id,
        "number": game.number,
        "status": game.status,
        "version": game.version,
        "profile": table.profile.kind,
        "box": {"player": table.box, "name": names.get(table.box, "?")},
        "partner": None
        if table.partner is None
        else {"player": table.partner, "name": names.get(table.partner, "?")},
        "captain": table.captain,
        "acting_captain": acting,
        "members": members,
        "side_on_roll": None if board.phase == "opening" else table.side_on_roll,
        "phase": board.phase,
        "dice": None if board.dice is None else list(board.dice),
        "mover": table.mover,
        "mover_name": names.get(table.mover) if table.mover is not None else None,
        "position_id": position_id(board.position),
        "pips": _pips(table),
        "initial_cube": table.initial_cube,
        "decisions": decisions,
        "decision_deadline": deadline,
        "decision_default": game.session.decision_default,
        "decision_ms_left": None
        if deadline is None
        else max(0, int((deadline - at).total_seconds() * 1000)),
        "window": _window(game.session, table, deadline),
        "away": list(table.away),
        "unmanned": table.unmanned,
        "clock": _clock(game, at),
        "viewer": viewer,
        "viewer_role": _role(table, viewer),
        "in_team": in_team,
        "actions": mine,
        "extras": [_extra(x, names) for x in table.extras],
        "extra_offers": [
            {"index": i, "by": by, "by_name": names.get(by, "?"), **_extra(x, names)}
            for i, (by, x) in enumerate(table.extra_offers)
        ],
        "result": _result(game, table, names),
    }
    return view


def _one_team_double(table: Table, decisions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Classic: the team's double waits for the box once (one answer turns every cube), so
    it is one decision, about every member in it (``members``), not one per member."""
    if not table.classic:
        return decisions
    out: list[dict[str, Any]] = []
    team_double: dict[str, Any] | None = None
    for d in decisions:
        if d["kind"] != "member_doubled":
            out.append(d)
        elif team_double is None:
            team_double = {**d, "members": list(d.get("members", [d["member"]]))}
            out.append(team_double)
        else:
            team_double["members"].append(d["member"])
    return out


def _window(
    session: ChouetteSession, table: Table, deadline: datetime | None
) -> dict[str, Any] | None:
    """The present wait and what its end decides: ``kind`` ``decision`` (the open
    decisions' defaults, ``defaults``: ``(decider, member, kind, answer)`` exactly as
    :meth:`Table.defaults_applied` will apply them) or ``away`` (``side`` forfeits)."""
    if deadline is None:
        return None
    seconds = window_seconds(session, table)
    if table.decisions:
        given = table.defaults_applied(session.decision_default)[1]  # type: ignore[arg-type]
        return {"kind": "decision", "seconds": seconds, "defaults": [list(g) for g in given]}
    return {"kind": "away", "seconds": seconds, "side": table.unmanned}


def _offered(table: Table, member: int, kind: str) -> int:
    """What a decision is about: the settlement's points, else the doubled cube."""
    cube = table.cube_of(member)
    if kind == "settlement_offered":
        return cube.settlement or 0
    return cube.value * 2


def _extra(extra: Any, names: dict[int, str]) -> dict[str, Any]:
    return {
        "taker": extra.taker,
        "taker_name": names.get(extra.taker, "?"),
        "giver": extra.giver,
        "giver_name": names.get(extra.giver, "?"),
        "stake": extra.stake,
        "price": extra.price,
    }


def _role(table: Table, viewer: int | None) -> str:
    if viewer is None:
        return "spectator"
    if viewer == table.box:
        return "box"
    if viewer == table.partner:
        return "partner"
    if viewer in table.members:
        return "member" if table.cube_of(viewer).is_in else "out"
    return "spectator"


def _pips(table: Table) -> dict[str, int]:
    box = table.board.board_of(BOX).pip_count()[0]
    team = table.board.board_of(1 - BOX).pip_count()[0]
    return {"box": box, "team": team}


def _actions(table: Table, viewer: int, names: dict[int, str]) -> dict[str, Any]:
    found = table.actions_for(viewer)
    out: dict[str, Any] = {}
    if found.get("roll"):
        out["roll"] = True
    if "play" in found:
        out["play"] = [
            {"position_id": position_id(p.result), "play": format_play(p)} for p in found["play"]
        ]
    if found.get("choose_double"):
        out["choose_double"] = list(range(1, 7))
    if "box_double" in found:
        out["box_double"] = [
            {"player": p, "name": names.get(p, "?"), "cube": table.cube_of(p).value}
            for p in found["box_double"]
        ]
    if found.get("propose"):
        out["propose_double"] = True
    if found.get("double"):
        out["double"] = True
    if "offer_settlement" in found:
        out["offer_settlement"] = [
            {"player": p, "name": names.get(p, "?"), "low": low, "high": high}
            for p, (low, high) in found["offer_settlement"].items()
        ]
    if "offer_extra" in found:
        out["offer_extra"] = [
            {"player": p, "name": names.get(p, "?")} for p in found["offer_extra"]
        ]
    if "extra_offers" in found:
        out["extra_offers"] = [
            {"index": i, "by": by, "by_name": names.get(by, "?"), **_extra(x, names)}
            for i, by, x in found["extra_offers"]
        ]
    if "decisions" in found:
        out["decisions"] = _one_team_double(
            table,
            [
                {
                    "member": d.member,
                    "member_name": names.get(d.member, "?"),
                    "kind": d.kind,
                    "answers": list(d.answers),
                    "members": [d.member],
                }
                for d in found["decisions"]
            ],
        )
    return out


def _clock(game: ChouetteOnlineGame, at: datetime) -> dict[str, Any] | None:
    if game.clock is None:
        return None
    clock = ClockState.from_dict(game.clock)
    at_ms = wallclock.to_ms(at)
    remaining = clock.remaining(at_ms)
    return {
        "running": None if clock.running is None else ("box" if clock.running == BOX else "team"),
        "delay_ms": clock.settings.delay_ms,
        "delay_left_ms": None if remaining is None else remaining[0],
        "reserves_ms": {
            "box": clock.reserves_at(at_ms)[BOX],
            "team": clock.reserves_at(at_ms)[1 - BOX],
        },
    }


def _result(game: ChouetteOnlineGame, table: Table, names: dict[int, str]) -> dict[str, Any] | None:
    if game.status != ChouetteOnlineGame.Status.FINISHED or game.event is None:
        return None
    entry = game.event.data
    points = dict(game.event.lines.values_list("player_id", "points"))
    return {
        "winner": entry.get("winner"),
        "kind": entry.get("kind"),
        "flagged": table.flagged,
        "undone": game.event.undone,
        "points": [
            {"player": p, "name": names.get(p, "?"), "points": points.get(p, 0)}
            for p in (table.box, *([table.partner] if table.partner else []), *table.members)
        ],
    }


def online_moves(game: ChouetteOnlineGame, *, limit: int = MOVES_SHOWN) -> list[dict[str, Any]]:
    """The game's log, the newest ``limit`` rows, oldest first, with names and each row
    in words in the active language (``text``: :func:`chouette.online.texts.move_text`;
    every timeout names the rule and what it decided)."""
    rows = list(
        ChouetteOnlineAction.objects.filter(game=game)
        .select_related("actor", "by_player")
        .order_by("-seq")[:limit]
    )
    rows.reverse()
    session = game.session
    names = dict(Player.objects.filter(chouette_seats__session=session).values_list("pk", "name"))
    names.update(_names(Table.from_dict(game.table)))
    stake = stake_of(session)
    classic = game.table.get("profile", {}).get("kind", "classic") == "classic"
    out = []
    for r in rows:
        row = {
            "seq": r.seq,
            "kind": r.kind,
            "actor": r.actor_id,
            "actor_name": r.actor.name if r.actor else "",
            "by_name": r.by_player.name if r.by_player else "",
            "data": r.data,
            "at": r.created_at,
        }
        row["text"] = texts.move_text(row, names, stake=stake, classic=classic)
        out.append(row)
    return out


def team_messages(game: ChouetteOnlineGame, *, limit: int = TEAM_MESSAGES_SHOWN) -> list[Any]:
    rows = list(game.team_messages.select_related("author").order_by("-id")[:limit])
    rows.reverse()
    return rows
