"""Writes of chouette: sessions, seat changes, games, undo, the end; and the summary.

House rules (docs/architecture.md), as they apply here:

* Every write is one transaction, takes keyword-only arguments, checks who may do it,
  validates everything first and raises an :class:`~games.errors.ApplicationError`
  (which rolls the transaction back, so a refused write changes nothing).
* **One lock per session**: every write locks the :class:`ChouetteSession` row
  (``select_for_update``), checks an optional ``expected_version`` (409
  ``stale_version``) and bumps ``version``. Two games entered at once from two phones
  are recorded one after the other, and the second, stale one is refused. Once the
  write commits, the scoreboards that follow the session redraw (``chouette:<id>``,
  :mod:`chouette.live`).
* **Gather, compute purely, persist**: the ledger is replayed from the stored events
  (:meth:`chouette.rules.Ledger.replay`), the pure rules validate and settle the new
  event, and this module stores what they return: the event, its ledger lines, the new
  seating.

Who may start a session and write to it (issue 16: a stranger could start a session of
other members and record stakes in their names): **a member of the session** (the user's
player is among its players, seated or sitting out), **the club's scorekeeper** (the
``chouette.keep_score`` permission, granted to a user or a group in the admin) and
**staff**. Anyone else gets 403 ``not_in_session`` and nothing is written. Having
started a session is not enough by itself: the writer must still be one of these. An
ended session refuses every write (409 ``session_ended``) until it is reopened
(:func:`session_reopen`: the same people, a player only on the evening of the end).
One write needs none of them: joining from a phone with the session's join code
(:func:`session_join_by_code`; the code is the capability, see the comment above it).

The zero-sum rule (R13) is checked here before any line is written (400 ``unbalanced``)
and again by PostgreSQL at commit (migration ``0002_zero_sum_trigger``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Max, Sum
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from chouette import live, rules
from chouette.messages import CONFLICT_CODES, rule_message
from chouette.models import (
    ChouetteEvent,
    ChouetteLine,
    ChouetteOnlineGame,
    ChouetteParticipant,
    ChouetteSession,
    new_join_code,
)
from chouette.stored import profile_of, stake_of, stored_event
from games import wallclock
from games.codes import clean_code, same_code
from games.errors import ApplicationError, Conflict, NotFound, PermissionDenied, ValidationFailed
from games.models import Player
from games.play.dice import SYSTEM_DICE, DiceSource
from games.players.guests import player_create_guest, player_namesakes
from games.players.names import player_name_clean

#: Stake: at most this many digits before the decimal point, two after (the column).
STAKE_MAX = Decimal("99999999.99")
MAX_NAME = 120


# ====================================================================== helpers
def _rule_error(exc: rules.ChouetteError) -> ApplicationError:
    cls = Conflict if exc.code in CONFLICT_CODES else ValidationFailed
    return cls(exc.code, rule_message(exc.code), extra={"reason": exc.message})


def _is_authenticated(user: Any) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False) and user.is_active)


#: Who may write to a session, as the refusal says it (the API's and the pages').
NOT_IN_SESSION = gettext_lazy(
    "Only the session's players, the club's scorekeeper and staff may do this."
)
#: The permission of the club's scorekeeper (``ChouetteSession.Meta.permissions``).
KEEP_SCORE = "chouette.keep_score"


def _keeps_any_score(user: Any) -> bool:
    """Staff and the club's scorekeeper may start and keep any session."""
    return bool(user.is_staff or user.is_superuser or user.has_perm(KEEP_SCORE))


def may_write(user: Any, session: ChouetteSession) -> bool:
    """The session's members with a login, the scorekeeper, staff (module docstring)."""
    if not _is_authenticated(user):
        return False
    if _keeps_any_score(user):
        return True
    player = Player.of_user(user)
    return player is not None and session.participants.filter(player=player).exists()


def may_start(user: Any, player_ids: Sequence[int]) -> bool:
    """Whether ``user`` may start a session of these players: one of them, the
    scorekeeper, staff."""
    if not _is_authenticated(user):
        return False
    if _keeps_any_score(user):
        return True
    player = Player.of_user(user)
    return player is not None and player.pk in player_ids


def _lock(session_id: int) -> ChouetteSession:
    try:
        return ChouetteSession.objects.select_for_update().get(pk=session_id)
    except ChouetteSession.DoesNotExist:
        raise NotFound(
            "session_not_found", _("There is no chouette session with this id.")
        ) from None


