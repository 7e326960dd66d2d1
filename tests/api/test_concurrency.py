"""Concurrent writes to one game are serialised (non-negotiable 4): 50 threads post
conflicting actions at the same version; exactly one is applied, the others get 409
``stale_version``, and the log gains exactly one row. Real PostgreSQL, real threads,
one database connection each."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Game, GameAction
from tests.factories import UserPlayerFactory

THREADS = 50


@pytest.mark.django_db(transaction=True)
def test_fifty_conflicting_actions_at_one_version_apply_exactly_once():
    a, b = UserPlayerFactory(), UserPlayerFactory()
    tokens = [Token.objects.create(user=p.user).key for p in (a, b)]
    creator = APIClient()
    creator.credentials(HTTP_AUTHORIZATION=f"Token {tokens[0]}")
    created = creator.post(
        "/api/v1/matches/", {"player1": a.pk, "player2": b.pk, "length": 7}, format="json"
    ).json()
    game = Game.objects.get(pk=created["current_game"])
    mover = game.state["turn"]
    # The player on roll has the opening dice to play; their opponent can only resign.
    # Half the threads play (each a different legal play), half resign for the other.
    view = APIClient()
    view.credentials(HTTP_AUTHORIZATION=f"Token {tokens[mover]}")
    state = view.get(f"/api/v1/games/{game.pk}/").json()
    (plays,) = [x["plays"] for x in state["legal_actions"] if x["action"] == "play"]
    version = state["version"]
    log_before = GameAction.objects.filter(game=game).count()

    barrier = threading.Barrier(THREADS)
    results: list[tuple[int, str | None]] = []
    lock = threading.Lock()

    def worker(i: int) -> None:
        try:
            client = APIClient()
            if i % 2 == 0:
                client.credentials(HTTP_AUTHORIZATION=f"Token {tokens[mover]}")
                body = {
                    "action": "play",
                    "version": version,
                    "position_id": plays[i % len(plays)]["position_id"],
                }
            else:
                client.credentials(HTTP_AUTHORIZATION=f"Token {tokens[1 - mover]}")
                body = {"action": "resign", "version": version, "kind": "single"}
            barrier.wait(timeout=30)
            response = client.post(f"/api/v1/games/{game.pk}/actions/", body, format="json")
            with lock:
                results.append((response.status_code, response.json().get("code")))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert len(results) == THREADS
    applied = [r for r in results if r[0] == 200]
    refused = [r for r in results if r[0] != 200]
    assert len(applied) == 1
    assert set(refused) == {(409, "stale_version")}
    game.refresh_from_db()
    assert game.version == version + 1
    assert GameAction.objects.filter(game=game).count() == log_before + 1
