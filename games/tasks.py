"""Celery tasks: thin, they take ids, call one service and are safe to run twice."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import OperationalError

from . import clocks
from .transports import MAX_DELIVERY_ATTEMPTS, TransientDeliveryError


# ====================================================================== clocks (R12)
@shared_task(name="games.game_clock_alarm", ignore_result=True)
def game_clock_alarm(game_id: int, version: int) -> str:
    """The timer of one game version: flag or warn if due, else nothing ("stale" when
    the game moved on, so a re-delivered or doubled task has no second effect)."""
    return clocks.game_clock_alarm(game_id=game_id, version=version)


@shared_task(name="games.table_clock_alarm", ignore_result=True)
def table_clock_alarm(clock_id: int, version: int) -> str:
    """The timer of one table clock version (over the board): flag the running player
    if their time is up ("stale" when the clock moved on, so a re-delivered or doubled
    task has no second effect)."""
    from .tableclocks import table_clock_alarm as alarm  # the service module sends this task

    return alarm(clock_id=clock_id, version=version)


@shared_task(name="games.sweep_clock_alarms", ignore_result=True)
def sweep_clock_alarms() -> dict[str, Any]:
    """Beat's backstop every few seconds: overdue alarms acted on, near ones armed."""
    return clocks.games_sweep_alarms()


# ====================================================================== notifications
@shared_task(
    name="games.notification_deliver",
    ignore_result=True,
    # A 5xx answer, a timeout, an SMTP hiccup, a database blip: try again later, after
    # about 1, 2, 4, 8, 16 s (randomised, capped at 10 minutes: no ETA beyond Redis's
    # visibility timeout). The service counts attempts on the row and marks the delivery
    # failed at the last one, so the row, not the task, is the record.
    autoretry_for=(TransientDeliveryError, OperationalError),
    retry_backoff=True,
    retry_backoff_max=600,
    retry_jitter=True,
    max_retries=MAX_DELIVERY_ATTEMPTS - 1,
)
def notification_deliver(delivery_id: int) -> str:
    """Send one email or webhook delivery. Safe to run twice: the service locks the row
    and does nothing once it is sent (or failed)."""
    from .notifications import (  # the service module enqueues this task
        notification_delivery_give_up,
        notification_delivery_send,
    )

    try:
        return notification_delivery_send(delivery_id=delivery_id)
    except (TransientDeliveryError, OperationalError):
        raise
    except Exception as exc:
        # Unexpected: no retry would help; record it where the director looks.
        notification_delivery_give_up(delivery_id=delivery_id, error=f"{type(exc).__name__}: {exc}")
        raise


@shared_task(name="games.notification_deliver_each", ignore_result=True)
def notification_deliver_each(delivery_ids: list[int]) -> int:
    """Enqueue one send task per delivery. ``notify_all`` sends this one message instead
    of one per delivery: the writer (a clock flag tells two players at once) pays for one
    publish, the notifications worker for the rest. Safe to run twice: each send is."""
    for delivery_id in delivery_ids:
        notification_deliver.delay(delivery_id)
    return len(delivery_ids)


@shared_task(name="games.notification_sweep", ignore_result=True)
def notification_sweep() -> int:
    """Beat's backstop every 5 minutes: deliveries whose task was lost are enqueued again."""
    from .notifications import notification_deliveries_requeue_stale

    return notification_deliveries_requeue_stale()
