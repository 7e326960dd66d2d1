"""Notifications end to end with a real Celery worker on the real Redis broker: the
send task is enqueued when the transaction commits, the worker sends the email once, a
failing webhook is retried with back-off until it answers, and one that refuses is
recorded as failed."""

from __future__ import annotations

import time

import pytest
from celery.contrib.testing.worker import start_worker
from django.core import mail
from django.db import transaction

from config.celery import app
from games.models import NotificationDelivery, Webhook
from games.notifications.services import notify
from tests.factories import UserPlayerFactory
from tests.webhook_server import webhook_server

pytestmark = pytest.mark.django_db(transaction=True)

PENDING = NotificationDelivery.Status.PENDING


def _settled(delivery_id: int, timeout: float = 30.0) -> NotificationDelivery:
    """The delivery once it is no longer pending (the worker's commit is what we see)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        delivery = NotificationDelivery.objects.get(pk=delivery_id)
        if delivery.status != PENDING:
            return delivery
        time.sleep(0.05)
    raise AssertionError(f"delivery {delivery_id} still pending after {timeout} s")


def _worker():
    return start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10)


def test_the_worker_sends_the_email_after_commit_once():
    anna = UserPlayerFactory(name="Anna", user__email="anna@example.org")
    with _worker():
        with transaction.atomic():
            notification = notify(
                recipient=anna,
                kind="lost_on_time",
                subject="game:1",
                context={"match": 1, "opponent": "Bence"},
            )
            delivery_id = notification.deliveries.get().pk
            time.sleep(0.3)  # a worker with the task in hand would have sent it by now
            assert mail.outbox == []
        again = notify(recipient=anna, kind="lost_on_time", subject="game:1", context={})
        assert again is None
        delivery = _settled(delivery_id)
    assert delivery.status == NotificationDelivery.Status.SENT
    assert delivery.attempts == 1
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["anna@example.org"]


def test_the_worker_retries_a_failing_webhook_and_records_a_refusal():
    anna = UserPlayerFactory(name="Anna", notification_channels={"time_low": ["webhook"]})
    with webhook_server(statuses=[503]) as flaky, webhook_server(statuses=[404]) as refusing:
        Webhook.objects.create(name="flaky", url=flaky.url, kinds=["time_low"])
        Webhook.objects.create(name="refusing", url=refusing.url, kinds=["time_low"])
        with _worker():
            with transaction.atomic():
                notification = notify(
                    recipient=anna,
                    kind="time_low",
                    subject="game:4:v12",
                    context={"match": 2, "opponent": "Bence", "remaining_ms": 29_500},
                )
            deliveries = {d.webhook.name: d.pk for d in notification.deliveries.all()}
            retried = _settled(deliveries["flaky"])
            refused = _settled(deliveries["refusing"])
    assert (retried.status, retried.attempts) == (NotificationDelivery.Status.SENT, 2)
    assert retried.last_error.startswith("HTTP 503")
    assert len(flaky.received) == 2
    assert flaky.received[-1].json["title"] == "Fogy az időd"  # the club's language
    assert (refused.status, refused.attempts) == (NotificationDelivery.Status.FAILED, 1)
    assert refused.last_error.startswith("HTTP 404")
    assert len(refusing.received) == 1
