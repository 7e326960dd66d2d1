"""The game entry from a phone: **Preview** before **Save**, extras added without a
script, and a typed game corrected in its place (issue 27)."""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from chouette import rules, selectors
from chouette.messages import rule_message
from chouette.models import ChouetteOnlineGame, ChouetteSession
from chouette.pages.common import (
    FATE_LABELS,
    KIND_LABELS,
    board_or_404,
    digits,
    game_notes,
    posted_version,
    scoreboard_url,
    writer_required,
)
from chouette.services.common import ledger_of
from chouette.services.games import (
    GamePreview,
    counted_game_events,
    game_edit,
    game_edit_preview,
    game_preview,
    game_record,
)
from games.errors import ApplicationError, ValidationFailed
from games.web import show_refusal

#: Extra rows the game entry shows at most (the rules' bound).
MAX_EXTRA_ROWS = rules.MAX_EXTRAS


#: Typed for a negative settlement by a phone's keyboard now and then.
MINUS_SIGN = "\u2212"


def _int(value: str, default: int | None = None) -> int | None:
    value = (value or "").strip()
    if not value:
        return default
    value = value.replace(MINUS_SIGN, "-")
    if not re.fullmatch(r"[-+]?\d+", value):  # a settlement may be typed "+2"
        raise ValidationFailed("invalid_data", rule_message("invalid_data"))
    return int(value)


def _entry_from_post(post: Any, seating: rules.Seating) -> dict[str, Any]:
    """The game entry the form describes (shape only: the rules judge it), played from
    ``seating`` (the present one; for an edit, the one the game was played from)."""
    box = _int(post.get("box", ""))
    captain = _int(post.get("captain", ""))
    partner = _int(post.get("partner", ""))
    seated = [int(p) for p in seating.seated]
    team = [p for p in seated if p not in (box, partner)]
    if captain in team:
        team.remove(captain)
        team.insert(0, captain)
    members = []
    for p in team:
        fate = post.get(f"fate-{p}", "took")
        member = {
            "player": p,
            "cube": _int(post.get(f"cube-{p}", ""), 1),
            "fate": fate,
            "beavers": _int(post.get(f"beavers-{p}", ""), 0),
            "raccoons": _int(post.get(f"raccoons-{p}", ""), 0),
        }
        if fate == "settled":  # the points field counts only for a member who settled
            member["settled"] = _int(post.get(f"settled-{p}", ""))
        members.append(member)
    winner = post.get("winner") or None
    entry: dict[str, Any] = {
        "box": box,
        "captain": captain,
        "partner": partner,
        "members": members,
        "winner": winner,
        "kind": (post.get("kind") or None) if winner else None,
        "initial_cube": _int(post.get("initial_cube", ""), 1),
    }
    extras = [
        {
            "taker": _int(row["taker"]),
            "giver": _int(row["giver"]),
            "stake": _int(row["stake"]),
            "price": _int(row["price"], 0),
        }
        for row in _extra_rows(post)
        if row["taker"] or row["giver"]  # a row left empty is no extra
    ]
    if extras:
        entry["extras"] = extras
    return entry


def _extra_count(post: Any) -> int:
    """How many extra rows the posted form had (``extra_rows``), within bounds."""
    raw = post.get("extra_rows", "") if post is not None else ""
    return min(int(raw), MAX_EXTRA_ROWS) if digits(raw) else 0


def _extra_rows(post: Any) -> list[dict[str, str]]:
    """The extra rows as typed: ``extra-<i>-taker``, ``-giver``, ``-stake``, ``-price``."""
    return [
        {
            name: (post.get(f"extra-{i}-{name}", "") or "").strip()
            for name in ("taker", "giver", "stake", "price")
        }
        for i in range(_extra_count(post))
    ]


def _entry_values(data: dict[str, Any]) -> dict[str, Any]:
    """A stored entry as the form's values (the edit of a game, issue 27)."""
    values: dict[str, Any] = {
        "box": str(data["box"]),
        "captain": str(data["captain"]),
        "partner": "" if data.get("partner") is None else str(data["partner"]),
        "winner": data.get("winner") or "",
        "kind": data.get("kind") or "single",
        "initial_cube": str(data.get("initial_cube", 1)),
    }
    for m in data["members"]:
        p = m["player"]
        values[f"cube-{p}"] = str(m.get("cube", 1))
        values[f"fate-{p}"] = m.get("fate", "took")
        values[f"beavers-{p}"] = str(m.get("beavers", 0))
        values[f"raccoons-{p}"] = str(m.get("raccoons", 0))
        values[f"settled-{p}"] = "" if m.get("settled") is None else str(m["settled"])
    return values


def _entry_extra_rows(data: dict[str, Any]) -> list[dict[str, str]]:
    return [
        {name: str(x.get(name, "")) for name in ("taker", "giver", "stake", "price")}
        for x in data.get("extras", [])
    ]


def _form_values(
    profile: rules.Profile, seating: rules.Seating, post: Any | None
) -> dict[str, Any]:
    """The entry form's values: the posted ones, or the seating's (box, captain,
    partner), every cube at the initial value, taken."""
    if post is not None:
        return {k: post.get(k, "") for k in post}
    partner = seating.partner(profile)
    values: dict[str, Any] = {
        "box": str(seating.box),
        "captain": str(seating.captain),
        "partner": "" if partner is None else str(partner),
        "winner": "team",
        "kind": "single",
        "initial_cube": "1",
    }
    for p in seating.line:
        values[f"cube-{p}"] = "1"
        values[f"fate-{p}"] = "took"
        values[f"beavers-{p}"] = "0"
        values[f"raccoons-{p}"] = "0"
        values[f"settled-{p}"] = ""
    return values


