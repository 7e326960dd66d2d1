"""Flights: create one with its format's options (checked by building a sample bracket),
and set the match length, clock and start time of one round of one part."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from games.engine.clock import PRESETS
from games.errors import Conflict, NotFound, ValidationFailed
from games.play import services as game_services
from tournaments import live, pairing
from tournaments.messages import pairing_message
from tournaments.models import (
    BRACKET_FORMATS,
    BUILDER_OPTIONS,
    FORMAT_PARTS,
    ClockPolicy,
    Event,
    Flight,
    FlightRound,
    Format,
    TournamentMatch,
)
from tournaments.pairing import lateness as lateness_rule
from tournaments.services.common import lock_flight, pairing_error, require_director, touch

MAX_MATCH_LENGTH = game_services.MAX_MATCH_LENGTH


def _check_length(length: Any) -> int:
    if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= 25:
        raise ValidationFailed(
            "invalid_length",
            _("A match is played to 1 to %(max)d points.") % {"max": MAX_MATCH_LENGTH},
        )
    return length


def _check_clock(preset: str, policy: str) -> None:
    if policy not in ClockPolicy.values:
        raise ValidationFailed("invalid_clock_policy", _("Unknown clock policy."))
    if preset and preset not in PRESETS:
        raise ValidationFailed(
            "invalid_clock",
            _("Unknown clock preset; known: %(known)s.") % {"known": ", ".join(PRESETS)},
        )
    if policy != ClockPolicy.OFF and not preset:
        raise ValidationFailed(
            "clock_preset_required", _("Choose a clock preset to allow or require clocks.")
        )


def _clean_options(format: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    options = dict(options or {})
    allowed = {"season_points"}
    if format in BRACKET_FORMATS:
        allowed |= set(BUILDER_OPTIONS[format])
    else:
        allowed |= {"tiebreaks"} | ({"rounds"} if format == Format.SWISS else set())
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise ValidationFailed(
            "invalid_option",
            _("Unknown option for this format: %(names)s.") % {"names": ", ".join(unknown)},
            extra={"options": unknown},
        )
    if format in BRACKET_FORMATS:
        builder = {k: options[k] for k in BUILDER_OPTIONS[format] if k in options}
        try:
            pairing.build_bracket(BRACKET_FORMATS[format], 8, **builder)
        except pairing.PairingError as exc:
            raise pairing_error(exc) from None
    if format == Format.SWISS:
        rounds = options.get("rounds")
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 30:
            raise ValidationFailed(
                "invalid_rounds", _("A Swiss flight needs its number of rounds (1 to 30).")
            )
    if "tiebreaks" in options:
        order = options["tiebreaks"]
        try:
            pairing.standings([], [], order=list(order))
        except (pairing.PairingError, TypeError):
            raise ValidationFailed(
                "invalid_tiebreaks", pairing_message("invalid_tiebreaks")
            ) from None
        options["tiebreaks"] = list(order)
    if "season_points" in options:
        table = options["season_points"]
        ok = isinstance(table, Mapping) and set(table) <= {"per_win", "per_place"}
        if ok:
            per_win = table.get("per_win", {})
            per_place = table.get("per_place", {})
            ok = (
                isinstance(per_win, Mapping)
                and all(isinstance(v, int) and v >= 0 for v in per_win.values())
                and isinstance(per_place, Mapping)
                and all(
                    isinstance(v, list) and all(isinstance(p, int) and p >= 0 for p in v)
                    for v in per_place.values()
                )
            )
        if not ok:
            raise ValidationFailed(
                "invalid_season_points",
                _("Season points: per_win maps parts to points, per_place to lists of points."),
            )
    return options


def flight_create(
    *,
    event_id: int,
    by: Any,
    name: str,
    format: str,
    options: Mapping[str, Any] | None = None,
    seeding: str = Flight.SeedingMethod.RATING,
    match_length: int = 5,
    clock_preset: str = "",
    clock_policy: str = ClockPolicy.OFF,
    lateness: bool = False,
    lateness_grace: int = lateness_rule.DEFAULT_GRACE,
    lateness_per_point: int = lateness_rule.DEFAULT_PER_POINT,
) -> Flight:
    """A new flight of an event, open for registration (options: ``Flight``; the
    lateness rule: docs/rules.md R15)."""
    with transaction.atomic():
        try:
            event = Event.objects.select_for_update().get(pk=event_id)
        except Event.DoesNotExist:
            raise NotFound("event_not_found", _("There is no event with this id.")) from None
        require_director(by, event)
        name = (name or "").strip()
        if not name:
            raise ValidationFailed("name_required", _("Give the flight a name."))
        if format not in Format.values:
            raise ValidationFailed("invalid_format", pairing_message("invalid_format"))
        if seeding not in Flight.SeedingMethod.values:
            raise ValidationFailed("invalid_seeding", _("Seed by rating or at random."))
        _check_length(match_length)
        _check_clock(clock_preset, clock_policy)
        cleaned = _clean_options(format, options)
        try:
            lateness_rule.check_rule(lateness_grace, lateness_per_point)
        except pairing.PairingError as exc:
            raise pairing_error(exc) from None
        if event.status == Event.Status.FINISHED:
            raise Conflict("event_finished", _("This event is over."))
        if event.flights.filter(name__iexact=name).exists():
            raise Conflict("flight_name_taken", _("The event already has a flight of this name."))
        flight = Flight.objects.create(
            event=event,
            name=name,
            format=format,
            options=cleaned,
            seeding=seeding,
            match_length=match_length,
            clock_preset=clock_preset,
            clock_policy=clock_policy,
            lateness=bool(lateness),
            lateness_grace=lateness_grace,
            lateness_per_point=lateness_per_point,
        )
        live.event_changed(event.pk)
        return flight


def flight_round_set(
    *,
    flight_id: int,
    by: Any,
    part: str,
    number: int,
    match_length: int | None = None,
    clock_preset: str | None = None,
    clock_policy: str | None = None,
    starts_at: datetime | None = None,
) -> FlightRound:
    """Set the match length, clock and start time of one round of one part of a flight
    (``None`` leaves a setting as it was; a new round starts from the flight's defaults).
    A new length applies to the round's matches that have not started (no result, report
    or online match)."""
    with transaction.atomic():
        flight = lock_flight(flight_id)
        require_director(by, flight.event)
        parts = FORMAT_PARTS[flight.format]
        if flight.bracket:
            parts = pairing.Bracket.from_dict(flight.bracket).parts
        if part not in parts:
            raise ValidationFailed(
                "invalid_part",
                _("This flight's parts are: %(parts)s.") % {"parts": ", ".join(parts) or "-"},
            )
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise ValidationFailed("invalid_round", _("Rounds are numbered from 1."))
        if match_length is not None:
            _check_length(match_length)
        current = FlightRound.objects.filter(flight=flight, part=part, number=number).first()
        row = current or FlightRound(
            flight=flight,
            part=part,
            number=number,
            match_length=flight.match_length,
            clock_preset=flight.clock_preset,
            clock_policy=flight.clock_policy,
        )
        if match_length is not None:
            row.match_length = match_length
        if clock_preset is not None:
            row.clock_preset = clock_preset
        if clock_policy is not None:
            row.clock_policy = clock_policy
        if starts_at is not None:
            row.starts_at = starts_at
        _check_clock(row.clock_preset, row.clock_policy)
        row.save()
        if match_length is not None:
            TournamentMatch.objects.filter(
                flight=flight,
                part=part,
                round=number,
                decided_at__isnull=True,
                online_match__isnull=True,
                report_a__isnull=True,
                report_b__isnull=True,
                late_side="",  # a lateness penalty was counted for the old length (R15)
            ).exclude(match_length=match_length).update(
                match_length=match_length, version=F("version") + 1
            )
        touch(flight)
        return row
