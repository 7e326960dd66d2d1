"""Issue 16, found by a probe of the server: chat markup in a player's name reaching a
club chat's webhook verbatim (defect 8), and names made of invisible or direction
characters accepted wherever a name is typed (defect 13)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import translation

from games.errors import ValidationFailed
from games.models import NotificationDelivery, Player, TableClock, Webhook
from games.notifications.services import notify, player_set_notification_channels
from games.notifications.tasks import notification_deliver
from games.notifications.transports import chat_escape
from games.players.names import player_name_clean
from tests.factories import UserFactory, UserPlayerFactory, api_client
from tests.webhook_server import webhook_server

pytestmark = pytest.mark.django_db

#: A Persian word spelt with a zero-width non-joiner (escaped: the letters look Latin).
PERSIAN = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"
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


# ====================================================================== defect 13
@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("\u200b", "invisible"),
        ("\u200b \ufeff", "invisible"),
        ("Anna\u200b", "invisible"),  # would be a second "Anna"
        ("\u00ad", "invisible"),  # a soft hyphen alone
        ("Anna\u202egnal", "writing direction"),  # shows as "Annalang"
        ("\u2067Béla\u2069", "writing direction"),
        ("Cili\u200e", "writing direction"),
        ("A\tB", "control"),
        ("A\u2028B", "control"),
        ("", "Type the player's name"),
        ("   ", "Type the player's name"),
        ("...", "at least one letter or digit"),
        ("\u200d", "at least one letter or digit"),  # a joiner alone is no name
        ("x" * 81, "at most 80 characters"),
    ],
)
def test_player_name_clean_refuses(name, says) -> None:
    with translation.override("en"), pytest.raises(ValidationFailed) as refused:
        player_name_clean(name=name)
    assert refused.value.code == "invalid_name"
    assert says in str(refused.value.detail)


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("  Kiss   Anna ", "Kiss Anna"),
        ("Kiss\u00a0Anna", "Kiss Anna"),  # a no-break space is a space
        ("Bence\u0301", "Bencé"),  # NFC
        ("שרה כהן", "שרה כהן"),  # right-to-left letters need no control characters
        (PERSIAN, PERSIAN),  # the zero-width non-joiner spells Persian
        ("7", "7"),
        ("x" * 80, "x" * 80),
    ],
)
def test_player_name_clean_keeps_real_names(typed, stored) -> None:
    assert player_name_clean(name=typed) == stored


def test_the_admin_refuses_an_invisible_name_and_saves_a_clean_one(client) -> None:
    client.force_login(get_user_model().objects.create_superuser("root", "r@example.org", "pw"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # the sentence checked is English
    form = {
        "rating": "1500",
        "experience": "0",
        "board_orientation": "right",
        "notification_channels": "{}",
        "is_active": "on",
        "country": "HU",
        "club": "",
    }
    refused = client.post("/admin/games/player/add/", {**form, "name": "\u200b"})
    assert refused.status_code == 200  # the form again, with the error at the name
    assert "A name may not hold control characters" in refused.content.decode()
    assert Player.objects.count() == 0
    saved = client.post("/admin/games/player/add/", {**form, "name": " Kiss  Anna "})
    assert saved.status_code == 302, saved.content.decode()[:2000]
    assert Player.objects.get().name == "Kiss Anna"


def test_a_table_clock_refuses_a_direction_name_and_creates_nothing(wall) -> None:
    client = api_client(UserFactory())
    body = {"label": "Table 7", "player1_name": "Anna\u202e", "player2_name": "Bence"}
    refused = client.post("/api/v1/table-clocks/", {**body, "clock": "seed002"}, format="json")
    assert refused.status_code == 400, refused.content
    assert refused.json()["code"] == "invalid_name"
    assert TableClock.objects.count() == 0
    body["player1_name"] = "Anna"
    created = client.post("/api/v1/table-clocks/", {**body, "clock": "seed002"}, format="json")
    assert created.status_code == 201, created.content