def _cubes(profile: rules.Profile) -> list[int]:
    out, value = [], 1
    while value <= profile.max_cube:
        out.append(value)
        value *= 2
    return out


@writer_required
def game_entry(
    request: HttpRequest, session: ChouetteSession, number: int | None = None
) -> HttpResponse:
    """Enter a game from a phone: box, captain (and partner) prefilled from the seating,
    every member's cube and fate (and beavers, raccoons per profile), the winner and
    the result. **Preview** shows each player's points and saves nothing; **Save**
    records the game. Another box, captain or partner than the seating's chosen here
    sets the seating by hand first (``set_seating``: issue 27).

    ``number`` (``/games/<number>/edit/``, issue 27): the same form prefilled with game
    ``number`` as it was typed, played from the seating it was played from; **Save**
    corrects it (:func:`game_edit`), **Preview** shows its corrected points."""
    board = board_or_404(session.pk, last=1)
    if not session.is_open:
        messages.error(request, _("This chouette session has ended."))
        return redirect(scoreboard_url(session.pk))
    seating = board.seating
    stored: dict[str, Any] | None = None
    if number is not None:
        games = counted_game_events(session)
        if not 1 <= number <= len(games):
            raise Http404
        if ChouetteOnlineGame.objects.filter(event=games[number - 1]).exists():
            messages.error(
                request,
                _("This game was played online: its record is the table's, not typed in."),
            )
            return redirect(scoreboard_url(session.pk))
        stored = games[number - 1].data
        seating = ledger_of(session).rows[number - 1].seating_before
    preview = None
    status = 200
    post = request.POST if request.method == "POST" else None
    extra_rows = _extra_rows(post) if post is not None else []
    if post is None and stored is not None:
        extra_rows = _entry_extra_rows(stored)
    if post is not None and post.get("action") == "add_extra":
        # One more extra row: the form again as typed, nothing checked or saved.
        if len(extra_rows) < MAX_EXTRA_ROWS:
            extra_rows.append({"taker": "", "giver": "", "stake": "2", "price": "1"})
    elif post is not None:
        try:
            entry = _entry_from_post(post, seating)
            if post.get("action") == "save" and number is not None:
                game_edit(
                    session_id=session.pk,
                    by=request.user,
                    number=number,
                    entry=entry,
                    expected_version=posted_version(request),
                )
                messages.success(
                    request, _("Game %(number)d has been corrected.") % {"number": number}
                )
                return redirect(scoreboard_url(session.pk))
            if post.get("action") == "save":
                game_record(
                    session_id=session.pk,
                    by=request.user,
                    entry=entry,
                    expected_version=posted_version(request),
                    set_seating=True,
                )
                messages.success(request, _("The game has been saved."))
                return redirect(scoreboard_url(session.pk))
            if number is not None:
                found = game_edit_preview(
                    session_id=session.pk, by=request.user, number=number, entry=entry
                )
            else:
                found = game_preview(
                    session_id=session.pk, by=request.user, entry=entry, set_seating=True
                )
            preview = {
                "rows": [
                    {
                        "name": board.names.get(p, str(p)),
                        "points": v,
                        "total": found.totals_after.get(p, 0),
                    }
                    for p, v in found.points.items()
                ],
                "box": board.names.get(int(found.seating_after.box), ""),
                "captain": board.names.get(int(found.seating_after.captain), ""),
                "notes": _preview_notes(found, board),
            }
        except ApplicationError as exc:
            show_refusal(request, exc)
            status = 400
    profile = board.profile
    partner = seating.partner(profile)
    seated = [
        {
            "id": p,
            "name": board.names.get(int(p), str(p)),
            "role": "box"
            if i == 0
            else "captain"
            if i == 1
            else "partner"
            if p == partner
            else "team",
        }
        for i, p in enumerate(seating.seated)
    ]
    if post is None and stored is not None:
        values = _entry_values(stored)
    else:
        values = _form_values(profile, seating, post)
    members = [
        {
            **s,
            "cube": values.get(f"cube-{s['id']}", "1"),
            "fate": values.get(f"fate-{s['id']}", "took"),
            "beavers": values.get(f"beavers-{s['id']}", "0"),
            "raccoons": values.get(f"raccoons-{s['id']}", "0"),
            "settled": values.get(f"settled-{s['id']}", ""),
        }
        for s in seated
        if s["role"] != "box"
    ]
    context = {
        "board": board,
        "session": session,
        "seated": seated,
        "members": members,
        "values": values,
        "preview": preview,
        "profile": profile,
        "cubes": _cubes(profile),
        "initial_cubes": [c for c in _cubes(profile) if c <= profile.max_initial_cube],
        "fates": list(FATE_LABELS.items()),
        "kinds": list(KIND_LABELS.items()),
        "has_partner": profile.box_partner,
        "extra_rows": extra_rows,
        "can_add_extra": len(extra_rows) < MAX_EXTRA_ROWS,
        "number": number,
    }
    return render(request, "chouette/game_entry.html", context, status=status)


def _preview_notes(found: GamePreview, board: selectors.Scoreboard) -> list[str]:
    """The previewed game's settlements and extras in words (as the games list says
    them once saved)."""
    data = found.entry.to_dict()
    return game_notes(data["members"], selectors.extras_of(data, board.profile), board.names)
