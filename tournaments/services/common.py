"""What the tournament services share: who may do what, the locks of the aggregate (the
flight) and the version check of a match, the pairing package's errors as application
errors, the live pages told of a change. No service here; nothing here opens a
transaction (the callers do)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from games.models import Player
from tournaments import live, pairing
from tournaments.messages import pairing_message
from tournaments.models import Event, Flight, TournamentMatch


def pairing_error(exc: pairing.PairingError) -> ValidationFailed:
    game = getattr(exc, "game", None)
    extra: dict[str, object] = {"reason": exc.message}
    if game is not None:
        extra["game"] = game
    return ValidationFailed(exc.code, pairing_message(exc.code, game=game), extra=extra)


def require_director(user: Any, event: Event) -> None:
    if not event.is_director(user):
        raise PermissionDenied("not_a_director", _("Only the event's directors may do this."))


def lock_flight(flight_id: int) -> Flight:
    try:
        return (
            Flight.objects.select_for_update(of=("self",)).select_related("event").get(pk=flight_id)
        )
    except Flight.DoesNotExist:
        raise NotFound("flight_not_found", _("There is no flight with this id.")) from None


def lock_match(match_id: int) -> tuple[Flight, TournamentMatch]:
    """Lock the match's flight (the aggregate), then read the match with its entries."""
    flight_id = (
        TournamentMatch.objects.filter(pk=match_id).values_list("flight_id", flat=True).first()
    )
    if flight_id is None:
        raise NotFound("match_not_found", _("There is no tournament match with this id."))
    flight = lock_flight(flight_id)
    row = TournamentMatch.objects.select_related("entry_a__player", "entry_b__player").get(
        pk=match_id
    )
    return flight, row


def check_version(row: TournamentMatch, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != row.version:
        raise Conflict(
            "stale_version",
            _("The match has changed since you looked: reload and try again."),
            extra={"version": row.version},
        )


def touch(flight: Flight, *fields: str) -> None:
    """Bump the flight's version (saving ``fields`` with it) and, once the transaction
    commits, tell the pages that show it (:func:`tournaments.live.flight_changed`)."""
    flight.version += 1
    flight.save(update_fields=["version", *fields])
    live.flight_changed(flight)


def side_of_user(row: TournamentMatch, user: Any) -> str:
    player = Player.of_user(user)
    if player is None:
        return ""
    for s, entry in (("a", row.entry_a), ("b", row.entry_b)):
        if entry is not None and entry.player_id == player.pk:
            return s
    return ""


def match_notice_context(flight: Flight, row: TournamentMatch, **more: Any) -> dict[str, Any]:
    """What every notification about a tournament match carries (its texts and links,
    :mod:`tournaments.notifications`), with the kind's own ``more``."""
    return {
        "tournament_match_id": row.pk,
        "event": flight.event.name,
        "flight": flight.name,
        "event_slug": flight.event.slug,
        "flight_id": flight.pk,
        **more,
    }
