"""After every change to a flight: its bracket's rows brought in step with the pairing
package (:func:`advance`), tables for the newly ready matches, their players told, the
entries' places stored, the flight's status (not the event's: its directors end it),
the rounds due published. Called inside the caller's transaction, with the flight
locked."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from games.notifications.services import Notice, notify_all
from tournaments import bridge, pairing
from tournaments.models import DONE, OPEN, Entry, Flight, Format, TournamentMatch
from tournaments.pairing.common import is_entrant
from tournaments.services.common import match_notice_context, publish_due, touch

#: The place columns of an entry (written by :func:`_store_places` only).
PLACE_FIELDS = ("place", "place_label", "side_part", "side_place_label")
#: Up to this many distinct new places, one plain ``UPDATE`` each; more: one bulk update.
PLACE_UPDATES = 2

_STATUS = {
    "pending": TournamentMatch.Status.PENDING,
    "ready": TournamentMatch.Status.READY,
    "walkover": TournamentMatch.Status.WALKOVER,
    "bye": TournamentMatch.Status.BYE,
}


def advance(
    flight: Flight,
    *,
    rows: list[TournamentMatch] | None = None,
    notify_rows: Sequence[TournamentMatch] = (),
) -> list[TournamentMatch]:
    """After any change: bring the bracket's rows in step with the pairing package, give
    newly ready matches a table and tell their players, close a finished flight, bump
    the flight's version. Returns the newly ready matches."""
    rows = list(flight.matches.all()) if rows is None else rows
    entries = {e.pk: e for e in flight.entries.select_related("player__user")}
    ready: list[TournamentMatch] = list(notify_rows)
    bracket: pairing.Bracket | None = None
    resolved: Mapping[str, pairing.ResolvedSlot] | None = None
    if flight.is_bracket and flight.bracket:
        bracket = pairing.Bracket.from_dict(flight.bracket)
        resolved = bridge.resolve(flight, entries.values(), rows, bracket=bracket)
        changed = []
        for row in rows:
            rs = resolved[row.slot_key]
            if row.decided_at is not None:
                continue
            a = rs.a if is_entrant(rs.a) else None
            b = rs.b if is_entrant(rs.b) else None
            status = _STATUS[rs.status]
            sides_changed = (row.entry_a_id, row.entry_b_id) != (a, b)
            if (
                status == TournamentMatch.Status.READY
                and not sides_changed
                and row.status in (TournamentMatch.Status.REPORTED, TournamentMatch.Status.DISPUTED)
            ):
                status = row.status  # a report, or two that differ (issue 29), waits
            winner = (rs.winner_side or "") if status in DONE else ""
            if sides_changed or row.status != status or row.winner != winner:
                if sides_changed:
                    row.report_a = row.report_b = None
                    row.table = None
                    # A lateness was a player's who is no longer in it (R15).
                    row.late_side, row.late_minutes, row.late_points = "", None, 0
                    row.late_forfeit = False
                newly_ready = status == TournamentMatch.Status.READY and (
                    sides_changed or row.status not in OPEN
                )
                row.entry_a_id, row.entry_b_id = a, b  # type: ignore[assignment]
                row.status, row.winner = status, winner
                row.version += 1
                changed.append(row)
                if newly_ready:
                    ready.append(row)
        _assign_tables(flight, ready)
        TournamentMatch.objects.bulk_update(
            changed,
            [
                *("entry_a", "entry_b", "status", "winner", "report_a", "report_b", "table"),
                *("late_side", "late_minutes", "late_points", "late_forfeit", "version"),
            ],
        )
    elif ready and flight.format == Format.SWISS:
        _assign_tables(flight, ready)
        TournamentMatch.objects.bulk_update(ready, ["table"])
    shown, opened = publish_due(flight, rows)
    if flight.format == Format.ROUND_ROBIN:
        _round_robin_tables(flight, rows, shown)
    # Players hear of a match once its round is published (now or earlier).
    notify = [m for m in ready if (m.part, m.round) in shown]
    notify += [
        m
        for m in rows
        if (m.part, m.round) in opened
        and m.status == TournamentMatch.Status.READY
        and m not in notify
    ]
    _notify_ready(flight, notify, entries)
    fields = []
    finished = _finished(flight, rows)
    _store_places(flight, rows, entries, bracket, resolved, finished=finished)
    if finished != (flight.status == Flight.Status.FINISHED):
        # Finished by this result, or open again after a correction reset a final.
        flight.status = Flight.Status.FINISHED if finished else Flight.Status.DRAWN
        fields.append("status")
    # The event's status is not the flight's business: ending an event is its
    # director's act (tournaments.services.events.event_finish).
    touch(flight, *fields)
    return ready


