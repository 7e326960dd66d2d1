"""Joining from a phone with the session's join code (issue 19), and a fresh code."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from chouette import live
from chouette.models import ChouetteParticipant, ChouetteSession, new_join_code
from chouette.services.common import check_open, check_writer, lock_session
from chouette.services.seating import apply_seat_change, new_guest
from games.codes import clean_code, same_code
from games.errors import NotFound, PermissionDenied, ValidationFailed
from games.models import Player

#: Who may join with the session's join code (issue 19), and why: the code is the
#: capability. It is shown where the table sees it (the scoreboard and the wall as the
#: session's writers see them, and its QR code), so whoever holds it is at the table or
#: was told it by someone there - what a newcomer who asks the scorekeeper to be written
#: in has always been. With it, **a club member logged in** joins as themselves, and
#: **anyone without a login** joins as a guest by name (a guest player made on the spot,
#: as the scorekeeper's "newcomer, not yet a club member"), or as a guest player already
#: known (no login: a guest of an earlier evening). Nobody joins as a player who has a
#: login without logging in. A code is six letters of 31 and the attempts are
#: throttled (``chouette_join`` rate, per user or client address: the pages and the API
#: count together); the writers can give the session a fresh code when the old one got
#: about (:func:`session_new_join_code`), and a joiner the table does not know can be
#: sat out like any player.


def fresh_join_code(session_pk: int | None = None) -> str:
    """A join code no other open session has (the partial unique constraint checks
    again at the write)."""
    while True:
        code = new_join_code()
        taken = ChouetteSession.objects.filter(join_code=code, status=ChouetteSession.Status.OPEN)
        if session_pk is not None:
            taken = taken.exclude(pk=session_pk)
        if not taken.exists():
            return code


def _wrong_code() -> ValidationFailed:
    return ValidationFailed(
        "wrong_code",
        _("No open chouette session has this code: it is shown on the session's scoreboard."),
        extra={"field": "code"},
    )


def session_by_join_code(*, code: str) -> ChouetteSession:
    """The open session with this join code (400 ``wrong_code`` if none)."""
    clean = clean_code(code)
    session = ChouetteSession.objects.filter(
        join_code=clean, status=ChouetteSession.Status.OPEN
    ).first()
    if session is None or not same_code(clean, session.join_code):
        raise _wrong_code()
    return session


def session_join_by_code(
    *,
    code: str,
    by: Any,
    name: str = "",
    namesake_ok: bool = False,
    guest_id: int | None = None,
) -> ChouetteParticipant:
    """A newcomer joins at the end of the line from their phone, with the session's join
    code (who may, and why: the comment above). A logged-in club member joins as their
    player (``name`` is not used); anyone else joins as a guest: ``guest_id``, a guest
    player without a login already known (offered by the refusals below), or by
    ``name`` with the refusals of :func:`~chouette.services.seating.session_join_guest`
    (``player_exists``, ``namesake_exists``; their players carry ``has_login``). 400
    ``wrong_code`` (no open session has it), 403 ``player_has_login`` (log in to join as
    that player), and the rules' ``already_seated`` / ``sitting_out``. Returns the new
    participant."""
    clean = clean_code(code)
    with transaction.atomic():
        found = (
            ChouetteSession.objects.select_for_update()
            .filter(join_code=clean, status=ChouetteSession.Status.OPEN)
            .first()
        )
        if found is None or not same_code(clean, found.join_code):
            raise _wrong_code()
        session = found
        member = Player.of_user(by)
        if member is not None:
            player = member
        elif guest_id is not None:
            known = Player.objects.filter(pk=guest_id).first()
            if known is None:
                raise NotFound("player_not_found", _("There is no player with this id."))
            if known.user_id is not None:
                raise PermissionDenied(
                    "player_has_login",
                    _("%(name)s has a login: log in to join as them.") % {"name": known.name},
                )
            player = known
        else:
            player = new_guest(session, name=name, namesake_ok=namesake_ok)
        joined = apply_seat_change(session, by=by, player_id=player.pk, action="join")
    assert joined is not None
    return joined


def session_new_join_code(*, session_id: int, by: Any) -> ChouetteSession:
    """The session's writers give it a fresh join code (the old one stops working). The
    ledger and seating are untouched, so the version stays (forms open on other phones
    are not made stale); the scoreboards and the wall redraw with the new code."""
    with transaction.atomic():
        session = lock_session(session_id)
        check_writer(by, session)
        check_open(session)
        session.join_code = fresh_join_code(session.pk)
        session.save(update_fields=["join_code"])
        live.session_changed(session.pk)
    return session
