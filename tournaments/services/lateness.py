"""Lateness (docs/rules.md R15): a flight's lateness rule, and a director's record of a
late player, whose opponent starts at the penalty points (or who forfeits the match).

The arithmetic is pure (:mod:`tournaments.pairing.lateness`); the starting score it gives
is :attr:`tournaments.models.TournamentMatch.start_score`, which the result checks count
from (:mod:`tournaments.services.results`). A forfeit is recorded as a walkover for the
opponent through :func:`tournaments.services.results.result_enter`, so advancing, places
and ratings treat it as every walkover.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from games.errors import Conflict, ValidationFailed
from tournaments import pairing
from tournaments.models import Flight, FlightRound, TournamentMatch
from tournaments.pairing import lateness as rule
from tournaments.services.common import (
    check_version,
    lock_flight,
    lock_match,
    pairing_error,
    require_director,
    touch,
)
from tournaments.services.results import require_open, result_enter


def check_rule(*, grace: Any, per_point: Any) -> None:
    """Refuse a grace period or minutes per point out of bounds (400, the pure rule's
    codes ``invalid_grace``, ``invalid_minutes_per_point``)."""
    try:
        rule.check_rule(grace, per_point)
    except pairing.PairingError as exc:
        raise pairing_error(exc) from None


def _started(flight: Flight) -> bool:
    """Whether a match of the flight has started: a result that stands (a bye after a
    withdrawal does not count), a report, an online match or a lateness recorded."""
    return flight.matches.filter(
        Q(decided_at__isnull=False)
        | Q(report_a__isnull=False)
        | Q(report_b__isnull=False)
        | Q(online_match__isnull=False)
        | ~Q(late_side="")
    ).exists()


def flight_set_lateness(
    *,
    flight_id: int,
    by: Any,
    lateness: bool,
    lateness_grace: int | None = None,
    lateness_per_point: int | None = None,
) -> Flight:
    """Switch the flight's lateness rule on or off and set its grace minutes and minutes
    per penalty point (``None`` keeps one as it is). Changes only until a match of the
    flight starts (409 ``matches_started``); the same settings again change nothing."""
    with transaction.atomic():
        flight = lock_flight(flight_id)
        require_director(by, flight.event)
        if not isinstance(lateness, bool):
            raise ValidationFailed("invalid_lateness", _("Lateness penalties are on or off."))
        grace = flight.lateness_grace if lateness_grace is None else lateness_grace
        per_point = flight.lateness_per_point if lateness_per_point is None else lateness_per_point
        check_rule(grace=grace, per_point=per_point)
        new = (lateness, grace, per_point)
        if new == (flight.lateness, flight.lateness_grace, flight.lateness_per_point):
            return flight
        if _started(flight):
            raise Conflict(
                "matches_started",
                _("The flight's matches have started: its lateness rule no longer changes."),
            )
        flight.lateness, flight.lateness_grace, flight.lateness_per_point = new
        touch(flight, "lateness", "lateness_grace", "lateness_per_point")
        return flight


def _minutes(
    flight: Flight, row: TournamentMatch, minutes: int | None, arrived_at: datetime | None
) -> int:
    """The minutes late as given, or from the round's start to ``arrived_at``."""
    if minutes is not None and arrived_at is not None:
        raise ValidationFailed(
            "minutes_or_arrival", _("Give the minutes late or the time of arrival, not both.")
        )
    if minutes is not None:
        return minutes
    if arrived_at is None:
        raise ValidationFailed(
            "minutes_required", _("Give the minutes late or the time of arrival.")
        )
    starts_at = (
        FlightRound.objects.filter(flight=flight, part=row.part, number=row.round)
        .values_list("starts_at", flat=True)
        .first()
    )
    if starts_at is None:
        raise Conflict(
            "round_start_unknown",
            _("The round has no start time: give the minutes late instead."),
        )
    return rule.minutes_late(starts_at, arrived_at)


def match_set_lateness(
    *,
    match_id: int,
    by: Any,
    side: str,
    minutes: int | None = None,
    arrived_at: datetime | None = None,
    expected_version: int | None = None,
) -> TournamentMatch:
    """A director records that ``side`` (``"a"``/``"b"``) came ``minutes`` late (or
    arrived at ``arrived_at``, counted from the round's ``starts_at``), before the
    match's result; ``side=""`` clears it. The penalty follows the flight's rule
    (:func:`tournaments.pairing.lateness.penalty`): the opponent's starting score, or,
    past half the match length, a forfeit, recorded at once as a walkover for the
    opponent. Refused: 403 ``not_a_director``; 400 ``invalid_side``, ``invalid_minutes``,
    ``minutes_required``; 409 ``lateness_off`` (the flight has no lateness rule),
    ``result_exists``, ``match_not_ready``, ``match_reported`` (a player reported it:
    the score was counted from the old start), ``already_online`` (the online match
    starts from 0-0), ``round_start_unknown``, ``stale_version``."""
    with transaction.atomic():
        flight, row = lock_match(match_id)
        require_director(by, flight.event)
        check_version(row, expected_version)
        if side not in ("", "a", "b"):
            raise ValidationFailed("invalid_side", _("The late player is side a or side b."))
        if not flight.lateness:
            raise Conflict("lateness_off", _("This flight has no lateness penalties."))
        require_open(row)
        if row.report_a or row.report_b:
            raise Conflict(
                "match_reported",
                _("A player has reported this match: enter or confirm its result instead."),
            )
        if row.online_match_id is not None:
            raise Conflict("already_online", _("This match is already being played online."))
        penalty = rule.Penalty(0)
        late_minutes: int | None = None
        if side:
            late_minutes = _minutes(flight, row, minutes, arrived_at)
            try:
                penalty = rule.penalty(
                    late_minutes,
                    length=row.match_length,
                    grace=flight.lateness_grace,
                    per_point=flight.lateness_per_point,
                )
            except pairing.PairingError as exc:
                raise pairing_error(exc) from None
        row.late_side = side
        row.late_minutes = late_minutes
        row.late_points = penalty.start_points
        row.late_forfeit = penalty.forfeit
        row.version += 1
        row.save(
            update_fields=["late_side", "late_minutes", "late_points", "late_forfeit", "version"]
        )
        if penalty.forfeit:
            return result_enter(match_id=row.pk, by=by, walkover_winner="b" if side == "a" else "a")
        touch(flight)
        return row
