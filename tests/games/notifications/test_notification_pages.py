"""Notification pages: the player's list with the unread count in the header, mark read
(one, all, or on opening), the grid of channels per kind, and the director's page of
failed deliveries (403 for everyone else)."""

from __future__ import annotations

import re

import pytest

from games.models import Notification, NotificationDelivery, Webhook
from games.notifications.services import notification_kinds, notify, player_notification_channels
from tests.factories import UserFactory, UserPlayerFactory

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def anna():
    return UserPlayerFactory(name="Anna", user__email="anna@example.org")


def _notify(recipient, subject, kind="double_offered", **context):
    context = {"match": 7, "opponent": "Bence", "cube": 2, **context}
    return notify(recipient=recipient, kind=kind, subject=subject, context=context)


def _login(client, player):
    client.force_login(player.user)
    return client


def _badge(html: str) -> str | None:
    found = re.search(r'class="badge unread-count"[^>]*>(\d+)<', html)
    return found.group(1) if found else None


def test_the_header_shows_the_unread_count(client, anna):
    for n in range(3):
        _notify(anna, f"game:1:v{n}")
    html = _login(client, anna).get("/", **EN).content.decode()
    assert _badge(html) == "3"
    assert 'href="/notifications/"' in html


def test_the_header_count_costs_one_query_on_a_page(client, anna, django_assert_num_queries):
    _notify(anna, "game:1:v1")
    _login(client, anna)
    client.get("/", **EN)  # a first request settles the session
    # session + user + the home page's player list + the unread count
    with django_assert_num_queries(4):
        html = client.get("/", **EN).content.decode()
    assert _badge(html) == "1"


def test_no_count_for_visitors_or_users_without_a_player(client):
    html = client.get("/", **EN).content.decode()
    assert "/notifications/" not in html
    client.force_login(UserFactory())
    html = client.get("/", **EN).content.decode()
    assert 'href="/notifications/"' not in html