def _get(session_id: int) -> ChouetteSession:
    try:
        return ChouetteSession.objects.get(pk=session_id)
    except ChouetteSession.DoesNotExist:
        raise NotFound(
            "session_not_found", _("There is no chouette session with this id.")
        ) from None


def _check_writer(user: Any, session: ChouetteSession) -> None:
    if not _is_authenticated(user):
        raise PermissionDenied("not_logged_in", _("Log in to do this."))
    if not may_write(user, session):
        raise PermissionDenied("not_in_session", NOT_IN_SESSION)


def _check_open(session: ChouetteSession) -> None:
    if not session.is_open:
        raise Conflict("session_ended", _("This chouette session has ended."))


def _check_version(session: ChouetteSession, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != session.version:
        raise Conflict(
            "stale_version",
            _("The session has changed since you looked: reload and try again."),
            extra={"version": session.version},
        )


def _lock_for_write(session_id: int, by: Any, expected_version: int | None) -> ChouetteSession:
    session = _lock(session_id)
    _check_writer(by, session)
    _check_open(session)
    _check_version(session, expected_version)
    return session


def lock_for_write(*, session_id: int, by: Any, expected_version: int | None) -> ChouetteSession:
    """The session locked for a write by ``by`` (a writer, the session open, the version
    expected): for the writes of online play (:mod:`chouette.online.services`)."""
    return _lock_for_write(session_id, by, expected_version)


def ledger_of(session: ChouetteSession) -> rules.Ledger:
    """The session's ledger, replayed from the events that count (not undone)."""
    events = session.events.filter(undone=False).order_by("place", "seq")
    return rules.Ledger.replay(
        profile_of(session),
        rules.Seating.from_dict(session.start_seating),
        [stored_event(e) for e in events],
    )


def _next_seq(session: ChouetteSession) -> int:
    top = session.events.aggregate(top=Max("seq"))["top"]
    return (top or 0) + 1


def _append(
    session: ChouetteSession,
    *,
    by: Any,
    kind: str,
    data: dict[str, Any],
    corrects: ChouetteEvent | None = None,
) -> ChouetteEvent:
    """A new row at the end of the log; a correction replays in the place of the game it
    ``corrects`` (which the caller has flagged undone)."""
    seq = _next_seq(session)
    return ChouetteEvent.objects.create(
        session=session,
        seq=seq,
        place=seq if corrects is None else corrects.place,
        corrects=corrects,
        kind=kind,
        data=data,
        created_by=by if _is_authenticated(by) else None,
        created_at=wallclock.now(),
    )


def _touch(session: ChouetteSession, seating: rules.Seating, *fields: str) -> None:
    session.seating = seating.to_dict()
    session.version += 1
    session.save(update_fields=["seating", "version", *fields])
    live.session_changed(session.pk)


def _check_player_ids(player_ids: Any) -> list[int]:
    if not isinstance(player_ids, list | tuple):
        raise ValidationFailed("invalid_player", rule_message("invalid_player"))
    ids = list(player_ids)
    for pid in ids:
        if isinstance(pid, bool) or not isinstance(pid, int):
            raise ValidationFailed("invalid_player", rule_message("invalid_player"))
    if len(set(ids)) != len(ids):
        raise ValidationFailed("duplicate_player", rule_message("duplicate_player"))
    found = set(Player.objects.filter(pk__in=ids).values_list("pk", flat=True))
    missing = [pid for pid in ids if pid not in found]
    if missing:
        raise NotFound(
            "player_not_found", _("There is no player with this id."), extra={"players": missing}
        )
    return ids


# ====================================================================== roll-off
def server_roll_off(players: Sequence[int], dice: DiceSource) -> dict[int, list[int]]:
    """Every player rolls one die; tied players roll again until no tie is left (the
    rolls as :func:`chouette.rules.seating_from_rolls` reads them)."""
    rolls: dict[int, list[int]] = {p: [] for p in players}
    groups: list[list[int]] = [list(players)]
    while groups:
        group = groups.pop()
        by_face: dict[int, list[int]] = {}
        for p in group:
            face = dice.randint(1, 6)
            rolls[p].append(face)
            by_face.setdefault(face, []).append(p)
        groups.extend(tied for tied in by_face.values() if len(tied) > 1)
    return rolls


def _normalise_rolls(rolls: Mapping[Any, Any], player_ids: list[int]) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for key, value in rolls.items():
        try:
            pid = int(key)
        except (TypeError, ValueError):
            raise ValidationFailed("invalid_roll", rule_message("invalid_roll")) from None
        seq = [value] if isinstance(value, int) else list(value)
        out[pid] = seq
    if set(out) != set(player_ids):
        raise ValidationFailed(
            "rolls_do_not_match_players", _("Give one roll-off for every player, no more.")
        )
    return out


# ====================================================================== sessions
def _session_name(name: Any) -> str:
    """The session's name, stripped (400 ``invalid_name`` if empty or too long)."""
    name = (name if isinstance(name, str) else "").strip()
    if not name or len(name) > MAX_NAME:
        raise ValidationFailed(
            "invalid_name",
            ngettext(
                "Name the session (at most %(max)d character).",
                "Name the session (at most %(max)d characters).",
                MAX_NAME,
            )
            % {"max": MAX_NAME},
        )
    return name


def session_create(
    *,
    by: Any,
    name: str,
    player_ids: Sequence[int],
    stake_per_point: Decimal | None = None,
    currency: str = "",
    profile: Mapping[str, Any] | None = None,
    rolls: Mapping[Any, int | Sequence[int]] | None = None,
    dice: DiceSource | None = None,
    order: Sequence[int] | None = None,
) -> ChouetteSession:
    """Start a session: the players, the stake, the rule profile, and the seating by
    roll-off. ``rolls`` (player id -> the die, then any re-rolls after ties) are what the
    table rolled; without them the server rolls (``secrets``), and the rolls are stored
    either way (:attr:`ChouetteSession.rolls`).

    ``order`` instead of a roll-off: the seating already known (box first, then the
    captain and the line; :func:`chouette.rules.seating_from_order`), e.g. from a
    scorekeeping client that rolled off at the table. It must hold the same players as
    ``player_ids`` (400 ``seating_does_not_match_players``); with ``rolls`` as well, 400
    ``seating_and_rolls``. No rolls are stored (``rolls`` is empty, not by the server)."""
    if not _is_authenticated(by):
        raise PermissionDenied("not_logged_in", _("Log in to do this."))
    if order is not None and rolls is not None:
        raise ValidationFailed(
            "seating_and_rolls",
            _("Give either the seating order or the roll-off, not both."),
        )
    name = _session_name(name)
    ids = _check_player_ids(list(player_ids))
    if order is not None:
        seated = _check_player_ids(list(order))
        if set(seated) != set(ids):
            raise ValidationFailed(
                "seating_does_not_match_players",
                _("The seating order must hold every player of the session, no more."),
            )
    if not may_start(by, ids):
        raise PermissionDenied(
            "not_in_session",
            _(
                "You may start a session only if you play in it; the club's scorekeeper "
                "and staff may start any."
            ),
        )
    if len(ids) < rules.MIN_START_PLAYERS:
        raise ValidationFailed("too_few_players", rule_message("too_few_players"))
    try:
        the_profile = rules.Profile.from_dict(dict(profile or {}))
    except rules.ChouetteError as exc:
        raise _rule_error(exc) from None
    except TypeError:
        raise ValidationFailed("invalid_profile", rule_message("invalid_profile")) from None
    currency = (currency or "").strip().upper()
    if stake_per_point is not None:
        if (
            not isinstance(stake_per_point, Decimal)
            or not stake_per_point.is_finite()
            or stake_per_point < 0
            or stake_per_point > STAKE_MAX
            or stake_per_point != stake_per_point.quantize(Decimal("0.01"))
            or len(currency) != 3
            or not currency.isalpha()
        ):
            raise ValidationFailed(
                "invalid_stake",
                _(
                    "The stake is an amount of 0 or more with two decimals at most, and a "
                    "three-letter currency code."
                ),
            )
    else:
        currency = ""
    by_server = rolls is None and order is None
    roll_map: dict[int, list[int]] = {}
    try:
        if order is not None:
            seating = rules.seating_from_order(list(order))
        else:
            roll_map = (
                server_roll_off(ids, dice or SYSTEM_DICE)
                if rolls is None
                else _normalise_rolls(rolls, ids)
            )
            seating = rules.seating_from_rolls({p: roll_map[p] for p in ids})
    except rules.ChouetteError as exc:
        raise _rule_error(exc) from None
    return _insert_session(
        by=by,
        name=name,
        seating=seating,
        profile=the_profile,
        stake_per_point=stake_per_point,
        currency=currency,
        rolls=[{"player": p, "rolls": roll_map[p]} for p in ids if p in roll_map],
        rolled_by_server=by_server,
    )


def _insert_session(
    *,
    by: Any,
    name: str,
    seating: rules.Seating,
    profile: rules.Profile,
    stake_per_point: Decimal | None,
    currency: str,
    rolls: list[dict[str, Any]],
    rolled_by_server: bool,
    split_from: ChouetteSession | None = None,
) -> ChouetteSession:
    """Write a new session and its participants (checked by the caller)."""
    with transaction.atomic():
        session = ChouetteSession.objects.create(
            name=name,
            created_by=by,
            started_at=wallclock.now(),
            stake_per_point=stake_per_point,
            currency=currency,
            profile=profile.to_dict(),
            rolls=rolls,
            rolled_by_server=rolled_by_server,
            start_seating=seating.to_dict(),
            seating=seating.to_dict(),
            join_code=_fresh_join_code(),
            split_from=split_from,
        )
        order = {p: i for i, p in enumerate(seating.all_players)}
        ChouetteParticipant.objects.bulk_create(
            ChouetteParticipant(
                session=session, player_id=p, order=order[p], joined_at=session.started_at
            )
            for p in seating.all_players
        )
    return session


def _seat_change(
    *,
    session_id: int,
    by: Any,
    player_id: int,
    action: rules.SeatAction,
    expected_version: int | None,
) -> ChouetteSession:
    with transaction.atomic():
        session = _lock_for_write(session_id, by, expected_version)
        if action == "join" and not Player.objects.filter(pk=player_id).exists():
            raise NotFound("player_not_found", _("There is no player with this id."))
        _apply_seat_change(session, by=by, player_id=player_id, action=action)
    return session


def _apply_seat_change(
    session: ChouetteSession, *, by: Any, player_id: int, action: rules.SeatAction
) -> ChouetteParticipant | None:
    """The seat change on a session locked for writing: the ledger's rules judge it; a
    newcomer becomes a participant (the last in the join order)."""
    _check_no_online_game(session)
    ledger = ledger_of(session)
    try:
        change = rules.SeatChange(action, player_id)
        after = ledger.seat(change)
    except rules.ChouetteError as exc:
        raise _rule_error(exc) from None
    joined = None
    if action == "join":
        top = session.participants.aggregate(top=Max("order"))["top"]
        joined = ChouetteParticipant.objects.create(
            session=session,
            player_id=player_id,
            order=(top or 0) + 1,
            joined_at=wallclock.now(),
        )
    _append(session, by=by, kind=ChouetteEvent.Kind.SEAT_CHANGE, data=change.to_dict())
    _touch(session, after.seating)
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


def _new_guest(session: ChouetteSession, *, name: str, namesake_ok: bool) -> Player:
    """The guest player a newcomer by ``name`` becomes (made here), after the refusals
    of :func:`session_join_guest`; ``has_login`` in the refusals' players says whether
    that player has a login (a phone without one may not join as them)."""
    clean = player_name_clean(name=name)  # 400 invalid_name, saying what is wrong
    existing = Player.objects.filter(name__iexact=clean).first()
    if existing is not None:
        try:  # already in this session: say so (seated, or sitting out)
            rules.join(rules.Seating.from_dict(session.seating), existing.pk)
        except rules.ChouetteError as exc:
            raise _rule_error(exc) from None
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
        session = _lock_for_write(session_id, by, expected_version)
        guest = _new_guest(session, name=name, namesake_ok=namesake_ok)
        joined = _apply_seat_change(session, by=by, player_id=guest.pk, action="join")
    assert joined is not None
    return joined


# ====================================================================== join from a phone
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


def _fresh_join_code(session_pk: int | None = None) -> str:
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
    ``name`` with the refusals of :func:`session_join_guest` (``player_exists``,
    ``namesake_exists``; their players carry ``has_login``). 400 ``wrong_code`` (no open
    session has it), 403 ``player_has_login`` (log in to join as that player), and the
    rules' ``already_seated`` / ``sitting_out``. Returns the new participant."""
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
            player = _new_guest(session, name=name, namesake_ok=namesake_ok)
        joined = _apply_seat_change(session, by=by, player_id=player.pk, action="join")
    assert joined is not None
    return joined


def session_new_join_code(*, session_id: int, by: Any) -> ChouetteSession:
    """The session's writers give it a fresh join code (the old one stops working). The
    ledger and seating are untouched, so the version stays (forms open on other phones
    are not made stale); the scoreboards and the wall redraw with the new code."""
    with transaction.atomic():
        session = _lock(session_id)
        _check_writer(by, session)
        _check_open(session)
        session.join_code = _fresh_join_code(session.pk)
        session.save(update_fields=["join_code"])
        live.session_changed(session.pk)
    return session


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
    return _player_id(box), [_player_id(p) for p in line]


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
        session = _lock_for_write(session_id, by, expected_version)
        _check_no_online_game(session)
        ledger = ledger_of(session)
        change = rules.Reseat(box=box_id, line=tuple(line_ids), before=ledger.seating)
        try:
            after = ledger.seat(change)
        except rules.ChouetteError as exc:
            raise _rule_error(exc) from None
        if after.seating == ledger.seating:
            raise Conflict("seating_unchanged", _("This is the seating already."))
        _append(session, by=by, kind=ChouetteEvent.Kind.SEAT_CHANGE, data=change.to_dict())
        _touch(session, after.seating)
    return session


# ====================================================================== club rules (issue 19)
def _player_id(value: Any) -> int:
    """A player id as a caller passed it: an int, not a bool (400 ``invalid_player``)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationFailed("invalid_player", rule_message("invalid_player"))
    return value


def may_set_proxy(user: Any, session: ChouetteSession, player_id: int) -> bool:
    """The player themself (their login), the club's scorekeeper and staff: nobody
    else names a proxy for a player (not the box, not another member)."""
    if not _is_authenticated(user):
        return False
    if _keeps_any_score(user):
        return True
    own = Player.of_user(user)
    return own is not None and own.pk == player_id


#: Called as ``hook(session=...)`` in the transaction of a proxy named or cleared, the
#: session locked: online play (which builds on this module) takes the player away or
#: back in the game being played (chouette.apps registers
#: :func:`chouette.online.services.online_presence_changed`).
_PRESENCE_HOOKS: list[Callable[..., None]] = []


def register_presence_hook(hook: Callable[..., None]) -> None:
    if hook not in _PRESENCE_HOOKS:
        _PRESENCE_HOOKS.append(hook)


#: Who may name a player's proxy, as the refusal says it.
NOT_YOUR_PROXY = gettext_lazy(
    "Only the player themself, the club's scorekeeper and staff may name their proxy."
)


def participant_proxy_set(
    *,
    session_id: int,
    by: Any,
    player_id: int,
    proxy_id: int | None,
    expected_version: int | None = None,
) -> ChouetteParticipant:
    """``player_id`` steps away from the table and ``proxy_id`` takes their cube
    decisions (``None``: the proxy is cleared, the player is back). The rules
    (:mod:`chouette.rules.proxies`) refuse a proxy who is the player (400
    ``proxy_self``), not in the session (400 ``proxy_not_in_session``) or chained (409
    ``proxy_chained``: the proxy is away too, or the player answers for someone); a
    player not in the session is 400 ``not_a_participant``. Who may: the player
    themself, the club's scorekeeper and staff (403 ``proxy_not_yours``; a user who is
    none of the session's writers, 403 ``not_in_session``). The ledger is untouched (no
    event: a proxy changes who decides, not the score), but the version is bumped and the
    scoreboards redraw, as for every write. A player who names a proxy is away from the
    table: the game being played online takes it at once
    (:func:`chouette.online.services.online_presence_changed`). Returns the participant."""
    player_id = _player_id(player_id)
    proxy_id = None if proxy_id is None else _player_id(proxy_id)
    with transaction.atomic():
        session = _lock(session_id)
        if not _is_authenticated(by):
            raise PermissionDenied("not_logged_in", _("Log in to do this."))
        if not may_set_proxy(by, session, player_id):
            if not may_write(by, session):
                raise PermissionDenied("not_in_session", NOT_IN_SESSION)
            raise PermissionDenied("proxy_not_yours", NOT_YOUR_PROXY)
        _check_open(session)
        _check_version(session, expected_version)
        rows = {row.player_id: row for row in session.participants.all()}
        current = {p: row.proxy_id for p, row in rows.items() if row.proxy_id is not None}
        try:
            after = rules.set_proxy(current, rows.keys(), player_id, proxy_id)
        except rules.ChouetteError as exc:
            raise _rule_error(exc) from None
        row = rows[player_id]
        row.proxy_id = after.get(player_id)
        row.save(update_fields=["proxy"])
        session.version += 1
        session.save(update_fields=["version"])
        for hook in _PRESENCE_HOOKS:
            hook(session=session)
        live.session_changed(session.pk)
    return row


def session_split(
    *,
    session_id: int,
    by: Any,
    player_ids_to_move: list[int] | None,
    name: str,
    expected_version: int | None = None,
) -> ChouetteSession:
    """Split a chouette grown to ``split_min_players`` seated players (the profile's,
    default 8) into two: ``player_ids_to_move`` start a new session called ``name``
    (``None``: every second player of the line from the captain,
    :func:`chouette.rules.default_movers`), seated in the order they sat here
    (:func:`chouette.rules.seating_from_order`), with the same rule profile and stake.

    Here, each of them sits out (one seat-change event each, so the ledger replays to
    the same seating): their totals stay in this session's ledger, which still sums to
    zero, and the new session starts at zero. Proxies across the two halves are
    cleared; those among the players who move go with them. Who may: the session's
    writers; the new session is created by them and names this one (``split_from``).
    Refusals (nothing written): 409 ``split_too_few_players``; 400
    ``split_side_too_small`` (either half below three), ``split_not_seated``,
    ``duplicate_player``, ``invalid_player``, ``invalid_name``; and every write's 403,
    409 ``session_ended``, ``stale_version``. Both sessions' scoreboards redraw."""
    name = _session_name(name)
    move: list[int] | None = None
    if player_ids_to_move is not None:
        if not isinstance(player_ids_to_move, list | tuple):
            raise ValidationFailed("invalid_player", rule_message("invalid_player"))
        move = [_player_id(p) for p in player_ids_to_move]
    with transaction.atomic():
        session = _lock_for_write(session_id, by, expected_version)
        _check_no_online_game(session)
        ledger = ledger_of(session)
        fewest = ledger.profile.split_min_players
        if len(ledger.seating.seated) < fewest:
            raise Conflict(
                "split_too_few_players",
                ngettext(
                    "A chouette splits in two from %(count)d seated player.",
                    "A chouette splits in two from %(count)d seated players.",
                    fewest,
                )
                % {"count": fewest},
                extra={"split_min_players": fewest, "seated": len(ledger.seating.seated)},
            )
        try:
            plan = rules.split_plan(ledger.seating, ledger.profile, move)
            for player in plan.moved:
                change = rules.SeatChange("sit_out", player)
                ledger = ledger.seat(change)
                _append(session, by=by, kind=ChouetteEvent.Kind.SEAT_CHANGE, data=change.to_dict())
        except rules.ChouetteError as exc:
            raise _rule_error(exc) from None
        assert ledger.seating == plan.staying
        moved = set(plan.moved)
        carried: dict[int, int] = {}
        for row in session.participants.exclude(proxy=None):
            if row.player_id in moved and row.proxy_id in moved:
                carried[row.player_id] = row.proxy_id
            if row.player_id in moved or row.proxy_id in moved:
                row.proxy_id = None
                row.save(update_fields=["proxy"])
        new = _insert_session(
            by=by,
            name=name,
            seating=plan.new,
            profile=ledger.profile,
            stake_per_point=session.stake_per_point,
            currency=session.currency,
            rolls=[],
            rolled_by_server=False,
            split_from=session,
        )
        for player, proxy in carried.items():
            ChouetteParticipant.objects.filter(session=new, player_id=player).update(proxy_id=proxy)
        _touch(session, ledger.seating)
        live.session_changed(new.pk)
    return new


