"""Undo a draw (issue 29): while nobody has played, reported or walked over a match of
the flight, the draw's matches are deleted and the flight is back in registration, so
that "Make the draw" works again (the draw made again is the redo).

What :func:`tournaments.services.draw.flight_draw` made, and what undoing it does:

* the match rows (bracket slots, Swiss / round robin pairings, byes, their tables):
  deleted;
* the entries' seeds, late-entry marks and places: cleared (a late entry is an ordinary
  entry of the next draw);
* the flight's bracket, random seed and status: cleared, back to ``registration``;
* the published rounds: unpublished (their settings, match lengths and clocks, stay);
* the event stays running (it was published by the draw: players may have seen it).

Entries withdrawn after the draw stay withdrawn (the walkovers their withdrawal gave are
deleted with the draw); so do those "Draw the checked-in players only" left out:
:func:`tournaments.services.entries.entry_reinstate` brings one back before the draw."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import Conflict
from tournaments.models import Entry, Flight, TournamentMatch
from tournaments.services.common import lock_flight, require_director, touch


def check_flight_version(flight: Flight, version: int | None) -> None:
    """409 ``stale_version`` when the flight moved since the caller looked (a second tap,
    another director's change)."""
    if version is not None and version != flight.version:
        raise Conflict(
            "stale_version",
            _("The flight has changed since you looked: reload and try again."),
            extra={"version": flight.version},
        )


def _walkover_of_withdrawal(row: TournamentMatch, withdrawn: set[int]) -> bool:
    """A walkover that a withdrawal gave (not a lateness forfeit, not a director's)."""
    if row.status != TournamentMatch.Status.WALKOVER or row.late_forfeit:
        return False
    loser = row.entry_b_id if row.winner == "a" else row.entry_a_id
    return loser is None or loser in withdrawn


def blocking_match(flight: Flight) -> TournamentMatch | None:
    """The first match (by part, round, number) that keeps the draw from being undone:
    one with a result that stands or a report (``decided_at``, a report, reported or
    disputed), played online or from a .mat file, or walked over for another reason than
    a withdrawal. Byes and the walkovers of withdrawals do not count."""
    withdrawn = set(
        flight.entries.filter(status=Entry.Status.WITHDRAWN).values_list("pk", flat=True)
    )
    rows = flight.matches.select_related("entry_a__player", "entry_b__player").order_by(
        "part", "round", "index"
    )
    for row in rows:
        if row.status == TournamentMatch.Status.BYE:
            continue
        if _walkover_of_withdrawal(row, withdrawn):
            continue
        if (
            row.decided_at is not None
            or row.status
            in (
                TournamentMatch.Status.REPORTED,
                TournamentMatch.Status.DISPUTED,
                TournamentMatch.Status.CONFIRMED,
                TournamentMatch.Status.WALKOVER,
            )
            or row.report_a is not None
            or row.report_b is not None
            or row.online_match_id is not None
            or row.mat_match_id is not None
        ):
            return row
    return None


def match_label(row: TournamentMatch) -> str:
    """ "Round 2, match 3 (Kiss Anna - Nagy Béla)": how a refusal names a match."""
    names = " - ".join(e.player.name for e in (row.entry_a, row.entry_b) if e is not None)
    text = _("Round %(round)d, match %(index)d") % {"round": row.round, "index": row.index}
    return f"{text} ({names})" if names else text


def undraw_refusal(row: TournamentMatch) -> Conflict:
    """409 ``draw_has_results``, naming ``row`` (its id in ``extra["match"]``)."""
    return Conflict(
        "draw_has_results",
        _("The draw cannot be undone: %(match)s has a result, a report or was started.")
        % {"match": match_label(row)},
        extra={"match": row.pk},
    )


def flight_undraw(*, flight_id: int, by: Any, version: int | None = None) -> Flight:
    """Undo the draw of a flight (see the module docstring). Refusals: 409 ``not_drawn``
    (nothing to undo), ``flight_finished``, ``draw_has_results`` (naming the match, with
    its id in ``extra["match"]``), ``stale_version`` (``version`` given and the flight
    moved)."""
    with transaction.atomic():
        flight = lock_flight(flight_id)
        require_director(by, flight.event)
        check_flight_version(flight, version)
        if flight.status == Flight.Status.REGISTRATION:
            raise Conflict("not_drawn", _("This flight has not been drawn yet."))
        if flight.status == Flight.Status.FINISHED:
            raise Conflict("flight_finished", _("This flight is over."))
        row = blocking_match(flight)
        if row is not None:
            raise undraw_refusal(row)
        flight.matches.all().delete()
        flight.entries.update(
            seed=None, late=False, place=None, place_label="", side_part="", side_place_label=""
        )
        flight.rounds.update(published_at=None)
        flight.status = Flight.Status.REGISTRATION
        flight.bracket = None
        flight.seed = None
        touch(flight, "status", "bracket", "seed")
        return flight
