"""The posts of the scoreboard's forms, each to one service and answered by a redirect
(:func:`games.web.act_and_redirect`): the seating set by hand, a fresh join code, seat
changes, a proxy, the split, a guest joining by name, undo, the end and reopening."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from chouette.models import ChouetteSession
from chouette.pages.common import digits, posted_version, scoreboard_url, writer_required
from chouette.services import sessions
from chouette.services.games import game_undo_last
from chouette.services.joining import session_new_join_code
from chouette.services.proxies import participant_proxy_set
from chouette.services.seating import (
    session_come_back,
    session_join,
    session_join_guest,
    session_seating_set,
    session_sit_out,
)
from games.errors import ApplicationError
from games.web import act_and_redirect


@require_POST
@writer_required
def seating_set(request: HttpRequest, session: ChouetteSession) -> HttpResponse:
    """Box, captain and line set by hand (:func:`session_seating_set`): ``box``
    and ``line`` (the selects in order, the captain first)."""
    raw_box = request.POST.get("box", "")
    raw_line = request.POST.getlist("line")
    if not digits(raw_box) or not raw_line or not all(digits(r) for r in raw_line):
        messages.error(request, _("Choose a player."))
        return redirect(scoreboard_url(session.pk))
    return act_and_redirect(
        request,
        lambda: session_seating_set(
            session_id=session.pk,
            by=request.user,
            box=int(raw_box),
            line=[int(r) for r in raw_line],
            expected_version=posted_version(request),
        ),
        to=scoreboard_url(session.pk),
        success=_("The seating has been set."),
    )


@require_POST
@writer_required
def new_join_code(request: HttpRequest, session: ChouetteSession) -> HttpResponse:
    """A fresh join code (the old one got about): the old one stops working."""
    return act_and_redirect(
        request,
        lambda: session_new_join_code(session_id=session.pk, by=request.user),
        to=scoreboard_url(session.pk),
        success=_("The session has a new join code: the old one no longer works."),
    )


@require_POST
@writer_required
def seat_change(request: HttpRequest, session: ChouetteSession) -> HttpResponse:
    action = request.POST.get("action", "")
    service = {
        "join": session_join,
        "sit_out": session_sit_out,
        "come_back": session_come_back,
    }.get(action)
    raw = request.POST.get("player", "")
    if service is None or not digits(raw):
        messages.error(request, _("Choose a player."))
        return redirect(scoreboard_url(session.pk))
    return act_and_redirect(
        request,
        lambda: service(
            session_id=session.pk,
            by=request.user,
            player_id=int(raw),
            expected_version=posted_version(request),
        ),
        to=scoreboard_url(session.pk),
        success=_("The seating has changed."),
    )


@require_POST
@writer_required
def proxy_set(request: HttpRequest, session: ChouetteSession) -> HttpResponse:
    """A member away from the table names a proxy for their cube decisions, or clears it
    (an empty ``proxy``): :func:`participant_proxy_set`."""
    raw_player = request.POST.get("player", "")
    raw_proxy = request.POST.get("proxy", "")
    if not digits(raw_player) or (raw_proxy and not digits(raw_proxy)):
        messages.error(request, _("Choose a player."))
        return redirect(scoreboard_url(session.pk))
    proxy_id = int(raw_proxy) if raw_proxy else None
    return act_and_redirect(
        request,
        lambda: participant_proxy_set(
            session_id=session.pk,
            by=request.user,
            player_id=int(raw_player),
            proxy_id=proxy_id,
            expected_version=posted_version(request),
        ),
        to=scoreboard_url(session.pk),
        success=lambda row: (
            _("%(proxy)s takes the cube decisions of %(name)s.")
            % {"proxy": row.proxy.name, "name": row.player.name}
            if row.proxy_id is not None
            else _("%(name)s takes their own cube decisions again.") % {"name": row.player.name}
        ),
    )


@require_POST
@writer_required
def session_split(request: HttpRequest, session: ChouetteSession) -> HttpResponse:
    """Split a chouette of eight or more in two (:func:`sessions.session_split`): the
    checked players start a new session (none checked: the default, every second player
    of the line); done, the new session's scoreboard."""
    raw = request.POST.getlist("move")
    if not all(digits(r) for r in raw):
        messages.error(request, _("Choose a player."))
        return redirect(scoreboard_url(session.pk))
    move = [int(r) for r in raw] or None
    return act_and_redirect(
        request,
        lambda: sessions.session_split(
            session_id=session.pk,
            by=request.user,
            player_ids_to_move=move,
            name=request.POST.get("name", ""),
            expected_version=posted_version(request),
        ),
        to=scoreboard_url(session.pk),
        success=lambda new: (
            _(
                "The chouette has split in two: “%(name)s” has started; its players sit out "
                "of “%(old)s”, where their totals stay."
            )
            % {"name": new.name, "old": session.name}
        ),
        then=lambda new: scoreboard_url(new.pk),
    )


