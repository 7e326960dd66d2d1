"""Writes of tournaments: events, flights, entries, the draw, rounds and results.

House rules (ARCHITECTURE.md), as they apply here:

* Every service is one transaction, takes keyword-only arguments, checks who may do it,
  validates everything first, and raises an :class:`~games.errors.ApplicationError`
  (which rolls the transaction back, so a refused write changes nothing).
* **One lock per flight**: every write that touches a flight's entries, matches or
  results first locks the :class:`~tournaments.models.Flight` row (``select_for_update``)
  and bumps its ``version``. A result moves other matches of the same bracket, so the
  flight is the aggregate; two results of one flight are recorded one after the other.
  Match writes also take an optional ``expected_version`` of the match row (409
  ``stale_version`` when it moved).
* **Gather, compute purely, persist**: the draw, the bracket's sides and states, Swiss
  pairings, result checks and standings come from :mod:`tournaments.pairing`; this module
  stores what it returns.

Who may do what: only the event's directors (or superusers) change an event; creating an
event needs the ``tournaments.add_event`` permission, and the creator becomes its first
director. A player may report, and confirm the opponent's report of, their own matches,
and start them online.

Results: a result **stands** (``decided_at`` set) when a director enters or confirms it,
when both players' reports agree, when the opponent confirms a report, or when the online
match finishes (``games.signals.match_finished``). Then the flight **advances** at once:
the bracket is resolved again (:func:`tournaments.pairing.resolve`), rows whose sides
became known turn ``ready`` (byes and walkovers after withdrawals resolve themselves), get
the lowest free table of the event, and both players get a ``match_ready`` notification.

Corrections (:func:`result_correct`) are audited (:class:`ResultCorrection`) and
re-advance the bracket; one that would change the players of a later match that already
has a result, a report or an online match is refused (409 ``later_results_depend``):
correct those first, latest first.

Ratings: a result that stands goes into the rating ledger (:mod:`games.ratings`, key
``"tmatch:<id>"``), rated when ``Event.rated`` (and the ``tournament`` source's setting)
says so, counting from when it first stood (an online match: from when it finished). A
walkover or bye is not rated. A correction changes the ledger's result in its place and
so replays the ratings from there; a reset takes the result out. The online match of a
tournament match is ``played_for`` it, so it is not rated a second time as a casual match.
Whether an event is rated can be changed (:func:`event_update`) only while none of its
results is in the ledger (409 ``event_has_results`` after).

Places (issue 8): every change to a flight (:func:`_advance`: results, corrections and
their resets, withdrawals, late entries, the draw) stores each entry's final place
(``Entry.place``, ``place_label``, ``side_part``, ``side_place_label``) from the same
resolution of the bracket (or, for a finished Swiss / round robin, its standings), and
clears the place of an entrant back in the running. Only the entries whose place changed
are written (usually one ``UPDATE``, none when nothing did). So the player page reads
places; it does not compute brackets.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from games import ratings
from games import services as game_services
from games.engine.clock import PRESETS
from games.errors import ApplicationError, Conflict, NotFound, PermissionDenied, ValidationFailed
from games.models import Game, Match, Player
from games.notifications import Notice, notify_all
from tournaments import bridge, pairing
from tournaments.messages import pairing_message
from tournaments.models import (
    BRACKET_FORMATS,
    DONE,
    IN_LEDGER,
    OPEN,
    PARTS,
    ClockPolicy,
    Entry,
    Event,
    Flight,
    FlightRound,
    Format,
    ResultCorrection,
    TournamentMatch,
)
from tournaments.pairing.common import is_entrant

logger = logging.getLogger(__name__)

MAX_MATCH_LENGTH = game_services.MAX_MATCH_LENGTH

#: The bracket builders' options, per format.
BUILDER_OPTIONS: dict[str, tuple[str, ...]] = {
    Format.SINGLE_ELIMINATION: (),
    Format.CONSOLATION: ("entry_rounds",),
    Format.PROGRESSIVE_CONSOLATION: ("last_entry_round",),
    Format.LAST_CHANCE: ("entry_rounds",),
    Format.DOUBLE_ELIMINATION: ("bracket_reset",),
}

#: The place columns of an entry (written by :func:`_store_places` only).
PLACE_FIELDS = ("place", "place_label", "side_part", "side_place_label")
#: Up to this many distinct new places, one plain ``UPDATE`` each; more: one bulk update.
PLACE_UPDATES = 2


# ====================================================================== helpers
def _pairing_error(exc: pairing.PairingError) -> ValidationFailed:
    game = getattr(exc, "game", None)
    extra: dict[str, object] = {"reason": exc.message}
    if game is not None:
        extra["game"] = game
    return ValidationFailed(exc.code, pairing_message(exc.code, game=game), extra=extra)


def _is_director(user: Any, event: Event) -> bool:
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    if user.is_superuser:
        return True
    return event.directors.filter(pk=user.pk).exists()


def _require_director(user: Any, event: Event) -> None:
    if not _is_director(user, event):
        raise PermissionDenied("not_a_director", _("Only the event's directors may do this."))


def _player_of(user: Any) -> Player | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    try:
        return user.player  # type: ignore[no-any-return]
    except Player.DoesNotExist:
        return None


def _lock_flight(flight_id: int) -> Flight:
    try:
        return (
            Flight.objects.select_for_update(of=("self",)).select_related("event").get(pk=flight_id)
        )
    except Flight.DoesNotExist:
        raise NotFound("flight_not_found", _("There is no flight with this id.")) from None


def _lock_match(match_id: int) -> tuple[Flight, TournamentMatch]:
    """Lock the match's flight (the aggregate), then read the match with its entries."""
    flight_id = (
        TournamentMatch.objects.filter(pk=match_id).values_list("flight_id", flat=True).first()
    )
    if flight_id is None:
        raise NotFound("match_not_found", _("There is no tournament match with this id."))
    flight = _lock_flight(flight_id)
    row = TournamentMatch.objects.select_related("entry_a__player", "entry_b__player").get(
        pk=match_id
    )
    return flight, row