def session_end(
    *, session_id: int, by: Any, expected_version: int | None = None
) -> ChouetteSession:
    """End the session: no more games or seat changes; the summary stays (and the session
    can be reopened: :func:`session_reopen`)."""
    with transaction.atomic():
        session = _lock_for_write(session_id, by, expected_version)
        _check_no_online_game(session)
        session.status = ChouetteSession.Status.ENDED
        session.ended_at = wallclock.now()
        session.version += 1
        session.save(update_fields=["status", "ended_at", "version"])
        live.session_changed(session.pk)
    return session


#: How long after the end a session's players may reopen it themselves (the evening it
#: was played): later only the club's scorekeeper and staff may (:func:`session_reopen`).
REOPEN_HOURS = 12


def may_reopen(user: Any, session: ChouetteSession) -> bool:
    """Whether ``user`` may reopen this ended session (:func:`session_reopen`)."""
    if session.is_open or not may_write(user, session):
        return False
    return _keeps_any_score(user) or not _reopen_too_late(session)


def _reopen_too_late(session: ChouetteSession) -> bool:
    ended = session.ended_at
    return ended is not None and wallclock.now() - ended > timedelta(hours=REOPEN_HOURS)


def session_reopen(
    *, session_id: int, by: Any, expected_version: int | None = None
) -> ChouetteSession:
    """Reopen a session ended by mistake: games and seat changes can be entered again.

    Who may: those who may end it (its players with a login, the club's scorekeeper,
    staff); a player only within :data:`REOPEN_HOURS` of the end (403 ``reopen_too_late``):
    an older session's debts may have been settled already, and changing them is the
    scorekeeper's decision. The ledger is untouched: reopening writes no event and no
    line, so the totals, the zero sum and the seating are exactly those at the end, and
    the summary becomes "the summary so far" again. The end is cleared; who reopened it
    and when is kept (``reopened_by``, ``reopened_at``). 409 ``session_open`` if it is
    not ended, ``stale_version`` as every write."""
    with transaction.atomic():
        session = _lock(session_id)
        _check_writer(by, session)
        if session.is_open:
            raise Conflict("session_open", _("This chouette session has not ended."))
        _check_version(session, expected_version)
        if not _keeps_any_score(by) and _reopen_too_late(session):
            raise PermissionDenied(
                "reopen_too_late",
                ngettext(
                    "The session ended more than %(hours)d hour ago: only the club's "
                    "scorekeeper and staff may reopen it now.",
                    "The session ended more than %(hours)d hours ago: only the club's "
                    "scorekeeper and staff may reopen it now.",
                    REOPEN_HOURS,
                )
                % {"hours": REOPEN_HOURS},
            )
        session.status = ChouetteSession.Status.OPEN
        session.ended_at = None
        session.reopened_at = wallclock.now()
        session.reopened_by = by
        session.version += 1
        fields = ["status", "ended_at", "reopened_at", "reopened_by", "version"]
        if ChouetteSession.objects.filter(
            join_code=session.join_code, status=ChouetteSession.Status.OPEN
        ).exists():  # an open session took the code meanwhile: a fresh one
            session.join_code = _fresh_join_code(session.pk)
            fields.append("join_code")
        session.save(update_fields=fields)
        live.session_changed(session.pk)
    return session


