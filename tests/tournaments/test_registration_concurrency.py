"""Two players taking a flight's last place at once (issue 17, item 13): the flight's
lock serialises them on PostgreSQL, so one gets the place and the other the waitlist,
never both the place. Real threads, one connection each, released by a barrier."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from tests.factories import UserPlayerFactory
from tests.tournaments.factories import DirectorFactory, EventFactory, flight_with, rated_players
from tournaments.models import Entry
from tournaments.services.registration import entry_self_register, flight_set_registration

THREADS = 6


@pytest.mark.django_db(transaction=True)
def test_players_racing_for_the_last_place_get_one_place_and_the_waitlist():
    director = DirectorFactory()
    event = EventFactory(director=director)
    flight = flight_with(event, rated_players(3))
    flight_set_registration(flight_id=flight.pk, by=director, open=True, capacity=4)
    users = [UserPlayerFactory().user for _ in range(THREADS)]
    barrier = threading.Barrier(THREADS)
    errors: list[BaseException] = []

    def worker(user) -> None:  # type: ignore[no-untyped-def]
        try:
            barrier.wait(timeout=30)
            entry_self_register(flight_id=flight.pk, by=user)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(u,)) for u in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert errors == []
    mine = Entry.objects.filter(flight=flight, player__user__in=users)
    assert mine.filter(status=Entry.Status.PENDING).count() == 1
    waiting = list(mine.filter(status=Entry.Status.WAITLISTED).order_by("created_at", "pk"))
    assert len(waiting) == THREADS - 1