def _check_version(row: TournamentMatch, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != row.version:
        raise Conflict(
            "stale_version",
            _("The match has changed since you looked: reload and try again."),
            extra={"version": row.version},
        )


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


def _touch(flight: Flight, *fields: str) -> None:
    flight.version += 1
    flight.save(update_fields=["version", *fields])


def _round_settings(flight: Flight) -> dict[tuple[str, int], FlightRound]:
    return {(r.ranking, r.number): r for r in flight.rounds.all()}


def _length_for(
    flight: Flight, rounds: Mapping[tuple[str, int], FlightRound], part: str, n: int
) -> int:
    found = rounds.get((part, n))
    return found.match_length if found is not None else flight.match_length


# ====================================================================== events
def event_create(
    *,
    by: Any,
    name: str,
    starts_on: date,
    location: str = "",
    slug: str = "",
    rated: bool = True,
) -> Event:
    """A new event in draft, directed by its creator (needs ``tournaments.add_event``).
    ``rated``: its results count for the players' ratings (``Event.rated``)."""
    if not getattr(by, "is_authenticated", False) or not by.has_perm("tournaments.add_event"):
        raise PermissionDenied("cannot_create_event", _("You may not create events."))
    name = (name or "").strip()
    if not name:
        raise ValidationFailed("name_required", _("Give the event a name."))
    slug = slugify(slug or name)[:120]
    if not slug:
        raise ValidationFailed("invalid_slug", _("The web address needs letters or digits."))
    if Event.objects.filter(slug=slug).exists():
        raise Conflict("slug_taken", _("Another event already uses this web address."))
    try:
        with transaction.atomic():
            event = Event.objects.create(
                name=name,
                slug=slug,
                starts_on=starts_on,
                location=location,
                rated=rated,
                created_by=by,
            )
            event.directors.add(by)
    except IntegrityError:  # a concurrent create took the slug
        raise Conflict("slug_taken", _("Another event already uses this web address.")) from None
    return event


def event_update(
    *,
    event_id: int,
    by: Any,
    name: str | None = None,
    starts_on: date | None = None,
    location: str | None = None,
    rated: bool | None = None,
) -> Event:
    """Change an event's name, date, place or ``rated`` (``None``: unchanged); its
    directors may. The web address stays (links to it are out there).

    ``rated`` (whether the results count for the ratings) is decided for each result as
    it comes to stand, so it changes only while **no result of the event is in the
    rating ledger** (:data:`IN_LEDGER`: walkovers and byes do not count); after that a
    change is refused (409 ``event_has_results``; giving the value it has is no change
    and passes). A club decides this before the first match; rating the event's results
    again afterwards would be a correction of each of them
    (:func:`games.ratings.rating_correct`: one replay of the ledger per result, under the
    ledger's lock), not a setting, so it is not offered here.

    Concurrency: with ``rated``, the event's flights are locked first (in id order, the
    order in which result writes take a flight and then touch the event), then the event:
    a result being recorded meanwhile either commits before the check (and is seen) or
    waits and then reads the new flag (:func:`_rate` reads it after its flight lock)."""
    try:
        event = Event.objects.get(pk=event_id)
    except Event.DoesNotExist:
        raise NotFound("event_not_found", _("There is no event with this id.")) from None
    _require_director(by, event)
    if name is not None:
        name = name.strip()
        if not name:
            raise ValidationFailed("name_required", _("Give the event a name."))
    if location is not None:
        location = location.strip()
    with transaction.atomic():
        if rated is not None:
            list(
                Flight.objects.select_for_update()
                .filter(event_id=event_id)
                .order_by("pk")
                .values_list("pk", flat=True)
            )
        event = Event.objects.select_for_update().get(pk=event_id)
        was_rated = event.rated
        fields = []
        for field, value in (
            ("name", name),
            ("starts_on", starts_on),
            ("location", location),
            ("rated", rated),
        ):
            if value is not None and getattr(event, field) != value:
                setattr(event, field, value)
                fields.append(field)
        if "rated" in fields and (
            TournamentMatch.objects.filter(IN_LEDGER, flight__event_id=event_id).exists()
        ):
            raise Conflict(
                "event_has_results",
                _(
                    "Results of this event already count in the rating list: whether it is "
                    "rated can no longer be changed."
                ),
                extra={"rated": was_rated},
            )
        if fields:
            event.save(update_fields=fields)
    return event


def event_add_director(*, event_id: int, by: Any, user: Any) -> Event:
    """Make ``user`` a director of the event (a director may)."""
    with transaction.atomic():
        try:
            event = Event.objects.select_for_update().get(pk=event_id)
        except Event.DoesNotExist:
            raise NotFound("event_not_found", _("There is no event with this id.")) from None
        _require_director(by, event)
        if not getattr(user, "is_active", False):
            raise ValidationFailed("inactive_user", _("Only active users can direct an event."))
        event.directors.add(user)
    return event


# ====================================================================== flights
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
            raise _pairing_error(exc) from None
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
) -> Flight:
    """A new flight of an event, open for registration (options: ``Flight``)."""
    with transaction.atomic():
        try:
            event = Event.objects.select_for_update().get(pk=event_id)
        except Event.DoesNotExist:
            raise NotFound("event_not_found", _("There is no event with this id.")) from None
        _require_director(by, event)
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
        if event.status == Event.Status.FINISHED:
            raise Conflict("event_finished", _("This event is over."))
        if event.flights.filter(name__iexact=name).exists():
            raise Conflict("flight_name_taken", _("The event already has a flight of this name."))
        return Flight.objects.create(
            event=event,
            name=name,
            format=format,
            options=cleaned,
            seeding=seeding,
            match_length=match_length,
            clock_preset=clock_preset,
            clock_policy=clock_policy,
        )


