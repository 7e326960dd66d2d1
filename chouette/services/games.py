"""The games of a session: one typed in (previewed first, or recorded; an online game's
entry ends here too), the last undone, any corrected in its place."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from chouette import rules
from chouette.messages import rule_message
from chouette.models import ChouetteEvent, ChouetteLine, ChouetteOnlineGame, ChouetteSession
from chouette.services.common import (
    append_event,
    check_no_online_game,
    check_open,
    check_writer,
    get_session,
    ledger_of,
    lock_for_write,
    rule_error,
    touch,
)
from games import wallclock
from games.errors import Conflict, NotFound, ValidationFailed


@dataclass(frozen=True)
class GamePreview:
    """What a game entry would do: every player's points and the next seating."""

    entry: rules.GameEntry
    points: dict[int, int]
    seating_before: rules.Seating
    seating_after: rules.Seating
    totals_after: dict[int, int]


def _parse_entry(entry: Any) -> rules.GameEntry:
    if isinstance(entry, rules.GameEntry):
        return entry
    if not isinstance(entry, Mapping):
        raise ValidationFailed("invalid_data", rule_message("invalid_data"))
    try:
        return rules.GameEntry.from_dict(entry)
    except rules.ChouetteError as exc:
        raise rule_error(exc) from None
    except TypeError:
        raise ValidationFailed("invalid_data", rule_message("invalid_data")) from None


def _settle(ledger: rules.Ledger, game: rules.GameEntry) -> tuple[rules.Ledger, GamePreview]:
    try:
        after = ledger.apply(game)
    except rules.ChouetteError as exc:
        raise rule_error(exc) from None
    row = after.rows[-1]
    points = {int(p): v for p, v in row.points}
    if sum(points.values()) != 0:  # R13; the database checks again at commit
        raise ValidationFailed("unbalanced", rule_message("unbalanced"))
    preview = GamePreview(
        entry=game,
        points=points,
        seating_before=row.seating_before,
        seating_after=row.seating_after,
        totals_after={int(p): v for p, v in row.totals_after},
    )
    return after, preview


def _reseat_for(ledger: rules.Ledger, game: rules.GameEntry) -> rules.Reseat | None:
    """The seating a game entry's roles ask for, when they are not the seating's: box,
    captain and partner as entered (:func:`chouette.rules.seating_for_roles`); ``None``
    if the entry's roles are the seating's."""
    seating = ledger.seating
    partner = seating.partner(ledger.profile)
    if (game.box, game.captain, game.partner) == (seating.box, seating.captain, partner):
        return None
    try:
        wanted = rules.seating_for_roles(seating, game.box, game.captain, game.partner)
    except rules.ChouetteError as exc:
        raise rule_error(exc) from None
    return rules.Reseat(box=wanted.box, line=wanted.line, before=seating)


def _ledger_for(
    ledger: rules.Ledger, game: rules.GameEntry, set_seating: bool
) -> tuple[rules.Ledger, rules.Reseat | None]:
    reseat = _reseat_for(ledger, game) if set_seating else None
    if reseat is not None:
        try:
            ledger = ledger.seat(reseat)
        except rules.ChouetteError as exc:
            raise rule_error(exc) from None
    return ledger, reseat


def game_preview(*, session_id: int, by: Any, entry: Any, set_seating: bool = False) -> GamePreview:
    """Validate a game entry and return each player's points, saving nothing (the
    phone shows them before **Save**); ``set_seating`` as :func:`game_record`."""
    session = get_session(session_id)
    check_writer(by, session)
    check_open(session)
    game = _parse_entry(entry)
    ledger, _reseat = _ledger_for(ledger_of(session), game, set_seating)
    _, preview = _settle(ledger, game)
    return preview


def game_record(
    *,
    session_id: int,
    by: Any,
    entry: Any,
    expected_version: int | None = None,
    set_seating: bool = False,
) -> ChouetteEvent:
    """Record a played game: the entry must fit the current seating (box, captain,
    partner and team); its ledger lines are stored and the seating moves on (R13).

    ``set_seating`` (the game entry form, issue 27): an entry that names another box,
    captain or partner than the seating's is the scorekeeper setting them by hand: the
    seating is set first (as :func:`~chouette.services.seating.session_seating_set`: a
    seat change in the log, :func:`chouette.rules.seating_for_roles`), then the game is
    recorded on it, both or neither. Without it such an entry is refused (400
    ``entry_seating_mismatch``)."""
    game = _parse_entry(entry)
    with transaction.atomic():
        session = lock_for_write(session_id=session_id, by=by, expected_version=expected_version)
        check_no_online_game(session)
        if set_seating:
            ledger, reseat = _ledger_for(ledger_of(session), game, True)
            if reseat is not None:
                _settle(ledger, game)  # refused before anything is written
                append_event(
                    session, by=by, kind=ChouetteEvent.Kind.SEAT_CHANGE, data=reseat.to_dict()
                )
        return game_record_locked(session=session, entry=game, by=by)


