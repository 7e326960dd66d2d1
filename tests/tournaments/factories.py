"""Factories and small builders for the tournament tests (factory_boy, no fixtures)."""

from __future__ import annotations

import datetime
from decimal import Decimal

import factory
from django.contrib.auth.models import Permission

from tests.factories import PlayerFactory, UserFactory, UserPlayerFactory
from tournaments.models import Event
from tournaments.services.entries import entry_register
from tournaments.services.flights import flight_create


class DirectorFactory(UserFactory):
    """A user who may create events (``tournaments.add_event``)."""

    class Meta:
        skip_postgeneration_save = True

    @factory.post_generation
    def may_create_events(self, create, extracted, **kwargs):
        if create:
            self.user_permissions.add(Permission.objects.get(codename="add_event"))


class EventFactory(factory.django.DjangoModelFactory):
    """An event directed by a new director (``event.directors.first()``), published
    (``running``: everyone sees it, as the tests' visitors expect); ``status="draft"``
    for one only its directors see."""

    class Meta:
        model = Event
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Klubverseny {n}")
    slug = factory.Sequence(lambda n: f"klubverseny-{n}")
    starts_on = datetime.date(2025, 3, 1)
    location = "Budapest"
    status = Event.Status.RUNNING

    @factory.post_generation
    def director(self, create, extracted, **kwargs):
        if create:
            self.directors.add(extracted or DirectorFactory())


def rated_players(n: int, *, with_login: bool = False, top: int = 2000) -> list:
    """``n`` players rated ``top``, ``top - 10``, ...: player ``i`` is seed ``i + 1``."""
    factory_class = UserPlayerFactory if with_login else PlayerFactory
    return [factory_class(rating=Decimal(top - 10 * i)) for i in range(n)]


def flight_with(event, players, *, format="single_elimination", director=None, **kwargs):
    """A flight of ``event`` with ``players`` registered (not drawn)."""
    director = director or event.directors.first()
    flight = flight_create(
        event_id=event.pk, by=director, name=kwargs.pop("name", "Main"), format=format, **kwargs
    )
    for p in players:
        entry_register(flight_id=flight.pk, by=director, player_id=p.pk)
    return flight


def sheet(winner: int, length: int) -> list[dict[str, int]]:
    """A game-by-game sheet ``winner`` (1 or 2) wins ``length``-1: the loser takes game
    1 for a point, then the winner wins singles (the Crawford game among them, cube 1)."""
    loser = 3 - winner
    return [{"winner": loser, "points": 1, "cube": 1}] + [
        {"winner": winner, "points": 1, "cube": 1} for _ in range(length)
    ]


def crawford_cube_sheet(winner: int, length: int) -> list[dict[str, int]]:
    """A sheet with a cube in the Crawford game (game ``length``): refused (R11)."""
    games = [{"winner": winner, "points": 1, "cube": 1} for _ in range(length - 1)]
    return [*games, {"winner": winner, "points": 2, "cube": 2}]