def flight_round_set(
    *,
    flight_id: int,
    by: Any,
    ranking: str,
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
        flight = _lock_flight(flight_id)
        _require_director(by, flight.event)
        parts = PARTS[flight.format]
        if flight.bracket:
            parts = pairing.Bracket.from_dict(flight.bracket).flights
        if ranking not in parts:
            raise ValidationFailed(
                "invalid_part",
                _("This flight's parts are: %(parts)s.") % {"parts": ", ".join(parts) or "-"},
            )
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise ValidationFailed("invalid_round", _("Rounds are numbered from 1."))
        if match_length is not None:
            _check_length(match_length)
        current = FlightRound.objects.filter(flight=flight, ranking=ranking, number=number).first()
        row = current or FlightRound(
            flight=flight,
            ranking=ranking,
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
                ranking=ranking,
                round=number,
                decided_at__isnull=True,
                online_match__isnull=True,
                report_a__isnull=True,
                report_b__isnull=True,
            ).exclude(match_length=match_length).update(
                match_length=match_length, version=F("version") + 1
            )
        _touch(flight)
        return row


# ====================================================================== entries
def entry_register(
    *, flight_id: int, by: Any, player_id: int | None = None, name: str = ""
) -> Entry:
    """Enter an existing player (``player_id``) or a walk-in (``name``: a new player).

    After the draw this is a **late entry**: in a bracket it takes the next seed number,
    i.e. the bye of the lowest seed that had one, if the pairing package says that bye is
    still open (409 ``late_entry_closed`` otherwise); in a Swiss flight the player joins
    from the next round published; a round robin takes no late entries."""
    with transaction.atomic():
        flight = _lock_flight(flight_id)
        _require_director(by, flight.event)
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
            name = name.strip()
            if len(name) > Player._meta.get_field("name").max_length:
                raise ValidationFailed("name_too_long", _("This name is too long."))
            existing = Player.objects.filter(name__iexact=name).first()
            if existing is not None:
                raise Conflict(
                    "player_exists",
                    _("A player of this name exists already: choose them from the list."),
                    extra={"player_id": existing.pk},
                )
            player = Player.objects.create(name=name)
        entry = Entry(flight=flight, player=player, rating=player.rating)
        if flight.status == Flight.Status.REGISTRATION:
            entry.save()
            _touch(flight)
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
        published = flight.rounds.filter(ranking="", published_at__isnull=False).count()
        if published >= flight.options["rounds"]:
            raise closed
        entry.save()
        _touch(flight)
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
    _advance(flight, rows=rows)


def entry_withdraw(*, entry_id: int, by: Any) -> Entry:
    """Withdraw an entry. Before the draw it is simply left out; after it the opponents
    advance: in a bracket every later match of the entrant is a walkover (the pairing
    package's rule), in Swiss / round robin their unplayed matches are recorded as
    walkovers and a Swiss player is paired no more."""
    with transaction.atomic():
        flight_id = Entry.objects.filter(pk=entry_id).values_list("flight_id", flat=True).first()
        if flight_id is None:
            raise NotFound("entry_not_found", _("There is no entry with this id."))
        flight = _lock_flight(flight_id)
        _require_director(by, flight.event)
        entry = Entry.objects.select_related("player").get(pk=entry_id)
        if entry.status == Entry.Status.WITHDRAWN:
            raise Conflict("already_withdrawn", _("This entry is already withdrawn."))
        if flight.status == Flight.Status.FINISHED:
            raise Conflict("flight_finished", _("This flight is over."))
        entry.status = Entry.Status.WITHDRAWN
        entry.save(update_fields=["status"])
        if flight.status == Flight.Status.REGISTRATION:
            _touch(flight)
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
        _advance(flight)
        return entry


# ====================================================================== the draw
def flight_draw(*, flight_id: int, by: Any, seed: int | None = None) -> Flight:
    """Seed the active entries (by rating, ties by registration order; or at random with
    a recorded ``seed``, drawn with ``secrets`` when not given), then: a bracket is built
    and stored, with one match row per slot, the first matches ready and byes decided;
    Swiss: round 1 is paired and published; round robin: every round."""
    with transaction.atomic():
        flight = _lock_flight(flight_id)
        _require_director(by, flight.event)
        if flight.status != Flight.Status.REGISTRATION:
            raise Conflict("already_drawn", _("This flight has been drawn already."))
        entries = list(
            flight.entries.filter(status=Entry.Status.ACTIVE).order_by("created_at", "pk")
        )
        by_id = {e.pk: e for e in entries}
        try:
            if flight.seeding == Flight.SeedingMethod.RANDOM:
                if seed is None:
                    seed = secrets.randbits(31)
                seeding = pairing.seed_order(
                    [(e.pk, float(e.rating)) for e in entries], method="random", seed=seed
                )
            else:
                if seed is not None:
                    raise ValidationFailed(
                        "seed_not_used", _("A seeding by rating takes no random seed.")
                    )
                seeding = pairing.seed_order(
                    [(e.pk, float(e.rating)) for e in entries], method="rating"
                )
            if len(entries) < 2:
                raise pairing.PairingError("too_few_entrants", "fewer than 2 entrants")
            for number, entry_id in enumerate(seeding.order, start=1):
                by_id[int(entry_id)].seed = number
            Entry.objects.bulk_update(entries, ["seed"])
            flight.seed = seeding.seed
            flight.status = Flight.Status.DRAWN
            rounds = _round_settings(flight)
            if flight.is_bracket:
                builder = {
                    k: flight.options[k]
                    for k in BUILDER_OPTIONS[flight.format]
                    if k in flight.options
                }
                bracket = pairing.build_bracket(
                    BRACKET_FORMATS[flight.format], len(entries), **builder
                )
                flight.bracket = bracket.to_dict()
                TournamentMatch.objects.bulk_create(
                    TournamentMatch(
                        flight=flight,
                        slot_key=s.key,
                        ranking=s.flight,
                        round=s.round,
                        index=s.index,
                        match_length=_length_for(flight, rounds, s.flight, s.round),
                    )
                    for s in bracket.slots
                )
            elif flight.format == Format.SWISS:
                _swiss_round(flight, 1, rounds=rounds)
            else:
                order = list(seeding.order)
                all_rounds = pairing.round_robin_rounds(order)
                rows = []
                for rnd in all_rounds:
                    rows += _pairing_rows(flight, rnd, rounds=rounds)
                    _publish(flight, "", rnd.number, rounds)
                TournamentMatch.objects.bulk_create(rows)
        except pairing.PairingError as exc:
            raise _pairing_error(exc) from None
        flight.save(update_fields=["seed", "status", "bracket"])
        if flight.event.status == Event.Status.DRAFT:
            flight.event.status = Event.Status.RUNNING
            flight.event.save(update_fields=["status"])
        first = [] if flight.is_bracket else list(flight.matches.filter(round=1))
        _advance(flight, notify_rows=first)
        return flight


def _pairing_rows(
    flight: Flight, rnd: pairing.Round, *, rounds: Mapping[tuple[str, int], FlightRound]
) -> list[TournamentMatch]:
    """The match rows of one Swiss / round robin round (a bye is a decided row)."""
    length = _length_for(flight, rounds, "", rnd.number)
    rows = [
        TournamentMatch(
            flight=flight,
            slot_key=f"R{rnd.number}-{i}",
            ranking="",
            round=rnd.number,
            index=i,
            entry_a_id=int(a),
            entry_b_id=int(b),
            match_length=length,
            status=TournamentMatch.Status.READY,
        )
        for i, (a, b) in enumerate(rnd.pairings, start=1)
    ]
    if rnd.bye is not None:
        rows.append(
            TournamentMatch(
                flight=flight,
                slot_key=f"R{rnd.number}-bye",
                ranking="",
                round=rnd.number,
                index=len(rows) + 1,
                entry_a_id=int(rnd.bye),
                match_length=length,
                status=TournamentMatch.Status.BYE,
                winner="a",
            )
        )
    return rows


def _publish(
    flight: Flight, ranking: str, number: int, rounds: dict[tuple[str, int], FlightRound]
) -> FlightRound:
    row = rounds.get((ranking, number))
    if row is None:
        row = FlightRound(
            flight=flight,
            ranking=ranking,
            number=number,
            match_length=flight.match_length,
            clock_preset=flight.clock_preset,
            clock_policy=flight.clock_policy,
        )
        rounds[(ranking, number)] = row
    if row.published_at is None:
        row.published_at = timezone.now()
        row.save()
    return row


def _swiss_round(
    flight: Flight, number: int, *, rounds: dict[tuple[str, int], FlightRound]
) -> list[TournamentMatch]:
    """Pair Swiss round ``number`` from the standings and history, store and publish it."""
    entries = list(flight.entries.filter(seed__isnull=False).order_by("seed"))
    rows = list(flight.matches.all())
    table = bridge.standings(flight, entries, rows)
    active = {e.pk for e in entries if e.status == Entry.Status.ACTIVE}
    players = [(s.player, float(s.wins)) for s in table if s.player in active]
    history = [(m.entry_a_id, m.entry_b_id) for m in rows if m.entry_a_id is not None]
    rnd = pairing.swiss_pairings(players, history, number)
    new_rows = TournamentMatch.objects.bulk_create(_pairing_rows(flight, rnd, rounds=rounds))
    _publish(flight, "", number, rounds)
    return new_rows


def round_publish(
    *, flight_id: int, by: Any, ranking: str = "", number: int | None = None
) -> FlightRound:
    """Publish a round's pairings. Swiss: pair the next round from the standings (every
    match of the round before must have a result); others: mark round ``number`` of part
    ``ranking`` published (its matches exist from the draw)."""
    with transaction.atomic():
        flight = _lock_flight(flight_id)
        _require_director(by, flight.event)
        if flight.status == Flight.Status.REGISTRATION:
            raise Conflict("not_drawn", _("Make the draw first."))
        rounds = _round_settings(flight)
        if flight.format == Format.SWISS:
            published = max(
                (n for (part, n), r in rounds.items() if r.published_at and part == ""),
                default=0,
            )
            following = published + 1
            if number is not None and number != following:
                raise Conflict(
                    "wrong_round", _("The next round is round %(n)d.") % {"n": following}
                )
            if following > flight.options["rounds"]:
                raise Conflict("all_rounds_published", _("Every round has been published."))
            if flight.matches.filter(round=published).exclude(status__in=DONE).exists():
                raise Conflict(
                    "round_not_finished",
                    _("Round %(n)d still has matches without a result.") % {"n": published},
                )
            try:
                _swiss_round(flight, following, rounds=rounds)
            except pairing.PairingError as exc:
                raise _pairing_error(exc) from None
            _advance(flight, notify_rows=list(flight.matches.filter(round=following)))
            return rounds[("", following)]
        if number is None or (ranking, number) not in {
            (m.ranking, m.round) for m in flight.matches.only("ranking", "round")
        }:
            raise ValidationFailed("invalid_round", _("This flight has no such round."))
        row = _publish(flight, ranking, number, rounds)
        _touch(flight)
        return row


# ====================================================================== advancing
_STATUS = {
    "pending": TournamentMatch.Status.PENDING,
    "ready": TournamentMatch.Status.READY,
    "walkover": TournamentMatch.Status.WALKOVER,
    "bye": TournamentMatch.Status.BYE,
}


def _advance(
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
                and row.status == TournamentMatch.Status.REPORTED
            ):
                status = TournamentMatch.Status.REPORTED
            winner = (rs.winner_side or "") if status in DONE else ""
            if sides_changed or row.status != status or row.winner != winner:
                if sides_changed:
                    row.report_a = row.report_b = None
                    row.table = None
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
            ["entry_a", "entry_b", "status", "winner", "report_a", "report_b", "table", "version"],
        )
    elif ready and flight.format == Format.SWISS:
        _assign_tables(flight, ready)
        TournamentMatch.objects.bulk_update(ready, ["table"])
    _notify_ready(flight, ready, entries)
    fields = []
    finished = _finished(flight, rows)
    _store_places(flight, rows, entries, bracket, resolved, finished=finished)
    if finished != (flight.status == Flight.Status.FINISHED):
        # Finished by this result, or open again after a correction reset a final.
        flight.status = Flight.Status.FINISHED if finished else Flight.Status.DRAWN
        fields.append("status")
    _touch(flight, *fields)
    if fields:
        event = flight.event
        others_open = event.flights.exclude(pk=flight.pk).exclude(status=Flight.Status.FINISHED)
        status = Event.Status.FINISHED if finished and not others_open.exists() else None
        if not finished and event.status == Event.Status.FINISHED:
            status = Event.Status.RUNNING
        if status is not None and status != event.status:
            event.status = status
            event.save(update_fields=["status"])
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
                    context={
                        "tournament_match_id": row.pk,
                        "event": flight.event.name,
                        "flight": flight.name,
                        "event_slug": flight.event.slug,
                        "flight_id": flight.pk,
                        "opponent": other.player.name,
                        "table": row.table,
                        "round": row.round,
                        "length": row.match_length,
                    },
                )
            )
    if notices:
        notify_all(notices)


