"""Sign-up in a real browser with a real SMTP server (issue 30): on a phone, a newcomer
signs up from the login page, reads the confirmation e-mail, follows its link and plays
(sign-up "open"); a member whose results the club already keeps signs up claiming their
player, staff approve it from their list in another browser, and the member logs in as
that player. Each page passes axe-core's checks and fits the phone."""

from __future__ import annotations

import email
import re
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from games.models import Player, SignUp
from games.players.signup import services
from tests.browser.axe import assert_accessible
from tests.browser.conftest import WAIT_SECONDS, sign_in
from tests.browser.phone import page_fit
from tests.factories import PlayerFactory, UserFactory
from tests.smtp_server import smtp_server

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "Backgammon-2025-tavasz"
TAP = 44


def _smtp(settings: Any, port: int) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""


def _mail_to(server: Any, address: str) -> list[str]:
    """The plain-text bodies the SMTP server received for ``address``, decoded."""
    bodies = []
    for recipients, raw in list(server.messages):
        if address in recipients:
            message = email.message_from_bytes(raw.replace(b"\r\n", b"\n"))
            bodies.append(message.get_payload(decode=True).decode())
    return bodies


def _link(body: str) -> str:
    found = re.search(r"https?://\S+/accounts/signup/confirm/\S+/", body)
    assert found, body
    return found.group(0)


def _fill(driver: Any, values: dict[str, str]) -> None:
    for name, value in values.items():
        field = driver.find_element(By.NAME, name)
        field.clear()
        field.send_keys(value)


def _checked(driver: Any, where: str) -> None:
    assert_accessible(driver, where)
    fit = page_fit(driver)
    assert fit.fits, str(fit)


def _press(driver: Any, css: str) -> None:
    """Click in one script: the page's live status line may appear and move the layout
    between WebDriver's measuring an element and its click (the live socket of
    ``live_server``, which serves no WebSocket, is refused)."""
    assert driver.execute_script(
        "const e = document.querySelector(arguments[0]); if (!e) return false;"
        " e.click(); return true;",
        css,
    ), css


def _wait(driver: Any, check: Any) -> None:
    WebDriverWait(driver, WAIT_SECONDS).until(check)


def test_a_newcomer_signs_up_confirms_by_mail_and_is_logged_in(
    phone, live_server, settings
) -> None:
    services.club_settings_set_signup(mode="open")
    with smtp_server() as server:
        _smtp(settings, server.port)
        phone.get(f"{live_server.url}/accounts/login/")
        phone.add_cookie({"name": "django_language", "value": "en", "path": "/"})
        phone.get(f"{live_server.url}/accounts/login/")
        phone.find_element(By.LINK_TEXT, "Sign up").click()
        _wait(phone, lambda d: "/accounts/signup/" in d.current_url)
        _checked(phone, "the sign-up form")
        button = phone.find_element(By.CSS_SELECTOR, "form.signup button[type=submit]")
        assert button.size["height"] >= TAP
        _fill(
            phone,
            {
                "name": "Szabó Lili",
                "username": "lili",
                "email": "lili@example.org",
                "password1": PASSWORD,
                "password2": PASSWORD,
            },
        )
        _press(phone, "form.signup button[type=submit]")
        _wait(phone, lambda d: "/accounts/signup/sent/" in d.current_url)
        assert (
            "We sent a link to lili@example.org."
            in phone.find_element(By.CSS_SELECTOR, "[data-testid=signup-sent]").text
        )
        _checked(phone, "the page after signing up")

        (body,) = _mail_to(server, "lili@example.org")
        phone.get(_link(body))
        _checked(phone, "the confirmation page")
        _press(phone, "form.signup button[type=submit]")
        _wait(phone, lambda d: d.current_url.endswith("/matches/"))
        assert "Welcome, Szabó Lili" in phone.find_element(By.CSS_SELECTOR, ".messages").text

    # Logged out, the new login works with the password chosen.
    phone.delete_all_cookies()
    assert Player.objects.get(name="Szabó Lili").user.is_active
    _log_in(phone, live_server.url, "lili")
    assert phone.execute_script("return document.body.textContent").count("Log out (lili)")


