"""Entries: register a player or a walk-in (before the draw, or late: the next seed's
bye, or the next Swiss round), withdraw (the opponents advance) and reinstate a
withdrawn one where the flight allows it (issue 29)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import Conflict, NotFound, ValidationFailed
from games.models import Player
from games.players.guests import player_create_guest
from tournaments import bridge, pairing
from tournaments.models import HOLDS_PLACE, OPEN, Entry, Flight, Format, TournamentMatch
from tournaments.pairing.common import is_entrant
from tournaments.services.advancing import advance
from tournaments.services.common import lock_flight, require_director, touch
from tournaments.services.registration import promote_waitlist
from tournaments.services.undraw import check_flight_version, match_label


def entry_register(
    *, flight_id: int, by: Any, player_id: int | None = None, name: str = ""
) -> Entry:
    """Enter an existing player (``player_id``) or a walk-in (``name``: a new player).

    After the draw this is a **late entry**: in a bracket it takes the next seed number,
    i.e. the bye of the lowest seed that had one, if the pairing package says that bye is
    still open (409 ``late_entry_closed`` otherwise); in a Swiss flight the player joins
    from the next round published; a round robin takes no late entries."""
    with transaction.atomic():
        flight = lock_flight(flight_id)
        require_director(by, flight.event)
        if flight.status == Flight.Status.FINISHED:
            raise Conflict("flight_finished", _("This flight is over."))
        if (player_id is None) == (not (name or "").strip()):
            raise ValidationFailed(
                "player_or_name", _("Choose an existing player or type a new player's name.")
            )
        if player_id is not None:
            player = Player.objects.filter(pk=player_id).first()
            if player is None:
                raise NotFound("player_not_found", _("There is no player with this id."))
            if not player.is_active:
                raise ValidationFailed("inactive_player", _("This player is not active."))
            if Entry.objects.filter(flight=flight, player=player).exists():
                raise Conflict("already_entered", _("This player is already entered."))
        else:
            # 400 invalid_name (what is wrong with it), 409 player_exists (who has it).
            player = player_create_guest(name=name)
        entry = Entry(flight=flight, player=player, rating=player.rating)
        if flight.status == Flight.Status.REGISTRATION:
            entry.save()
            touch(flight)
            return entry
        _late_entry(flight, entry, by=by)
        return entry


def _late_entry(flight: Flight, entry: Entry, *, by: Any) -> None:
    closed = Conflict("late_entry_closed", _("No place is left for a late entry in this flight."))
    if flight.format == Format.ROUND_ROBIN:
        raise closed
    entry.late = True
    seeds = list(flight.entries.filter(seed__isnull=False).order_by("seed"))
    entry.seed = len(seeds) + 1
    if flight.format == Format.SWISS:
        published = flight.rounds.filter(part="", published_at__isnull=False).count()
        if published >= flight.options["rounds"]:
            raise closed
        entry.save()
        touch(flight)
        return
    entry.save()  # the entrant id the pairing package needs is the primary key
    rows = list(flight.matches.all())
    bracket = pairing.Bracket.from_dict(flight.bracket or {})
    open_ = pairing.late_entry_open(
        bracket,
        [e.pk for e in seeds],
        bridge.bracket_results(rows),
        {e.pk for e in seeds if e.status == Entry.Status.WITHDRAWN},
        entrant=entry.pk,
    )
    if not open_:
        raise closed
    advance(flight, rows=rows)


def entry_withdraw(*, entry_id: int, by: Any) -> Entry:
    """Withdraw an entry. Before the draw it is simply left out (the first on the
    flight's waitlist moves up: :mod:`tournaments.services.registration`); after it the opponents
    advance: in a bracket every later match of the entrant is a walkover (the pairing
    package's rule), in Swiss / round robin their unplayed matches are recorded as
    walkovers and a Swiss player is paired no more."""
    with transaction.atomic():
        flight_id = Entry.objects.filter(pk=entry_id).values_list("flight_id", flat=True).first()
        if flight_id is None:
            raise NotFound("entry_not_found", _("There is no entry with this id."))
        flight = lock_flight(flight_id)
        require_director(by, flight.event)
        entry = Entry.objects.select_related("player").get(pk=entry_id)
        if entry.status in (Entry.Status.WITHDRAWN, Entry.Status.REFUSED):
            raise Conflict("already_withdrawn", _("This entry is already withdrawn."))
        if flight.status == Flight.Status.FINISHED:
            raise Conflict("flight_finished", _("This flight is over."))
        drawn = entry.status == Entry.Status.ACTIVE
        entry.status = Entry.Status.WITHDRAWN
        entry.save(update_fields=["status"])
        if flight.status == Flight.Status.REGISTRATION or not drawn:
            # Before the draw a place is freed (the waitlist moves up); a registration
            # still waiting after the draw was never in it.
            promote_waitlist(flight)
            touch(flight)
            return entry
        if not flight.is_bracket:
            now = timezone.now()
            mine = Q(entry_a_id=entry.pk) | Q(entry_b_id=entry.pk)
            for row in flight.matches.filter(mine, status__in=OPEN):
                row.status = TournamentMatch.Status.WALKOVER
                row.winner = "b" if row.entry_a_id == entry.pk else "a"
                row.decided_at = now
                row.decided_by = by
                row.version += 1
                row.save()
        advance(flight)
        return entry


# ---------------------------------------------------------------------- reinstating (issue 29)
def _bracket_reopens(flight: Flight, entry: Entry) -> None:
    """Refuse (409 ``reinstate_too_late``, naming the match) when putting ``entry`` back
    in the bracket would change a match that has a result, a report or was started:
    the walkover their withdrawal gave has been used (the opponent played on)."""
    entries = list(flight.entries.select_related("player"))
    for e in entries:
        if e.pk == entry.pk:
            e.status = Entry.Status.ACTIVE
    rows = list(flight.matches.select_related("entry_a__player", "entry_b__player"))

    def used(row: TournamentMatch | None) -> Conflict:
        where = match_label(row) if row is not None else _("a later match")
        return Conflict(
            "reinstate_too_late",
            _(
                "%(name)s cannot be reinstated: the walkover their withdrawal gave has "
                "been used (%(match)s has a result or was started)."
            )
            % {"name": entry.player.name, "match": where},
            extra={"match": row.pk if row is not None else None},
        )

    try:
        resolved = bridge.resolve(flight, entries, rows)
    except pairing.PairingError as exc:
        # A result stands on a match the walkover's winner would no longer reach.
        raise used(next((r for r in rows if r.slot_key == exc.slot), None)) from None
    played = (TournamentMatch.Status.REPORTED, TournamentMatch.Status.DISPUTED)
    for row in sorted(rows, key=lambda m: (m.part, m.round, m.index)):
        rs = resolved[row.slot_key]
        a = rs.a if is_entrant(rs.a) else None
        b = rs.b if is_entrant(rs.b) else None
        if row.decided_at is not None:
            # A result that stands keeps its row (advance() leaves it alone): only its
            # players moving would undo it.
            if (row.entry_a_id, row.entry_b_id) == (a, b):
                continue
        else:
            status = TournamentMatch.Status.READY if row.status in played else row.status
            if (row.entry_a_id, row.entry_b_id, status) == (a, b, rs.status):
                continue
        if (
            row.decided_at is not None
            or row.status in played
            or row.report_a is not None
            or row.report_b is not None
            or row.online_match_id is not None
            or row.mat_match_id is not None
        ):
            raise used(row)


def _walkovers_to_reopen(flight: Flight, entry: Entry) -> list[TournamentMatch]:
    """Swiss / round robin: the walkovers ``entry``'s withdrawal recorded that are
    played again (round robin: all of them; Swiss: those of the latest paired round,
    the later rounds being paired from the standings they made)."""
    mine = Q(entry_a_id=entry.pk, winner="b") | Q(entry_b_id=entry.pk, winner="a")
    rows = list(
        flight.matches.filter(
            mine, status=TournamentMatch.Status.WALKOVER, late_forfeit=False
        ).exclude(decided_at=None)
    )
    if flight.format == Format.SWISS:
        latest = flight.matches.order_by("-round").values_list("round", flat=True).first()
        rows = [m for m in rows if m.round == latest]
    return rows


def entry_reinstate(*, entry_id: int, by: Any, version: int | None = None) -> Entry:
    """Put a withdrawn entry back in its flight (issue 29), where the flight allows it:

    * before the draw, always (back to active), while a place is free (409
      ``flight_full`` when the flight's places are taken);
    * after the draw, only a drawn entry (a player withdrawn before it is entered again
      as a late entry) and only where their place is untouched:

      - a bracket: the walkovers their withdrawal gave are undone, unless one was used
        (its winner's next match has a result, a report or was started: 409
        ``reinstate_too_late`` naming it);
      - Swiss: their walkover of the latest round is played after all, and they are
        paired again from the next round; refused when every round is paired and no
        walkover of theirs is left to reopen;
      - round robin: every walkover their withdrawal recorded is played after all
        (nothing else depends on it).

    The withdrawal's walkovers are the ones reopened, never a result played. ``version``:
    the flight's, checked when given (409 ``stale_version``)."""
    with transaction.atomic():
        flight_id = Entry.objects.filter(pk=entry_id).values_list("flight_id", flat=True).first()
        if flight_id is None:
            raise NotFound("entry_not_found", _("There is no entry with this id."))
        flight = lock_flight(flight_id)
        require_director(by, flight.event)
        check_flight_version(flight, version)
        entry = Entry.objects.select_related("player").get(pk=entry_id)
        if entry.status != Entry.Status.WITHDRAWN:
            raise Conflict("not_withdrawn", _("This entry is not withdrawn."))
        name = entry.player.name
        if flight.status == Flight.Status.FINISHED:
            raise Conflict("flight_finished", _("This flight is over."))
        if flight.status == Flight.Status.REGISTRATION:
            taken = flight.entries.filter(status__in=HOLDS_PLACE).count()
            if flight.capacity is not None and taken >= flight.capacity:
                raise Conflict(
                    "flight_full",
                    _(
                        "Every place of this flight is taken: raise the number of places "
                        "or withdraw someone first."
                    ),
                )
            entry.status = Entry.Status.ACTIVE
            entry.save(update_fields=["status"])
            touch(flight)
            return entry
        if entry.seed is None:
            raise Conflict(
                "reinstate_too_late",
                _(
                    "%(name)s cannot be reinstated: they were withdrawn before the draw. "
                    "Enter them again as a late entry."
                )
                % {"name": name},
            )
        reopened: list[TournamentMatch] = []
        if flight.is_bracket:
            _bracket_reopens(flight, entry)
        else:
            reopened = _walkovers_to_reopen(flight, entry)
            if flight.format == Format.SWISS and not reopened:
                paired = flight.matches.order_by("-round").values_list("round", flat=True).first()
                if (paired or 0) >= flight.options["rounds"]:
                    raise Conflict(
                        "reinstate_too_late",
                        _(
                            "%(name)s cannot be reinstated: every round is paired and "
                            "their matches were walked over."
                        )
                        % {"name": name},
                    )
        for row in reopened:
            row.status = TournamentMatch.Status.READY
            row.winner = ""
            row.decided_at = None
            row.decided_by = None
            row.version += 1
            row.save(update_fields=["status", "winner", "decided_at", "decided_by", "version"])
        entry.status = Entry.Status.ACTIVE
        entry.save(update_fields=["status"])
        advance(flight, notify_rows=reopened)
        return entry