# ====================================================================== results
def _checked(
    row: TournamentMatch,
    *,
    score_a: int | None,
    score_b: int | None,
    games: Sequence[Mapping[str, Any]] | None,
) -> dict[str, Any]:
    """Check a typed result against the match rules (R9-R11) and return it as stored."""
    try:
        if games:
            try:
                sheet = [pairing.GameEntry.from_dict(g) for g in games]
            except (KeyError, TypeError, AttributeError):
                raise ValidationFailed(
                    "invalid_games",
                    _("Each game needs its winner (1 or 2), points and cube."),
                ) from None
            outcome = pairing.check_games(row.match_length, sheet)
            if (score_a, score_b) != (None, None) and (score_a, score_b) != outcome.score:
                raise ValidationFailed(
                    "score_mismatch",
                    _("The games add up to %(a)d-%(b)d, not the score given.")
                    % {"a": outcome.score[0], "b": outcome.score[1]},
                )
            stored = [g.to_dict() for g in sheet]
        else:
            if score_a is None or score_b is None:
                raise ValidationFailed("score_required", _("Enter the final score or the games."))
            outcome = pairing.check_final_score(row.match_length, score_a, score_b)
            stored = []
    except pairing.ResultError as exc:
        raise _pairing_error(exc) from None
    return {
        "winner": "a" if outcome.winner == 1 else "b",
        "score_a": outcome.score[0],
        "score_b": outcome.score[1],
        "games": stored,
    }