def _flight_places(
    flight: Flight,
    rows: Sequence[TournamentMatch],
    entries: Sequence[Entry],
    bracket: pairing.Bracket | None,
    resolved: Mapping[str, pairing.ResolvedSlot] | None,
    *,
    finished: bool,
) -> dict[int, pairing.EntrantPlace]:
    """Entry id -> final places (:func:`tournaments.pairing.entrant_places`), without a
    query: a bracket's from its resolution (``bracket``, ``resolved``); a Swiss / round
    robin flight's from its standings once ``finished`` (none before)."""
    if flight.is_bracket:
        if bracket is None or resolved is None:
            return {}
        orders = pairing.finishing_order(bracket, resolved)
        places = pairing.entrant_places(orders, main=next(iter(bracket.rankings())))
    else:
        if not finished:
            return {}
        table = bridge.standings(flight, entries, rows)
        orders = {"": pairing.standings_places(table, final=True)}
        places = pairing.entrant_places(orders, main="")
    return {int(e): p for e, p in places.items()}


def _store_places(
    flight: Flight,
    rows: Sequence[TournamentMatch],
    entries: Mapping[int, Entry],
    bracket: pairing.Bracket | None,
    resolved: Mapping[str, pairing.ResolvedSlot] | None,
    *,
    finished: bool,
) -> None:
    """Write the entries' places (:func:`_flight_places`) where they changed. An entry
    without a final place (still playing, not drawn) has its place cleared (a correction
    can put a player back in the running).

    Usually a result changes one place (the loser's) or one shared group's label: one
    plain ``UPDATE ... WHERE id IN`` per new value, up to :data:`PLACE_UPDATES` of them; more
    (a correction, a finished Swiss) go in one ``bulk_update`` (measured: a plain
    update costs a quarter of a ``CASE`` one for a few rows)."""
    places = _flight_places(
        flight, rows, list(entries.values()), bracket, resolved, finished=finished
    )
    changed: dict[tuple[Any, ...], list[Entry]] = {}
    for pk, entry in entries.items():
        p = places.get(pk, pairing.NO_PLACE)
        wanted = (p.place, p.label, p.side_part, p.side_label)
        if tuple(getattr(entry, f) for f in PLACE_FIELDS) != wanted:
            for f, value in zip(PLACE_FIELDS, wanted, strict=True):
                setattr(entry, f, value)
            changed.setdefault(wanted, []).append(entry)
    if len(changed) > PLACE_UPDATES:
        Entry.objects.bulk_update([e for group in changed.values() for e in group], PLACE_FIELDS)
        return
    for wanted, group in changed.items():
        Entry.objects.filter(pk__in=[e.pk for e in group]).update(
            **dict(zip(PLACE_FIELDS, wanted, strict=True))
        )


def _finished(flight: Flight, rows: Sequence[TournamentMatch]) -> bool:
    if not rows or any(m.status not in DONE for m in rows):
        return False
    if flight.format == Format.SWISS:
        return max(m.round for m in rows) >= flight.options["rounds"]
    return True


def _assign_tables(flight: Flight, ready: Sequence[TournamentMatch]) -> None:
    """Give each newly ready match the lowest table no open match of the event holds."""
    need = [m for m in ready if m.table is None and m.entry_a_id and m.entry_b_id]
    if not need:
        return
    busy = set(
        TournamentMatch.objects.filter(
            flight__event_id=flight.event_id, status__in=OPEN, table__isnull=False
        )
        .exclude(pk__in=[m.pk for m in need])
        .values_list("table", flat=True)
    )
    table = 1
    for row in need:
        while table in busy:
            table += 1
        row.table = table
        busy.add(table)


def _round_robin_tables(
    flight: Flight, rows: Sequence[TournamentMatch], shown: Collection[tuple[str, int]]
) -> None:
    """Tables for a round robin (issue 29: it had none after round 1). Every round is
    paired at the draw, so a match gets its table only when it is to be played: its round
    is published and neither player still has an open match of an earlier published round
    (tables then go round by round, as in a Swiss, however many rounds are published)."""
    busy_until: dict[int, int] = {}  # entry -> the earliest round they still play
    for m in rows:
        if m.status in OPEN and (m.part, m.round) in shown:
            for e in (m.entry_a_id, m.entry_b_id):
                if e is not None:
                    busy_until[e] = min(busy_until.get(e, m.round), m.round)
    due = [
        m
        for m in rows
        if m.table is None
        and m.status in OPEN
        and (m.part, m.round) in shown
        and m.entry_a_id is not None
        and m.entry_b_id is not None
        and busy_until.get(m.entry_a_id) == m.round
        and busy_until.get(m.entry_b_id) == m.round
    ]
    if due:
        _assign_tables(flight, sorted(due, key=lambda m: (m.round, m.index)))
        TournamentMatch.objects.bulk_update(due, ["table"])


def _notify_ready(
    flight: Flight, ready: Sequence[TournamentMatch], entries: Mapping[int, Entry]
) -> None:
    notices = []
    for row in ready:
        if not (row.entry_a_id and row.entry_b_id):
            continue
        a, b = entries[row.entry_a_id], entries[row.entry_b_id]
        for me, other in ((a, b), (b, a)):
            notices.append(
                Notice(
                    recipient=me.player,
                    kind="match_ready",
                    subject=f"tmatch:{row.pk}:{a.pk}-{b.pk}",
                    context=match_notice_context(
                        flight,
                        row,
                        opponent=other.player.name,
                        table=row.table,
                        round=row.round,
                        length=row.match_length,
                    ),
                )
            )
    if notices:
        notify_all(notices)
