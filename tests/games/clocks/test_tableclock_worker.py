"""A table clock's timer on a real Celery worker and the real Redis broker (issue 5): a
running clock whose reserve runs out is flagged by the ETA task sent after commit, with
no tablet or other client connected, and running the task again changes nothing."""

from __future__ import annotations

import time

import pytest
from celery.contrib.testing.worker import start_worker
from django.db import connection

from config.celery import app
from games.clocks import selectors as clock_selectors
from games.clocks import services as tableclocks
from games.clocks.tasks import table_clock_alarm
from games.models import TableClock


@pytest.mark.django_db(transaction=True)
def test_the_eta_timer_flags_a_table_clock_with_no_client_connected():
    clock = tableclocks.table_clock_create(
        label="Table 7",
        player1_name="Anna",
        player2_name="Bence",
        clock={"delay_ms": 200, "reserve_ms": 1_000},  # a 1 s reserve after the delay
    )
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        started = time.monotonic()
        # Committed at once (no outer transaction): the timer task is sent with its ETA.
        clock = tableclocks.table_clock_start(clock_id=clock.pk, player=1)
        armed = clock.version
        assert clock.armed_version == armed
        flagged_at = None
        while time.monotonic() - started < 20:
            if TableClock.objects.filter(pk=clock.pk, status="flagged").exists():
                flagged_at = time.monotonic() - started
                break
            time.sleep(0.05)
    connection.close()
    assert flagged_at is not None, "the timer did not flag the clock"
    assert flagged_at >= 1.2  # not before the deadline
    clock.refresh_from_db()
    assert (clock.flagged_index, clock.version, clock.deadline_at) == (1, armed + 1, None)
    assert clock_selectors.table_clock_view(clock)["reserves_ms"] == [1_000, 0]
    # Delivered again (Redis re-delivers, or beat's sweeper raced it): no second effect.
    assert table_clock_alarm(clock.pk, armed) == "stale"
    clock.refresh_from_db()
    assert clock.version == armed + 1
