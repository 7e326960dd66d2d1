"""Notifications: once per (recipient, kind, subject), on the channels the player chose,
sent after commit by a task that is safe to run twice; email through Django's mail,
webhooks to a real HTTP server on 127.0.0.1, retried when it fails for a while and
recorded as failed when it refuses."""

from __future__ import annotations

import hashlib
import hmac
from datetime import timedelta

import pytest
from django.core import mail
from django.db import transaction
from django.utils import timezone, translation

from games.errors import Conflict, NotFound, ValidationFailed
from games.models import Notification, NotificationDelivery, Webhook
from games.notifications import services as notifications
from games.notifications import transports
from games.notifications.services import (
    Notice,
    UnknownNotificationKind,
    notification_delivery_send,
    notification_mark_all_read,
    notification_mark_read,
    notify,
    notify_all,
    player_notification_channels,
    player_set_notification_channels,
    register_kind,
)
from games.notifications.tasks import notification_deliver, notification_deliver_each
from tests.factories import PlayerFactory, UserFactory, UserPlayerFactory
from tests.webhook_server import webhook_server

pytestmark = pytest.mark.django_db

FAILED = NotificationDelivery.Status.FAILED
PENDING = NotificationDelivery.Status.PENDING
SENT = NotificationDelivery.Status.SENT


@pytest.fixture
def anna():
    return UserPlayerFactory(name="Anna", user__email="anna@example.org")


@pytest.fixture
def kinds_snapshot():
    """Kinds registered by a test are forgotten after it."""
    saved = dict(notifications._KINDS)
    yield
    notifications._KINDS.clear()
    notifications._KINDS.update(saved)


def _notify(recipient, kind="lost_on_time", subject="game:1", **context):
    context = {"match": 7, "opponent": "Bence", **context}
    return notify(recipient=recipient, kind=kind, subject=subject, context=context)


def _deliver(delivery):
    """Run the task as a worker would (in-process; retries run at once)."""
    return notification_deliver.apply(args=[delivery.pk])


