"""The clock's timer on a real Celery worker and the real Redis broker (issue 5): the
task sent after commit with an ETA at the deadline flags the player on time, and running
it again changes nothing."""

from __future__ import annotations

import time

import pytest
from celery.contrib.testing.worker import start_worker
from django.db import connection

from config.celery import app
from games import services
from games.dice import ScriptedDice
from games.engine.actions import state_from_dict
from games.models import Game
from games.tasks import game_clock_alarm
from tests.factories import PlayerFactory


@pytest.mark.django_db(transaction=True)
def test_the_eta_timer_flags_the_player_when_the_reserve_runs_out():
    anna, bence = PlayerFactory(), PlayerFactory()
    match = services.match_create(
        player1=anna,
        player2=bence,
        length=3,
        clock={"delay_ms": 300, "reserve_ms": 700},  # 1 s in all
    )
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        started = time.monotonic()
        # Committed at once (no outer transaction): the timer task is sent with its ETA.
        game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
        armed = game.version
        assert game.armed_version == armed
        flagged_at = None
        while time.monotonic() - started < 20:
            state = state_from_dict(Game.objects.get(pk=game.pk).state)
            if state.flagged is not None:
                flagged_at = time.monotonic() - started
                break
            time.sleep(0.05)
    connection.close()
    assert flagged_at is not None, "the timer did not flag the player"
    assert flagged_at >= 1.0  # not before the deadline
    game.refresh_from_db()
    assert game.version == armed + 1
    assert game.actions.order_by("-seq").values_list("kind", flat=True)[0] == "timeout"
    # Delivered again (Redis re-delivers, or beat's sweeper raced it): no second effect.
    assert game_clock_alarm(game.pk, armed) == "stale"
    game.refresh_from_db()
    assert game.version == armed + 1
