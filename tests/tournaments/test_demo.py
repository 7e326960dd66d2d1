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
    page = client.get(f"/events/demo-kupa/flights/{flight.pk}/")
    assert page.status_code == 200 and b"<svg" in page.content