def _walkover(winner: str) -> dict[str, Any]:
    if winner not in ("a", "b"):
        raise ValidationFailed("invalid_winner", _("The winner is side a or side b."))
    return {"winner": winner, "score_a": None, "score_b": None, "games": [], "walkover": True}


def _require_open(row: TournamentMatch) -> None:
    if row.decided_at is not None or row.status in DONE:
        raise Conflict(
            "result_exists", _("This match has a result already; a director can correct it.")
        )
    if row.status not in OPEN or not (row.entry_a_id and row.entry_b_id):
        raise Conflict("match_not_ready", _("This match cannot be played yet."))


def _record(
    flight: Flight,
    row: TournamentMatch,
    result: Mapping[str, Any],
    *,
    by: Any,
    correction: bool = False,
) -> None:
    row.winner = result["winner"]
    row.score_a = result["score_a"]
    row.score_b = result["score_b"]
    row.games = list(result["games"])
    row.status = (
        TournamentMatch.Status.WALKOVER
        if result.get("walkover")
        else TournamentMatch.Status.CONFIRMED
    )
    row.decided_by = by if getattr(by, "is_authenticated", False) else None
    # A corrected result keeps its place in the rating ledger: when it first stood.
    now = timezone.now()
    counts_from = row.decided_at if correction and row.decided_at else now
    row.decided_at = now
    row.version += 1
    row.save()
    _rate(flight, row, at=counts_from, correction=correction)


