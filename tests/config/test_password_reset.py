"""A forgotten password (issue 30): the login page's "Forgot your password?", the mail
with its link (through the notifications' transport, in the asker's language, on
SITE_URL), the link working once, the new password checked by Django's validators at
its field, and ``POST /api/v1/auth/password-reset/``. Neither door tells whether an
address has a login; both are throttled per client address and per address typed, in
the real Redis cache."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.conf import settings
from django.core import mail
from django.test import TestCase

from config.celery import app
from games.players import logins, tasks
from tests.factories import UserFactory, api_client

pytestmark = pytest.mark.django_db

FORGOT = "/accounts/password_reset/"
API = "/api/v1/auth/password-reset/"
NEW_PASSWORD = "Backgammon-2026-osz"  # passes the validators
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def _rate() -> int:
    """Requests the ``password_reset`` throttle allows in its period."""
    return int(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["password_reset"].split("/")[0])


@pytest.fixture(autouse=True)
def _eager_tasks() -> Iterator[None]:
    """Tasks run in this process when sent, as in the local run (no worker, no broker)."""
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = before


@contextmanager
def _committed() -> Iterator[list]:
    """The request's transaction commits at the end of the block: the tasks it enqueued
    are sent then (the test's own transaction never commits)."""
    with TestCase.captureOnCommitCallbacks(execute=True) as callbacks:
        yield callbacks


@pytest.fixture
def anna():
    return UserFactory(username="anna", email="Anna@Example.org")


def _ask(client, email, **extra):
    with _committed():
        return client.post(FORGOT, {"email": email}, **{**EN, **extra})


def _api(email, **extra):
    with _committed():
        return api_client().post(API, {"email": email}, format="json", **extra)


def _link(message) -> str:
    return re.search(r"https?://\S+", message.body).group(0)


def test_the_login_page_links_to_the_forgotten_password_page(client) -> None:
    page = client.get("/accounts/login/", **EN).content.decode()
    assert f'href="{FORGOT}"' in page and "Forgot your password?" in page
    form = client.get(FORGOT, **EN).content.decode()
    assert 'name="email"' in form and "Forgotten password" in form


def test_a_known_address_gets_a_link_that_works_once(client, anna, settings) -> None:
    settings.SITE_URL = "https://club.example.org"
    asked = _ask(client, "anna@example.org")  # case aside
    assert asked.status_code == 302 and asked["Location"] == "/accounts/password_reset/done/"
    (message,) = mail.outbox
    assert message.to == ["Anna@Example.org"]
    assert message.extra_headers["Auto-Submitted"] == "auto-generated"  # our transport's
    assert "a new password" in message.subject and "Hello anna," in message.body
    link = _link(message)
    assert link.startswith("https://club.example.org/accounts/reset/")
    path = link.removeprefix("https://club.example.org")

    opened = client.get(path, follow=True, **EN)
    assert "Your username is <strong>anna</strong>" in opened.content.decode()
    form_url = opened.redirect_chain[-1][0]
    # A password the validators refuse: said at the new password's field, nothing kept.
    refused = client.post(form_url, {"new_password1": "12345", "new_password2": "12345"}, **EN)
    assert refused.status_code == 200
    html = refused.content.decode()
    first_field = re.search(r'id="id_new_password1".*?<label', html, re.S).group(0)
    assert "too short" in first_field and "entirely numeric" in first_field
    assert "12345" not in html  # the typed password is not sent back
    anna.refresh_from_db()
    assert anna.check_password("jelszo-123")
    # Two that differ: said at the confirmation.
    mismatch = client.post(
        form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD + "x"}, **EN
    ).content.decode()
    second_field = re.search(r'id="id_new_password2".*?</button>', mismatch, re.S).group(0)
    assert "The two password fields didn" in second_field
    done = client.post(
        form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}, follow=True, **EN
    )
    assert "Your password is set" in done.content.decode()
    anna.refresh_from_db()
    assert anna.check_password(NEW_PASSWORD)
    # The link works once.
    again = client.get(path, follow=True, **EN).content.decode()
    assert "This link does not work any more" in again
    assert f'href="{FORGOT}"' in again  # and offers a new one


def test_the_mail_is_in_the_language_of_the_one_who_asked(client, anna) -> None:
    _ask(client, "anna@example.org", HTTP_ACCEPT_LANGUAGE="hu")
    (message,) = mail.outbox
    assert "új jelszó" in message.subject.lower() and "Kedves anna!" in message.body
    # Without SITE_URL, the link is on the address the request came to.
    assert _link(message).startswith("http://testserver/accounts/reset/")


def test_an_unknown_address_sends_nothing_and_is_answered_the_same(client, anna) -> None:
    UserFactory(username="gone", email="gone@example.org", is_active=False)
    known = _ask(client, "anna@example.org")
    assert len(mail.outbox) == 1
    for email in ("nobody@example.org", "gone@example.org"):
        unknown = _ask(client, email)
        assert (unknown.status_code, unknown["Location"]) == (known.status_code, known["Location"])
    assert len(mail.outbox) == 1
    done = client.get(known["Location"], **EN).content.decode()
    assert "If a login has this e-mail address" in done


def test_a_mail_server_that_is_down_is_not_told(client, anna, settings) -> None:
    """Telling would say that the address is known: the same answer, nothing sent."""
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    asked = _ask(client, "anna@example.org")
    assert asked.status_code == 302 and asked["Location"] == "/accounts/password_reset/done/"


