"""A login for a player in one step from the player's admin page (issue 18): a username,
an e-mail and a password, or an invitation e-mail with a link to choose the password;
refusals at their field, with nothing written."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail

from games.errors import Conflict
from games.models import Player
from games.players import logins
from tests.factories import PlayerFactory, UserFactory, UserPlayerFactory
from tests.smtp_server import smtp_server

pytestmark = pytest.mark.django_db

ADD = "/admin/games/player/add/"
PASSWORD = "Backgammon-2025-tavasz"  # a test password that passes the validators

#: What the add form posts besides the name and the login (as the admin's own page does).
FORM = {
    "board_orientation": "right",
    "notification_channels": "{}",
    "is_active": "on",
    "country": "HU",
    "club": "",
}


@pytest.fixture
def director(client):
    client.force_login(get_user_model().objects.create_superuser("root", "r@example.org", "pw"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # the sentences checked are English
    return client


def _change(player: Player) -> str:
    return f"/admin/games/player/{player.pk}/change/"


def _form_of(player: Player) -> dict[str, str]:
    return {**FORM, "name": player.name, "country": player.country, "club": player.club}


def test_a_new_player_gets_a_login_with_a_password_in_one_step(director, client) -> None:
    page = director.get(ADD).content.decode()
    for field in ("login_username", "login_email", "login_password", "login_invite"):
        assert f'name="{field}"' in page
    saved = director.post(
        ADD,
        {
            **FORM,
            "name": "Kiss Anna",
            "login_username": "anna",
            "login_email": "anna@example.org",
            "login_password": PASSWORD,
        },
        follow=True,
    )
    assert saved.status_code == 200
    assert "Kiss Anna can log in as “anna”." in saved.content.decode()
    player = Player.objects.get(name="Kiss Anna")
    assert player.user.get_username() == "anna" and player.user.email == "anna@example.org"
    assert mail.outbox == []  # no invitation asked for
    assert player.user.check_password(PASSWORD)


def test_an_invitation_lets_the_player_choose_the_password(director, client) -> None:
    player = PlayerFactory(name="Nagy Béla")
    saved = director.post(
        _change(player),
        {
            **_form_of(player),
            "login_username": "bela",
            "login_email": "bela@example.org",
            "login_invite": "on",
        },
        follow=True,
    )
    html = saved.content.decode()
    assert "Nagy Béla can log in as “bela”." in html
    assert "An invitation was sent to bela@example.org." in html
    user = Player.objects.get(pk=player.pk).user
    assert user.get_username() == "bela" and not user.has_usable_password()
    (invitation,) = mail.outbox
    assert invitation.to == ["bela@example.org"]
    assert "bela" in invitation.body
    link = re.search(r"https?://\S+", invitation.body).group(0)
    assert "/accounts/reset/" in link
    # The player follows the link, logged out, and chooses a password.
    client.logout()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    opened = client.get(link.replace("http://testserver", ""), follow=True)
    assert "Choose your password" in opened.content.decode()
    assert "Your username is <strong>bela</strong>" in opened.content.decode()
    form_url = opened.redirect_chain[-1][0]
    done = client.post(
        form_url, {"new_password1": PASSWORD, "new_password2": PASSWORD}, follow=True
    )
    assert "Your password is set" in done.content.decode()
    logged_in = client.post("/accounts/login/", {"username": "bela", "password": PASSWORD})
    assert logged_in.status_code == 302, logged_in.content.decode()[:500]
    # The link works once.
    client.logout()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # logging out clears it
    again = client.get(link.replace("http://testserver", ""), follow=True)
    assert "This link does not work any more" in again.content.decode()


@pytest.mark.parametrize(
    ("login", "field", "message"),
    [
        ({"login_username": "Taken"}, "login_username", "The username “Taken” is taken"),
        ({"login_username": "taken"}, "login_username", "is taken"),  # the same to people
        ({"login_username": "with space"}, "login_username", "Enter a valid username"),
        ({"login_username": "new"}, "login_password", "Give a password, or send an invitation"),
        (
            {"login_username": "new", "login_invite": "on"},
            "login_email",
            "An invitation is sent by e-mail",
        ),
        ({"login_username": "new", "login_password": "12345"}, "login_password", "too short"),
        (
            {"login_username": "new", "login_email": "not-an-address", "login_invite": "on"},
            "login_email",
            "valid email",
        ),
        ({"login_password": PASSWORD}, "login_username", "Give a username."),
    ],
)
def test_a_refused_login_says_which_field_and_saves_nothing(
    director, login, field, message
) -> None:
    UserFactory(username="Taken")
    users = get_user_model().objects.count()
    refused = director.post(ADD, {**FORM, "name": "Kovács Dóra", **login})
    assert refused.status_code == 200  # the form again
    html = refused.content.decode()
    errors = re.search(
        rf'<div class="[^"]*field-{field}[^"]*">.*?</div>\s*</div>', html, re.S
    ) or re.search(rf"field-{field}.*?</ul>", html, re.S)
    assert errors, f"no {field} row"
    assert message in errors.group(0), errors.group(0)[:600]
    # What was typed stays, but a password is never sent back.
    if "login_username" in login:
        assert f'value="{login["login_username"]}"' in html
    assert PASSWORD not in html
    assert not Player.objects.filter(name="Kovács Dóra").exists()
    assert get_user_model().objects.count() == users


def test_an_existing_user_and_a_new_login_at_once_are_refused(director) -> None:
    other = UserFactory(username="someone")
    refused = director.post(
        ADD,
        {**FORM, "name": "Szabó Éva", "user": other.pk, "login_username": "eva"},
    )
    assert refused.status_code == 200
    assert "Choose an existing user account or make a new login, not both." in (
        refused.content.decode()
    )
    assert not Player.objects.filter(name="Szabó Éva").exists()


def test_a_player_with_a_login_is_not_offered_another(director) -> None:
    player = UserPlayerFactory()
    page = director.get(_change(player)).content.decode()
    assert 'name="login_username"' not in page
    # Sent anyway, the fields are not the form's: nothing is made.
    users = get_user_model().objects.count()
    saved = director.post(
        _change(player),
        {**_form_of(player), "user": player.user_id, "login_username": "second"},
    )
    assert saved.status_code == 302, saved.context_data["adminform"].form.errors
    assert get_user_model().objects.count() == users
    # The service says why.
    with pytest.raises(Conflict) as refused:
        logins.player_login_create(player_id=player.pk, username="second", password=PASSWORD)
    assert refused.value.code == "player_has_login"
    assert get_user_model().objects.count() == users


def test_the_service_refuses_a_username_taken_whatever_the_case() -> None:
    UserFactory(username="Anna")
    player = PlayerFactory()
    with pytest.raises(Conflict) as refused:
        logins.player_login_create(player_id=player.pk, username="ANNA", password=PASSWORD)
    assert refused.value.code == "username_taken"
    assert Player.objects.get(pk=player.pk).user_id is None


def _smtp(settings, port: int) -> None:  # type: ignore[no-untyped-def]
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""


def test_the_invitation_goes_through_a_real_smtp_server(director, settings) -> None:
    settings.SITE_URL = "https://club.example.org"
    player = PlayerFactory(name="Tóth Gábor")
    with smtp_server() as server:
        _smtp(settings, server.port)
        saved = director.post(
            _change(player),
            {
                **_form_of(player),
                "login_username": "gabor",
                "login_email": "gabor@example.org",
                "login_invite": "on",
            },
            follow=True,
        )
    assert "An invitation was sent to gabor@example.org." in saved.content.decode()
    ((to, message),) = server.messages
    assert to == ["gabor@example.org"]
    # The link is the site's own address (SITE_URL), not the request's.
    assert b"https://club.example.org/accounts/reset/" in message.replace(b"=\r\n", b"")


def test_a_mail_server_that_is_down_keeps_the_login_and_says_how_to_resend(
    director, settings
) -> None:
    with smtp_server() as server:
        port = server.port  # closed again: nothing listens there now
    _smtp(settings, port)
    player = PlayerFactory(name="Fekete Ádám")
    saved = director.post(
        _change(player),
        {
            **_form_of(player),
            "login_username": "adam",
            "login_email": "adam@example.org",
            "login_invite": "on",
        },
        follow=True,
    )
    html = saved.content.decode()
    assert "The invitation to Fekete Ádám could not be sent" in html
    assert "Send an invitation e-mail" in html
    assert Player.objects.get(pk=player.pk).user.get_username() == "adam"
    # Sent again with the action once the server is back.
    with smtp_server() as server:
        _smtp(settings, server.port)
        again = director.post(
            "/admin/games/player/",
            {"action": "send_invitation", "_selected_action": [player.pk]},
            follow=True,
        )
    assert "An invitation was sent to adam@example.org." in again.content.decode()
    assert [to for to, _ in server.messages] == [["adam@example.org"]]


def test_the_action_says_who_cannot_be_invited(director) -> None:
    no_login = PlayerFactory(name="Varga Zita")
    no_email = UserPlayerFactory(name="Molnár Ida")
    answer = director.post(
        "/admin/games/player/",
        {"action": "send_invitation", "_selected_action": [no_login.pk, no_email.pk]},
        follow=True,
    )
    html = answer.content.decode()
    assert "Varga Zita has no login yet: make one first." in html
    assert "The login of Molnár Ida has no e-mail address" in html
    assert mail.outbox == []
