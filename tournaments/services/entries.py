"""Entries: register a player or a walk-in (before the draw, or late: the next seed's
bye, or the next Swiss round), and withdraw (the opponents advance)."""

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
from tournaments.models import OPEN, Entry, Flight, Format, TournamentMatch
from tournaments.services.advancing import advance
from tournaments.services.common import lock_flight, require_director, touch
from tournaments.services.registration import promote_waitlist


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