def test_asking_is_throttled_per_client_address(client, anna) -> None:
    rate = _rate()
    for n in range(rate):
        assert _ask(client, f"someone{n}@example.org").status_code == 302
    throttled = _ask(client, "anna@example.org")
    assert throttled.status_code == 429
    assert 0 < int(throttled["Retry-After"]) <= 3600
    html = throttled.content.decode()
    assert "Too many requests for a new password" in html and "<h1>Too many requests" in html
    assert mail.outbox == []  # the refused ask sent nothing
    # Reading the page is not counted; another address may still ask.
    assert client.get(FORGOT).status_code == 200
    assert _ask(client, "anna@example.org", REMOTE_ADDR="10.0.0.9").status_code == 302
    assert len(mail.outbox) == 1


def test_asking_is_throttled_per_address_typed_known_or_not(client, anna) -> None:
    rate = _rate()
    for email in ("anna@example.org", "nobody@example.org"):
        for n in range(rate):
            assert _ask(client, email.upper(), REMOTE_ADDR=f"10.1.{n}.1").status_code == 302
        throttled = _ask(client, email, REMOTE_ADDR="10.2.0.1")
        assert throttled.status_code == 429, email
        assert int(throttled["Retry-After"]) > 0
    assert len(mail.outbox) == rate  # anna's, before the throttle


def test_the_api_answers_202_whatever_the_address(anna) -> None:
    known = _api("anna@example.org", **EN)
    unknown = _api("nobody@example.org", **EN)
    assert known.status_code == unknown.status_code == 202
    assert known.content == unknown.content
    (message,) = mail.outbox
    assert message.to == ["Anna@Example.org"] and "/accounts/reset/" in _link(message)
    bad = _api("not an address")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"
    assert len(mail.outbox) == 1


def test_the_api_is_throttled_per_client_address_and_per_address_typed(anna) -> None:
    with _committed():  # a refused ask enqueues nothing either
        rate = _rate()
        client = api_client()
        for n in range(rate):
            assert (
                client.post(API, {"email": f"x{n}@example.org"}, format="json").status_code == 202
            )
        throttled = client.post(API, {"email": "anna@example.org"}, format="json")
        assert throttled.status_code == 429 and throttled.json()["code"] == "throttled"
        assert int(throttled["Retry-After"]) > 0
        for n in range(rate):
            answer = client.post(
                API, {"email": "y@example.org"}, format="json", REMOTE_ADDR=f"10.3.{n}.1"
            )
            assert answer.status_code == 202
        again = client.post(API, {"email": "Y@example.org"}, format="json", REMOTE_ADDR="10.4.0.1")
        assert again.status_code == 429 and again.json()["code"] == "throttled"
    assert mail.outbox == []


def test_the_api_is_in_the_schema(client) -> None:
    schema = client.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/v1/auth/password-reset/"]["post"]
    assert {"202", "400", "429"} <= set(operation["responses"])


def _send(user, email: str | None = None, language: str = "en") -> bool:
    """The task, run here as the worker runs it."""
    return tasks.password_reset_send(
        user.pk, logins._email_digest(email or user.email), language, "https://club.example.org"
    )


def test_the_request_mails_nothing_itself_and_enqueues_one_task_per_login(client, anna) -> None:
    UserFactory(username="anna2", email="anna@example.org")  # two logins, one address
    with TestCase.captureOnCommitCallbacks(execute=False) as callbacks:
        asked = client.post(FORGOT, {"email": "anna@example.org"}, **EN)
    assert asked.status_code == 302
    assert mail.outbox == []  # nothing sent during the request
    (enqueue,) = callbacks  # the tasks are sent once the request's transaction commits
    enqueue()
    assert sorted(m.to[0] for m in mail.outbox) == ["Anna@Example.org", "anna@example.org"]
    # An unknown address: nothing to enqueue, and the same answer.
    with TestCase.captureOnCommitCallbacks(execute=False) as callbacks:
        unknown = client.post(FORGOT, {"email": "nobody@example.org"}, **EN)
    assert (unknown.status_code, unknown["Location"]) == (asked.status_code, asked["Location"])
    assert callbacks == []


def test_the_task_run_twice_mails_twice_and_both_links_work(client, anna) -> None:
    """A redelivered task mails a second message; both links open the set-password form
    until one is used (the docstring of games.players.tasks.password_reset_send)."""
    assert _send(anna) and _send(anna)
    assert [m.to for m in mail.outbox] == [["Anna@Example.org"]] * 2
    for message in mail.outbox:
        path = _link(message).removeprefix("https://club.example.org")
        opened = client.get(path, follow=True, **EN)
        assert 'id="id_new_password1"' in opened.content.decode()


def test_the_task_mails_in_the_language_it_was_given(anna) -> None:
    assert _send(anna, language="hu")
    (message,) = mail.outbox
    assert "Kedves anna!" in message.body


def test_a_login_no_longer_eligible_when_the_task_runs_gets_nothing(anna) -> None:
    asked_for = anna.email
    anna.email = "anna@new.example.org"  # changed after the ask
    anna.save()
    assert _send(anna, email=asked_for) is False
    anna.email, anna.is_active = asked_for, False  # deactivated after the ask
    anna.save()
    assert _send(anna) is False
    anna.is_active = True
    anna.set_unusable_password()  # e.g. the director made it an invitation again
    anna.save()
    assert _send(anna) is False
    gone = anna.pk
    anna.delete()
    assert tasks.password_reset_send(gone, logins._email_digest(asked_for), "en", "x") is False
    assert mail.outbox == []
