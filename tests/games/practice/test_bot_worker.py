"""The practice opponent's turns on a real Celery worker and the real Redis broker (issue
28): after each commit in a bot match, ``games.bot_turn`` goes to the queue "bot" and the
worker makes the bot's decision; the person never waits on gnubg in their request."""

from __future__ import annotations

import random
import time

import pytest
from celery.contrib.testing.worker import start_worker
from django.db import connection

from config.celery import app
from games.engine.actions import state_from_dict
from games.engine.position import position_id
from games.models import GameAction, Match
from games.play import invitations, services
from games.play.dice import ScriptedDice
from games.practice import services as practice
from tests.factories import UserPlayerFactory


def _wait_for_bot_plays(bot, count: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if GameAction.objects.filter(actor=bot, kind="play").count() >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"the bot did not make play {count} within {seconds} s")


@pytest.mark.django_db(transaction=True)
def test_the_worker_plays_the_bots_turns(settings):
    settings.PRACTICE_BOT_PAUSE = 0
    anna = UserPlayerFactory(name="Anna")
    bot = practice.bot_player_get_or_create()
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        # Committed at once (no outer transaction): the bot opens with 3-1 and must play.
        started = time.monotonic()
        invitation = invitations.invitation_send(
            inviter=anna, invitee=bot, length=1, bot_level="world_class", dice=ScriptedDice([1, 3])
        )
        assert time.monotonic() - started < 1.0  # the invitation never waited on gnubg
        _wait_for_bot_plays(bot, 1)
        # Anna rolls and plays; the worker then rolls for the bot and plays its roll.
        match = Match.objects.get(pk=invitation.match_id)
        game = match.games.get()
        rng = random.Random(5)
        rolled = services.game_roll(
            game_id=game.pk, player=anna, expected_version=game.version, dice=rng
        )
        state = state_from_dict(rolled.game.state)
        if state.phase == "move" and state.player_to_act == 0:
            services.game_play(
                game_id=game.pk,
                player=anna,
                expected_version=rolled.game.version,
                result_position_id=position_id(state.legal_plays()[0].result),
            )
        _wait_for_bot_plays(bot, 2)
    connection.close()
    kinds = list(
        GameAction.objects.filter(game=game, actor=bot)
        .order_by("seq")
        .values_list("kind", flat=True)
    )
    assert kinds[:3] == ["play", "roll", "play"], kinds  # no double in a 1-point match