def rating_key(row: TournamentMatch) -> str:
    """The key of a tournament match's result in the rating ledger."""
    return f"tmatch:{row.pk}"


def _rate(flight: Flight, row: TournamentMatch, *, at: datetime, correction: bool) -> None:
    """Put a result that stands into the rating ledger (``games.ratings``), rated when
    the event is, counting from ``at`` (from when an online match finished). A walkover
    is not rated (a correction to one takes the result out); a correction replays the
    ratings from the result's place."""
    key = rating_key(row)
    if row.status != TournamentMatch.Status.CONFIRMED or not (row.entry_a and row.entry_b):
        if correction:
            ratings.rating_void(source_key=key)
        return
    p1, p2 = row.entry_a.player, row.entry_b.player
    # The flag as committed now, not as read with the flight: an event_update that held
    # the flight lock while we waited for it may have changed it (one small query).
    rated = Event.objects.filter(pk=flight.event_id).values_list("rated", flat=True).get()
    online = row.online_match
    fields: dict[str, Any] = {
        "source_key": key,
        "player1": p1,
        "player2": p2,
        "length": row.match_length,
        "winner": p1 if row.winner == "a" else p2,
        "match": online,
        "rated": rated,
    }
    if online is not None and online.finished_at:
        at = online.finished_at
    if correction:
        ratings.rating_correct(source=ratings.Source.TOURNAMENT, at=at, **fields)
    else:
        ratings.rating_record(source=ratings.Source.TOURNAMENT, at=at, **fields)


def result_enter(
    *,
    match_id: int,
    by: Any,
    score_a: int | None = None,
    score_b: int | None = None,
    games: Sequence[Mapping[str, Any]] | None = None,
    walkover_winner: str = "",
    expected_version: int | None = None,
) -> TournamentMatch:
    """A director enters a result: the final score, or game by game (``games``: each
    ``{"winner": 1|2, "points": n, "cube": c}``, player 1 = side a), checked by
    :func:`tournaments.pairing.check_games` (a refusal names the game in
    ``extra["game"]``); or a forfeit (``walkover_winner`` ``"a"``/``"b"``)."""
    with transaction.atomic():
        flight, row = _lock_match(match_id)
        _require_director(by, flight.event)
        _check_version(row, expected_version)
        _require_open(row)
        result = (
            _walkover(walkover_winner)
            if walkover_winner
            else _checked(row, score_a=score_a, score_b=score_b, games=games)
        )
        _record(flight, row, result, by=by)
        _advance(flight)
        return row


def result_report(
    *,
    match_id: int,
    by: Any,
    score_a: int | None = None,
    score_b: int | None = None,
    games: Sequence[Mapping[str, Any]] | None = None,
    expected_version: int | None = None,
) -> TournamentMatch:
    """A player reports their own match. The result stands when the other side has
    reported the same; a different report is refused (409 ``report_mismatch``, the other
    report in ``extra``: the players sort it out, or the director enters the result).
    A first report tells the opponent (``result_to_confirm``)."""
    with transaction.atomic():
        flight, row = _lock_match(match_id)
        player = _player_of(by)
        side = ""
        if player is not None:
            for s, entry in (("a", row.entry_a), ("b", row.entry_b)):
                if entry is not None and entry.player_id == player.pk:
                    side = s
        if not side:
            raise PermissionDenied("not_your_match", _("You can report only your own matches."))
        _check_version(row, expected_version)
        _require_open(row)
        result = _checked(row, score_a=score_a, score_b=score_b, games=games)
        report = {**result, "user": by.pk, "at": timezone.now().isoformat()}
        other = row.report_b if side == "a" else row.report_a
        if other is not None:
            if _same_result(other, result):
                if not result["games"] and other.get("games"):
                    result["games"] = other["games"]
                setattr(row, f"report_{side}", report)
                _record(flight, row, result, by=by)
                _advance(flight)
                return row
            raise Conflict(
                "report_mismatch",
                _("Your opponent reported a different result: agree on it or ask the director."),
                extra={"other": {k: other.get(k) for k in ("winner", "score_a", "score_b")}},
            )
        setattr(row, f"report_{side}", report)
        row.status = TournamentMatch.Status.REPORTED
        row.version += 1
        row.save()
        opponent = row.entry_b if side == "a" else row.entry_a
        assert opponent is not None
        notify_all(
            [
                Notice(
                    recipient=opponent.player,
                    kind="result_to_confirm",
                    subject=f"tmatch:{row.pk}:report:{row.version}",
                    context={
                        "tournament_match_id": row.pk,
                        "event": flight.event.name,
                        "flight": flight.name,
                        "event_slug": flight.event.slug,
                        "flight_id": flight.pk,
                        "reporter": player.name if player else "",
                        "score": [result["score_a"], result["score_b"]],
                    },
                )
            ]
        )
        _touch(flight)
        return row


