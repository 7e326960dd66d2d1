"""Flights: create one with its format's options (checked by building a sample bracket),
and set the match length, clock and start time of one round of one part."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine.clock import PRESETS
from games.errors import Conflict, NotFound, ValidationFailed
from games.play import services as game_services
from tournaments import bridge, live, pairing
from tournaments.bracketview import RoundName
from tournaments.messages import pairing_message
from tournaments.models import (
    BRACKET_FORMATS,
    BUILDER_OPTIONS,
    FORMAT_PARTS,
    ClockPolicy,
    Entry,
    Event,
    Flight,
    FlightRound,
    Format,
    TournamentMatch,
)
from tournaments.pairing import lateness as lateness_rule
from tournaments.services.advancing import advance
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
    play_ahead: bool = True,
) -> Flight:
    """A new flight of an event, open for registration (options: ``Flight``; the
    lateness rule: docs/rules.md R15; ``play_ahead``: ``Flight.play_ahead``, knockouts
    only)."""
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
            play_ahead=bool(play_ahead),
        )
        live.event_changed(event.pk)
        return flight


def _check_round(
    rounds: list[RoundName], *, part: str, number: int, drawn: bool, entries: int
) -> None:
    """Refuse a round the part does not have (``no_such_round``, with the part's round
    numbers in ``extra``); before the draw, as the entries so far would have it."""
    numbers = [r.number for r in rounds]
    if number in numbers:
        return
    args = {
        "part": part or _("the flight"),
        "count": len(numbers),
        "first": numbers[0] if numbers else 0,
        "last": numbers[-1] if numbers else 0,
        "entries": entries,
    }
    count = len(numbers)
    if not numbers:
        message = _(
            "With the %(entries)d entries so far, %(part)s has no matches; "
            "the draw sets its rounds."
        )
    elif drawn:
        message = ngettext(
            "%(part)s has %(count)d round, numbered %(first)d to %(last)d.",
            "%(part)s has %(count)d rounds, numbered %(first)d to %(last)d.",
            count,
        )
    else:
        message = ngettext(
            "With the %(entries)d entries so far, %(part)s has %(count)d round, numbered "
            "%(first)d to %(last)d; the draw sets the count.",
            "With the %(entries)d entries so far, %(part)s has %(count)d rounds, numbered "
            "%(first)d to %(last)d; the draw sets the count.",
            count,
        )
    raise ValidationFailed(
        "no_such_round",
        message % args,
        extra={"rounds": len(numbers), "numbers": numbers, "drawn": drawn},
    )


def _unstarted_take_length(flight: Flight, part: str, number: int, match_length: int) -> None:
    """A round's new match length reaches its matches not started: no result, report or
    online match, and no lateness counted (a penalty was counted for the old length, R15).
    Shared by the one-round form and the round grid (``roundgrid.flight_rounds_set``)."""
    TournamentMatch.objects.filter(
        flight=flight,
        part=part,
        round=number,
        decided_at__isnull=True,
        online_match__isnull=True,
        report_a__isnull=True,
        report_b__isnull=True,
        late_side="",
    ).exclude(match_length=match_length).update(match_length=match_length, version=F("version") + 1)


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
    Only a round the part has (``no_such_round``: a drawn flight's rounds; before the
    draw, those the entries so far would give, as :func:`tournaments.bridge.round_plan`).
    A new length applies to the round's matches that have not started (no result, report
    or online match)."""
    with transaction.atomic():
        flight = lock_flight(flight_id)
        require_director(by, flight.event)
        drawn = flight.status != Flight.Status.REGISTRATION
        entries = flight.entries.exclude(status=Entry.Status.WITHDRAWN)
        if drawn:
            entries = flight.entries.filter(seed__isnull=False)
        count = entries.count()
        plan = bridge.round_plan(flight, count)
        parts = tuple(plan) if drawn else FORMAT_PARTS[flight.format]
        if part not in parts:
            raise ValidationFailed(
                "invalid_part",
                _("This flight's parts are: %(parts)s.") % {"parts": ", ".join(parts) or "-"},
            )
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise ValidationFailed("invalid_round", _("Rounds are numbered from 1."))
        _check_round(plan.get(part, []), part=part, number=number, drawn=drawn, entries=count)
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
            _unstarted_take_length(flight, part, number, match_length)
        touch(flight)
        return row


def flight_set_play_ahead(*, flight_id: int, by: Any, play_ahead: bool) -> Flight:
    """Switch play ahead (``Flight.play_ahead``, issue 29) on or off, at any time. On in
    a drawn knockout: the rounds with a match whose players are known are published at
    once, their players told (:func:`tournaments.services.advancing.advance`). Off: the
    rounds published stay so (what the players saw does not disappear); the next ones
    wait for their round before. Swiss and round robin keep the setting unused."""
    with transaction.atomic():
        flight = lock_flight(flight_id)
        require_director(by, flight.event)
        if not isinstance(play_ahead, bool):
            raise ValidationFailed("invalid_play_ahead", _("Play ahead is on or off."))
        if play_ahead == flight.play_ahead:
            return flight
        flight.play_ahead = play_ahead
        if play_ahead and flight.status == Flight.Status.DRAWN and flight.is_bracket:
            flight.save(update_fields=["play_ahead"])
            advance(flight)
        else:
            touch(flight, "play_ahead")
        return flight


def flight_set_tiebreaks(*, flight_id: int, by: Any, tiebreaks: Sequence[str] = ()) -> Flight:
    """The tie-break order of a Swiss or round robin flight (issue 29): the match wins
    first, then the chosen tie-breaks, no repeats (400 ``invalid_tiebreaks``); empty: the
    format's default (:func:`tournaments.bridge.tiebreak_order`). It only orders the
    standings, so it changes until the flight is finished, when its places are stored
    (409 ``flight_finished``); a knockout has none (400 ``invalid_option``)."""
    with transaction.atomic():
        flight = lock_flight(flight_id)
        require_director(by, flight.event)
        if flight.is_bracket:
            raise ValidationFailed(
                "invalid_option", _("Only Swiss and round robin flights have tie-breaks.")
            )
        options = dict(flight.options)
        if tiebreaks:
            options["tiebreaks"] = _clean_options(flight.format, {"tiebreaks": list(tiebreaks)})[
                "tiebreaks"
            ]
        else:
            options.pop("tiebreaks", None)
        if options == flight.options:
            return flight
        if flight.status == Flight.Status.FINISHED:
            raise Conflict(
                "flight_finished",
                _("The flight is finished: its places stand and its tie-breaks no longer change."),
            )
        flight.options = options
        touch(flight, "options")
        return flight