def game_record_locked(
    *, session: ChouetteSession, entry: rules.GameEntry, by: Any
) -> ChouetteEvent:
    """Record ``entry`` on a session the caller has locked (``select_for_update``) in the
    current transaction: settled by the ledger (the zero-sum check included), its lines
    stored, the seating moved on. A game typed in and a game played online
    (:mod:`chouette.online.services`) both end here."""
    after, preview = _settle(ledger_of(session), entry)
    event = append_event(session, by=by, kind=ChouetteEvent.Kind.GAME, data=entry.to_dict())
    ChouetteLine.objects.bulk_create(
        ChouetteLine(session=session, event=event, player_id=p, points=v)
        for p, v in preview.points.items()
    )
    touch(session, after.seating)
    return event


def game_undo_last(
    *, session_id: int, by: Any, expected_version: int | None = None
) -> ChouetteEvent:
    """Undo the last game: it stays in the log, flagged ``undone``; totals and seating
    become exactly those of a session without it (later seat changes replayed)."""
    with transaction.atomic():
        session = lock_for_write(session_id=session_id, by=by, expected_version=expected_version)
        check_no_online_game(session)
        last = (
            session.events.filter(kind=ChouetteEvent.Kind.GAME, undone=False)
            .order_by("-place")
            .first()
        )
        if last is None:
            raise Conflict("nothing_to_undo", rule_message("nothing_to_undo"))
        try:
            back = ledger_of(session).undo()
        except rules.ChouetteError as exc:
            raise rule_error(exc) from None
        last.undone = True
        last.undone_at = wallclock.now()
        last.undone_by = by
        last.save(update_fields=["undone", "undone_at", "undone_by"])
        touch(session, back.seating)
    return last


def counted_game_events(session: ChouetteSession) -> list[ChouetteEvent]:
    """The session's games that count, in the order they replay (game 1 first)."""
    return list(
        session.events.filter(kind=ChouetteEvent.Kind.GAME, undone=False).order_by("place", "seq")
    )


def _edited(
    session: ChouetteSession, games: list[ChouetteEvent], number: Any, game: rules.GameEntry
) -> rules.Ledger:
    """The session's ledger with game ``number`` corrected to ``game`` (the refusals of
    :func:`game_edit`; nothing written)."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(games):
        raise NotFound("game_not_found", rule_message("game_not_found"))
    if ChouetteOnlineGame.objects.filter(event=games[number - 1]).exists():
        raise Conflict(
            "online_game_not_editable",
            _("This game was played online: its record is the table's, not typed in."),
        )
    try:
        after = ledger_of(session).replace(number, game)
    except rules.ChouetteError as exc:
        error = rule_error(exc)
        if exc.code == "edit_breaks_later_game":
            error.extra["game"] = exc.game
        raise error from None
    if any(sum(v for _p, v in row.points) != 0 for row in after.rows):  # R13
        raise ValidationFailed("unbalanced", rule_message("unbalanced"))
    return after


def game_edit_preview(*, session_id: int, by: Any, number: int, entry: Any) -> GamePreview:
    """What correcting game ``number`` to ``entry`` would give that game (its points, the
    totals after it, the seating after it), saving nothing (:func:`game_edit`'s
    refusals)."""
    session = get_session(session_id)
    check_writer(by, session)
    check_open(session)
    game = _parse_entry(entry)
    after = _edited(session, counted_game_events(session), number, game)
    row = after.rows[number - 1]
    return GamePreview(
        entry=game,
        points={int(p): v for p, v in row.points},
        seating_before=row.seating_before,
        seating_after=row.seating_after,
        totals_after={int(p): v for p, v in row.totals_after},
    )


def game_edit(
    *,
    session_id: int,
    by: Any,
    number: int,
    entry: Any,
    expected_version: int | None = None,
) -> ChouetteEvent:
    """Correct game ``number`` (1-based, among the games that count) typed in wrongly
    (issue 27): ``entry`` replaces it where it was played, and every later event is
    replayed as entered (:meth:`chouette.rules.Ledger.replace`: the later games keep
    their players, their points follow; the ledger still sums to zero, game by game).

    The log stays append-only: the corrected entry is a new game row that ``corrects``
    the old one and takes its place; the old row is flagged undone (who, when) and
    kept with its entry. The later games' ledger lines are recomputed. Refusals
    (nothing written): 404 ``game_not_found``; 409 ``online_game_not_editable`` (a game
    played online is its table's record); 409 ``edit_breaks_later_game`` (the
    correction rotates the table otherwise and a later game, ``extra["game"]``, no
    longer fits its seating); the entry's own refusals (it must fit the seating the game
    was played from); 409 ``online_game_in_progress``, ``session_ended``,
    ``stale_version`` and 403 as every write."""
    game = _parse_entry(entry)
    with transaction.atomic():
        session = lock_for_write(session_id=session_id, by=by, expected_version=expected_version)
        check_no_online_game(session)
        games = counted_game_events(session)
        after = _edited(session, games, number, game)
        old = games[number - 1]
        old.undone = True
        old.undone_at = wallclock.now()
        old.undone_by = by
        old.save(update_fields=["undone", "undone_at", "undone_by"])
        new = append_event(
            session, by=by, kind=ChouetteEvent.Kind.GAME, data=game.to_dict(), corrects=old
        )
        rewritten = [new, *games[number:]]
        ChouetteLine.objects.filter(event__in=games[number:]).delete()
        ChouetteLine.objects.bulk_create(
            ChouetteLine(session=session, event=event, player_id=p, points=v)
            for event, row in zip(rewritten, after.rows[number - 1 :], strict=True)
            for p, v in row.points
        )
        touch(session, after.seating)
    return new