def _same_result(x: Mapping[str, Any], y: Mapping[str, Any]) -> bool:
    return all(x.get(k) == y.get(k) for k in ("winner", "score_a", "score_b"))


def result_confirm(
    *, match_id: int, by: Any, expected_version: int | None = None
) -> TournamentMatch:
    """Confirm the one report of a match: a director, or the opponent of the player
    who reported. The result then stands."""
    with transaction.atomic():
        flight, row = _lock_match(match_id)
        reports = [(s, r) for s, r in (("a", row.report_a), ("b", row.report_b)) if r]
        if row.status != TournamentMatch.Status.REPORTED or len(reports) != 1:
            if not _is_director(by, flight.event) and not _side_of_user(row, by):
                raise PermissionDenied("not_your_match", _("You can confirm only your matches."))
            raise Conflict("nothing_to_confirm", _("There is no report to confirm."))
        reporter, report = reports[0]
        if not _is_director(by, flight.event):
            side = _side_of_user(row, by)
            if not side:
                raise PermissionDenied("not_your_match", _("You can confirm only your matches."))
            if side == reporter:
                raise PermissionDenied(
                    "own_report", _("Your opponent or a director must confirm your report.")
                )
        _check_version(row, expected_version)
        _record(flight, row, report, by=by)
        _advance(flight)
        return row


def _side_of_user(row: TournamentMatch, user: Any) -> str:
    player = _player_of(user)
    if player is None:
        return ""
    for s, entry in (("a", row.entry_a), ("b", row.entry_b)):
        if entry is not None and entry.player_id == player.pk:
            return s
    return ""


def result_correct(
    *,
    match_id: int,
    by: Any,
    reason: str,
    score_a: int | None = None,
    score_b: int | None = None,
    games: Sequence[Mapping[str, Any]] | None = None,
    walkover_winner: str = "",
    reset_later: bool = False,
    expected_version: int | None = None,
) -> TournamentMatch:
    """A director changes a result that stands; audited (who, when, old, new, why).

    The bracket advances again from the new result. When the change moves a player out
    of a later match that already has a result, a report or an online match, it is
    refused (409 ``later_results_depend``, the slots in ``extra``) unless
    ``reset_later``: then those later matches (and, in turn, the ones that depended on
    them) lose their results, each reset audited with the same reason, and are played
    again by the right players. An online match of a reset match is unlinked (it stays
    in the players' match history)."""
    with transaction.atomic():
        flight, row = _lock_match(match_id)
        _require_director(by, flight.event)
        _check_version(row, expected_version)
        if row.decided_at is None or row.status not in (
            TournamentMatch.Status.CONFIRMED,
            TournamentMatch.Status.WALKOVER,
        ):
            raise Conflict("no_result", _("This match has no result to correct."))
        reason = (reason or "").strip()
        if not reason:
            raise ValidationFailed("reason_required", _("Say why the result is corrected."))
        new = (
            _walkover(walkover_winner)
            if walkover_winner
            else _checked(row, score_a=score_a, score_b=score_b, games=games)
        )
        old = row.result_dict()
        reset: list[TournamentMatch] = []
        if flight.is_bracket and new["winner"] != row.winner:
            reset = _later_results_to_reset(flight, row, new)
            if reset and not reset_later:
                raise Conflict(
                    "later_results_depend",
                    _("Later matches were already played with these players: correct them first."),
                    extra={"slots": [m.slot_key for m in reset]},
                )
        for later in reset:
            before = later.result_dict()
            later.decided_at = later.decided_by = None  # type: ignore[assignment]
            later.winner, later.score_a, later.score_b, later.games = "", None, None, []
            later.report_a = later.report_b = None
            later.online_match = None
            later.status = TournamentMatch.Status.PENDING
            later.version += 1
            later.save()
            ratings.rating_void(source_key=rating_key(later))
            ResultCorrection.objects.create(
                match=later,
                by=by,
                old=before,
                new=later.result_dict(),
                reason=_("%(reason)s (reset: %(slot)s changed)")
                % {"reason": reason, "slot": row.slot_key},
            )
        _record(flight, row, new, by=by, correction=True)
        ResultCorrection.objects.create(
            match=row, by=by, old=old, new=row.result_dict(), reason=reason
        )
        _advance(flight)
        return row


