"""What the tournament services share: who may do what, the locks of the aggregate (the
flight) and the version check of a match, the pairing package's errors as application
errors, the live pages told of a change. No service here; nothing here opens a
transaction (the callers do)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from games.models import Player
from tournaments import live, pairing
from tournaments.messages import pairing_message
from tournaments.models import DONE, OPEN, Event, Flight, FlightRound, Format, TournamentMatch


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


# ---------------------------------------------------------------------- publishing
#: What the draw publishes (``flight_draw(publish=...)``): no round, round 1 (of the
#: bracket's first part; Swiss and round robin: round 1), or every round of the draw.
PUBLISH_CHOICES = ("none", "first", "all")


def publish_round(
    flight: Flight, part: str, number: int, rounds: dict[tuple[str, int], FlightRound]
) -> FlightRound:
    """Mark round ``number`` of ``part`` published (a settings row is made from the
    flight's defaults when it has none); ``rounds`` is kept in step."""
    row = rounds.get((part, number))
    if row is None:
        row = FlightRound(
            flight=flight,
            part=part,
            number=number,
            match_length=flight.match_length,
            clock_preset=flight.clock_preset,
            clock_policy=flight.clock_policy,
        )
        rounds[(part, number)] = row
    if row.published_at is None:
        row.published_at = timezone.now()
        row.save()
    return row


def publish_due(
    flight: Flight, rows: list[TournamentMatch]
) -> tuple[set[tuple[str, int]], set[tuple[str, int]]]:
    """Publish the rounds that are due, and return (the published rounds, those just
    published). Knockouts and round robin, once the director published a round: the next
    round of a part is published when every match of the round before has a result (or
    a bye); a part's first round (a consolation, a losers' bracket, a grand final) when
    every one of its matches has its players known or is decided. Swiss rounds are
    paired and published by the director (``round_publish``).

    Play ahead (``Flight.play_ahead``, issue 29; knockouts only: a Swiss round is paired
    from the standings of the whole round before, a round robin's rounds are published
    as they are today): a round is published as soon as one of its matches has both
    players known, so the players who finished early play on; its other matches show
    "waiting for players" until theirs are known (they take no result before)."""
    rounds = {(r.part, r.number): r for r in flight.rounds.all()}
    shown = {key for key, r in rounds.items() if r.published_at is not None}
    opened: set[tuple[str, int]] = set()
    ahead = flight.play_ahead and flight.is_bracket
    if flight.format == Format.SWISS or not shown:
        return shown, opened
    by_round: dict[tuple[str, int], list[TournamentMatch]] = {}
    for m in rows:
        by_round.setdefault((m.part, m.round), []).append(m)
    for part, number in sorted(by_round, key=lambda k: (k[1], k[0])):
        if (part, number) in shown:
            continue
        # The round before in the same part. A part's rounds need not start at 1: a double
        # elimination's grand final is numbered after the losers' bracket's last round.
        earlier = [n for p, n in by_round if p == part and n < number]
        if earlier:
            before = (part, max(earlier))
            due = before in shown and all(m.status in DONE for m in by_round[before])
        else:
            due = all(m.status != TournamentMatch.Status.PENDING for m in by_round[(part, number)])
        if not due and ahead:
            due = any(m.status in OPEN for m in by_round[(part, number)])
        if due:
            publish_round(flight, part, number, rounds)
            shown.add((part, number))
            opened.add((part, number))
    return shown, opened


def require_published(flight: Flight, row: TournamentMatch) -> None:
    """Refuse (409 ``round_not_published``) a result (a director's too), a report, a
    confirmation, a correction or an online start of a match whose round is not
    published: nobody but the directors sees its pairing, so nothing is played or
    recorded on it (publishing is one click on the flight's page). Setting its table is
    the director's preparation and stays allowed."""
    if not FlightRound.objects.filter(
        flight=flight, part=row.part, number=row.round, published_at__isnull=False
    ).exists():
        raise Conflict(
            "round_not_published",
            _("This match's round is not published yet: publish it first."),
            extra={"part": row.part, "round": row.round},
        )
