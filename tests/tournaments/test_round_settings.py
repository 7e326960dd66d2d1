"""Round settings (issue 17, defect 7): only a round the part has (round 7 of a 4-round
knockout was accepted and stayed with no match); which round is the final; "Clock
preset" and "Clock use" told apart; presets named as the lobby names them."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from games.errors import ValidationFailed
from games.play.presets import preset_label
from tests.factories import UserPlayerFactory, api_client
from tests.tournaments.factories import flight_with, rated_players
from tournaments.models import FlightRound
from tournaments.services.draw import flight_draw
from tournaments.services.flights import flight_round_set

pytestmark = pytest.mark.django_db


def _refused(**kwargs) -> ValidationFailed:
    with pytest.raises(ValidationFailed) as refused:
        flight_round_set(**kwargs)
    return refused.value


def test_a_round_the_part_does_not_have_is_refused(event, director):
    flight = flight_with(event, rated_players(16))
    flight_draw(flight_id=flight.pk, by=director)
    # The draw publishes round 1 (its settings row); the refusal writes no other.
    before = list(FlightRound.objects.filter(flight=flight).values())
    with translation.override("en"):
        refused = _refused(flight_id=flight.pk, by=director, part="main", number=7)
    assert refused.code == "no_such_round"
    assert refused.extra == {"rounds": 4, "numbers": [1, 2, 3, 4], "drawn": True}
    assert "4 rounds, numbered 1 to 4" in str(refused.detail)
    assert list(FlightRound.objects.filter(flight=flight).values()) == before
    assert not FlightRound.objects.filter(flight=flight, number=7).exists()
    flight_round_set(flight_id=flight.pk, by=director, part="main", number=4, match_length=11)

    # Before the draw: the rounds the entries so far give, and it says so.
    early = flight_with(event, rated_players(5), name="Early", format="consolation")
    with translation.override("en"):
        refused = _refused(flight_id=early.pk, by=director, part="main", number=4)
    assert refused.code == "no_such_round" and refused.extra["rounds"] == 3
    assert "With the 5 entries so far" in str(refused.detail)
    assert "the draw sets the count" in str(refused.detail)
    flight_round_set(flight_id=early.pk, by=director, part="main", number=3, match_length=7)

    # Double elimination's final continues the losers' numbering; Swiss: its rounds.
    double = flight_with(event, rated_players(4), name="Double", format="double_elimination")
    flight_draw(flight_id=double.pk, by=director)
    refused = _refused(flight_id=double.pk, by=director, part="final", number=1)
    assert refused.extra["numbers"] == [3]
    flight_round_set(flight_id=double.pk, by=director, part="final", number=3, match_length=9)
    swiss = flight_with(
        event, rated_players(4), name="Swiss", format="swiss", options={"rounds": 3}
    )
    assert _refused(flight_id=swiss.pk, by=director, part="", number=4).extra["rounds"] == 3


def test_the_api_refuses_round_seven_of_four(event, director):
    flight = flight_with(event, rated_players(16))
    flight_draw(flight_id=flight.pk, by=director)
    url = f"/api/v1/flights/{flight.pk}/rounds/"
    refused = api_client(director).post(url, {"part": "main", "number": 7}, format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "no_such_round" and refused.json()["rounds"] == 4
    schema = api_client(director).get("/api/schema/").content.decode()
    assert "Clock preset: which clock" in schema and "Clock use:" in schema
    assert "seed002 = club (11 s + 1:30)" in schema


def test_the_flight_page_names_the_final_and_the_presets(client, event, director):
    flight = flight_with(event, rated_players(11), clock_preset="seed002", clock_policy="allowed")
    flight_draw(flight_id=flight.pk, by=director)
    flight_round_set(flight_id=flight.pk, by=director, part="main", number=4, clock_preset="usbgf")
    client.cookies["django_language"] = "en"
    client.force_login(director)
    url = reverse("tournaments:flight-manage", kwargs={"slug": event.slug, "flight_id": flight.pk})
    page = client.get(url).content.decode()
    with translation.override("en"):
        club, usbgf = preset_label("seed002"), preset_label("usbgf")
    assert club == "club (11 s + 1:30)"
    assert f"clocks allowed: {club}" in page and f": {usbgf}</td>" in page
    assert "seed002</" not in page and ": usbgf<" not in page
    assert ">Clocks<" not in page
    # The round settings are one grid on a page of their own (issue 29), linked here.
    grid_url = reverse(
        "tournaments:flight-rounds", kwargs={"slug": event.slug, "flight_id": flight.pk}
    )
    assert grid_url in page
    grid = client.get(grid_url).content.decode()
    assert f'<option value="seed002">{club}</option>' in grid  # the grid's choices
    assert "Clock preset" in grid and "Clock use" in grid
    # Which round is the final: in the round settings and in the rounds table.
    assert "Main draw: rounds 1 to 4 (3 = Semi-final, 4 = Final)" in page
    assert '<span class="round-name">Final</span>' in page
    assert '<span class="round-name">Semi-final</span>' in page
    final = flight.matches.get(slot_key="M4-1")
    match_page = client.get(
        reverse("tournaments:match-manage", kwargs={"slug": event.slug, "match_id": final.pk})
    ).content.decode()
    assert '<span class="round-name">Final</span></h1>' in match_page
    # The lobby names the presets with the same function (its form shows once there is
    # an opponent who can log in).
    UserPlayerFactory()
    client.force_login(UserPlayerFactory().user)
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert f'<option value="seed002">{club}</option>' in lobby
