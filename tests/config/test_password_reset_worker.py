"""A forgotten password with a real Celery worker on the real Redis broker (issue 30):
the request mails nothing itself, it leaves one task on the ``notifications`` queue
carrying no address and no token, and the worker mails the link, which works; a mail
server that answers "try again later" is tried again."""

from __future__ import annotations

import base64
import json
import re
import time
from collections.abc import Callable

import pytest
import redis
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.core import mail

from config.celery import app
from games.players.logins import PASSWORD_RESET_SEND
from tests.factories import UserFactory
from tests.smtp_server import smtp_server

pytestmark = pytest.mark.django_db(transaction=True)

FORGOT = "/accounts/password_reset/"
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def _worker():
    return start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10)


def _until(check: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"not done after {timeout} s")


def _queued(user_id: int) -> list[tuple[dict, bytes]]:
    """The reset tasks for ``user_id`` waiting on the notifications queue in Redis: each
    message's headers and its raw bytes."""
    found = []
    for raw in redis.Redis.from_url(settings.CELERY_BROKER_URL).lrange("notifications", 0, -1):
        message = json.loads(raw)
        args = json.loads(base64.b64decode(message["body"]))[0]
        if message["headers"]["task"] == PASSWORD_RESET_SEND and args[0] == user_id:
            found.append((message["headers"] | {"args": args}, raw))
    return found


def test_the_request_only_enqueues_and_the_worker_mails_the_link(client) -> None:
    anna = UserFactory(username="anna", email="anna@example.org")
    asked = client.post(FORGOT, {"email": "ANNA@example.org"}, **EN)
    assert asked.status_code == 302 and asked["Location"] == "/accounts/password_reset/done/"
    assert mail.outbox == []  # the request sent nothing
    ((headers, raw),) = _queued(anna.pk)
    # The id, a digest of the address, the language and the site; no address, no token.
    assert headers["args"][0] == anna.pk and headers["args"][2:] == ["en", "http://testserver/"]
    assert b"anna@example.org" not in raw.lower() and b"/accounts/reset/" not in raw

    with _worker():
        _until(lambda: len(mail.outbox) >= 1)
    (message,) = mail.outbox
    assert message.to == ["anna@example.org"] and "Hello anna," in message.body
    link = re.search(r"https?://\S+", message.body).group(0)
    assert link.startswith("http://testserver/accounts/reset/")
    opened = client.get(link.removeprefix("http://testserver"), follow=True, **EN)
    assert 'id="id_new_password1"' in opened.content.decode()


def test_a_mail_server_that_says_try_later_is_tried_again(client, settings) -> None:
    UserFactory(username="anna", email="anna@example.org")
    with smtp_server(refuse_first=1) as server:
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
        settings.EMAIL_USE_TLS = False
        settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
        with _worker():
            assert client.post(FORGOT, {"email": "anna@example.org"}, **EN).status_code == 302
            _until(lambda: len(server.messages) >= 1)
            time.sleep(0.3)  # a second mail would come now if the retry sent twice
    assert server.refused == 1  # the first try: "451 try again later"
    ((to, raw),) = server.messages  # the retry: sent, once
    assert to == ["anna@example.org"] and b"/accounts/reset/" in raw
