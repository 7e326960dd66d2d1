"""Concurrent result writes to one tournament match are serialised (non-negotiable 4):
the flight row is locked for every write and the match carries a version. Real
PostgreSQL, real threads, one connection each, released together by a barrier. And a
change of ``Event.rated`` racing a result: the result follows the flag as committed, or
the change is refused because the result is in."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.errors import Conflict
from games.models import RatedResult
from tests.tournaments.factories import DirectorFactory, EventFactory, flight_with, rated_players
from tournaments.models import ResultCorrection, TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.events import event_update
from tournaments.services.results import result_enter

THREADS = 20


@pytest.mark.django_db(transaction=True)
def test_twenty_directors_entering_one_result_at_once_record_exactly_one():
    director = DirectorFactory()
    event = EventFactory(director=director)
    flight = flight_with(event, rated_players(4))
    flight_draw(flight_id=flight.pk, by=director)
    row = TournamentMatch.objects.get(flight=flight, slot_key="M1-1")
    final = TournamentMatch.objects.get(flight=flight, slot_key="M2-1")
    token = Token.objects.create(user=director).key
    barrier = threading.Barrier(THREADS)
    results: list[tuple[int, str | None, int]] = []
    lock = threading.Lock()

    def worker(i: int) -> None:
        try:
            client = APIClient()
            client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
            # Half say side a won 5-i%5, half side b: conflicting results, same version.
            a_wins = i % 2 == 0
            body = {
                "score_a": 5 if a_wins else i % 5,
                "score_b": i % 5 if a_wins else 5,
                "expected_version": row.version,
            }
            barrier.wait(timeout=30)
            response = client.post(
                f"/api/v1/tournament-matches/{row.pk}/result/", body, format="json"
            )
            with lock:
                results.append((response.status_code, response.json().get("code"), i))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert len(results) == THREADS
    applied = [r for r in results if r[0] == 200]
    assert len(applied) == 1
    assert {r[:2] for r in results if r[0] != 200} == {(409, "stale_version")}
    winner_index = applied[0][2]
    row.refresh_from_db()
    assert row.version > 0 and row.decided_at is not None
    assert row.winner == ("a" if winner_index % 2 == 0 else "b")
    assert ResultCorrection.objects.count() == 0
    # The bracket advanced once: the winner is in the final, on side a.
    final.refresh_from_db()
    assert final.entry_a_id == (row.entry_a_id if row.winner == "a" else row.entry_b_id)


def _race(first, second) -> dict[str, object]:
    """Run ``first`` in a transaction that stays open until ``second`` (in another
    thread and connection) has started and is waiting for it, then commit; return what
    each returned or raised."""
    out: dict[str, object] = {}
    started = threading.Event()

    def one() -> None:
        try:
            with transaction.atomic():
                out["first"] = first()
                started.set()
                time.sleep(0.5)  # ``second`` is waiting for our locks meanwhile
        except Exception as exc:  # reported to the test
            out["first"] = exc
            started.set()
        finally:
            connection.close()

    def two() -> None:
        try:
            started.wait(timeout=30)
            out["second"] = second()
        except Exception as exc:  # reported to the test
            out["second"] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=one), threading.Thread(target=two)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return out


@pytest.mark.django_db(transaction=True)
def test_a_result_recorded_while_rated_changes_follows_the_new_flag():
    """The change holds the flights' locks: the result waits, then reads the flag as
    committed (not as it was when its statement began)."""
    director = DirectorFactory()
    event = EventFactory(director=director)
    flight = flight_with(event, rated_players(2))
    flight_draw(flight_id=flight.pk, by=director)
    row = TournamentMatch.objects.get(flight=flight, slot_key="M1-1")
    out = _race(
        lambda: event_update(event_id=event.pk, by=director, rated=False),
        lambda: result_enter(match_id=row.pk, by=director, score_a=5, score_b=1),
    )
    assert not isinstance(out["first"], Exception), out
    assert not isinstance(out["second"], Exception), out
    assert RatedResult.objects.get().rated is False


@pytest.mark.django_db(transaction=True)
def test_rated_cannot_change_while_a_result_is_being_recorded():
    director = DirectorFactory()
    event = EventFactory(director=director)
    flight = flight_with(event, rated_players(2))
    flight_draw(flight_id=flight.pk, by=director)
    row = TournamentMatch.objects.get(flight=flight, slot_key="M1-1")
    out = _race(
        lambda: result_enter(match_id=row.pk, by=director, score_a=5, score_b=1),
        lambda: event_update(event_id=event.pk, by=director, rated=False),
    )
    assert isinstance(out["second"], Conflict) and out["second"].code == "event_has_results"
    assert RatedResult.objects.get().rated is True
    event.refresh_from_db()
    assert event.rated is True