def test_the_list_newest_first_in_the_readers_language(client, anna):
    _notify(anna, "game:1:v1", opponent="Bence")
    _notify(anna, "game:1:v9", opponent="Csaba")
    other = UserPlayerFactory(name="Dóra")
    _notify(other, "game:2:v1", opponent="Anna")
    html = _login(client, anna).get("/notifications/", **EN).content.decode()
    assert html.index("Csaba doubles") < html.index("Bence doubles")
    assert "Anna doubles" not in html  # Dóra's
    html_hu = client.get("/notifications/", HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    assert "Csaba duplázott" in html_hu


def test_the_list_leaves_out_kinds_switched_off_on_the_site(client, anna):
    _notify(anna, "game:1:v1")
    _notify(anna, "game:1:v2", kind="your_turn")  # opt-in: no row on the site
    html = _login(client, anna).get("/notifications/", **EN).content.decode()
    assert "Your turn" not in html
    assert _badge(html) == "1"


def test_mark_one_read_then_all(client, anna):
    first = _notify(anna, "game:1:v1")
    _notify(anna, "game:1:v2")
    _notify(anna, "game:1:v3")
    _login(client, anna)
    response = client.post(f"/notifications/{first.pk}/read/")
    assert response.status_code == 302 and response["Location"] == "/notifications/"
    first.refresh_from_db()
    assert first.read_at is not None
    assert _badge(client.get("/notifications/", **EN).content.decode()) == "2"
    client.post("/notifications/read-all/")
    html = client.get("/notifications/", **EN).content.decode()
    assert _badge(html) is None
    assert not Notification.objects.filter(recipient=anna, read_at__isnull=True).exists()


def test_opening_a_notification_marks_it_read_and_goes_to_its_page(client, anna):
    notification = _notify(anna, "game:1:v1")
    response = _login(client, anna).post(f"/notifications/{notification.pk}/read/", {"open": "1"})
    assert response.status_code == 302
    assert response["Location"] == "/matches/7/"
    notification.refresh_from_db()
    assert notification.read_at is not None


def test_nobody_marks_another_players_notification(client, anna):
    notification = _notify(anna, "game:1:v1")
    _login(client, UserPlayerFactory()).post(f"/notifications/{notification.pk}/read/")
    notification.refresh_from_db()
    assert notification.read_at is None


def test_the_pages_need_a_login_and_a_player(client):
    response = client.get("/notifications/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    client.force_login(UserFactory())
    # The list of an account without a player is empty (issue 30: staff read it); the
    # channels are a player's, so choosing them still needs one.
    assert client.get("/notifications/settings/").status_code == 403


@pytest.mark.parametrize("is_staff", [True, False])
def test_an_account_without_a_player_reads_an_empty_list(client, is_staff):
    """Issue 30, the probe: staff without a player got 403 on their notifications."""
    client.force_login(UserFactory(is_staff=is_staff))
    client.cookies["django_language"] = "en"
    response = client.get("/notifications/")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'data-testid="no-player"' in page and "receives no notifications" in page
    assert "No notifications." in page
    assert "Choose how you are notified" not in page  # that page needs a player


def test_the_channel_grid_shows_the_current_choice_and_saves_a_new_one(client, anna):
    _login(client, anna)
    html = client.get("/notifications/settings/", **EN).content.decode()
    boxes = re.findall(r'<input type="checkbox" name="(\w+)" value="(\w+)"[^>]*?( checked)?>', html)
    checked = {(kind, channel) for kind, channel, on in boxes if on}
    assert len(boxes) == len(notification_kinds()) * 3  # every registered kind x channels
    assert ("lost_on_time", "email") in checked
    assert ("your_turn", "in_app") not in checked
    assert "has not set up a chat webhook" in html

    response = client.post(
        "/notifications/settings/",
        {"your_turn": ["in_app", "email"], "lost_on_time": ["in_app"], "match_finished": []},
    )
    assert response.status_code == 302
    anna.refresh_from_db()
    channels = player_notification_channels(anna)
    assert channels["your_turn"] == ["in_app", "email"]
    assert channels["lost_on_time"] == ["in_app"]
    assert channels["match_finished"] == []
    assert channels["double_offered"] == []  # in the form and unticked: switched off


def test_the_grid_refuses_an_unknown_channel_and_keeps_the_old_choice(client, anna):
    _login(client, anna)
    response = client.post("/notifications/settings/", {"your_turn": ["carrier-pigeon"]}, **EN)
    assert response.status_code == 200
    assert "There is no channel called" in response.content.decode()
    anna.refresh_from_db()
    assert anna.notification_channels == {}


# ====================================================================== the director
@pytest.fixture
def failed_delivery(anna):
    hook = Webhook.objects.create(name="Club chat", url="http://127.0.0.1:9/x", kinds=["time_low"])
    anna.notification_channels = {"time_low": ["webhook"]}
    anna.save()
    notification = _notify(anna, "game:1:v4", kind="time_low", remaining_ms=25_000)
    delivery = notification.deliveries.get()
    NotificationDelivery.objects.filter(pk=delivery.pk).update(
        status=NotificationDelivery.Status.FAILED, attempts=6, last_error="HTTP 404: gone"
    )
    assert hook
    return delivery


def test_failed_deliveries_are_shown_to_the_director(client, failed_delivery):
    director = UserFactory(is_staff=True)
    client.force_login(director)
    html = client.get("/notifications/failed/", **EN).content.decode()
    assert "HTTP 404: gone" in html
    assert "Club chat" in html and "Anna" in html
    home = client.get("/", **EN).content.decode()
    assert 'href="/notifications/failed/"' in home


def test_the_failures_page_is_for_staff_only(client, failed_delivery, anna):
    assert client.get("/notifications/failed/").status_code == 302  # to the login page
    _login(client, anna)
    assert client.get("/notifications/failed/").status_code == 403
    assert client.post(f"/notifications/deliveries/{failed_delivery.pk}/retry/").status_code == 403
    assert 'href="/notifications/failed/"' not in client.get("/").content.decode()


def test_the_director_sends_a_failed_delivery_again(
    client, failed_delivery, django_capture_on_commit_callbacks
):
    client.force_login(UserFactory(is_staff=True))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(f"/notifications/deliveries/{failed_delivery.pk}/retry/")
    assert response.status_code == 302
    assert len(callbacks) == 1
    failed_delivery.refresh_from_db()
    assert failed_delivery.status == NotificationDelivery.Status.PENDING
    assert failed_delivery.attempts == 0


def test_the_admin_lists_deliveries_and_webhooks(client, failed_delivery, admin_user):
    client.force_login(admin_user)
    assert client.get("/admin/games/notificationdelivery/?status=failed").status_code == 200
    assert client.get("/admin/games/notification/").status_code == 200
    page = client.get("/admin/games/webhook/add/", **EN).content.decode()
    assert 'value="pairing_published"' not in page and 'value="time_low"' in page
