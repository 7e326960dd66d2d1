"""Seat changes between games: a newcomer joins (a member, or a guest made on the spot),
a player sits out and comes back, the scorekeeper sets the seating by hand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from chouette import rules
from chouette.messages import rule_message
from chouette.models import ChouetteEvent, ChouetteParticipant, ChouetteSession
from chouette.services.common import (
    append_event,
    check_no_online_game,
    clean_player_id,
    ledger_of,
    lock_for_write,
    rule_error,
    touch,
)
from games import wallclock
from games.errors import Conflict, NotFound, ValidationFailed
from games.models import Player
from games.players.guests import player_create_guest, player_namesakes
from games.players.names import player_name_clean


def _seat_change(
    *,
    session_id: int,
    by: Any,
    player_id: int,
    action: rules.SeatAction,
    expected_version: int | None,
) -> ChouetteSession:
    with transaction.atomic():
        session = lock_for_write(session_id=session_id, by=by, expected_version=expected_version)
        if action == "join" and not Player.objects.filter(pk=player_id).exists():
            raise NotFound("player_not_found", _("There is no player with this id."))
        apply_seat_change(session, by=by, player_id=player_id, action=action)
    return session


def apply_seat_change(
    session: ChouetteSession, *, by: Any, player_id: int, action: rules.SeatAction
) -> ChouetteParticipant | None:
    """The seat change on a session locked for writing: the ledger's rules judge it; a
    newcomer becomes a participant (the last in the join order)."""
    check_no_online_game(session)
    ledger = ledger_of(session)
    try:
        change = rules.SeatChange(action, player_id)
        after = ledger.seat(change)
    except rules.ChouetteError as exc:
        raise rule_error(exc) from None
    joined = None
    if action == "join":
        top = session.participants.aggregate(top=Max("order"))["top"]
        joined = ChouetteParticipant.objects.create(
            session=session,
            player_id=player_id,
            order=(top or 0) + 1,
            joined_at=wallclock.now(),
        )
    append_event(session, by=by, kind=ChouetteEvent.Kind.SEAT_CHANGE, data=change.to_dict())
    touch(session, after.seating)
    return joined


def session_join(
    *, session_id: int, by: Any, player_id: int, expected_version: int | None = None
) -> ChouetteSession:
    """A newcomer joins at the end of the line."""
    return _seat_change(
        session_id=session_id,
        by=by,
        player_id=player_id,
        action="join",
        expected_version=expected_version,
    )


def new_guest(session: ChouetteSession, *, name: str, namesake_ok: bool) -> Player:
    """The guest player a newcomer by ``name`` becomes (made here), after the refusals
    of :func:`session_join_guest`; ``has_login`` in the refusals' players says whether
    that player has a login (a phone without one may not join as them)."""
    clean = player_name_clean(name=name)  # 400 invalid_name, saying what is wrong
    existing = Player.objects.filter(name__iexact=clean).first()
    if existing is not None:
        try:  # already in this session: say so (seated, or sitting out)
            rules.join(rules.Seating.from_dict(session.seating), existing.pk)
        except rules.ChouetteError as exc:
            raise rule_error(exc) from None
        raise Conflict(
            "player_exists",
            _("%(name)s is a player already: join them instead.") % {"name": existing.name},
            extra={
                "player_id": existing.pk,
                "name": existing.name,
                "has_login": existing.user_id is not None,
            },
        )
    namesakes = player_namesakes(name=clean)
    if namesakes and not namesake_ok:
        raise Conflict(
            "namesake_exists",
            _(
                "%(players)s: already a player by that name, written with other accents. "
                "Join them, or confirm that “%(name)s” is someone else."
            )
            % {"players": ", ".join(p.name for p in namesakes), "name": clean},
            extra={
                "players": [
                    {"id": p.pk, "name": p.name, "has_login": p.user_id is not None}
                    for p in namesakes
                ],
                "name": clean,
            },
        )
    return player_create_guest(name=clean)


def session_join_guest(
    *,
    session_id: int,
    by: Any,
    name: str,
    namesake_ok: bool = False,
    expected_version: int | None = None,
) -> ChouetteParticipant:
    """A newcomer who is not yet a club member joins by name: a guest player (no login)
    is made on the spot (:func:`games.players.guests.player_create_guest`, the one the
    tournaments' walk-ins use) and joins at the end of the line, in one transaction.

    A name that is already a player's is not a new player: 409 ``player_exists`` with
    ``extra["player_id"]`` (the page offers to join that player). A name that is
    another's once accents are folded ("Kovacs Anna" for Kovács Anna) is allowed by the
    club's uniqueness rule but probably that player: 409 ``namesake_exists`` with
    ``extra["players"]``, unless ``namesake_ok`` (the writer confirmed it is someone
    else). A refusal creates no player. Who may: the session's writers (as ``join``)."""
    with transaction.atomic():
        session = lock_for_write(session_id=session_id, by=by, expected_version=expected_version)
        guest = new_guest(session, name=name, namesake_ok=namesake_ok)
        joined = apply_seat_change(session, by=by, player_id=guest.pk, action="join")
    assert joined is not None
    return joined


def session_sit_out(
    *, session_id: int, by: Any, player_id: int, expected_version: int | None = None
) -> ChouetteSession:
    """A seated player sits out between games (keeps their total)."""
    return _seat_change(
        session_id=session_id,
        by=by,
        player_id=player_id,
        action="sit_out",
        expected_version=expected_version,
    )


def session_come_back(
    *, session_id: int, by: Any, player_id: int, expected_version: int | None = None
) -> ChouetteSession:
    """A player sitting out comes back at the end of the line."""
    return _seat_change(
        session_id=session_id,
        by=by,
        player_id=player_id,
        action="come_back",
        expected_version=expected_version,
    )


def _seating_ids(box: Any, line: Any) -> tuple[int, list[int]]:
    """A new seating as a caller passed it: a player id and a list of them (400
    ``invalid_player``)."""
    if not isinstance(line, list | tuple):
        raise ValidationFailed("invalid_player", rule_message("invalid_player"))
    return clean_player_id(box), [clean_player_id(p) for p in line]


def session_seating_set(
    *,
    session_id: int,
    by: Any,
    box: int,
    line: Sequence[int],
    expected_version: int | None = None,
) -> ChouetteSession:
    """The scorekeeper sets box, captain and line by hand between games (issue 27): the
    ``line`` is the team in order, the captain first (the partner, if the session has
    one, last). The whole new seating is checked (:func:`chouette.rules.reseat`): the
    same seated players, each once (400 ``reseat_players_differ``,
    ``duplicate_player``, ``invalid_player``, ``too_few_players``); those sitting out
    stay out. Recorded as a seat change with the seating before and after and who made
    it (the scoreboard's history and the admin show it). Who may: the session's writers;
    409 ``online_game_in_progress``, ``session_ended``, ``stale_version`` as every seat
    change; 409 ``seating_unchanged`` if it is the seating already."""
    box_id, line_ids = _seating_ids(box, line)
    with transaction.atomic():
        session = lock_for_write(session_id=session_id, by=by, expected_version=expected_version)
        check_no_online_game(session)
        ledger = ledger_of(session)
        change = rules.Reseat(box=box_id, line=tuple(line_ids), before=ledger.seating)
        try:
            after = ledger.seat(change)
        except rules.ChouetteError as exc:
            raise rule_error(exc) from None
        if after.seating == ledger.seating:
            raise Conflict("seating_unchanged", _("This is the seating already."))
        append_event(session, by=by, kind=ChouetteEvent.Kind.SEAT_CHANGE, data=change.to_dict())
        touch(session, after.seating)
    return session
