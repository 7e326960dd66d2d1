"""The data migrations of tournaments, run on rows stored the old way."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from tests.tournaments.factories import flight_with, rated_players
from tournaments import pairing
from tournaments.models import Flight
from tournaments.services.draw import flight_draw

pytestmark = pytest.mark.django_db


def test_0004_names_the_part_of_every_stored_slot_part_and_back(event, director):
    flight = flight_with(event, rated_players(5), format="double_elimination")
    flight_draw(flight_id=flight.pk, by=director)
    swiss = flight_with(event, rated_players(2), format="swiss", options={"rounds": 1}, name="S")
    drawn = Flight.objects.get(pk=flight.pk).bracket
    old = {**drawn, "slots": [{**s, "flight": s["part"]} for s in drawn["slots"]]}
    for slot in old["slots"]:
        del slot["part"]
    Flight.objects.filter(pk=flight.pk).update(bracket=old)
    migration = importlib.import_module("tournaments.migrations.0004_bracket_slot_part")

    migration.flight_to_part(apps, None)
    assert Flight.objects.get(pk=flight.pk).bracket == drawn
    assert Flight.objects.get(pk=swiss.pk).bracket is None
    migration.flight_to_part(apps, None)  # twice: nothing left to rename
    assert Flight.objects.get(pk=flight.pk).bracket == drawn

    migration.part_to_flight(apps, None)
    assert Flight.objects.get(pk=flight.pk).bracket == old
    assert pairing.Bracket.from_dict(old) == pairing.Bracket.from_dict(drawn)
