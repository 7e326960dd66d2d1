"""The clock's timers on a real Celery worker and the real Redis broker (issue 5): the
task sent after commit with an ETA at the deadline flags the player on time (and running
it again changes nothing); with the worker down at the deadline, the sweeper flags the
player once a worker runs; a move just before the deadline wins the race."""

from __future__ import annotations

import time

import pytest
from celery.contrib.testing.worker import start_worker
from django.db import connection

from config.celery import app
from games.clocks.tasks import sweep_clock_alarms
from games.engine.actions import state_from_dict
from games.models import Game
from games.play import selectors, services
from games.play.dice import ScriptedDice
from games.play.tasks import game_clock_alarm
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


@pytest.mark.django_db(transaction=True)
def test_with_the_worker_down_at_the_deadline_the_sweeper_flags_the_player_later():
    """The timer task is lost (the worker was down and its queue purged); when a worker
    runs again, beat's sweeper finds the overdue alarm and flags the player."""
    anna, bence = PlayerFactory(), PlayerFactory()
    match = services.match_create(
        player1=anna, player2=bence, length=3, clock={"delay_ms": 200, "reserve_ms": 600}
    )
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    deadline = game.deadline_at
    app.control.purge()  # the ETA task is gone, as with a worker killed while holding it
    time.sleep(1.2)  # the deadline passes with no worker and no reader
    game.refresh_from_db()
    assert state_from_dict(game.state).flagged is None
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        sweep_clock_alarms.delay()  # what beat sends every 2 s
        flagged = _wait_for(lambda: state_from_dict(Game.objects.get(pk=game.pk).state).flagged)
    connection.close()
    assert flagged == 0
    timeout = game.actions.get(kind="timeout")
    assert timeout.created_at > deadline


@pytest.mark.django_db(transaction=True)
def test_a_move_just_before_the_deadline_wins_the_race_with_the_timer():
    """The mover plays shortly before their deadline: the timer armed for the old
    version fires and finds it stale; the clock now runs, and flags, for the opponent."""
    anna, bence = PlayerFactory(), PlayerFactory()
    match = services.match_create(
        player1=anna, player2=bence, length=3, clock={"delay_ms": 300, "reserve_ms": 2000}
    )
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        started = time.monotonic()
        game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
        first_deadline = game.deadline_at
        state = state_from_dict(game.state)
        (plays,) = [a["plays"] for a in selectors.legal_actions(state, 0) if a["action"] == "play"]
        time.sleep(max(0.0, 1.3 - (time.monotonic() - started)))  # ~1 s before the deadline
        played = services.game_play(
            game_id=game.pk,
            player=anna,
            expected_version=game.version,
            result_position_id=plays[0]["position_id"],
        ).game
        # Past Anna's old deadline: her timer has fired (stale), nothing was recorded.
        time.sleep(max(0.0, 2.3 + 0.8 - (time.monotonic() - started)))
        game.refresh_from_db()
        assert game.version == played.version
        assert not game.actions.filter(kind="timeout").exists()
        # Bence's clock ran from the move: his own deadline flags him.
        flagged = _wait_for(lambda: state_from_dict(Game.objects.get(pk=game.pk).state).flagged)
    connection.close()
    assert flagged == 1
    assert game.actions.get(kind="timeout").player_index == 1
    assert first_deadline < game.actions.get(kind="timeout").created_at


def _wait_for(read, *, seconds: float = 20.0):
    """Poll ``read`` until it returns something other than ``None``."""
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        value = read()
        if value is not None:
            return value
        time.sleep(0.05)
    return None
