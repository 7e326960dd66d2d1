"""The ``match:<id>`` topic against the real Redis channel layer: every committed action
reaches the watchers in order, after commit, with the game's version; a client that comes
back is sent what it missed, none twice (games.play.live, games.live.consumer)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from games.engine.actions import state_from_dict
from games.models import Game
from games.play import services
from games.play.dice import ScriptedDice
from tests.factories import PlayerFactory
from tests.live.conftest import run

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
