"""Email over a real SMTP server on 127.0.0.1: one connection is kept for many sends,
and a server that hangs up is reconnected to once, without losing the message."""

from __future__ import annotations

import pytest

from games.notifications import transports
from tests.smtp_server import smtp_server


def _smtp(settings, port: int) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""


def test_mails_share_one_kept_connection(settings):
    with smtp_server() as server:
        _smtp(settings, server.port)
        for n in range(3):
            transports.email_send(to=f"p{n}@example.org", subject="Hello", body="x")
    assert [to for to, _ in server.messages] == [[f"p{n}@example.org"] for n in range(3)]
    assert server.sessions == 1


def test_a_server_that_hangs_up_is_reconnected_to_and_no_mail_is_lost(settings):
    with smtp_server(hang_up_after=2) as server:
        _smtp(settings, server.port)
        for n in range(5):
            transports.email_send(to=f"p{n}@example.org", subject="Hello", body="x")
    assert [to for to, _ in server.messages] == [[f"p{n}@example.org"] for n in range(5)]
    assert server.sessions == 3


def test_a_server_that_is_gone_is_a_transient_error(settings):
    with smtp_server() as server:
        port = server.port
    _smtp(settings, port)
    with pytest.raises(transports.TransientDeliveryError, match=r"(?i)refused|connect"):
        transports.email_send(to="p@example.org", subject="Hello", body="x")
