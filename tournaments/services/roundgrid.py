"""Every round's settings of a flight in one save (issue 29, item 11): the grid of the
director's round settings page and ``PUT /api/v1/flights/<id>/rounds/``.

One row per round of each part the flight has (:func:`grid_rows`: the parts and rounds
of :func:`tournaments.bridge.round_plan`, so a format's every part, e.g. main,
consolation and last chance, is listed without naming them here). Each row may set the
round's match length, clock preset, clock use and start time, as
:func:`tournaments.services.flights.flight_round_set` sets one round, with the same
checks. :func:`flight_rounds_set` checks **every** row before it writes one: a wrong row
refuses the whole save (nothing changes), and the refusal names the row ("Consolation,
round 2: ...", ``extra["row"]``: its index in the list).

A round already played (it has matches and every one of them is decided or under way)
keeps its settings: 409 ``round_played`` when a row would change them (the rule of the
one-round form, where a new length only reaches the matches not started yet)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import ApplicationError, Conflict, ValidationFailed
from tournaments import bracketview, bridge
from tournaments.models import FORMAT_PARTS, Entry, Flight, FlightRound, TournamentMatch
from tournaments.services.common import lock_flight, require_director, touch
from tournaments.services.flights import (
    _check_clock,
    _check_length,
    _check_round,
    _unstarted_take_length,
)

#: The settings a row may carry (``None`` or absent: as it is).
SETTINGS = ("match_length", "clock_preset", "clock_policy", "starts_at")


@dataclass
class GridRow:
    """A round of the grid: its part and number, its name in the bracket
    (``final``...), its settings as they stand, and whether it is played."""

    part: str
    number: int
    name: bracketview.RoundName | None
    match_length: int
    clock_preset: str
    clock_policy: str
    starts_at: datetime | None
    matches: int
    played: bool


def part_name(part: str) -> str:
    """A part's name in a refusal (the pages' headings say the same)."""
    return {
        "main": _("Main draw"),
        "consolation": _("Consolation"),
        "last_chance": _("Last chance"),
        "winners": _("Winners' bracket"),
        "losers": _("Losers' bracket"),
        "final": _("Grand final"),
    }.get(part, part)


def row_label(part: str, number: int) -> str:
    """A row's name in a refusal: "Consolation, round 2"; Swiss, round robin: "Round 3"."""
    if not part:
        return _("Round %(number)d") % {"number": number}
    return _("%(part)s, round %(number)d") % {"part": part_name(part), "number": number}


Plan = dict[str, list[bracketview.RoundName]]


def _plan(flight: Flight) -> tuple[Plan, tuple[str, ...], bool, int]:
    """The rounds of each part as the one-round service sees them: a drawn flight's,
    before the draw those the entries so far give (its parts: the format's)."""
    drawn = flight.status != Flight.Status.REGISTRATION
    if drawn:
        count = flight.entries.filter(seed__isnull=False).count()
    else:
        count = flight.entries.exclude(status=Entry.Status.WITHDRAWN).count()
    plan = bridge.round_plan(flight, count)
    parts = tuple(plan) if drawn else FORMAT_PARTS[flight.format]
    return plan, parts, drawn, count


def _match_counts(flight: Flight) -> dict[tuple[str, int], tuple[int, int]]:
    """(part, round) -> its matches, and how many of them are decided or under way (a
    result, a report, an online match, a lateness penalty, a bye or walkover): those a
    new length no longer reaches."""
    out: dict[tuple[str, int], tuple[int, int]] = {}
    rows = flight.matches.values_list(
        "part",
        "round",
        "decided_at",
        "online_match_id",
        "report_a",
        "report_b",
        "late_side",
        "status",
    )
    for part, number, decided, online, report_a, report_b, late, status in rows:
        total, done = out.get((part, number), (0, 0))
        under_way = (
            decided is not None
            or online is not None
            or report_a is not None
            or report_b is not None
            or bool(late)
            or status in (TournamentMatch.Status.BYE, TournamentMatch.Status.WALKOVER)
        )
        out[(part, number)] = (total + 1, done + under_way)
    return out


def grid_rows(flight: Flight) -> list[GridRow]:
    """The flight's rounds, part by part in the format's order, with their settings
    (a round without its own: the flight's defaults)."""
    plan, parts, _drawn, _count = _plan(flight)
    stored = {(r.part, r.number): r for r in flight.rounds.all()}
    counts = _match_counts(flight)
    rows = []
    for part in parts:
        for name in plan.get(part, []):
            row = stored.get((part, name.number))
            total, unplayable = counts.get((part, name.number), (0, 0))
            rows.append(
                GridRow(
                    part=part,
                    number=name.number,
                    name=name,
                    match_length=row.match_length if row else flight.match_length,
                    clock_preset=row.clock_preset if row else flight.clock_preset,
                    clock_policy=row.clock_policy if row else flight.clock_policy,
                    starts_at=row.starts_at if row else None,
                    matches=total,
                    played=bool(total) and unplayable == total,
                )
            )
    return rows