# ====================================================================== once per key
def test_a_second_notify_with_the_same_key_creates_and_sends_nothing(
    anna, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        first = _notify(anna)
        again = _notify(anna, opponent="someone else")
    assert isinstance(first, Notification) and first.pk
    assert again is None
    assert Notification.objects.count() == 1
    assert NotificationDelivery.objects.count() == 1  # the email, once
    # The email's task and the one push to Anna's pages (her user:<id> topic): once.
    assert len(callbacks) == 2


def test_another_subject_or_kind_or_recipient_is_another_notification(anna):
    bence = UserPlayerFactory(name="Bence")
    assert _notify(anna, subject="game:1")
    assert _notify(anna, subject="game:2")
    assert _notify(anna, kind="win_claimable", subject="game:1")
    assert _notify(bence, subject="game:1")
    assert Notification.objects.count() == 4


def test_the_stored_text_is_rendered_in_the_club_language_and_read_in_the_readers(anna):
    with translation.override("en"):  # the acting player's request language
        notification = _notify(anna, kind="your_turn", subject="game:3:v5")
    assert notification.title == "Te jössz Bence ellen"  # the club's language, Hungarian
    with translation.override("en"):
        text = notifications.notification_text(notification)
    assert text.title == "Your turn against Bence"
    assert text.url == "/matches/7/"


def test_an_unknown_kind_is_a_programming_error(anna):
    with pytest.raises(UnknownNotificationKind):
        _notify(anna, kind="no_such_kind")


def test_rendering_tolerates_a_partial_context(anna):
    notification = notify(recipient=anna, kind="match_finished", subject="match:9", context={})
    with translation.override("en"):
        text = notifications.notification_text(notification)
    assert text.title == "Your match against your opponent is over"
    assert text.body == "The match is over."
    assert text.url == ""


# ====================================================================== channels
def test_defaults_apply_until_the_player_chooses(anna):
    channels = player_notification_channels(anna)
    assert list(channels) == [k.code for k in notifications.notification_kinds()]
    assert channels["your_turn"] == []  # opt-in: a row per move costs every move
    assert channels["double_offered"] == ["in_app"]
    assert channels["lost_on_time"] == ["in_app", "email"]


def test_the_players_choice_is_respected(anna):
    player_set_notification_channels(
        player=anna, channels={"your_turn": ["email"], "lost_on_time": []}
    )
    anna.refresh_from_db()
    assert player_notification_channels(anna)["your_turn"] == ["email"]

    turn = _notify(anna, kind="your_turn", subject="game:1:v2")
    assert turn.in_app is False  # not in the list on the site
    assert [d.channel for d in turn.deliveries.all()] == ["email"]

    lost = _notify(anna, kind="lost_on_time")
    assert lost.in_app is False and not lost.deliveries.exists()
    # Still recorded, so a repeat is still recognised.
    assert _notify(anna, kind="lost_on_time") is None


def test_a_kind_left_out_goes_back_to_its_default(anna):
    player_set_notification_channels(player=anna, channels={"double_offered": ["email"]})
    player_set_notification_channels(player=anna, channels={"time_low": []})
    assert player_notification_channels(anna)["double_offered"] == ["in_app"]
    assert player_notification_channels(anna)["time_low"] == []


@pytest.mark.parametrize(
    ("channels", "code"),
    [
        ({"no_such_kind": ["email"]}, "unknown_notification_kind"),
        ({"your_turn": ["email", "pigeon"]}, "unknown_notification_channel"),
        ({"your_turn": "email"}, "invalid_notification_channels"),
        (["your_turn"], "invalid_notification_channels"),
    ],
)
def test_unknown_kinds_and_channels_are_refused_and_nothing_changes(anna, channels, code):
    player_set_notification_channels(player=anna, channels={"your_turn": ["email"]})
    if isinstance(channels, dict):
        channels = {"time_low": ["email"], **channels}  # a valid entry first: not kept either
    with pytest.raises(ValidationFailed) as refused:
        player_set_notification_channels(player=anna, channels=channels)
    assert refused.value.code == code
    anna.refresh_from_db()
    assert anna.notification_channels == {"your_turn": ["email"]}


def test_channels_chosen_reads_stored_choices_without_a_query(django_assert_num_queries):
    with django_assert_num_queries(0):
        assert notifications.channels_chosen({"time_low": []}, "time_low") == []
        assert notifications.channels_chosen({}, "time_low") == ["in_app"]
        assert notifications.channels_chosen({"your_turn": ["in_app"]}, "your_turn") == ["in_app"]
        assert notifications.channels_chosen(None, "match_finished") == ["in_app", "email"]


def test_a_player_without_login_gets_no_in_app_row_to_read_and_no_email():
    member = PlayerFactory(name="Offline Olga")
    notification = _notify(member)
    assert notification.in_app is False
    assert not notification.deliveries.exists()


def test_no_email_delivery_without_an_address():
    player = UserPlayerFactory(name="Nomail Nándor", user__email="")
    notification = _notify(player)
    assert notification.in_app is True
    assert not notification.deliveries.exists()


def test_notify_on_the_default_channels_is_one_statement(anna, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert _notify(anna, kind="double_offered", subject="game:5:v9", cube=2).in_app


# ====================================================================== the open registry
def test_other_apps_register_their_own_kinds(anna, kinds_snapshot):
    register_kind(
        "pairing_published",
        label="Pairing published",
        default_channels=("email", "in_app"),
        render=lambda context: (f"Round {context.get('round', '?')}", "The draw is out."),
        link=lambda context: "/tournaments/",
    )
    assert player_notification_channels(anna)["pairing_published"] == ["in_app", "email"]
    notification = _notify(anna, kind="pairing_published", subject="round:3", round=3)
    assert notification.title == "Round 3"
    assert notifications.notification_text(notification).url == "/tournaments/"

    def blank(context):
        return "", ""

    with pytest.raises(ValueError, match="already registered"):
        register_kind("pairing_published", label="x", default_channels=(), render=blank)
    with pytest.raises(ValueError, match="unknown channels"):
        register_kind("fax", label="x", default_channels=("fax",), render=blank)


def test_a_row_of_a_kind_no_longer_registered_shows_its_stored_text(anna, kinds_snapshot):
    notification = _notify(anna)
    del notifications._KINDS["lost_on_time"]
    text = notifications.notification_text(notification)
    assert (text.title, text.body, text.url) == (notification.title, notification.body, "")


# ====================================================================== after commit only
def test_a_rolled_back_write_enqueues_and_keeps_nothing(anna, django_capture_on_commit_callbacks):
    class Boom(Exception):
        pass

    def notify_then_fail():
        with transaction.atomic():
            _notify(anna)
            raise Boom

    with django_capture_on_commit_callbacks(execute=False) as callbacks, pytest.raises(Boom):
        notify_then_fail()
    assert callbacks == []
    assert not Notification.objects.exists()
    assert not NotificationDelivery.objects.exists()


def test_each_delivery_is_enqueued_once_on_commit(
    anna, django_capture_on_commit_callbacks, monkeypatch
):
    Webhook.objects.create(name="chat", url="http://127.0.0.1:9/x", kinds=["lost_on_time"])
    Webhook.objects.create(name="other", url="http://127.0.0.1:9/y", kinds=["match_finished"])
    Webhook.objects.create(name="off", url="http://127.0.0.1:9/z", kinds=["lost_on_time"],
                           is_active=False)  # fmt: skip
    player_set_notification_channels(player=anna, channels={"lost_on_time": ["email", "webhook"]})
    fanned_out, enqueued = [], []
    monkeypatch.setattr(notification_deliver_each, "delay", fanned_out.append)
    monkeypatch.setattr(notification_deliver, "delay", enqueued.append)
    with django_capture_on_commit_callbacks(execute=False) as callbacks, transaction.atomic():
        notification = _notify(anna)
    channels = sorted(
        (d.channel, d.webhook.name if d.webhook else "") for d in notification.deliveries.all()
    )
    assert channels == [("email", ""), ("webhook", "chat")]
    # One message after commit for both (the writer publishes once); the notifications
    # worker then enqueues one send task per delivery.
    assert len(callbacks) == 1 and fanned_out == []
    callbacks[0]()
    ids = sorted(d.pk for d in notification.deliveries.all())
    assert [sorted(i) for i in fanned_out] == [ids]
    assert notification_deliver_each.apply(args=[fanned_out[0]]).get() == 2
    assert sorted(enqueued) == ids


def test_notify_all_writes_several_notices_at_once_and_skips_known_keys(anna):
    bence = UserPlayerFactory(name="Bence", user__email="")
    _notify(anna, subject="game:7")
    found = notify_all(
        [
            Notice(recipient=anna, kind="lost_on_time", subject="game:7", context={}),
            Notice(recipient=bence, kind="win_claimable", subject="game:7", context={}),
            Notice(recipient=bence, kind="win_claimable", subject="game:7", context={}),
        ]
    )
    assert found[0] is None and found[2] is None
    assert found[1] is not None and found[1].recipient == bence
    assert Notification.objects.filter(subject="game:7").count() == 2
    # Bence has no address: no email delivery for him.
    assert not found[1].deliveries.exists()


# ====================================================================== email
def test_email_is_sent_once_even_when_the_task_runs_twice(anna, settings):
    settings.SITE_URL = "https://club.example.org"
    delivery = _notify(anna).deliveries.get()
    assert _deliver(delivery).get() == SENT
    assert _deliver(delivery).get() == SENT  # a re-delivered task: nothing more
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["anna@example.org"]
    assert message.subject == f"{settings.CLUB_NAME}: Időtúllépéssel vesztettél"
    assert "https://club.example.org/matches/7/" in message.body
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (SENT, 1)
    assert delivery.sent_at is not None


def test_an_address_removed_before_sending_is_a_permanent_failure(anna, settings):
    delivery = _notify(anna).deliveries.get()
    anna.user.email = ""
    anna.user.save()
    assert notification_delivery_send(delivery_id=delivery.pk) == FAILED
    delivery.refresh_from_db()
    # Written for the director in the club's language, as the notifications are.
    with translation.override(settings.LANGUAGE_CODE):
        expected = translation.gettext("the recipient has no email address")
    assert delivery.last_error == expected
    assert mail.outbox == []


def test_a_missing_delivery_is_nothing_to_do():
    assert notification_delivery_send(delivery_id=987654) == "missing"


def test_an_unexpected_error_is_recorded_as_failed(anna, monkeypatch):
    delivery = _notify(anna).deliveries.get()

    def broken(**kwargs):
        raise RuntimeError("template exploded")

    monkeypatch.setattr(transports, "email_send", broken)
    result = _deliver(delivery)
    assert result.failed()
    delivery.refresh_from_db()
    assert delivery.status == FAILED
    assert delivery.last_error == "RuntimeError: template exploded"


# ====================================================================== webhooks
@pytest.fixture
def webhook_fan(anna):
    """Anna wants "lost on time" on the club's webhook only."""
    player_set_notification_channels(player=anna, channels={"lost_on_time": ["webhook"]})
    return anna


def _hook(server, **extra):
    return Webhook.objects.create(name="club chat", url=server.url, kinds=["lost_on_time"], **extra)


def test_a_webhook_receives_the_notification_as_json(webhook_fan, settings):
    settings.SITE_URL = "https://club.example.org/"
    with webhook_server() as server:
        _hook(server, secret="s3cret")
        delivery = _notify(webhook_fan).deliveries.get()
        assert _deliver(delivery).get() == SENT
    [request] = server.received
    body = request.json
    assert body["kind"] == "lost_on_time"
    assert body["subject"] == "game:1"
    assert body["recipient"] == {"id": webhook_fan.pk, "name": "Anna"}
    assert body["url"] == "https://club.example.org/matches/7/"
    assert body["title"] in body["text"] and body["url"] in body["text"]
    assert body["context"] == {"match": 7, "opponent": "Bence"}
    assert body["delivery"] == delivery.pk
    assert request.headers["Content-Type"].startswith("application/json")
    expected = hmac.new(b"s3cret", request.raw, hashlib.sha256).hexdigest()
    assert request.headers["X-Signature-256"] == f"sha256={expected}"


def test_a_failing_webhook_is_retried_until_it_answers(webhook_fan):
    with webhook_server(statuses=[500, 503]) as server:
        _hook(server)
        delivery = _notify(webhook_fan).deliveries.get()
        assert _deliver(delivery).get() == SENT  # the retries run at once here
    assert len(server.received) == 3
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (SENT, 3)
    assert delivery.last_error.startswith("HTTP 503")  # kept: it took a while


def test_a_transient_failure_is_recorded_and_raised_for_the_retry(webhook_fan):
    with webhook_server(statuses=[500]) as server:
        _hook(server)
        delivery = _notify(webhook_fan).deliveries.get()
        with pytest.raises(transports.TransientDeliveryError):
            notification_delivery_send(delivery_id=delivery.pk)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (PENDING, 1)
    assert delivery.last_error == "HTTP 500: no, thank you"
    assert delivery.last_attempt_at is not None


def test_a_webhook_that_refuses_is_marked_failed_at_once(webhook_fan):
    with webhook_server(statuses=[404]) as server:
        _hook(server)
        delivery = _notify(webhook_fan).deliveries.get()
        assert _deliver(delivery).get() == FAILED
    assert len(server.received) == 1  # a 4xx is not retried
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (FAILED, 1)
    assert delivery.last_error == "HTTP 404: no, thank you"


def test_a_webhook_failing_every_time_is_failed_after_the_last_attempt(webhook_fan):
    with webhook_server(statuses=[]) as server:
        server.default = 502
        _hook(server)
        delivery = _notify(webhook_fan).deliveries.get()
        result = _deliver(delivery)
    assert result.get() == FAILED
    assert len(server.received) == transports.MAX_DELIVERY_ATTEMPTS
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (FAILED, transports.MAX_DELIVERY_ATTEMPTS)


def test_an_unreachable_webhook_is_transient(webhook_fan):
    with webhook_server() as server:
        url = server.url  # the port is free again once the server is gone
    Webhook.objects.create(name="gone", url=url, kinds=["lost_on_time"])
    delivery = _notify(webhook_fan).deliveries.get()
    with pytest.raises(transports.TransientDeliveryError):
        notification_delivery_send(delivery_id=delivery.pk)
    delivery.refresh_from_db()
    assert delivery.status == PENDING and delivery.last_error


def test_a_deactivated_webhook_sends_nothing_more(webhook_fan):
    with webhook_server() as server:
        hook = _hook(server)
        delivery = _notify(webhook_fan).deliveries.get()
        hook.is_active = False
        hook.save()
        assert notification_delivery_send(delivery_id=delivery.pk) == FAILED
    assert server.received == []


def test_webhook_urls_other_than_http_are_refused():
    with pytest.raises(transports.PermanentDeliveryError):
        transports.webhook_post(url="file:///etc/passwd", payload={})


# ====================================================================== the director's tools
def test_the_director_sends_a_failed_delivery_again(
    webhook_fan, django_capture_on_commit_callbacks
):
    with webhook_server(statuses=[404]) as server:
        _hook(server)
        delivery = _notify(webhook_fan).deliveries.get()
        _deliver(delivery)
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            notifications.notification_delivery_retry(delivery_id=delivery.pk)
        assert len(callbacks) == 1
        delivery.refresh_from_db()
        assert (delivery.status, delivery.attempts) == (PENDING, 0)
        assert _deliver(delivery).get() == SENT
    with pytest.raises(Conflict):
        notifications.notification_delivery_retry(delivery_id=delivery.pk)
    with pytest.raises(NotFound):
        notifications.notification_delivery_retry(delivery_id=987654)


def test_the_sweeper_enqueues_deliveries_whose_task_was_lost(anna, monkeypatch):
    enqueued = []
    monkeypatch.setattr(notification_deliver, "delay", enqueued.append)
    fresh = _notify(anna, subject="game:1").deliveries.get()
    lost = _notify(anna, subject="game:2").deliveries.get()
    waiting = _notify(anna, subject="game:3").deliveries.get()
    long_ago = timezone.now() - timedelta(hours=1)
    NotificationDelivery.objects.filter(pk=lost.pk).update(created_at=long_ago)
    NotificationDelivery.objects.filter(pk=waiting.pk).update(
        created_at=long_ago, last_attempt_at=timezone.now() - timedelta(minutes=5)
    )
    assert notifications.notification_deliveries_requeue_stale() == 1
    assert enqueued == [lost.pk]
    assert fresh.pk not in enqueued


# ====================================================================== read
def test_mark_read_and_mark_all_read(anna):
    one = _notify(anna, subject="game:1")
    _notify(anna, subject="game:2")
    _notify(anna, subject="game:3")
    assert notifications.notification_unread_count(player=anna) == 3
    read = notification_mark_read(notification_id=one.pk, player=anna)
    first_read_at = read.read_at
    assert first_read_at is not None
    assert notification_mark_read(notification_id=one.pk, player=anna).read_at == first_read_at
    assert notifications.notification_unread_count(player=anna) == 2
    assert notification_mark_all_read(player=anna) == 2
    assert notifications.notification_unread_count(player=anna) == 0


def test_nobody_marks_another_players_notification(anna):
    notification = _notify(anna)
    with pytest.raises(NotFound) as refused:
        notification_mark_read(notification_id=notification.pk, player=UserPlayerFactory())
    assert refused.value.code == "notification_not_found"


def test_the_header_count_is_one_query_and_none_without_a_player(anna, django_assert_num_queries):
    _notify(anna, subject="game:1")
    _notify(anna, subject="game:2")
    hidden = _notify(anna, kind="your_turn", subject="game:2:v1")
    Notification.objects.filter(pk=hidden.pk).update(in_app=False)
    with django_assert_num_queries(1):
        assert notifications.notification_unread_count_for_user(user_id=anna.user_id) == 2
    loner = UserFactory()
    assert notifications.notification_unread_count_for_user(user_id=loner.pk) is None
