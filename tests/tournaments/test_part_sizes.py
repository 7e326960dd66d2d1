"""Parts sized to their entrants through the draw (issue 17, defect 8), and a flight
drawn before that sizing (a full-size consolation with "bye v bye" boxes, as stored in
``Flight.bracket``) still loads, resolves and plays to the end."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import flight_with, rated_players
from tests.tournaments.test_corrections import _complete, _play
from tournaments import pairing, selectors
from tournaments.models import TournamentMatch
from tournaments.pairing.brackets import Slot, Source
from tournaments.services.advancing import advance
from tournaments.services.draw import flight_draw

pytestmark = pytest.mark.django_db


def _drawn(event, director, n=11):
    flight = flight_with(
        event, rated_players(n), format="consolation", options={"entry_rounds": 1}, match_length=1
    )
    flight_draw(flight_id=flight.pk, by=director)
    flight.refresh_from_db()
    return flight


def test_eleven_players_losers_of_round_one_get_a_four_slot_consolation(event, director):
    flight = _drawn(event, director)
    cons = TournamentMatch.objects.filter(flight=flight, part="consolation").order_by("round")
    assert [m.slot_key for m in cons] == ["C1-1", "C1-2", "C2-1"]
    _play(flight, director)
    _complete(flight)
    # Nowhere a match of two byes; the consolation ranks its three players.
    assert not TournamentMatch.objects.filter(
        flight=flight, entry_a__isnull=True, entry_b__isnull=True
    ).exists()
    orders = selectors.flight_finishing_order(flight=flight)
    assert sum(len(p.entries) for p in orders["consolation"]) == 3


def test_a_flight_drawn_with_a_full_size_consolation_still_plays(event, director):
    flight = _drawn(event, director)
    # The consolation as it was drawn before: losers of all eight round-1 matches.
    old = pairing.Bracket.from_dict(flight.bracket)
    main = [s for s in old.slots if s.part == "main"]
    cons = []
    for i in range(1, 5):
        a, b = Source.loser_of(f"M1-{2 * i - 1}"), Source.loser_of(f"M1-{2 * i}")
        cons.append(Slot(f"C1-{i}", "consolation", 1, i, a, b))
    for i in range(1, 3):
        a, b = Source.winner_of(f"C1-{2 * i - 1}"), Source.winner_of(f"C1-{2 * i}")
        cons.append(Slot(f"C2-{i}", "consolation", 2, i, a, b))
    cons.append(
        Slot("C3-1", "consolation", 3, 1, Source.winner_of("C2-1"), Source.winner_of("C2-2"))
    )
    stored = pairing.Bracket("consolation", 11, 16, old.options, (*main, *cons))
    flight.bracket = stored.to_dict()
    flight.save(update_fields=["bracket"])
    flight.matches.filter(part="consolation").delete()
    TournamentMatch.objects.bulk_create(
        TournamentMatch(
            flight=flight,
            slot_key=s.key,
            part=s.part,
            round=s.round,
            index=s.index,
            match_length=1,
        )
        for s in cons
    )
    advance(flight)
    assert TournamentMatch.objects.get(flight=flight, slot_key="C1-2").status == "bye"
    _play(flight, director)
    _complete(flight)
    orders = selectors.flight_finishing_order(flight=flight)
    assert sum(len(p.entries) for p in orders["consolation"]) == 3