def _later_results_to_reset(
    flight: Flight, row: TournamentMatch, new: Mapping[str, Any]
) -> list[TournamentMatch]:
    """The later matches of a bracket whose players would change with ``row``'s new
    result and that already have a result, a report or an online match: found again
    after each round of resets, since clearing one moves the players after it too."""
    rows = list(flight.matches.all())
    entries = list(flight.entries.all())
    sides = {m.slot_key: (m.entry_a_id, m.entry_b_id) for m in rows}
    results = bridge.bracket_results(rows)
    results[row.slot_key] = pairing.Result(new["winner"], bool(new.get("walkover")))
    found: dict[str, TournamentMatch] = {}
    while True:
        after = bridge.resolve(flight, entries, rows, results=results)
        blocked = [
            m
            for m in rows
            if m.pk != row.pk
            and m.slot_key not in found
            and (m.decided_at or m.report_a or m.report_b or m.online_match_id)
            and sides[m.slot_key]
            != tuple(
                e if is_entrant(e) else None for e in (after[m.slot_key].a, after[m.slot_key].b)
            )
        ]
        if not blocked:
            return sorted(found.values(), key=lambda m: (m.round, m.ranking, m.index))
        for m in blocked:
            found[m.slot_key] = m
            results.pop(m.slot_key, None)


def match_set_table(*, match_id: int, by: Any, table: int | None) -> TournamentMatch:
    """A director puts a match at another table (``None``: no table)."""
    with transaction.atomic():
        flight, row = _lock_match(match_id)
        _require_director(by, flight.event)
        if table is not None and (
            isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= 999
        ):
            raise ValidationFailed("invalid_table", _("Tables are numbered 1 to 999."))
        row.table = table
        row.version += 1
        row.save(update_fields=["table", "version"])
        _touch(flight)
        return row


# ====================================================================== online play
def match_start_online(*, match_id: int, by: Any, clock: bool | None = None) -> Match:
    """Create the online match (``games.Match``) of a ready tournament match: the
    round's length, its clock preset when the round's policy requires one (or allows
    one and ``clock`` is not ``False``), side a as player 1. Its last game reports the
    result here (``games.signals.match_finished``). A player of the match or a director
    may do this."""
    with transaction.atomic():
        flight, row = _lock_match(match_id)
        if not _side_of_user(row, by) and not _is_director(by, flight.event):
            raise PermissionDenied("not_your_match", _("You can start only your own matches."))
        if row.status != TournamentMatch.Status.READY:
            raise Conflict("match_not_ready", _("This match cannot be played now."))
        if row.online_match_id is not None:
            raise Conflict("already_online", _("This match is already being played online."))
        settings = FlightRound.objects.filter(
            flight=flight, ranking=row.ranking, number=row.round
        ).first()
        preset = settings.clock_preset if settings else flight.clock_preset
        policy = settings.clock_policy if settings else flight.clock_policy
        if policy == ClockPolicy.OFF and clock:
            raise ValidationFailed("clocks_off", _("This round is played without clocks."))
        use = policy == ClockPolicy.REQUIRED or (
            policy == ClockPolicy.ALLOWED and clock is not False
        )
        assert row.entry_a is not None and row.entry_b is not None
        online = game_services.match_create(
            player1=row.entry_a.player,
            player2=row.entry_b.player,
            length=row.match_length,
            clock=preset if use else None,
            created_by=by if getattr(by, "is_authenticated", False) else None,
            played_for=rating_key(row),
        )
        row.online_match = online
        row.version += 1
        row.save(update_fields=["online_match", "version"])
        _touch(flight)
        return online


def result_record_online(*, match_id: int, online: Match) -> TournamentMatch | None:
    """Record the result of a finished online match (called by the ``match_finished``
    receiver, in the transaction of the last move). Safe to run twice: a match that has
    a result is left alone."""
    with transaction.atomic():
        flight, row = _lock_match(match_id)
        if row.online_match_id != online.pk or row.decided_at is not None:
            return None
        _require_open(row)
        assert row.entry_a is not None
        winner = "a" if online.winner_id == row.entry_a.player_id else "b"
        games = [
            {"winner": g.winner_index + 1, "points": g.points, "cube": g.state.get("cube", 1)}
            for g in Game.objects.filter(match_id=online.pk, is_over=True)
            .exclude(result_kind=Game.VOID)
            .order_by("number")
            if g.winner_index is not None
        ]
        result = {
            "winner": winner,
            "score_a": online.score1,
            "score_b": online.score2,
            "games": games,
        }
        _record(flight, row, result, by=None)
        _advance(flight)
        return row


def on_match_finished(sender: Any, match: Match, **kwargs: Any) -> None:
    """Receiver of ``games.signals.match_finished``: a tournament match played online
    reports itself. A refusal here must not undo the player's last move, so it runs in
    a savepoint and is logged (the director can still enter the result)."""
    found = TournamentMatch.objects.filter(online_match_id=match.pk)
    row_id = found.values_list("pk", flat=True).first()
    if row_id is None:
        return
    try:
        with transaction.atomic():
            result_record_online(match_id=row_id, online=match)
    except ApplicationError:
        logger.warning("online result of tournament match %s not recorded", row_id, exc_info=True)
