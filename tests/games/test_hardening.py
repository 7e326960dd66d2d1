"""Issue 16, found by a probe of the server: chat markup in a player's name reaching a
club chat's webhook verbatim (defect 8), and names made of invisible or direction
characters accepted wherever a name is typed (defect 13)."""

from __future__ import annotations

import pytest

from games.models import NotificationDelivery, Webhook
from games.notifications.services import notify, player_set_notification_channels
from games.notifications.tasks import notification_deliver
from games.notifications.transports import chat_escape
from tests.factories import UserPlayerFactory
from tests.webhook_server import webhook_server

pytestmark = pytest.mark.django_db

EVIL = "<!channel> <https://evil.example|click> & co"


# ====================================================================== defect 8
def test_chat_escape_escapes_the_three_characters_chat_webhooks_read() -> None:
    assert chat_escape("a & b <c> &amp;") == "a &amp; b &lt;c&gt; &amp;amp;"
    assert chat_escape("Kiss Anna: 5-3") == "Kiss Anna: 5-3"


def test_a_name_with_chat_markup_reaches_the_webhook_escaped(settings) -> None:
    """End to end: the notice is stored, the task sends it to a real HTTP server, and
    the Slack-style ``text`` holds no markup of the player's making."""
    settings.SITE_URL = "https://club.example.org/"
    anna = UserPlayerFactory(name="Anna")
    player_set_notification_channels(player=anna, channels={"lost_on_time": ["webhook"]})
    with webhook_server() as server:
        Webhook.objects.create(name="club chat", url=server.url, kinds=["lost_on_time"])
        notice = notify(
            recipient=anna,
            kind="lost_on_time",
            subject="game:1",
            context={"match": 7, "opponent": EVIL},
        )
        delivery = notice.deliveries.get()
        assert notification_deliver.apply(args=[delivery.pk]).get() == "sent"
    [request] = server.received
    body = request.json
    text = body["text"]
    assert "<" not in text and ">" not in text
    assert "&lt;!channel&gt; &lt;https://evil.example|click&gt; &amp; co" in text
    assert "https://club.example.org/matches/7/" in text  # our own link, still there
    # The plain fields stay what they are: data for receivers that format themselves.
    assert EVIL in body["title"] + body["body"]
    assert body["context"]["opponent"] == EVIL
    assert NotificationDelivery.objects.get().status == NotificationDelivery.Status.SENT
