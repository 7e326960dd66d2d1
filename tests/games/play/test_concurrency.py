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

from games.engine.actions import state_from_dict
from games.errors import Conflict
from games.models import Game, GameAction
from games.play import selectors, services
from games.play.dice import ScriptedDice
from tests.factories import PlayerFactory, UserPlayerFactory

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
    invitee = APIClient()
    invitee.credentials(HTTP_AUTHORIZATION=f"Token {tokens[1]}")
    accepted = invitee.post(f"/api/v1/invitations/{created['invitation']['id']}/accept/").json()
    game = Game.objects.get(pk=accepted["current_game"])
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


class _MeetingDice:
    """Dice that hold each roller until every roller has read the game: the writes then
    race with certainty instead of by chance (a double-click on "Roll")."""

    def __init__(self, parties: int) -> None:
        self.barrier = threading.Barrier(parties)

    def randint(self, a: int, b: int) -> int:
        self.barrier.wait(timeout=30)
        return 4


@pytest.mark.django_db(transaction=True)
def test_two_writes_racing_after_reading_the_same_version_apply_once():
    """Both requests read version v and pass every check before either writes; the
    compare-and-set lets exactly one through and refuses the other with 409."""
    a, b = PlayerFactory(), PlayerFactory()
    match = services.match_create(player1=a, player2=b, length=5)
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    mover = game.state["turn"]
    legal = selectors.legal_actions(state_from_dict(game.state), mover)
    (plays,) = [x["plays"] for x in legal if x["action"] == "play"]
    game = services.game_play(
        game_id=game.pk,
        player=(a, b)[mover],
        expected_version=game.version,
        result_position_id=plays[0]["position_id"],
    ).game
    roller = (a, b)[1 - mover]
    version = game.version
    dice = _MeetingDice(2)
    results: list[str] = []

    def worker() -> None:
        try:
            # Each die is one barrier: both rollers meet twice, after both have read.
            services.game_roll(game_id=game.pk, player=roller, expected_version=version, dice=dice)
            results.append("applied")
        except Conflict as exc:
            results.append(exc.code)
        except Exception as exc:  # the test names whatever else happens
            results.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert sorted(results) == ["applied", "stale_version"]
    game.refresh_from_db()
    assert game.version == version + 1
    assert list(
        GameAction.objects.filter(game=game, seq__gt=version).values_list("kind", flat=True)
    ) == ["roll"]
