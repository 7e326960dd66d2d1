"""Sign-up's pages (issue 30): the login page's link, the form (its errors at their
fields, the claim offered), the page after, resend, the confirmation, the throttle's 429
page, and staff's list with approve and refuse."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail

from games.models import Player, SignUp
from games.players.signup import services
from tests.factories import PlayerFactory, UserFactory, UserPlayerFactory

pytestmark = pytest.mark.django_db

PASSWORD = "Backgammon-2025-tavasz"
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
User = get_user_model()

FORM = {
    "name": "Szabó Lili",
    "username": "lili",
    "email": "lili@example.org",
    "password1": PASSWORD,
    "password2": PASSWORD,
}


def _rate() -> int:
    return int(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["signup"].split("/")[0])


def _link(message) -> str:
    return re.search(r"https?://[^/\s]+(/accounts/signup/confirm/\S+/)", message.body).group(1)


def test_the_login_page_offers_sign_up_only_when_it_is_on(client) -> None:
    assert "/accounts/signup/" not in client.get("/accounts/login/", **EN).content.decode()
    assert client.get("/accounts/signup/", **EN).status_code == 404
    services.club_settings_set_signup(mode="approved")
    page = client.get("/accounts/login/", **EN).content.decode()
    assert 'href="/accounts/signup/"' in page and "No login yet?" in page


def test_open_sign_up_from_the_form_to_a_logged_in_player(client) -> None:
    services.club_settings_set_signup(mode="open")
    form = client.get("/accounts/signup/", **EN)
    assert form.status_code == 200
    assert 'autocomplete="new-password"' in form.content.decode()
    sent = client.post("/accounts/signup/", FORM, follow=True, **EN)
    html = sent.content.decode()
    assert sent.redirect_chain[-1][0] == "/accounts/signup/sent/"
    assert "We sent a link to lili@example.org." in html
    assert "Then you are logged in and can play" in html
    (message,) = mail.outbox
    link = _link(message)
    opened = client.get(link, **EN)
    assert "Confirm my sign-up" in opened.content.decode()
    assert not User.objects.get(username="lili").is_active  # opening alone confirms nothing
    done = client.post(link, follow=True, **EN)
    assert done.redirect_chain[-1][0] == "/matches/"
    assert "Welcome, Szabó Lili" in done.content.decode()
    assert client.get("/api/v1/me/").json()["player"]["name"] == "Szabó Lili"


def test_the_forms_errors_are_at_their_fields_and_nothing_is_written(client) -> None:
    services.club_settings_set_signup(mode="open")
    UserFactory(username="taken")
    differ = client.post("/accounts/signup/", {**FORM, "password2": "other"}, **EN)
    assert "The two passwords differ." in differ.content.decode()
    taken = client.post("/accounts/signup/", {**FORM, "username": "Taken"}, **EN).content.decode()
    assert re.search(r'data-field="username">The username “Taken” is taken', taken)
    short = client.post(
        "/accounts/signup/", {**FORM, "password1": "12345", "password2": "12345"}, **EN
    ).content.decode()
    assert re.search(r'data-field="password1">[^<]*too short', short)
    assert 'value="lili"' in short and PASSWORD not in short  # kept, but never a password
    assert not SignUp.objects.exists() and mail.outbox == []


def test_a_form_with_several_mistakes_names_them_all_at_once(client) -> None:
    """A bad username, a bad address and passwords that differ, in one post: all three
    are said at their fields (not one per try), what was typed kept."""
    services.club_settings_set_signup(mode="open")
    page = client.post(
        "/accounts/signup/",
        {**FORM, "username": "lili bea", "email": "lili@", "password2": "other"},
        **EN,
    ).content.decode()
    assert re.search(r'data-field="username">[^<]*valid username', page)
    assert re.search(r'data-field="email">[^<]*valid email', page)
    assert re.search(r'data-field="password2">The two passwords differ', page)
    assert 'value="lili bea"' in page and 'value="lili@"' in page
    assert not SignUp.objects.exists() and mail.outbox == []


def test_a_name_of_a_player_without_a_login_offers_the_claim(client) -> None:
    services.club_settings_set_signup(mode="open")
    PlayerFactory(name="Kovács Anna")
    first = client.post("/accounts/signup/", {**FORM, "name": "kovacs anna"}, **EN).content.decode()
    assert "I am the player Kovács Anna" in first and 'name="claim"' in first
    assert not SignUp.objects.exists()
    client.post("/accounts/signup/", {**FORM, "name": "kovacs anna", "claim": "on"}, **EN)
    confirmed = client.post(_link(mail.outbox[0]), **EN).content.decode()
    assert "staff now look at your sign-up" in confirmed
    assert "_auth_user_id" not in client.session
    assert SignUp.objects.get().state == "waiting"


def test_sign_up_posts_are_throttled_per_address_with_retry_after(client) -> None:
    services.club_settings_set_signup(mode="open")
    for _attempt in range(_rate()):
        assert client.post("/accounts/signup/", {"name": "x"}, **EN).status_code == 200
    refused = client.post("/accounts/signup/", FORM, **EN)
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "Too many sign-up attempts from your address" in refused.content.decode()
    assert not SignUp.objects.exists()
    # The resend form counts with them.
    assert client.post("/accounts/signup/resend/", {"email": "a@example.org"}).status_code == 429
    # Another address is not refused.
    other = client.post("/accounts/signup/", FORM, REMOTE_ADDR="10.0.0.9", **EN)
    assert other.status_code == 302


def test_resend_answers_the_same_for_any_address(client) -> None:
    services.club_settings_set_signup(mode="open")
    answers = [
        client.post("/accounts/signup/resend/", {"email": e}, follow=True, **EN).content.decode()
        for e in ("nobody@example.org", "")
    ]
    assert all("If a sign-up at that address waits" in a for a in answers)
    assert mail.outbox == []


def test_a_bad_link_says_so(client) -> None:
    services.club_settings_set_signup(mode="open")
    page = client.get("/accounts/signup/confirm/nonsense/", **EN)
    assert page.status_code == 404 and "This link does not work" in page.content.decode()


@pytest.fixture
def staff_client(client):
    boss = UserFactory(username="boss", is_staff=True)
    client.force_login(boss)
    return client


def _waiting(**kwargs) -> SignUp:
    values = {
        "name": "Szabó Lili",
        "username": "lili",
        "email": "lili@example.org",
        "password": PASSWORD,
        "language": "en",
        "site_url": "http://testserver",
    }
    values.update(kwargs)
    made = services.signup_create(**values)
    message = mail.outbox[-1]
    token = _link(message).split("/")[-2]
    from games.players.signup import mails

    ident, version = mails.confirmation_read(token)
    return services.signup_confirm(signup_id=ident, version=version, site_url="x").signup or made


def test_staff_see_a_claim_with_the_players_record_and_approve_it(
    staff_client, django_assert_max_num_queries
) -> None:
    services.club_settings_set_signup(mode="approved")
    anna = PlayerFactory(name="Kovács Anna", rating=1612.5, experience=120)
    claim = _waiting(name="Kovács Anna", username="anna", email="anna@example.org", claim=True)
    _waiting(name="Nagy Ödön", username="odon", email="odon@example.org")
    with django_assert_max_num_queries(14):
        page = staff_client.get("/accounts/signups/", **EN)
    html = page.content.decode()
    assert "Says they are this player:" in html and "1612.50" in html and "120" in html
    assert "A new player: approving makes one of this name." in html
    done = staff_client.post(
        f"/accounts/signups/{claim.pk}/approve/", {"version": claim.version}, follow=True, **EN
    )
    assert "sign-up is approved: they can log in as anna" in done.content.decode()
    anna.refresh_from_db()
    assert anna.user.get_username() == "anna"
    # Approving again: the refusal is said, nothing changes.
    again = staff_client.post(
        f"/accounts/signups/{claim.pk}/approve/", {"version": claim.version}, follow=True, **EN
    )
    assert "is not waiting for a decision" in again.content.decode()
    assert Player.objects.filter(user__username="anna").count() == 1


def test_staff_refuse_from_the_list(staff_client) -> None:
    services.club_settings_set_signup(mode="approved")
    signup = _waiting()
    done = staff_client.post(
        f"/accounts/signups/{signup.pk}/refuse/", {"version": signup.version}, follow=True, **EN
    )
    assert "sign-up is refused" in done.content.decode()
    assert not User.objects.filter(username="lili").exists()
    assert "No sign-up waits for a decision." in done.content.decode()


def test_the_list_is_for_staff_only(client) -> None:
    player = UserPlayerFactory()
    client.force_login(player.user)
    assert client.get("/accounts/signups/").status_code == 404
    services.club_settings_set_signup(mode="approved")
    signup = _waiting()
    assert client.post(f"/accounts/signups/{signup.pk}/approve/").status_code == 404
    assert SignUp.objects.get().state == "waiting"


def test_the_admin_edits_the_one_settings_row_and_decides_sign_ups(client) -> None:
    client.force_login(User.objects.create_superuser("root", "r@example.org", "pw"))
    listed = client.get("/admin/games/clubsettings/")
    assert listed.status_code == 302 and listed["Location"].endswith("/1/change/")
    saved = client.post("/admin/games/clubsettings/1/change/", {"signup": "open"})
    assert saved.status_code == 302
    assert services.signup_mode() == "open"
    assert client.get("/admin/games/clubsettings/add/").status_code == 403
    signup = _waiting(claim=False)
    assert signup.state == "approved"  # open: no staff
    services.club_settings_set_signup(mode="approved")
    waiting = _waiting(name="Nagy Ödön", username="odon", email="odon@example.org")
    page = client.get(f"/admin/games/signup/{waiting.pk}/change/")
    assert page.status_code == 200
    client.post(
        "/admin/games/signup/",
        {"action": "approve", "_selected_action": [waiting.pk]},
        follow=True,
    )
    assert SignUp.objects.get(pk=waiting.pk).state == "approved"
    assert User.objects.get(username="odon").player.name == "Nagy Ödön"


def test_the_pages_speak_hungarian(client) -> None:
    services.club_settings_set_signup(mode="approved")
    hu = {"HTTP_ACCEPT_LANGUAGE": "hu"}
    login = client.get("/accounts/login/", **hu).content.decode()
    assert "Még nincs belépésed?" in login
    page = client.get("/accounts/signup/", **hu).content.decode()
    assert '<html lang="hu">' in page and "A neved, ahogy a kör mutassa" in page
    client.post("/accounts/signup/", FORM, **hu)
    (message,) = mail.outbox
    assert "erősítsd meg a regisztrációdat" in message.subject
    sent = client.get("/accounts/signup/sent/", **hu).content.decode()
    assert "a kör személyzete megnézi a regisztrációdat" in sent


def test_a_mail_server_that_is_down_keeps_the_sign_up_and_says_to_ask_again(
    client, settings
) -> None:
    from tests.smtp_server import smtp_server

    services.club_settings_set_signup(mode="open")
    with smtp_server() as server:
        port = server.port  # closed again: nothing listens there now
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_USE_TLS = "127.0.0.1", port, False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    done = client.post("/accounts/signup/", FORM, follow=True, **EN)
    assert "The e-mail could not be sent just now" in done.content.decode()
    assert SignUp.objects.get().state == "unconfirmed"
    # Once the server is back, the resend form sends it.
    with smtp_server() as server:
        settings.EMAIL_PORT = server.port
        SignUp.objects.update(sent_at=None)
        client.post("/accounts/signup/resend/", {"email": "lili@example.org"}, **EN)
    assert [to for to, _ in server.messages] == [["lili@example.org"]]


def test_staff_rename_a_sign_up_in_the_admin_with_the_name_checked(client) -> None:
    client.force_login(User.objects.create_superuser("root", "r@example.org", "pw"))
    services.club_settings_set_signup(mode="approved")
    waiting = _waiting()
    url = f"/admin/games/signup/{waiting.pk}/change/"
    refused = client.post(url, {"name": "\u200b"}, **EN)
    assert refused.status_code == 200 and "invisible characters" in refused.content.decode()
    assert client.post(url, {"name": "Szabó  Lili B."}).status_code == 302
    assert SignUp.objects.get().name == "Szabó Lili B."
