"""The ``match:<id>`` topic against the real Redis channel layer: every committed action
reaches the watchers in order, after commit, with the game's version; a client that comes
back is sent what it missed, none twice (games.play.live, games.live.consumer)."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import override_settings

from games.engine.actions import state_from_dict
from games.models import Game
from games.play import services
from games.play.dice import ScriptedDice
from tests.factories import PlayerFactory
from tests.games.live.conftest import run

pytestmark = pytest.mark.django_db(transaction=True)


def _started_match():
    p1, p2 = PlayerFactory(), PlayerFactory()
    match = services.match_create(player1=p1, player2=p2, length=3)
    game = services.match_start(match_id=match.pk, dice=ScriptedDice((3, 1)))
    return match, game, (p1, p2)


def _act(game: Game, players) -> Game:
    """The next action of the player to act: the first legal play, else roll."""
    game.refresh_from_db()
    state = state_from_dict(game.state)
    player = players[state.player_to_act]
    if state.phase == "move":
        play = state.legal_plays()[0]
        from games.engine.position import position_id

        outcome = services.game_play(
            game_id=game.pk,
            player=player,
            expected_version=game.version,
            result_position_id=position_id(play.result),
        )
    else:
        outcome = services.game_roll(game_id=game.pk, player=player, expected_version=game.version)
    return outcome.game


def test_an_action_reaches_a_watcher_with_its_version(socket) -> None:
    match, game, players = _started_match()

    async def scenario():
        ws = await socket().open()
        await ws.send(op="watch", topic=f"match:{match.pk}", since=[1, game.version])
        watching = await ws.receive()
        assert watching == {"t": "watching", "topic": f"match:{match.pk}", "pos": [1, 1]}
        await sync_to_async(_act)(game, players)
        event = await ws.until("event")
        assert event["kind"] == "play"
        assert event["pos"] == [1, 2] and event["prev"] == [1, 1]
        assert event["version"] == 2 and event["game"] == game.pk
        assert await ws.nothing()
        await ws.close()

    run(scenario)


def _until_pos(ws, pos):
    async def wait():
        got = []
        while True:
            message = await ws.until("event")
            got.append(message["pos"])
            if message["pos"] == pos:
                return got

    return wait()


def test_a_client_that_comes_back_gets_what_it_missed_in_order_none_twice(socket) -> None:
    match, game, players = _started_match()

    async def scenario():
        ws = await socket().open()
        await ws.send(op="watch", topic=f"match:{match.pk}", since=[1, 1])
        await ws.until("watching")
        await sync_to_async(_act)(game, players)  # version 2, seen
        assert (await ws.until("event"))["pos"] == [1, 2]
        await ws.close()  # the socket drops...
        await sync_to_async(_act)(game, players)  # ...two actions happen meanwhile
        await sync_to_async(_act)(game, players)
        again = await socket().open()
        await again.send(op="watch", topic=f"match:{match.pk}", since=[1, 2])
        first, second = await again.receive(), await again.receive()
        assert [first["pos"], second["pos"]] == [[1, 3], [1, 4]]
        assert [first["prev"], second["prev"]] == [[1, 2], [1, 3]]
        assert (await again.receive())["t"] == "watching"
        assert await again.nothing()  # none twice: the live copies were not resent
        await sync_to_async(_act)(game, players)  # and it goes on live
        assert (await again.until("event"))["pos"] == [1, 5]
        await again.close()

    run(scenario)


def test_the_next_game_follows_the_last_action_of_the_one_before(socket) -> None:
    match, game, players = _started_match()
    state = state_from_dict(game.state)
    mover = players[state.player_to_act]

    def resign_and_accept():
        offered = services.resign_offer(
            game_id=game.pk, player=mover, expected_version=game.version, kind="single"
        )
        other = players[1 - state.player_to_act]
        services.resign_accept(
            game_id=game.pk,
            player=other,
            expected_version=offered.game.version,
            dice=ScriptedDice((5, 2)),
        )

    async def scenario():
        ws = await socket().open()
        await ws.send(op="watch", topic=f"match:{match.pk}", since=[1, 1])
        await ws.until("watching")
        await sync_to_async(resign_and_accept)()
        kinds = []
        while len(kinds) < 3:
            event = await ws.until("event")
            kinds.append((event["kind"], event["pos"], event["prev"]))
        assert kinds == [
            ("resign", [1, 2], [1, 1]),
            ("accept_resignation", [1, 3], [1, 2]),
            ("opening_roll", [2, 1], [1, 3]),
        ]
        await ws.close()

    run(scenario)


def test_a_gap_in_the_live_events_is_filled_from_the_log(socket) -> None:
    """An event whose ``prev`` is not the last one sent (another process's push overtook
    it) makes the consumer read the missing ones from the log first."""
    match, game, players = _started_match()

    async def scenario():
        ws = await socket().open()
        await ws.send(op="watch", topic=f"match:{match.pk}", since=[1, 1])
        await ws.until("watching")
        # Two actions with publishing off: nobody is told...
        with override_settings(LIVE_PUBLISH=False):
            await sync_to_async(_act)(game, players)
            await sync_to_async(_act)(game, players)
        assert await ws.nothing()
        # ...then one told: the consumer sends the two it finds in the log, then it.
        await sync_to_async(_act)(game, players)
        got = [(await ws.until("event"))["pos"] for _ in range(3)]
        assert got == [[1, 2], [1, 3], [1, 4]]
        assert await ws.nothing()
        await ws.close()

    run(scenario)


def test_too_far_behind_is_told_to_fetch_the_state(socket, monkeypatch) -> None:
    from games.play import live

    match, game, players = _started_match()
    monkeypatch.setattr(live, "REPLAY_LIMIT", 1)
    for _ in range(3):
        _act(game, players)

    async def scenario():
        ws = await socket().open()
        await ws.send(op="watch", topic=f"match:{match.pk}", since=[1, 1])
        resync = await ws.receive()
        assert resync == {"t": "resync", "topic": f"match:{match.pk}", "pos": [1, 4]}
        # A position the match never had is not replayed either.
        await ws.send(op="watch", topic=f"match:{match.pk}", since=[9, 9])
        assert (await ws.until("resync"))["pos"] == [1, 4]
        await ws.close()

    run(scenario)


def test_nothing_is_sent_before_the_commit(socket) -> None:
    from django.db import transaction

    match, game, players = _started_match()

    async def scenario():
        ws = await socket().open()
        await ws.send(op="watch", topic=f"match:{match.pk}", since=[1, 1])
        await ws.until("watching")
        committed = asyncio.Event()

        def act_in_transaction():
            with transaction.atomic():
                _act(game, players)
                # Still inside the transaction: nothing may have reached the socket.
                assert async_to_sync(ws.nothing)(0.3)
            committed.set()

        await sync_to_async(act_in_transaction, thread_sensitive=False)()
        assert committed.is_set()
        assert (await ws.until("event"))["pos"] == [1, 2]
        await ws.close()

    run(scenario)


def test_a_flag_recorded_by_the_alarm_is_pushed(socket, wall) -> None:
    from games.play import alarms

    p1, p2 = PlayerFactory(), PlayerFactory()
    match = services.match_create(player1=p1, player2=p2, length=3, clock="seed002")
    game = services.match_start(match_id=match.pk, dice=ScriptedDice((3, 1)))

    async def scenario():
        ws = await socket().open()
        await ws.send(op="watch", topic=f"match:{match.pk}", since=[1, 1])
        await ws.until("watching")
        wall.advance(minutes=5)  # past the delay and the whole reserve
        flagged = await sync_to_async(
            lambda: alarms.game_alarm_if_due(Game.objects.get(pk=game.pk))
        )()
        assert flagged
        event = await ws.until("event")
        assert event["kind"] == "timeout" and event["pos"] == [1, 2]
        await ws.close()

    run(scenario)


def test_watching_a_match_that_does_not_exist_is_refused(socket) -> None:
    async def scenario():
        ws = await socket().open()
        await ws.send(op="watch", topic="match:999999", since=[0, 0])
        refused = await ws.receive()
        assert refused["t"] == "refused" and refused["code"] == "match_not_found"
        for bad in ("nonsense", "match:", "match:abc", "x" * 2000):
            await ws.send(op="watch", topic=bad)
            assert (await ws.receive())["t"] == "refused"
        await ws.communicator.send_to(text_data="{not json")
        assert (await ws.receive())["code"] == "bad_message"
        # The connection stays usable after refusals.
        await ws.send(op="watch", topic="match:999999")
        assert (await ws.receive())["t"] == "refused"
        await ws.close()

    run(scenario)


def test_a_refusal_speaks_the_language_of_the_page(socket) -> None:
    async def scenario():
        english = await socket(language="en").open()
        await english.send(op="watch", topic="match:999999")
        assert (await english.receive())["detail"] == "There is no match with this id."
        await english.send(op="watch", topic="nonsense")
        assert (await english.receive())["detail"] == "There is nothing to follow by this name."
        await english.close()
        hungarian = await socket().open()  # no cookie: the site's default, Hungarian
        await hungarian.send(op="watch", topic="nonsense")
        assert (await hungarian.receive())["detail"] == "Ezen a néven nincs mit követni."
        await hungarian.close()

    run(scenario)
