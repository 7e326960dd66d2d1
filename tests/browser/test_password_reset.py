"""Issue 30: a forgotten password, end to end on a 390 x 844 phone, with the mail going
through a real Celery worker on the real Redis broker (the request only enqueues it) and
a real SMTP server (tests/smtp_server.py): the login page's "Forgot your
password?", the address typed, the mail and its link, a password the validators refuse
(said at its field), a good one, and logging in with it. Every page fits the phone and
axe finds nothing serious on it; the forgotten-password page in Hungarian too."""

from __future__ import annotations

import email
import re
import time

import pytest
from celery.contrib.testing.worker import start_worker
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from config.celery import app
from tests.browser.axe import assert_accessible
from tests.browser.conftest import WAIT_SECONDS
from tests.browser.phone import page_fit
from tests.factories import UserPlayerFactory
from tests.smtp_server import smtp_server

pytestmark = pytest.mark.django_db(transaction=True)

NEW_PASSWORD = "Backgammon-2026-osz"  # passes the validators


def _check(driver, where: str) -> None:
    fit = page_fit(driver)
    assert fit.fits, str(fit)
    assert_accessible(driver, where)


def _until(driver, check) -> None:
    WebDriverWait(driver, WAIT_SECONDS).until(lambda d: check(d))


def _follow(driver, link, path: str) -> None:
    """Follow a link and wait for its page. Clicked by script: under load a WebDriver
    click on the phone sometimes landed before the page was ready and went nowhere."""
    driver.execute_script("arguments[0].click();", link)
    WebDriverWait(driver, 3 * WAIT_SECONDS).until(lambda d: path in d.current_url)


def _body(raw: bytes) -> str:
    message = email.message_from_bytes(raw.replace(b"\r\n", b"\n"))
    return message.get_payload(decode=True).decode(message.get_content_charset() or "utf-8")


def test_a_forgotten_password_on_a_phone(phone, live_server, settings) -> None:
    anna = UserPlayerFactory(
        name="Kovács Anna", user__username="anna", user__email="anna@example.org"
    )
    with smtp_server() as server:
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
        settings.EMAIL_USE_TLS = False
        settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""

        # The forgotten-password page in Hungarian, the club's language.
        phone.get(f"{live_server.url}/accounts/login/")
        phone.add_cookie({"name": "django_language", "value": "hu", "path": "/"})
        phone.get(f"{live_server.url}/accounts/login/")
        _follow(
            phone,
            phone.find_element(By.CSS_SELECTOR, "[data-testid=forgot-password]"),
            "/accounts/password_reset/",
        )
        assert phone.find_element(By.TAG_NAME, "h1").text == "Elfelejtett jelszó"
        _check(phone, "the forgotten-password page (hu)")

        # The rest in English: the login page, "Forgot your password?", the address.
        phone.add_cookie({"name": "django_language", "value": "en", "path": "/"})
        phone.get(f"{live_server.url}/accounts/login/")
        _check(phone, "the login page")
        link = phone.find_element(By.CSS_SELECTOR, "[data-testid=forgot-password]")
        assert link.text == "Forgot your password?"
        _follow(phone, link, "/accounts/password_reset/")
        _check(phone, "the forgotten-password page")
        phone.find_element(By.ID, "id_email").send_keys("ANNA@example.org")
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
            phone.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
            _until(phone, lambda d: "/accounts/password_reset/done/" in d.current_url)
            assert "a link to choose a new password is on its way" in phone.page_source
            _check(phone, "the link-is-on-its-way page")
            # The worker mails it (the notifications queue), after the answer.
            deadline = time.monotonic() + WAIT_SECONDS
            while not server.messages and time.monotonic() < deadline:
                time.sleep(0.05)
        ((to, raw),) = server.messages

    assert to == ["anna@example.org"]
    body = _body(raw)
    assert "Hello anna," in body and "If you did not ask for it" in body
    reset = re.search(r"https?://\S+", body).group(0)
    assert reset.startswith(f"{live_server.url}/accounts/reset/")  # no SITE_URL: the request's

    phone.get(reset)
    _until(phone, lambda d: d.find_elements(By.ID, "id_new_password1"))
    assert "Your username is anna." in phone.find_element(By.CSS_SELECTOR, "main p").text
    _check(phone, "the choose-your-password page")

    # A password the validators refuse: the words at the new password's field.
    phone.find_element(By.ID, "id_new_password1").send_keys("12345")
    phone.find_element(By.ID, "id_new_password2").send_keys("12345")
    phone.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    _until(
        phone,
        lambda d: d.execute_script(
            "const f = document.getElementById('id_new_password1');"
            " const e = f && f.nextElementSibling;"
            " return !!(e && e.matches('.message-error') && /too short/.test(e.textContent));"
        ),
    )
    first = phone.find_element(By.ID, "id_new_password1")
    assert first.get_attribute("value") == ""  # nothing typed comes back
    assert first.get_attribute("aria-invalid") == "true"
    _check(phone, "the choose-your-password page with its error")
    anna.user.refresh_from_db()
    assert anna.user.check_password("jelszo-123")

    # A good one: set, and the login works with it.
    phone.find_element(By.ID, "id_new_password1").send_keys(NEW_PASSWORD)
    phone.find_element(By.ID, "id_new_password2").send_keys(NEW_PASSWORD)
    phone.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    _until(phone, lambda d: "/accounts/reset/done/" in d.current_url)
    assert phone.find_element(By.TAG_NAME, "h1").text == "Your password is set"
    _check(phone, "the password-is-set page")
    phone.find_element(By.CSS_SELECTOR, "main a[href='/accounts/login/']").click()
    _until(
        phone,
        lambda d: (
            d.find_elements(By.ID, "id_username")
            and d.execute_script("return document.readyState === 'complete';")
        ),
    )
    phone.find_element(By.ID, "id_username").send_keys("anna")
    phone.find_element(By.ID, "id_password").send_keys(NEW_PASSWORD)
    # Pressed by script, as _follow does: a WebDriver click on this button went nowhere
    # once under a parallel run's load (the login page never left).
    phone.execute_script(
        "arguments[0].click();",
        phone.find_element(By.CSS_SELECTOR, "main form button[type=submit]"),
    )
    WebDriverWait(phone, 3 * WAIT_SECONDS).until(lambda d: "/accounts/login/" not in d.current_url)
    assert "/matches/" in phone.current_url  # LOGIN_REDIRECT_URL: the lobby

    # The link works once.
    phone.delete_all_cookies()
    phone.get(reset)
    _until(phone, lambda d: "This link does not work any more" in d.page_source)
