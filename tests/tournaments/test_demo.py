"""The one-command local run's demo event: created once, first round played."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tournaments.models import Event, TournamentMatch

pytestmark = pytest.mark.django_db


def test_the_demo_tournament_is_loaded_once_with_its_first_round_played(client):
    call_command("load_demo_club")
    call_command("load_demo_tournament")
    call_command("load_demo_tournament")
    event = Event.objects.get(slug="demo-kupa")
    (flight,) = event.flights.all()
    played = TournamentMatch.objects.filter(flight=flight, decided_at__isnull=False)
    assert played.count() == 4
    assert TournamentMatch.objects.filter(flight=flight, status="ready").count() == 4
    # The places are stored as the results came: the main draw's first-round losers
    # share 5-8 (they play on in the consolation); the winners are still in the running.
    losers = {
        m.entry_b_id if m.winner == "a" else m.entry_a_id
        for m in TournamentMatch.objects.filter(flight=flight, part="main", round=1)
    }
    places = {e.pk: (e.place, e.place_label, e.side_part) for e in flight.entries.all()}
    assert {places[pk] for pk in losers} == {(5, "5-8", "")}
    assert {p for pk, p in places.items() if pk not in losers} == {(None, "", "")}
    page = client.get(f"/events/demo-kupa/flights/{flight.pk}/")
    assert page.status_code == 200 and b"<svg" in page.content
    # Its money (issue 17): the fee in HUF, and a side pool of four who paid into it.
    assert event.currency == "HUF" and flight.money.fee == 3000
    (pool,) = flight.side_pools.all()
    assert pool.entries.filter(paid_at__isnull=False).count() == 4
