"""A tournament match played online reports itself when its last game ends
(``games.signals.match_finished``), and the bracket moves on."""

from __future__ import annotations

import pytest

from games.errors import Conflict, PermissionDenied
from games.models import Match
from games.play import services as game_services
from tests.factories import UserPlayerFactory, finish_by_resignation
from tests.tournaments.factories import EventFactory, flight_with, rated_players
from tournaments.models import TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.online import match_start_online

pytestmark = pytest.mark.django_db


def test_an_online_match_reports_its_result_and_the_flight_finishes(event, director):
    players = rated_players(2, with_login=True)
    flight = flight_with(
        event, players, match_length=3, clock_preset="usbgf", clock_policy="required"
    )
    flight_draw(flight_id=flight.pk, by=director)
    final = TournamentMatch.objects.get(flight=flight, slot_key="M1-1")
    for outsider in (UserPlayerFactory().user, EventFactory().directors.get()):
        with pytest.raises(PermissionDenied):
            match_start_online(match_id=final.pk, by=outsider)
    online = match_start_online(match_id=final.pk, by=players[0].user)
    assert (online.length, online.player1, online.player2) == (3, players[0], players[1])
    assert online.clock is not None  # the round requires the flight's clock preset
    with pytest.raises(Conflict):
        match_start_online(match_id=final.pk, by=players[1].user)

    winner, loser = finish_by_resignation(online, kind="backgammon")
    mover = players.index(loser)
    assert online.status == Match.Status.FINISHED

    final.refresh_from_db()
    assert final.status == "confirmed" and final.decided_at is not None
    assert final.winner == ("a" if winner == players[0] else "b")
    assert sorted([final.score_a, final.score_b]) == [0, 3]
    assert final.games == [{"winner": 2 - mover, "points": 3, "cube": 1}]
    flight.refresh_from_db()
    assert flight.status == "finished"


def test_an_unrelated_match_finishing_touches_no_tournament(event):
    a, b = UserPlayerFactory(), UserPlayerFactory()
    match = game_services.match_create(player1=a, player2=b, length=1)
    finish_by_resignation(match)
    assert match.status == Match.Status.FINISHED
    assert not TournamentMatch.objects.exists()