def _log_in(driver: Any, base_url: str, username: str) -> None:
    """Through the login page with the password chosen at sign-up."""
    driver.get(f"{base_url}/accounts/login/")
    driver.add_cookie({"name": "django_language", "value": "en", "path": "/"})
    driver.find_element(By.ID, "id_username").send_keys(username)
    driver.find_element(By.ID, "id_password").send_keys(PASSWORD)
    _press(driver, "main form button[type=submit]")
    _wait(driver, lambda d: "/accounts/login/" not in d.current_url)


def test_a_member_claims_their_player_and_staff_approve_it(
    phone, second_browser, live_server, settings
) -> None:
    services.club_settings_set_signup(mode="approved")
    anna = PlayerFactory(name="Kovács Anna", rating=1650)
    boss = UserFactory(username="boss", is_staff=True, email="boss@example.org")
    with smtp_server() as server:
        _smtp(settings, server.port)
        phone.get(f"{live_server.url}/accounts/signup/")
        phone.add_cookie({"name": "django_language", "value": "en", "path": "/"})
        phone.get(f"{live_server.url}/accounts/signup/")
        values = {
            "name": "kovacs anna",
            "username": "anna",
            "email": "anna@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        }
        _fill(phone, values)
        _press(phone, "form.signup button[type=submit]")
        # The club has a player of that name without a login: the form offers the claim.
        _wait(phone, lambda d: d.find_elements(By.NAME, "claim"))
        assert "I am the player Kovács Anna" in phone.find_element(By.CSS_SELECTOR, ".claim").text
        _checked(phone, "the sign-up form offering a claim")
        _fill(phone, {"password1": PASSWORD, "password2": PASSWORD})
        _press(phone, "input[name=claim]")
        _press(phone, "form.signup button[type=submit]")
        _wait(phone, lambda d: "/accounts/signup/sent/" in d.current_url)
        (body,) = _mail_to(server, "anna@example.org")
        phone.get(_link(body))
        _press(phone, "form.signup button[type=submit]")
        _wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-testid=signup-confirm]"))
        assert (
            "staff now look at your sign-up"
            in phone.find_element(By.CSS_SELECTOR, "[data-testid=signup-confirm]").text
        )
        _checked(phone, "the confirmation page, waiting for staff")
        # Staff were told, with the address of their list.
        (told,) = _mail_to(server, "boss@example.org")
        assert "/accounts/signups/" in told

        # Staff approve it from their list, in another browser.
        sign_in(second_browser, live_server.url, boss)
        second_browser.get(f"{live_server.url}/accounts/signups/")
        item = second_browser.find_element(By.CSS_SELECTOR, "ul.signups li")
        assert "Kovács Anna" in item.text and "1650.00" in item.text
        assert_accessible(second_browser, "staff's list of sign-ups")
        _press(second_browser, "ul.signups li button[data-action=approve]")
        _wait(
            second_browser,
            lambda d: d.find_elements(By.CSS_SELECTOR, "[data-testid=no-signups]"),
        )
        assert "approved" in second_browser.find_element(By.CSS_SELECTOR, ".messages").text
        outcome = _mail_to(server, "anna@example.org")[-1]
        assert "approved" in outcome and "anna" in outcome

    anna.refresh_from_db()
    assert anna.user is not None and anna.user.username == "anna"
    assert SignUp.objects.get().state == "approved"
    # The member logs in as that player: their own page is Kovács Anna's.
    phone.delete_all_cookies()
    _log_in(phone, live_server.url, "anna")
    phone.get(f"{live_server.url}/matches/")
    mine = phone.find_element(By.CSS_SELECTOR, "a.my-page-link").get_attribute("href")
    assert mine.endswith(f"/players/{anna.pk}/")
