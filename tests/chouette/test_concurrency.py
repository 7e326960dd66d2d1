"""Two phones save a game at the same ``expected_version`` at once: the session row is
locked for every write and carries a version, so one game is recorded (201) and the
other is refused as stale (409), and the ledger holds exactly one game. Real PostgreSQL,
real threads, one connection each, released together by a barrier."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from chouette.models import ChouetteEvent, ChouetteLine
from chouette.services.common import ledger_of
from tests.chouette.factories import players, session_with, simple_entry


@pytest.mark.django_db(transaction=True)
def test_two_phones_saving_a_game_at_once_record_exactly_one() -> None:
    cast = players()
    session = session_with(cast)
    phones = [cast["Ann"].user, cast["Cy"].user]
    tokens = [Token.objects.create(user=u).key for u in phones]
    # The two phones disagree: one says the team won, the other the box.
    entries = [simple_entry(session, winner="team"), simple_entry(session, winner="box")]
    barrier = threading.Barrier(2)
    results: list[tuple[int, str | None, int]] = []
    lock = threading.Lock()

    def worker(i: int) -> None:
        try:
            client = APIClient()
            client.credentials(HTTP_AUTHORIZATION=f"Token {tokens[i]}")
            body = {"entry": entries[i], "expected_version": session.version}
            barrier.wait(timeout=30)
            response = client.post(
                f"/api/v1/chouette/sessions/{session.pk}/games/", body, format="json"
            )
            with lock:
                results.append((response.status_code, response.json().get("code"), i))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert sorted(r[:2] for r in results) == [(201, None), (409, "stale_version")]
    winner = next(r[2] for r in results if r[0] == 201)
    events = list(ChouetteEvent.objects.filter(session=session, kind="game"))
    assert len(events) == 1
    assert events[0].data["winner"] == entries[winner]["winner"]
    assert sum(ChouetteLine.objects.filter(session=session).values_list("points", flat=True)) == 0
    session.refresh_from_db()
    assert session.version == 1
    assert ledger_of(session).seating.to_dict() == session.seating
