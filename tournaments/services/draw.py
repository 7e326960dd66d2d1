"""The draw (seeding, the bracket and its match rows; Swiss round 1; every round robin
round), Swiss pairings round by round, and publishing rounds."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import Conflict, ValidationFailed
from tournaments import bridge, pairing
from tournaments.models import (
    BRACKET_FORMATS,
    BUILDER_OPTIONS,
    DONE,
    Entry,
    Event,
    Flight,
    FlightRound,
    Format,
    TournamentMatch,
)
from tournaments.services.advancing import advance
from tournaments.services.common import (
    PUBLISH_CHOICES,
    lock_flight,
    pairing_error,
    publish_round,
    require_director,
)


def _round_settings(flight: Flight) -> dict[tuple[str, int], FlightRound]:
    return {(r.part, r.number): r for r in flight.rounds.all()}


def _length_for(
    flight: Flight, rounds: Mapping[tuple[str, int], FlightRound], part: str, n: int
) -> int:
    found = rounds.get((part, n))
    return found.match_length if found is not None else flight.match_length


def _rating_seeding(entries: list[Entry]) -> pairing.Seeding:
    """Seeds by rating: the players with a rated result first, by their rating at entry
    (ties: by registration); then those without one yet (a walk-in made on the spot, a
    new member: their 1500 is the rating list's starting point, not a measure), by
    rating, then by registration."""
    rated = [(e.pk, float(e.rating)) for e in entries if e.player.experience > 0]
    unrated = [(e.pk, float(e.rating)) for e in entries if e.player.experience == 0]
    order = (
        pairing.seed_order(rated, method="rating").order
        + pairing.seed_order(unrated, method="rating").order
    )
    return pairing.Seeding(order=order, method="rating")


def manual_seeding(entries: list[Entry]) -> pairing.Seeding:
    """Seeds by hand (issue 29): the director's numbers (``Entry.manual_seed``) in
    order, then the entries without one, seeded by rating after them
    (:func:`_rating_seeding`). The pairing package knows no "manual" method: the order is
    all it needs, so the seeding is recorded as an ordered one (no random seed)."""
    numbered = sorted(
        (e for e in entries if e.manual_seed is not None), key=lambda e: (e.manual_seed, e.pk)
    )
    rest = [e for e in entries if e.manual_seed is None]
    order = tuple(e.pk for e in numbered) + (_rating_seeding(rest).order if rest else ())
    return pairing.Seeding(order=order, method="rating")


def flight_draw(
    *, flight_id: int, by: Any, seed: int | None = None, publish: str = "first"
) -> Flight:
    """Seed the active entries (by rating, ties by registration order, the players
    without a rated result after the rated ones: :func:`_rating_seeding`; by hand:
    :func:`manual_seeding`; or at random
    with a recorded ``seed``, drawn with ``secrets`` when not given), then: a bracket is built
    and stored, with one match row per slot, the first matches ready and byes decided;
    Swiss: round 1 is paired; round robin: every round.

    ``publish`` (:data:`~tournaments.services.common.PUBLISH_CHOICES`): ``"first"``
    publishes round 1 (a bracket's first part's; the later rounds follow as
    :func:`~tournaments.services.common.publish_due` says), ``"all"`` every round of the
    draw (Swiss: round 1), ``"none"`` none (the director publishes them,
    :func:`round_publish`). An unpublished round is shown to the directors only and
    takes no result. A draft event is published by its first draw."""
    if publish not in PUBLISH_CHOICES:
        raise ValidationFailed(
            "invalid_publish", _("Publish no round, the first round or every round.")
        )
    with transaction.atomic():
        flight = lock_flight(flight_id)
        require_director(by, flight.event)
        if flight.status != Flight.Status.REGISTRATION:
            raise Conflict("already_drawn", _("This flight has been drawn already."))
        entries = list(
            flight.entries.filter(status=Entry.Status.ACTIVE)
            .select_related("player")
            .order_by("created_at", "pk")
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
                if flight.seeding == Flight.SeedingMethod.MANUAL:
                    seeding = manual_seeding(entries)
                else:
                    seeding = _rating_seeding(entries)
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
                        part=s.part,
                        round=s.round,
                        index=s.index,
                        match_length=_length_for(flight, rounds, s.part, s.round),
                    )
                    for s in bracket.slots
                )
                if publish != "none":
                    keys = {(s.part, s.round) for s in bracket.slots}
                    lead = bracket.parts[0]
                    for part, number in sorted(keys):
                        if publish == "all" or (part, number) == (lead, 1):
                            publish_round(flight, part, number, rounds)
            elif flight.format == Format.SWISS:
                _swiss_round(flight, 1, rounds=rounds, publish=publish != "none")
            else:
                order = list(seeding.order)
                all_rounds = pairing.round_robin_rounds(order)
                rows = []
                for rnd in all_rounds:
                    rows += _pairing_rows(flight, rnd, rounds=rounds)
                    if publish == "all" or (publish == "first" and rnd.number == 1):
                        publish_round(flight, "", rnd.number, rounds)
                TournamentMatch.objects.bulk_create(rows)
        except pairing.PairingError as exc:
            raise pairing_error(exc) from None
        flight.save(update_fields=["seed", "status", "bracket"])
        if flight.event.status == Event.Status.DRAFT:
            flight.event.status = Event.Status.RUNNING
            flight.event.save(update_fields=["status"])
        first = [] if flight.is_bracket else list(flight.matches.filter(round=1))
        advance(flight, notify_rows=first)
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
            part="",
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
                part="",
                round=rnd.number,
                index=len(rows) + 1,
                entry_a_id=int(rnd.bye),
                match_length=length,
                status=TournamentMatch.Status.BYE,
                winner="a",
            )
        )
    return rows


def _swiss_round(
    flight: Flight,
    number: int,
    *,
    rounds: dict[tuple[str, int], FlightRound],
    publish: bool = True,
) -> list[TournamentMatch]:
    """Pair Swiss round ``number`` from the standings and history, store it and (unless
    ``publish`` is false) publish it."""
    entries = list(flight.entries.filter(seed__isnull=False).order_by("seed"))
    rows = list(flight.matches.all())
    table = bridge.standings(flight, entries, rows)
    active = {e.pk for e in entries if e.status == Entry.Status.ACTIVE}
    players = [(s.player, float(s.wins)) for s in table if s.player in active]
    history = [(m.entry_a_id, m.entry_b_id) for m in rows if m.entry_a_id is not None]
    rnd = pairing.swiss_pairings(players, history, number)
    new_rows = TournamentMatch.objects.bulk_create(_pairing_rows(flight, rnd, rounds=rounds))
    if publish:
        publish_round(flight, "", number, rounds)
    return new_rows


def round_publish(
    *, flight_id: int, by: Any, part: str = "", number: int | None = None
) -> FlightRound:
    """Publish a round's pairings. Swiss: pair the next round from the standings (every
    match of the round before must have a result), or publish round 1 when the draw
    paired it unpublished; others: mark round ``number`` of part ``part`` published (its
    matches exist from the draw; any round, in any order). Its players with a match
    ready are told."""
    with transaction.atomic():
        flight = lock_flight(flight_id)
        require_director(by, flight.event)
        if flight.status == Flight.Status.REGISTRATION:
            raise Conflict("not_drawn", _("Make the draw first."))
        rounds = _round_settings(flight)
        if flight.format == Format.SWISS:
            published = max(
                (n for (p, n), r in rounds.items() if r.published_at and p == ""),
                default=0,
            )
            following = published + 1
            if number is not None and number != following:
                raise Conflict(
                    "wrong_round", _("The next round is round %(n)d.") % {"n": following}
                )
            if following > flight.options["rounds"]:
                raise Conflict("all_rounds_published", _("Every round has been published."))
            if flight.matches.filter(round=following).exists():  # paired at the draw
                publish_round(flight, "", following, rounds)
                advance(flight, notify_rows=list(flight.matches.filter(round=following)))
                return rounds[("", following)]
            if flight.matches.filter(round=published).exclude(status__in=DONE).exists():
                raise Conflict(
                    "round_not_finished",
                    _("Round %(n)d still has matches without a result.") % {"n": published},
                )
            try:
                _swiss_round(flight, following, rounds=rounds)
            except pairing.PairingError as exc:
                raise pairing_error(exc) from None
            advance(flight, notify_rows=list(flight.matches.filter(round=following)))
            return rounds[("", following)]
        if number is None or (part, number) not in {
            (m.part, m.round) for m in flight.matches.only("part", "round")
        }:
            raise ValidationFailed("invalid_round", _("This flight has no such round."))
        row = publish_round(flight, part, number, rounds)
        advance(
            flight,
            notify_rows=list(
                flight.matches.filter(part=part, round=number, status=TournamentMatch.Status.READY)
            ),
        )
        return row
