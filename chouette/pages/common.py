"""What the chouette pages share: the labels of roles, fates and results, the writers'
guard, the posted version, a scoreboard or 404, a game's notes in words, the summary's
context."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from chouette import selectors
from chouette.models import ChouetteSession
from chouette.services.common import NOT_IN_SESSION, may_write
from chouette.services.summary import Summary

FATE_LABELS = {
    "took": gettext_lazy("took"),
    "dropped": gettext_lazy("dropped"),
    "box_dropped": gettext_lazy("box dropped"),
    "settled": gettext_lazy("settled"),
}
KIND_LABELS = {
    "single": gettext_lazy("single"),
    "gammon": gettext_lazy("gammon"),
    "backgammon": gettext_lazy("backgammon"),
}
ROLE_LABELS = {
    "box": gettext_lazy("box"),
    "partner": gettext_lazy("box partner"),
    "captain": gettext_lazy("captain"),
    "team": gettext_lazy("team"),
    "out": gettext_lazy("sitting out"),
}


def writer_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The view gets the session when the user may write to it; anonymous users are sent
    to log in, other users get 403 with a page that says who may."""

    @wraps(view)
    def wrapper(request: HttpRequest, session_id: int, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        session = get_object_or_404(ChouetteSession, pk=session_id)
        if not may_write(request.user, session):
            return render(
                request,
                "chouette/refused.html",
                {"session": session, "refusal": NOT_IN_SESSION},
                status=403,
            )
        return view(request, session, *args, **kwargs)

    return wrapper


def scoreboard_url(session_id: int) -> str:
    return reverse("chouette:scoreboard", kwargs={"session_id": session_id})


def digits(raw: str) -> bool:
    """Whether a posted value is a whole number Python reads: ASCII digits only (``'²'``
    is a digit to ``str.isdigit`` but not to ``int``), and not thousands of them."""
    return raw.isascii() and raw.isdigit() and len(raw) <= 18


def posted_version(request: HttpRequest) -> int | None:
    raw = request.POST.get("expected_version", "")
    return int(raw) if digits(raw) else None


def board_or_404(session_id: int, last: int | None = selectors.LAST_GAMES) -> selectors.Scoreboard:
    try:
        return selectors.scoreboard(session_id=session_id, last=last)
    except ChouetteSession.DoesNotExist:
        raise Http404 from None


def _signed(points: int) -> str:
    return f"{points:+d}"


def game_notes(
    members: list[dict[str, Any]], extras: list[dict[str, Any]], names: dict[int, str]
) -> list[str]:
    """A game's settlements and extras in words, for the games list: "Anna settled for
    +2", "Bob's extra from Cy at 2: +3 for Bob"."""
    notes = [
        _("%(name)s settled for %(points)s")
        % {"name": names.get(m["player"], ""), "points": _signed(m["settled"])}
        for m in members
        if m.get("fate") == "settled"
    ]
    for x in extras:
        taker = names.get(x["taker"], "")
        notes.append(
            _("%(taker)s's extra from %(giver)s at %(stake)d: %(points)s for %(taker)s")
            % {
                "taker": taker,
                "giver": names.get(x["giver"], ""),
                "stake": x["stake"],
                "points": _signed(x["points"]),
            }
        )
    return notes


def my_game_notes(game: selectors.GameLine, player: int, names: dict[int, str]) -> list[str]:
    """A game's settlement and extras of one player, from their side: "you settled for
    +2", "extra with Cy at 2: -3"."""
    notes = [
        _("you settled for %(points)s") % {"points": _signed(m["settled"])}
        for m in game.members
        if m.get("fate") == "settled" and m["player"] == player
    ]
    for x in game.extras:
        if player not in (x["taker"], x["giver"]):
            continue
        mine = x["points"] if x["taker"] == player else -x["points"]
        other = x["giver"] if x["taker"] == player else x["taker"]
        notes.append(
            _("extra with %(other)s at %(stake)d: %(points)s")
            % {"other": names.get(other, ""), "stake": x["stake"], "points": _signed(mine)}
        )
    return notes


def summary_context(found: Summary) -> dict[str, Any]:
    """Every player's net points and money, and who pays whom (the summary page, and
    the wall of an ended session)."""
    names = found.names
    return {
        "players": [
            {"name": names.get(int(p.player), ""), "points": p.points, "money": p.money}
            for p in found.summary.players
        ],
        "transfers": [
            {
                "payer": names.get(int(t.payer), ""),
                "payee": names.get(int(t.payee), ""),
                "points": t.points,
                "money": t.money,
            }
            for t in found.summary.transfers
        ],
        "currency": found.session.currency,
    }
