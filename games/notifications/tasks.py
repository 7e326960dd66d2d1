"""Celery tasks of the notifications: thin, they take ids, call one service and are safe
to run twice. Routed to the ``notifications`` queue by name (settings); the services send
them by name (:mod:`games.background`)."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from games.notifications import services
from games.notifications.transports import MAX_DELIVERY_ATTEMPTS, TransientDeliveryError


@shared_task(
    name=services.DELIVER,
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
    try:
        return services.notification_delivery_send(delivery_id=delivery_id)
    except (TransientDeliveryError, OperationalError):
        raise
    except Exception as exc:
        # Unexpected: no retry would help; record it where the director looks.
        services.notification_delivery_give_up(
            delivery_id=delivery_id, error=f"{type(exc).__name__}: {exc}"
        )
        raise


@shared_task(name=services.DELIVER_EACH, ignore_result=True)
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
    return services.notification_deliveries_requeue_stale()
