"""The live scoreboard and its wall (``?wall=1``): the seating, the last games, the
totals, the roll-off; for the session's writers, the forms of :mod:`chouette.pages.actions`
and the join code with its QR code."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from chouette import live, rules, selectors
from chouette.models import ChouetteOnlineGame, ChouetteSession
from chouette.pages.common import (
    FATE_LABELS,
    KIND_LABELS,
    ROLE_LABELS,
    board_or_404,
    game_notes,
    summary_context,
)
from chouette.services.common import MAX_NAME, may_write
from chouette.services.proxies import may_set_proxy
from chouette.services.sessions import may_reopen
from chouette.services.summary import session_summary
from games.codes import qr_svg
from games.models import Player


def _game_rows(board: selectors.Scoreboard) -> list[dict[str, Any]]:
    """The last games for the table: number, box, result, every player's points in the
    order they joined (:func:`_columns`): a column does not move when the seating does."""
    rows = []
    online = dict(
        ChouetteOnlineGame.objects.filter(
            event_id__in=[g.event.pk for g in board.games]
        ).values_list("event_id", "number")
    )
    for game in board.games:
        result = (
            _("%(winner)s wins a %(kind)s")
            % {
                "winner": _("box") if game.winner == "box" else _("team"),
                "kind": KIND_LABELS.get(game.kind or "", game.kind),
            }
            if game.winner
            else _("every cube dropped")
        )
        rows.append(
            {
                "game": game,
                "box": board.names.get(game.box, ""),
                "result": result,
                "notes": game_notes(game.members, game.extras, board.names),
                "online": online.get(game.event.pk),
                "corrected": game.event.corrects_id is not None,
                "cells": [game.points.get(p) for p in board.joined],
            }
        )
    return rows


def _columns(board: selectors.Scoreboard) -> list[str]:
    """The last games' player columns: the session's join order (issue 18: following the
    seating, a player's column moved after every game)."""
    return [board.names.get(p, str(p)) for p in board.joined]


def scoreboard(request: HttpRequest, session_id: int) -> HttpResponse:
    """The live scoreboard: the seating line with box, captain, partner and team marked,
    the last game's cubes, running totals and the last games; ``?wall=1`` for a big
    screen (no header, large type). Both follow the session live."""
    board = board_or_404(session_id)
    wall = request.GET.get("wall") == "1"
    session = board.session
    can_write = may_write(request.user, session)
    game_rows = _game_rows(board)
    context: dict[str, Any] = {
        "board": board,
        "session": session,
        "seats": [{"seat": s, "role_label": ROLE_LABELS[s.role]} for s in board.seats],
        "game_rows": game_rows,
        "columns": _columns(board),
        "fate_labels": FATE_LABELS,
        "can_write": can_write and session.is_open,
        "live_topics": live.session_topic(session.pk),
        "join": _join_context(request, session) if can_write and session.is_open else None,
        "online_game": session.online_games.filter(status="playing").first(),
    }
    context["rolloff"] = _rolloff(session, board.names)
    if not session.is_open:  # the end's totals and who pays whom (the wall says it big)
        context.update(summary_context(session_summary(session_id=session.pk)))
    if wall:
        context["wall"] = True
        return render(request, "chouette/wall.html", context)
    # The confirmation names the game an undo takes back: the newest one counted.
    context["undo_game"] = game_rows[0] if game_rows else None
    context["can_reopen"] = may_reopen(request.user, session)
    context["splits"] = list(session.splits.order_by("pk"))
    context["changes"] = [
        {"change": c, "before": ", ".join(c.before), "after": ", ".join(c.after)}
        for c in board.changes
    ]
    if can_write and session.is_open:
        # Only the player themself, the scorekeeper and staff name a proxy (R13 online).
        context["proxy_seats"] = [
            row
            for row in context["seats"]
            if may_set_proxy(request.user, session, row["seat"].player_id)
        ]
        in_session = set(board.names)
        context["newcomers"] = Player.objects.filter(is_active=True).exclude(pk__in=in_session)
        context["split"] = _split_context(board)
        context["reseat"] = _reseat_context(board)
    return render(request, "chouette/scoreboard.html", context)


def _rolloff(session: ChouetteSession, names: dict[int, str]) -> list[dict[str, Any]]:
    """The session's roll-off as the table rolled it (issue 27), in the seating order it
    gave: each player's name, die and the re-rolls that broke a tie."""
    rolls = {int(r["player"]): list(r["rolls"]) for r in session.rolls if r.get("rolls")}
    if not rolls:
        return []
    try:
        order = [int(p) for p in rules.roll_off_order(rolls)]
    except rules.ChouetteError:  # stored before the rules checked it: as stored
        order = list(rolls)
    return [
        {"name": names.get(p, str(p)), "die": rolls[p][0], "rerolls": rolls[p][1:]} for p in order
    ]


def _reseat_context(board: selectors.Scoreboard) -> dict[str, Any]:
    """The form that sets box, captain and line by hand (issue 27): one select per seat,
    each offering every seated player, the present seating chosen."""
    seated = [s for s in board.seats if s.role != "out"]
    players = [{"id": s.player_id, "name": s.name} for s in seated]
    labels = [_("Box"), _("Captain")] + [
        _("Place %(number)d in the line") % {"number": i} for i in range(2, len(seated))
    ]
    return {
        "players": players,
        "rows": [
            {"label": label, "name": "box" if i == 0 else "line", "id": f"reseat-{i}", "chosen": s}
            for i, (label, s) in enumerate(zip(labels, seated, strict=True))
        ],
    }


def _split_context(board: selectors.Scoreboard) -> dict[str, Any] | None:
    """The split form (issue 19), when enough players are seated: the seated players,
    those who move by default checked, and a name for the new session."""
    seated = [s for s in board.seats if s.role != "out"]
    if len(seated) < board.profile.split_min_players:
        return None
    movers = set(rules.default_movers(board.seating))
    suffix = " (2)"
    return {
        "seats": [{"seat": s, "moves": s.player_id in movers} for s in seated],
        "name": board.session.name[: MAX_NAME - len(suffix)] + suffix,
    }


def _join_url(request: HttpRequest, code: str) -> str:
    """The join page of a code, as an absolute URL (what the QR code opens)."""
    return request.build_absolute_uri(reverse("chouette:join-code", kwargs={"code": code}))


def _join_context(request: HttpRequest, session: ChouetteSession) -> dict[str, Any]:
    """The join code, its URL and QR code, for the scoreboard and the wall as the
    session's writers see them: the table (who may join with it:
    :mod:`chouette.services.joining`)."""
    url = _join_url(request, session.join_code)
    return {"code": session.join_code, "url": url, "qr": qr_svg(url)}
