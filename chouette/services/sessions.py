"""A session's life: started (the roll-off, or a seating already known), split in two,
ended and reopened."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from chouette import live, rules
from chouette.messages import rule_message
from chouette.models import ChouetteEvent, ChouetteParticipant, ChouetteSession
from chouette.services.common import (
    append_event,
    check_no_online_game,
    check_player_ids,
    check_version,
    check_writer,
    clean_player_id,
    clean_session_name,
    is_authenticated,
    keeps_any_score,
    ledger_of,
    lock_for_write,
    lock_session,
    may_start,
    may_write,
    rule_error,
    touch,
)
from chouette.services.joining import fresh_join_code
from games import wallclock
from games.errors import Conflict, PermissionDenied, ValidationFailed
from games.play.dice import SYSTEM_DICE, DiceSource

#: Stake: at most this many digits before the decimal point, two after (the column).
STAKE_MAX = Decimal("99999999.99")


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
    if not is_authenticated(by):
        raise PermissionDenied("not_logged_in", _("Log in to do this."))
    if order is not None and rolls is not None:
        raise ValidationFailed(
            "seating_and_rolls",
            _("Give either the seating order or the roll-off, not both."),
        )
    name = clean_session_name(name)
    ids = check_player_ids(list(player_ids))
    if order is not None:
        seated = check_player_ids(list(order))
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
        raise rule_error(exc) from None
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
        raise rule_error(exc) from None
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
            join_code=fresh_join_code(),
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
    name = clean_session_name(name)
    move: list[int] | None = None
    if player_ids_to_move is not None:
        if not isinstance(player_ids_to_move, list | tuple):
            raise ValidationFailed("invalid_player", rule_message("invalid_player"))
        move = [clean_player_id(p) for p in player_ids_to_move]
    with transaction.atomic():
        session = lock_for_write(session_id=session_id, by=by, expected_version=expected_version)
        check_no_online_game(session)
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
                append_event(
                    session, by=by, kind=ChouetteEvent.Kind.SEAT_CHANGE, data=change.to_dict()
                )
        except rules.ChouetteError as exc:
            raise rule_error(exc) from None
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
        touch(session, ledger.seating)
        live.session_changed(new.pk)
    return new


def session_end(
    *, session_id: int, by: Any, expected_version: int | None = None
) -> ChouetteSession:
    """End the session: no more games or seat changes; the summary stays (and the session
    can be reopened: :func:`session_reopen`)."""
    with transaction.atomic():
        session = lock_for_write(session_id=session_id, by=by, expected_version=expected_version)
        check_no_online_game(session)
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
    return keeps_any_score(user) or not _reopen_too_late(session)


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
        session = lock_session(session_id)
        check_writer(by, session)
        if session.is_open:
            raise Conflict("session_open", _("This chouette session has not ended."))
        check_version(session, expected_version)
        if not keeps_any_score(by) and _reopen_too_late(session):
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
            session.join_code = fresh_join_code(session.pk)
            fields.append("join_code")
        session.save(update_fields=fields)
        live.session_changed(session.pk)
    return session
