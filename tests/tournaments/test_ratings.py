"""Tournament results in the rating ledger (``games.ratings.services``, issue 8): rated when the
event is, walkovers never, corrections replay, online matches rated once."""

from __future__ import annotations

from decimal import Decimal

import pytest

from games.engine.rating import rate
from games.models import Player, RatedResult
from games.ratings import services as ratings
from tests.factories import UserPlayerFactory, finish_by_resignation
from tests.tournaments.factories import EventFactory, flight_with
from tournaments.models import TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.events import event_create
from tournaments.services.online import match_start_online
from tournaments.services.results import result_confirm, result_correct, result_enter, result_report

pytestmark = pytest.mark.django_db


def _match(flight, key):
    return TournamentMatch.objects.select_related("entry_a__player", "entry_b__player").get(
        flight=flight, slot_key=key
    )


def _drawn(event, director, n=4, **kwargs):
    players = UserPlayerFactory.create_batch(n)  # all at 1500, experience 0
    flight = flight_with(event, players, director=director, **kwargs)
    flight_draw(flight_id=flight.pk, by=director)
    return flight


def _state():
    rows = list(RatedResult.objects.order_by("at", "id").values_list("id", *ratings.CALC_FIELDS))
    players = list(Player.objects.order_by("pk").values_list("pk", "rating", "experience"))
    return rows, players


def test_a_typed_in_result_of_a_rated_event_is_rated(event, director):
    flight = _drawn(event, director, match_length=5)
    m1 = _match(flight, "M1-1")
    result_enter(match_id=m1.pk, by=director, score_a=5, score_b=2)
    row = RatedResult.objects.get()
    m1.refresh_from_db()
    assert (row.source, row.source_key, row.rated) == ("tournament", f"tmatch:{m1.pk}", True)
    assert row.at == m1.decided_at and row.length == 5 and row.match_id is None
    assert row.winner_id == m1.entry_a.player_id
    expected = rate(Decimal("1500.00"), 0, Decimal("1500.00"), 0, length=5, winner=1)
    assert row.change1 == expected.player1.change == Decimal("22.36")  # 4*5*sqrt(5)*0.5
    winner = Player.objects.get(pk=m1.entry_a.player_id)
    assert (winner.rating, winner.experience) == (Decimal("1522.36"), 5)


def test_results_reported_and_confirmed_by_players_are_rated(event, director):
    flight = _drawn(event, director, match_length=3)
    m1 = _match(flight, "M1-1")
    result_report(match_id=m1.pk, by=m1.entry_a.player.user, score_a=1, score_b=3)
    assert not RatedResult.objects.exists()  # a report alone does not stand
    result_confirm(match_id=m1.pk, by=m1.entry_b.player.user)
    row = RatedResult.objects.get()
    assert row.rated and row.winner_id == m1.entry_b.player_id and row.length == 3


def test_an_event_that_is_not_rated_moves_no_rating(director):
    event = EventFactory(director=director, rated=False)
    flight = _drawn(event, director, match_length=5)
    m1 = _match(flight, "M1-1")
    result_enter(match_id=m1.pk, by=director, score_a=5, score_b=2)
    row = RatedResult.objects.get()
    assert row.rated is False and row.change1 is None
    assert set(Player.objects.values_list("rating", "experience")) == {(Decimal("1500.00"), 0)}


def test_the_event_create_service_takes_the_rated_flag(director):
    import datetime

    event = event_create(
        by=director, name="Barátságos", starts_on=datetime.date(2025, 5, 1), rated=False
    )
    assert event.rated is False


def test_walkovers_and_byes_are_not_rated(event, director):
    flight = _drawn(event, director, n=3, match_length=5)  # seed 1 has a bye
    m = next(
        m for m in TournamentMatch.objects.filter(flight=flight, round=1) if m.status == "ready"
    )
    result_enter(match_id=m.pk, by=director, walkover_winner="a")
    assert TournamentMatch.objects.filter(flight=flight, status="bye").exists()
    assert not RatedResult.objects.exists()


def test_a_correction_replays_as_a_full_replay_would_and_a_reset_takes_results_out(event, director):
    flight = _drawn(event, director, match_length=5)
    m1, m2 = _match(flight, "M1-1"), _match(flight, "M1-2")
    result_enter(match_id=m1.pk, by=director, score_a=5, score_b=2)
    result_enter(match_id=m2.pk, by=director, score_a=5, score_b=4)
    final = _match(flight, "M2-1")
    result_enter(match_id=final.pk, by=director, score_a=5, score_b=0)
    assert RatedResult.objects.filter(rated=True).count() == 3
    first = RatedResult.objects.get(source_key=f"tmatch:{m1.pk}")

    # The same winner, another score: the ledger's result is the same, nothing moves.
    before = _state()
    result_correct(match_id=m1.pk, by=director, reason="5-3", score_a=5, score_b=3)
    assert _state() == before

    # Another winner of M1-2: the final is reset (taken out), M1-2 replays in its place.
    result_correct(
        match_id=m2.pk, by=director, reason="swapped", score_a=4, score_b=5, reset_later=True
    )
    assert not RatedResult.objects.filter(source_key=f"tmatch:{final.pk}").exists()
    fixed = RatedResult.objects.get(source_key=f"tmatch:{m2.pk}")
    assert fixed.winner_id == m2.entry_b.player_id
    assert RatedResult.objects.get(pk=first.pk).rating1_after == first.rating1_after
    after = _state()
    RatedResult.objects.update(**dict.fromkeys(ratings.CALC_FIELDS))
    ratings.ratings_replay()
    assert _state() == after
    finalist = Player.objects.get(pk=m2.entry_a.player_id)
    assert (finalist.rating, finalist.experience) == (Decimal("1477.64"), 5)  # lost 22.36

    # A correction to a walkover takes the result out as well.
    result_correct(match_id=m1.pk, by=director, reason="no show", walkover_winner="a")
    assert not RatedResult.objects.filter(source_key=f"tmatch:{m1.pk}").exists()


def test_an_online_tournament_match_is_rated_once_as_a_tournament_result(event, director):
    players = UserPlayerFactory.create_batch(2)
    flight = flight_with(event, players, director=director, match_length=1)
    flight_draw(flight_id=flight.pk, by=director)
    final = _match(flight, "M1-1")
    online = match_start_online(match_id=final.pk, by=director)
    assert online.played_for == f"tmatch:{final.pk}"
    finish_by_resignation(online)
    row = RatedResult.objects.get()
    assert (row.source, row.source_key) == ("tournament", f"tmatch:{final.pk}")
    assert row.match_id == online.pk and row.at == online.finished_at and row.rated
    winner = Player.objects.get(pk=online.winner_id)
    assert (winner.rating, winner.experience) == (Decimal("1510.00"), 1)