@require_POST
@writer_required
def join_guest(request: HttpRequest, session: ChouetteSession) -> HttpResponse:
    """A newcomer who is not yet a club member joins by name (a guest player made on the
    spot: :func:`session_join_guest`). Refused, the answer is a page with the
    name as typed and the reason; a name that is an existing player's offers to join
    that player instead (or, for the same name with other accents, to confirm that the
    newcomer is someone else)."""
    name = request.POST.get("name", "")
    namesake_ok = request.POST.get("namesake_ok") == "1"
    try:
        joined = session_join_guest(
            session_id=session.pk,
            by=request.user,
            name=name,
            namesake_ok=namesake_ok,
            expected_version=posted_version(request),
        )
    except ApplicationError as exc:
        session.refresh_from_db()
        offers: list[dict[str, Any]] = []
        if exc.code == "player_exists":
            offers = [{"id": exc.extra["player_id"], "name": exc.extra["name"]}]
        elif exc.code == "namesake_exists":
            in_session = set(session.participants.values_list("player_id", flat=True))
            offers = [p for p in exc.extra["players"] if p["id"] not in in_session]
        return render(
            request,
            "chouette/join_guest.html",
            {
                "session": session,
                "name": name,
                "error": exc.detail,
                "offers": offers,
                # Confirming "someone else" sends the name as the service cleaned it.
                "namesake_name": exc.extra["name"] if exc.code == "namesake_exists" else "",
            },
            status=exc.status,
        )
    messages.success(
        request,
        _("%(name)s joined at the end of the line, as a guest.") % {"name": joined.player.name},
    )
    return redirect(scoreboard_url(session.pk))


@require_POST
@writer_required
def game_undo(request: HttpRequest, session: ChouetteSession) -> HttpResponse:
    return act_and_redirect(
        request,
        lambda: game_undo_last(
            session_id=session.pk, by=request.user, expected_version=posted_version(request)
        ),
        to=scoreboard_url(session.pk),
        success=_("The last game has been undone."),
    )


@require_POST
@writer_required
def session_end(request: HttpRequest, session: ChouetteSession) -> HttpResponse:
    return act_and_redirect(
        request,
        lambda: sessions.session_end(
            session_id=session.pk, by=request.user, expected_version=posted_version(request)
        ),
        to=scoreboard_url(session.pk),
        success=_("The session has ended."),
        then=lambda _ended: reverse("chouette:summary", kwargs={"session_id": session.pk}),
    )


@require_POST
@writer_required
def session_reopen(request: HttpRequest, session: ChouetteSession) -> HttpResponse:
    """Reopen a session ended by mistake (:func:`sessions.session_reopen` says who may)."""
    return act_and_redirect(
        request,
        lambda: sessions.session_reopen(
            session_id=session.pk, by=request.user, expected_version=posted_version(request)
        ),
        to=scoreboard_url(session.pk),
        success=_("The session is open again: games can be entered."),
    )
