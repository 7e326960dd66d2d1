"""Online chouette's timers on a real Celery worker and the real Redis broker (issue 19):
a cube decision left unanswered takes its default when its window ends; a move clock
that runs out ends the game (R12), recorded in the ledger; a re-delivered timer does
nothing twice."""

from __future__ import annotations

import time

import pytest
from celery.contrib.testing.worker import start_worker
from django.db import connection

from chouette.models import ChouetteLine, ChouetteOnlineGame
from chouette.online import services
from chouette.online.table import Table
from chouette.online.tasks import online_alarm
from config.celery import app
from games.play.dice import ScriptedDice
from tests.chouette.factories import online_play_first, players, session_with

FOUR_ROLLS = {"Bob": 6, "Ann": 5, "Cy": 4, "Dee": 3}


def _wait_for(condition, seconds: float = 20):
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    return None


@pytest.mark.django_db(transaction=True)
def test_the_worker_applies_the_default_when_the_decision_window_ends():
    cast = players(("Ann", "Bob", "Cy", "Dee"))
    session = session_with(cast, rolls=FOUR_ROLLS)
    session.decision_seconds = 1
    session.decision_default = "drop"
    session.save()
    # The team starts (2-6 for box-team), plays; then the box doubles before its roll.
    game = services.online_game_start(
        session_id=session.pk, by=cast["Ann"].user, dice=ScriptedDice([2, 6])
    )
    table = Table.from_dict(game.table)

    online_play_first(game, cast["Ann"].user)
    game.refresh_from_db()
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        started = time.monotonic()
        services.online_game_act(
            game_id=game.pk, by=cast["Bob"].user, action="box_double", expected_version=2
        )
        game.refresh_from_db()
        armed = game.version
        services.online_game_act(
            game_id=game.pk,
            by=cast["Cy"].user,
            action="answer",
            answer="take",
            expected_version=armed,
        )
        armed += 1

        def answered():
            row = ChouetteOnlineGame.objects.get(pk=game.pk)
            return not Table.from_dict(row.table).decisions and row

        done = _wait_for(answered)
        took = time.monotonic() - started
    connection.close()
    assert done, "the timer did not answer for the others"
    assert took >= 1.0
    table = Table.from_dict(done.table)
    assert table.in_members == (cast["Cy"].pk,)  # Ann and Dee dropped by default
    assert done.actions.order_by("-seq").first().kind == "defaults"
    assert online_alarm(game.pk, armed) == "stale"  # delivered again: nothing more


@pytest.mark.django_db(transaction=True)
def test_a_move_clock_that_runs_out_ends_the_game_in_the_ledger():
    cast = players(("Ann", "Bob", "Cy", "Dee"))
    session = session_with(cast, rolls=FOUR_ROLLS)
    session.online_clock = {"delay_ms": 300, "reserve_ms": 700}  # 1 s in all
    session.save()
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        game = services.online_game_start(
            session_id=session.pk, by=cast["Ann"].user, dice=ScriptedDice([6, 2])
        )
        done = _wait_for(
            lambda: ChouetteOnlineGame.objects.filter(pk=game.pk, status="finished").first()
        )
    connection.close()
    assert done is not None, "the box's clock did not run out"
    assert done.actions.order_by("-seq").first().kind == "flag"
    lines = dict(ChouetteLine.objects.filter(event=done.event).values_list("player_id", "points"))
    # R12 in money play: the box (on roll, out of time) loses a gammon to every member.
    assert lines == {cast["Bob"].pk: -6, cast["Ann"].pk: 2, cast["Cy"].pk: 2, cast["Dee"].pk: 2}
