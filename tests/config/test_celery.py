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


def test_the_registered_task_names_are_the_stable_interface():
    # Queued messages, routes and beat's schedule name tasks; moving a tasks module must
    # not rename one (issue 14), and every name they use must be registered.
    from django.conf import settings

    from chouette.online.steps import ONLINE_ALARM
    from games import background
    from games.clocks.services import TABLE_CLOCK_ALARM
    from games.notifications.services import DELIVER, DELIVER_EACH
    from games.play.clock import GAME_CLOCK_ALARM
    from games.players.logins import PASSWORD_RESET_SEND

    names = {name for name in app.tasks if not name.startswith("celery.")}
    assert names == {
        "config.ping",
        "games.game_clock_alarm",
        "games.table_clock_alarm",
        "games.sweep_clock_alarms",
        "games.notification_deliver",
        "games.notification_deliver_each",
        "games.notification_sweep",
        "games.analysis_run",
        "games.analysis_sweep",
        "games.bot_turn",
        "games.bot_sweep",
        "games.signup_sweep",
        "games.password_reset_send",
        "chouette.online_alarm",
        "chouette.sweep_online_alarms",
    }
    for sent in (
        GAME_CLOCK_ALARM,
        TABLE_CLOCK_ALARM,
        DELIVER,
        DELIVER_EACH,
        ONLINE_ALARM,
        PASSWORD_RESET_SEND,
    ):
        assert background.task(sent).name == sent
    assert set(settings.CELERY_TASK_ROUTES) <= names
    assert {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()} <= names
    with pytest.raises(KeyError):
        background.task("games.no_such_task")
