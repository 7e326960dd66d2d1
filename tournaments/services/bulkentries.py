"""Many players entered into a flight at once (issue 29, item 11): the club's players
ticked on a list and new guests typed one name per line, in one post.

Each player goes in through :func:`tournaments.services.entries.entry_register`, so
every rule of entering one player holds for each (an inactive player refused, a late
entry after the draw only where a place is open, whatever checks that service gains).
What differs is only the bundle:

* everything is checked before anything is kept: a typed name that is not a name is
  refused with its line number (``extra["line"]``), a refusal of one player names them
  (``extra["player_id"]``, ``extra["name"]``), and nothing is entered;
* a player already in the flight (whatever their entry's state) is reported, not
  refused: ticking the whole list again is harmless;
* a typed name that is already a player's (whatever the case) enters that player: a
  guest list from last month need not be sorted into members and newcomers first.

A director's entries are in at once and may go beyond the flight's capacity (the
director's call, as with one entry); the result counts the places so a page can say so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import ApplicationError, Conflict, NotFound, ValidationFailed
from games.models import Player
from games.players.names import player_name_clean
from tournaments.models import HOLDS_PLACE, Entry, Flight
from tournaments.services.common import lock_flight, require_director
from tournaments.services.entries import entry_register

#: The most players one post may enter.
MAX_BULK = 200


@dataclass
class EntriesAdded:
    """What one bulk entry did: the new entries (in the order asked), the players who
    were in the flight already (their entries as they are: active, withdrawn, waiting
    to be confirmed or on the waitlist), the guests made from typed names, and the
    flight's capacity with the places now held (``capacity`` ``None``: no cap)."""

    entered: list[Entry] = field(default_factory=list)
    already: list[Entry] = field(default_factory=list)
    created: list[Player] = field(default_factory=list)
    capacity: int | None = None
    held: int = 0
    version: int = 0

    @property
    def waitlisted(self) -> list[Entry]:
        """Of the players already in, those still waiting for a place."""
        return [e for e in self.already if e.status == Entry.Status.WAITLISTED]

    @property
    def over_capacity(self) -> bool:
        return self.capacity is not None and self.held > self.capacity


def _named(exc: ApplicationError, who: str, **extra: Any) -> ApplicationError:
    """``exc`` saying whom it is about ("Kiss Anna: ...")."""
    return type(exc)(exc.code, f"{who}: {exc.detail}", extra={**exc.extra, **extra})


def _clean_names(names: Sequence[str]) -> list[tuple[int, str]]:
    """The typed names, cleaned, with their line numbers (an empty line is skipped but
    counted, so the numbers are those of the text box)."""
    out = []
    for line, raw in enumerate(names, start=1):
        if not isinstance(raw, str):
            raise ValidationFailed(
                "invalid_name", _("Line %(line)d: a name is text.") % {"line": line}
            )
        if not raw.strip():
            continue
        try:
            out.append((line, player_name_clean(name=raw)))
        except ApplicationError as exc:
            raise type(exc)(
                exc.code,
                _("Line %(line)d: %(reason)s") % {"line": line, "reason": exc.detail},
                extra={**exc.extra, "line": line, "name": raw},
            ) from None
    return out


def entries_add(
    *,
    flight_id: int,
    by: Any,
    player_ids: Sequence[int] = (),
    names: Sequence[str] = (),
    version: int | None = None,
) -> EntriesAdded:
    """Enter the players ``player_ids`` and the typed ``names`` (one player each; a new
    guest unless the name is a player's already) into the flight, all or none.
    ``version``: the flight's version the caller saw (409 ``stale_version`` when it
    has changed since)."""
    with transaction.atomic():
        flight = lock_flight(flight_id)
        require_director(by, flight.event)
        if version is not None and version != flight.version:
            raise Conflict(
                "stale_version",
                _("The flight has changed since you looked: reload and try again."),
                extra={"version": flight.version},
            )
        if flight.status == Flight.Status.FINISHED:
            raise Conflict("flight_finished", _("This flight is over."))
        ids: list[int] = []
        for pk in player_ids:
            if isinstance(pk, bool) or not isinstance(pk, int):
                raise ValidationFailed("invalid_player", _("A player is given by their id."))
            if pk not in ids:
                ids.append(pk)
        typed = _clean_names(names)
        if not ids and not typed:
            raise ValidationFailed(
                "nothing_to_add", _("Tick some players or type some names, one per line.")
            )
        if len(ids) + len(typed) > MAX_BULK:
            raise ValidationFailed(
                "too_many", _("At most %(count)d players at once.") % {"count": MAX_BULK}
            )
        found = Player.objects.in_bulk(ids)
        missing = [pk for pk in ids if pk not in found]
        if missing:
            raise NotFound(
                "player_not_found",
                _("There is no player with this id: %(ids)s.")
                % {"ids": ", ".join(map(str, missing))},
                extra={"player_ids": missing},
            )
        players = [found[pk] for pk in ids]
        new_names: list[tuple[int, str]] = []
        for line, name in typed:
            existing = Player.objects.filter(name__iexact=name).first()
            if existing is None:
                if all(n.casefold() != name.casefold() for _l, n in new_names):
                    new_names.append((line, name))
            elif existing.pk not in {p.pk for p in players}:
                players.append(existing)
        result = EntriesAdded()
        entered_before = {
            e.player_id: e for e in Entry.objects.filter(flight=flight).select_related("player")
        }
        for player in players:
            if player.pk in entered_before:
                result.already.append(entered_before[player.pk])
                continue
            try:
                result.entered.append(
                    entry_register(flight_id=flight.pk, by=by, player_id=player.pk)
                )
            except ApplicationError as exc:
                raise _named(exc, player.name, player_id=player.pk, name=player.name) from None
        for line, name in new_names:
            try:
                entry = entry_register(flight_id=flight.pk, by=by, name=name)
            except ApplicationError as exc:
                raise _named(exc, name, line=line, name=name) from None
            result.entered.append(entry)
            result.created.append(entry.player)
        flight.refresh_from_db(fields=["version", "capacity"])
        result.capacity = flight.capacity
        result.held = flight.entries.filter(status__in=HOLDS_PLACE).count()
        result.version = flight.version
        return result
