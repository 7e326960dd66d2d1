"""Swiss and round robin flights through the services: pairing round by round from the
standings, byes, a late entry and a withdrawal, standings and finishing order."""

from __future__ import annotations

from collections import Counter

import pytest

from games.errors import Conflict
from tests.tournaments.factories import flight_with, rated_players
from tournaments import selectors
from tournaments.models import Flight, FlightRound, TournamentMatch
from tournaments.services.draw import flight_draw, round_publish
from tournaments.services.entries import entry_register, entry_withdraw
from tournaments.services.results import result_enter

pytestmark = pytest.mark.django_db


def _play_round(flight, director, number, seed_of):
    """Enter every open match of a round: the better seed wins 5-2."""
    for m in TournamentMatch.objects.filter(flight=flight, round=number, status="ready"):
        a_wins = seed_of[m.entry_a_id] < seed_of[m.entry_b_id]
        result_enter(
            match_id=m.pk, by=director, score_a=5 if a_wins else 2, score_b=2 if a_wins else 5
        )


def _pairs(flight, number):
    return {
        frozenset((m.entry_a_id, m.entry_b_id))
        for m in TournamentMatch.objects.filter(flight=flight, round=number, entry_b__isnull=False)
    }


def test_swiss_three_rounds_with_a_late_entry_a_withdrawal_and_standings(event, director):
    flight = flight_with(event, rated_players(7), format="swiss", options={"rounds": 3})
    flight_draw(flight_id=flight.pk, by=director)
    seed_of = {e.pk: e.seed for e in flight.entries.all()}
    r1 = TournamentMatch.objects.filter(flight=flight, round=1)
    assert r1.filter(status="ready").count() == 3
    bye = r1.get(status="bye")
    assert seed_of[bye.entry_a_id] == 7  # the lowest-ranked player sits out
    assert sorted(r1.exclude(table=None).values_list("table", flat=True)) == [1, 2, 3]
    assert FlightRound.objects.get(flight=flight, number=1).published_at is not None

    with pytest.raises(Conflict) as early:
        round_publish(flight_id=flight.pk, by=director)
    assert early.value.code == "round_not_finished"
    _play_round(flight, director, 1, seed_of)

    late = entry_register(flight_id=flight.pk, by=director, name="Késői Kata")
    assert late.late and late.seed == 8
    seed_of[late.pk] = 8
    round_publish(flight_id=flight.pk, by=director)
    r2 = TournamentMatch.objects.filter(flight=flight, round=2)
    assert r2.count() == 4 and not r2.filter(status="bye").exists()  # 8 players now
    assert late.pk in {x for m in r2 for x in (m.entry_a_id, m.entry_b_id)}
    assert not _pairs(flight, 1) & _pairs(flight, 2)  # no rematch

    # Someone withdraws mid-round: their opponent wins by walkover.
    leaving = r2.exclude(entry_a=late).exclude(entry_b=late).first()
    entry_withdraw(entry_id=leaving.entry_b_id, by=director)
    leaving.refresh_from_db()
    assert leaving.status == "walkover" and leaving.winner == "a"
    _play_round(flight, director, 2, seed_of)

    round_publish(flight_id=flight.pk, by=director, number=3)
    r3 = TournamentMatch.objects.filter(flight=flight, round=3)
    playing = {x for m in r3 for x in (m.entry_a_id, m.entry_b_id) if x}
    assert leaving.entry_b_id not in playing and len(playing) == 7
    assert not (_pairs(flight, 1) | _pairs(flight, 2)) & _pairs(flight, 3)
    byes = Counter(m.entry_a_id for m in TournamentMatch.objects.filter(status="bye"))
    assert max(byes.values()) == 1  # a second bye only when everyone had one
    _play_round(flight, director, 3, seed_of)
    flight.refresh_from_db()
    assert flight.status == Flight.Status.FINISHED
    with pytest.raises(Conflict) as over:
        round_publish(flight_id=flight.pk, by=director)
    assert over.value.code in ("all_rounds_published", "flight_finished")

    table = selectors.flight_standings(flight=flight)
    top = table[0]
    assert top.entry.seed == 1 and top.standing.wins == 3 and top.standing.rank == 1
    assert sum(r.standing.wins for r in table) == sum(r.standing.losses for r in table) + sum(
        r.standing.byes for r in table
    )
    order = selectors.flight_finishing_order(flight=flight)[""]
    assert order[0].label == "1" and order[0].entries[0].seed == 1


def test_round_robin_draws_every_round_and_takes_no_late_entry(event, director):
    flight = flight_with(event, rated_players(5), format="round_robin", match_length=3)
    flight_draw(flight_id=flight.pk, by=director, publish="all")
    rows = TournamentMatch.objects.filter(flight=flight)
    assert rows.exclude(status="bye").count() == 10  # every pair once
    assert rows.filter(status="bye").count() == 5  # everyone sits out once
    assert FlightRound.objects.filter(flight=flight, published_at__isnull=False).count() == 5
    with pytest.raises(Conflict) as late:
        entry_register(flight_id=flight.pk, by=director, name="Kései")
    assert late.value.code == "late_entry_closed"
    seed_of = {e.pk: e.seed for e in flight.entries.all()}
    for number in range(1, 6):
        for m in TournamentMatch.objects.filter(flight=flight, round=number, status="ready"):
            a_wins = seed_of[m.entry_a_id] < seed_of[m.entry_b_id]
            result_enter(
                match_id=m.pk, by=director, score_a=3 if a_wins else 1, score_b=1 if a_wins else 3
            )
    flight.refresh_from_db()
    assert flight.status == Flight.Status.FINISHED
    table = selectors.flight_standings(flight=flight)
    assert [r.entry.seed for r in table] == [1, 2, 3, 4, 5]
    assert [r.standing.wins for r in table] == [5, 4, 3, 2, 1]  # 4 wins + the bye each
