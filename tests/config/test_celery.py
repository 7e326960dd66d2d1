"""Celery: a real worker, in-process, on the real Redis broker, returns a task's result;
tasks enqueued with delay_on_commit wait for the transaction to commit."""

import pytest
from celery.contrib.testing.worker import start_worker
from django.db import transaction

from config.celery import app, ping


def test_celery_is_configured_as_intended():
    conf = app.conf
    assert conf.task_serializer == "json"
    assert conf.accept_content == ["json"]
    assert conf.broker_url.startswith("redis://")
    assert conf.broker_transport_options["visibility_timeout"] == 15 * 60
    assert conf.task_acks_late is True
    assert conf.task_always_eager is False


def test_a_real_worker_returns_a_task_result_over_redis():
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        result = ping.delay("szia")
        value = result.get(timeout=20)
    assert value["echo"] == "szia"
    assert value["worker"]  # answered by the worker's request context, not run eagerly
    assert type(result.backend).__name__ == "RedisBackend"
    assert result.successful()


@pytest.mark.django_db
def test_delay_on_commit_enqueues_only_after_commit(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks, transaction.atomic():
        ping.delay_on_commit("after-commit")
    # Held back as a commit hook of the test's outer transaction, not sent at once.
    assert len(callbacks) == 1


@pytest.mark.django_db
def test_delay_on_commit_sends_nothing_when_the_transaction_rolls_back(
    django_capture_on_commit_callbacks,
):
    class Boom(Exception):
        pass

    def enqueue_then_fail():
        with transaction.atomic():
            ping.delay_on_commit("never")
            raise Boom

    with django_capture_on_commit_callbacks(execute=False) as callbacks, pytest.raises(Boom):
        enqueue_then_fail()
    assert callbacks == []
