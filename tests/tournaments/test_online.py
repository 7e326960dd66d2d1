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


def test_an_online_tournament_match_is_replayed_like_any_other(event, director, client):
    """Issue 27: its games are replayed from their log, on the page and in the API."""
    from django.urls import reverse

    from games.play import replay

    players = rated_players(2, with_login=True)
    flight = flight_with(event, players, match_length=3)
    flight_draw(flight_id=flight.pk, by=director)
    final = TournamentMatch.objects.get(flight=flight, slot_key="M1-1")
    online = match_start_online(match_id=final.pk, by=players[0].user)
    finish_by_resignation(online, kind="backgammon")
    game = online.games.get(number=1)
    steps = replay.game_replay_steps(game=game)
    assert [s.kind for s in steps][-2:] == ["resign", "accept_resignation"]
    client.cookies["django_language"] = "en"
    page = client.get(reverse("games:game-replay", args=[online.pk, 1]) + "?move=last")
    assert page.status_code == 200
    assert "accepts the resignation" in page.content.decode()
    api = client.get(reverse("games-api:game-replay", args=[game.pk])).json()
    assert api["steps"][-1]["result"]["points"] == 3
