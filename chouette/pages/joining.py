"""Join from a phone with the session's code (issue 19), and a player's own running
total (``/chouette/<id>/me/``; a guest's phone is remembered by a signed cookie)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from chouette import live
from chouette.models import ChouetteSession
from chouette.pages.common import ROLE_LABELS, board_or_404, digits, my_game_notes
from chouette.services.joining import session_by_join_code, session_join_by_code
from chouette.throttles import join_allowed
from games.codes import clean_code
from games.errors import ApplicationError
from games.models import Player

#: The signed cookie that remembers, on a phone without a login, which guest joined
#: which session (``chouette-me-<session id>``: the player's id, signed with this salt),
#: so that the "my total" page shows theirs. A club night's length.
ME_COOKIE = "chouette-me-%d"
ME_SALT = "chouette.me"
ME_MAX_AGE = 24 * 3600


def _me_of(request: HttpRequest, session: ChouetteSession) -> int | None:
    """The player this visitor is in the session: their own with a login, else the
    guest the signed cookie remembers (if still in the session)."""
    member = Player.of_user(request.user)
    ids = set(session.participants.values_list("player_id", flat=True))
    if member is not None and member.pk in ids:
        return member.pk
    raw = request.get_signed_cookie(ME_COOKIE % session.pk, default=None, salt=ME_SALT)
    if raw is not None and digits(raw) and int(raw) in ids:
        return int(raw)
    return None


def _me_url(session_id: int) -> str:
    return reverse("chouette:me", kwargs={"session_id": session_id})


def join(request: HttpRequest, code: str = "") -> HttpResponse:
    """Join a session's line from a phone with its code (``/chouette/join/<code>/``: its
    QR code; ``/chouette/join/?code=``: typed). Who may, and why: :mod:`chouette.services.joining`
    (the code is the capability): a logged-in club member joins as themselves, anyone
    else as a guest by name. Opening a code and joining count against the
    ``chouette_join`` throttle; a refusal is the page again with what was typed, the
    reason, and the offers it allows (join an existing guest, or confirm that the
    newcomer is someone else). Joined, the phone goes to the player's running total
    (a guest's is remembered by a signed cookie)."""
    code = clean_code(code or request.POST.get("code") or request.GET.get("code", ""))[:20]
    member = Player.of_user(request.user)
    context: dict[str, Any] = {
        "code": code,
        "session": None,
        "member": member,
        "name": request.POST.get("name", "")[:200],
        "error": "",
        "offers": [],
        "namesake_name": "",
        "login_url": "",
    }
    status = 200
    if code:
        allowed, wait = join_allowed(request)
        if not allowed:
            context["error"] = _("Too many attempts: try again in %(seconds)d seconds.") % {
                "seconds": wait
            }
            return render(request, "chouette/join.html", context, status=429)
        try:
            session = session_by_join_code(code=code)
        except ApplicationError as exc:
            context["error"] = exc.detail
            return render(request, "chouette/join.html", context, status=exc.status)
        context["session"] = session
        context["login_url"] = (
            reverse("login") + "?next=" + reverse("chouette:join-code", kwargs={"code": code})
        )
        me = _me_of(request, session)
        if me is not None and request.method != "POST":
            return redirect(_me_url(session.pk))
        if request.method == "POST":
            guest_raw = request.POST.get("guest", "")
            try:
                joined = session_join_by_code(
                    code=code,
                    by=request.user,
                    name=context["name"],
                    namesake_ok=request.POST.get("namesake_ok") == "1",
                    guest_id=int(guest_raw) if digits(guest_raw) else None,
                )
            except ApplicationError as exc:
                context.update(_join_offers(session, exc))
                status = exc.status
            else:
                messages.success(
                    request,
                    _("%(name)s joined at the end of the line.") % {"name": joined.player.name},
                )
                response = redirect(_me_url(session.pk))
                if member is None:
                    response.set_signed_cookie(
                        ME_COOKIE % session.pk,
                        str(joined.player_id),
                        salt=ME_SALT,
                        max_age=ME_MAX_AGE,
                        httponly=True,
                        samesite="Lax",
                        secure=request.is_secure(),
                    )
                return response
    return render(request, "chouette/join.html", context, status=status)


def _join_offers(session: ChouetteSession, exc: ApplicationError) -> dict[str, Any]:
    """A refused join as the page says it: the reason, and the players the phone may
    join as instead (guests without a login, not yet in the session)."""
    in_session = set(session.participants.values_list("player_id", flat=True))
    offers: list[dict[str, Any]] = []
    if exc.code == "player_exists":
        offers = [
            {"id": exc.extra["player_id"], "name": exc.extra["name"]},
        ]
        if exc.extra.get("has_login"):
            offers = []
    elif exc.code == "namesake_exists":
        offers = [p for p in exc.extra["players"] if not p.get("has_login")]
    return {
        "error": exc.detail,
        "offers": [p for p in offers if p["id"] not in in_session],
        "namesake_name": exc.extra["name"] if exc.code == "namesake_exists" else "",
    }


def me(request: HttpRequest, session_id: int) -> HttpResponse:
    """A player's own running total, following the session live: their total, where
    they sit now (box, captain, in the line, sitting out), their points in the last
    game. The player is the visitor's own (with a login) or the guest this phone joined
    as (the signed cookie); anyone else is offered the join page."""
    board = board_or_404(session_id, last=1)
    session = board.session
    player_id = _me_of(request, session)
    seat = next((s for s in board.seats if s.player_id == player_id), None)
    last = board.games[0] if board.games else None
    seated = [s for s in board.seats if s.role != "out"]
    return render(
        request,
        "chouette/me.html",
        {
            "session": session,
            "board": board,
            "seat": seat,
            "role_label": ROLE_LABELS[seat.role] if seat else "",
            # In the line after the captain: 1 = the next captain, ...
            "place": seated.index(seat) - 1 if seat and seat.role == "team" else None,
            "last_points": last.points.get(player_id) if last and player_id else None,
            "last_notes": my_game_notes(last, player_id, board.names) if last and player_id else [],
            "last_number": last.number if last else None,
            "live_topics": live.session_topic(session.pk),
            "online_game": session.online_games.filter(status="playing").first(),
        },
    )