def _refused(exc: ApplicationError, index: int, part: str, number: Any) -> ApplicationError:
    """``exc`` naming the row it is about ("Consolation, round 2: ...")."""
    label = (
        row_label(part, number)
        if isinstance(number, int)
        else _("Row %(row)d") % {"row": index + 1}
    )
    extra = {**exc.extra, "row": index, "part": part, "number": number}
    return type(exc)(exc.code, f"{label}: {exc.detail}", extra=extra)


def _clean_row(
    row: Mapping[str, Any],
    *,
    plan: Plan,
    parts: tuple[str, ...],
    drawn: bool,
    entries: int,
    grid: Mapping[tuple[str, int], GridRow],
) -> tuple[tuple[str, int], dict[str, Any]]:
    """One row checked as the one-round service checks it: its round, and the settings
    it changes."""
    if not isinstance(row, Mapping):
        raise ValidationFailed("invalid_row", _("A row is a part and a round."))
    part = row.get("part") or ""
    number = row.get("number")
    if part not in parts:
        raise ValidationFailed(
            "invalid_part",
            _("This flight's parts are: %(parts)s.") % {"parts": ", ".join(parts) or "-"},
        )
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise ValidationFailed("invalid_round", _("Rounds are numbered from 1."))
    _check_round(
        plan.get(part, []), part=part_name(part), number=number, drawn=drawn, entries=entries
    )
    current = grid[(part, number)]  # in the plan, so in the grid
    unknown = sorted(set(row) - {"part", "number", *SETTINGS})
    if unknown:
        raise ValidationFailed(
            "invalid_field", _("Unknown setting: %(names)s.") % {"names": ", ".join(unknown)}
        )
    values = {k: row[k] for k in SETTINGS if row.get(k) is not None}
    if "match_length" in values:
        _check_length(values["match_length"])
    starts = values.get("starts_at")
    if starts is not None and not isinstance(starts, datetime):
        raise ValidationFailed(
            "invalid_starts_at", _("Give the start as a date and a time, e.g. 2026-05-01 19:30.")
        )
    before = {k: getattr(current, k) for k in SETTINGS}
    after = {**before, **values}
    _check_clock(after["clock_preset"], after["clock_policy"])
    changed = {k: v for k, v in values.items() if before[k] != v}
    if changed and current.played:
        raise Conflict(
            "round_played",
            _("This round has been played: its settings no longer change."),
        )
    return (part, number), changed


def flight_rounds_set(
    *,
    flight_id: int,
    by: Any,
    rounds: Sequence[Mapping[str, Any]],
    version: int | None = None,
) -> list[FlightRound]:
    """Set the settings of many rounds of a flight at once: each row ``{"part",
    "number"}`` with any of ``match_length``, ``clock_preset``, ``clock_policy``,
    ``starts_at`` (absent or ``None``: as it is). Every row is checked first (the
    refusal names the row: ``extra["row"]``, its index); then the changed rounds are
    saved and a new length reaches their matches not started yet. ``version``: the
    flight's version the caller saw (409 ``stale_version`` when it has changed since).
    Returns the rounds' settings rows that changed."""
    with transaction.atomic():
        flight = lock_flight(flight_id)
        require_director(by, flight.event)
        if version is not None and version != flight.version:
            raise Conflict(
                "stale_version",
                _("The flight has changed since you looked: reload and try again."),
                extra={"version": flight.version},
            )
        plan, parts, drawn, entries = _plan(flight)
        grid = {(r.part, r.number): r for r in grid_rows(flight)}
        seen: set[tuple[str, int]] = set()
        changes: list[tuple[tuple[str, int], dict[str, Any]]] = []
        for index, row in enumerate(rounds):
            try:
                key, changed = _clean_row(
                    row, plan=plan, parts=parts, drawn=drawn, entries=entries, grid=grid
                )
                if key in seen:
                    raise ValidationFailed("duplicate_round", _("This round is given twice."))
            except ApplicationError as exc:
                given = row if isinstance(row, Mapping) else {}
                raise _refused(exc, index, given.get("part") or "", given.get("number")) from None
            seen.add(key)
            if changed:
                changes.append((key, changed))
        saved = []
        stored = {(r.part, r.number): r for r in flight.rounds.all()}
        for (part, number), changed in changes:
            current = grid[(part, number)]
            row = stored.get((part, number)) or FlightRound(
                flight=flight,
                part=part,
                number=number,
                match_length=current.match_length,
                clock_preset=current.clock_preset,
                clock_policy=current.clock_policy,
            )
            for name, value in changed.items():
                setattr(row, name, value)
            row.save()
            saved.append(row)
            if "match_length" in changed:
                # As the one-round form: the matches not started take the new length.
                _unstarted_take_length(flight, part, number, row.match_length)
        if saved:
            touch(flight)
        return saved