# ====================================================================== games
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
        raise _rule_error(exc) from None
    except TypeError:
        raise ValidationFailed("invalid_data", rule_message("invalid_data")) from None


def _settle(ledger: rules.Ledger, game: rules.GameEntry) -> tuple[rules.Ledger, GamePreview]:
    try:
        after = ledger.apply(game)
    except rules.ChouetteError as exc:
        raise _rule_error(exc) from None
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
        raise _rule_error(exc) from None
    return rules.Reseat(box=wanted.box, line=wanted.line, before=seating)


def _ledger_for(
    ledger: rules.Ledger, game: rules.GameEntry, set_seating: bool
) -> tuple[rules.Ledger, rules.Reseat | None]:
    reseat = _reseat_for(ledger, game) if set_seating else None
    if reseat is not None:
        try:
            ledger = ledger.seat(reseat)
        except rules.ChouetteError as exc:
            raise _rule_error(exc) from None
    return ledger, reseat


def game_preview(*, session_id: int, by: Any, entry: Any, set_seating: bool = False) -> GamePreview:
    """Validate a game entry and return each player's points, saving nothing (the
    phone shows them before **Save**); ``set_seating`` as :func:`game_record`."""
    session = _get(session_id)
    _check_writer(by, session)
    _check_open(session)
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
    seating is set first (as :func:`session_seating_set`: a seat change in the log,
    :func:`chouette.rules.seating_for_roles`), then the game is recorded on it, both or
    neither. Without it such an entry is refused (400 ``entry_seating_mismatch``)."""
    game = _parse_entry(entry)
    with transaction.atomic():
        session = _lock_for_write(session_id, by, expected_version)
        _check_no_online_game(session)
        if set_seating:
            ledger, reseat = _ledger_for(ledger_of(session), game, True)
            if reseat is not None:
                _settle(ledger, game)  # refused before anything is written
                _append(session, by=by, kind=ChouetteEvent.Kind.SEAT_CHANGE, data=reseat.to_dict())
        return game_record_locked(session=session, entry=game, by=by)


def game_record_locked(
    *, session: ChouetteSession, entry: rules.GameEntry, by: Any
) -> ChouetteEvent:
    """Record ``entry`` on a session the caller has locked (``select_for_update``) in the
    current transaction: settled by the ledger (the zero-sum check included), its lines
    stored, the seating moved on. A game typed in and a game played online
    (:mod:`chouette.online.services`) both end here."""
    after, preview = _settle(ledger_of(session), entry)
    event = _append(session, by=by, kind=ChouetteEvent.Kind.GAME, data=entry.to_dict())
    ChouetteLine.objects.bulk_create(
        ChouetteLine(session=session, event=event, player_id=p, points=v)
        for p, v in preview.points.items()
    )
    _touch(session, after.seating)
    return event


def _check_no_online_game(session: ChouetteSession) -> None:
    """While a game is played online its seating is fixed: nothing typed in, no seat
    change, no end, until it ends (409 ``online_game_in_progress``)."""
    if session.online_games.filter(status=ChouetteOnlineGame.Status.PLAYING).exists():
        raise Conflict(
            "online_game_in_progress",
            _(
                "A game of this session is being played online: wait until it ends "
                "(or abandon it on its page)."
            ),
        )


def game_undo_last(
    *, session_id: int, by: Any, expected_version: int | None = None
) -> ChouetteEvent:
    """Undo the last game: it stays in the log, flagged ``undone``; totals and seating
    become exactly those of a session without it (later seat changes replayed)."""
    with transaction.atomic():
        session = _lock_for_write(session_id, by, expected_version)
        _check_no_online_game(session)
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
            raise _rule_error(exc) from None
        last.undone = True
        last.undone_at = wallclock.now()
        last.undone_by = by
        last.save(update_fields=["undone", "undone_at", "undone_by"])
        _touch(session, back.seating)
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
        error = _rule_error(exc)
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
    session = _get(session_id)
    _check_writer(by, session)
    _check_open(session)
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
        session = _lock_for_write(session_id, by, expected_version)
        _check_no_online_game(session)
        games = counted_game_events(session)
        after = _edited(session, games, number, game)
        old = games[number - 1]
        old.undone = True
        old.undone_at = wallclock.now()
        old.undone_by = by
        old.save(update_fields=["undone", "undone_at", "undone_by"])
        new = _append(
            session, by=by, kind=ChouetteEvent.Kind.GAME, data=game.to_dict(), corrects=old
        )
        rewritten = [new, *games[number:]]
        ChouetteLine.objects.filter(event__in=games[number:]).delete()
        ChouetteLine.objects.bulk_create(
            ChouetteLine(session=session, event=event, player_id=p, points=v)
            for event, row in zip(rewritten, after.rows[number - 1 :], strict=True)
            for p, v in row.points
        )
        _touch(session, after.seating)
    return new


# ====================================================================== summary
@dataclass(frozen=True)
class Summary:
    """The end-of-session summary with the players' names (``names[player_id]``)."""

    session: ChouetteSession
    summary: rules.SessionSummary
    names: dict[int, str]


def session_totals(session: ChouetteSession) -> dict[int, int]:
    """Every participant's net points (games not undone), in joined order."""
    order = list(session.participants.order_by("order").values_list("player_id", flat=True))
    sums = dict(
        ChouetteLine.objects.filter(session=session, event__undone=False)
        .values("player_id")
        .annotate(total=Sum("points"))
        .values_list("player_id", "total")
    )
    return {p: int(sums.get(p) or 0) for p in order}


def session_summary(*, session_id: int) -> Summary:
    """Net points, money at the stake and the fewest transfers that settle the session
    (open sessions too: the summary so far)."""
    session = _get(session_id)
    totals = session_totals(session)
    try:
        summary = rules.summarize(totals, stake_of(session))
    except rules.ChouetteError as exc:  # only if the database lost the zero sum
        raise _rule_error(exc) from None
    names = dict(Player.objects.filter(pk__in=totals).values_list("pk", "name"))
    return Summary(session=session, summary=summary, names=names)
