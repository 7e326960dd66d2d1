"""How a notification leaves the server: Django's mail backends and HTTP POSTs of JSON.

Each sender either returns (sent), or raises :class:`TransientDeliveryError` (try again
later: a 5xx answer, a timeout, a refused connection, an SMTP hiccup) or
:class:`PermanentDeliveryError` (trying again cannot help: a 4xx answer, no address).
The caller (``games.notifications.services.notification_delivery_send``) records either on the
delivery row; the task retries only the transient kind.

Webhooks use the standard library's ``urllib.request`` with a short timeout: one small
POST needs no HTTP client dependency.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import smtplib
import urllib.error
import urllib.request
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, get_connection

#: Attempts per delivery before a transient failure counts as permanent (the first send
#: and five retries, with exponential back-off between them: see ``games.notifications.tasks``).
MAX_DELIVERY_ATTEMPTS = 6
#: Answers worth trying again: the receiver is overloaded or asked us to wait.
RETRYABLE_STATUSES = frozenset({408, 425, 429})
#: How much of an answer's body is kept in ``last_error``.
ERROR_BODY_CHARS = 300


class DeliveryError(Exception):
    """A send that did not succeed; ``str()`` is what the director reads."""


class TransientDeliveryError(DeliveryError):
    """Try again later."""


class PermanentDeliveryError(DeliveryError):
    """Trying again cannot help."""


def email_send(*, to: str, subject: str, body: str) -> None:
    """One plain-text email through the configured backend (console in the local run,
    locmem in tests, SMTP in production), over this process's open connection."""
    message = EmailMessage(
        subject=" ".join(subject.split()),  # a header: no line breaks
        body=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[to],
        headers={"Auto-Submitted": "auto-generated"},
    )
    try:
        try:
            _mail_connection().send_messages([message])
        except smtplib.SMTPServerDisconnected:
            # The server closed the connection we kept (idle timeout, restart): once
            # more on a new one.
            _mail_connection(reset=True).send_messages([message])
    except smtplib.SMTPRecipientsRefused as exc:
        raise PermanentDeliveryError(f"recipient refused: {exc.recipients}") from exc
    except (smtplib.SMTPException, OSError) as exc:  # OSError: refused, reset, timed out
        _mail_connection(reset=True, reopen=False)
        raise TransientDeliveryError(f"{type(exc).__name__}: {exc}") from exc


_connection: Any = None
_connection_key: tuple[Any, ...] = ()


def _mail_connection(*, reset: bool = False, reopen: bool = True) -> Any:
    """The mail backend connection this process keeps open between sends: a new SMTP
    session (connect, EHLO, STARTTLS, login) for every email cost more than the email
    (bench/clocks.py sends two per flag). Per process (a forked pool process must not
    share its parent's socket) and per mail settings."""
    global _connection, _connection_key
    key = (os.getpid(), settings.EMAIL_BACKEND, settings.EMAIL_HOST, settings.EMAIL_PORT)
    if _connection is not None and (reset or _connection_key != key):
        with contextlib.suppress(Exception):
            if _connection_key[0] == os.getpid():
                _connection.close()
        _connection = None
    if _connection is None and reopen:
        connection = get_connection(fail_silently=False)
        connection.open()
        _connection, _connection_key = connection, key
    return _connection


def chat_escape(text: str) -> str:
    """``text`` as literal text for a chat's incoming webhook: ``&``, ``<`` and ``>`` as
    the HTML entities Slack (and the chats that speak its format: Mattermost,
    Rocket.Chat, Google Chat) read back as those characters
    (https://api.slack.com/reference/surfaces/formatting#escaping). Unescaped, a player
    named ``<!channel> <https://evil.example|click>`` would ping the whole channel and
    show a disguised link in the club's chat."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def webhook_post(
    *, url: str, payload: dict[str, Any], secret: str = "", timeout: float | None = None
) -> int:
    """POST ``payload`` as JSON to ``url``; returns the HTTP status of a 2xx answer.

    Redirects are not followed (urllib turns a 3xx into an error here, treated as
    permanent: the club must fix the URL). With a ``secret`` the body is signed:
    ``X-Signature-256: sha256=<hex HMAC-SHA256>``."""
    if not url.lower().startswith(("http://", "https://")):
        raise PermanentDeliveryError(f"not an http(s) URL: {url}")
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
    headers = {
        "Content-Type": "application/json; charset=utf-8",
        "User-Agent": "backgammon-club-notifications/1",
    }
    if secret:
        digest = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
        headers["X-Signature-256"] = f"sha256={digest}"
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")  # noqa: S310 - scheme checked above
    if timeout is None:
        timeout = settings.NOTIFICATION_WEBHOOK_TIMEOUT
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        detail = _answer_excerpt(exc)
        message = f"HTTP {exc.code}{': ' + detail if detail else ''}"
        if exc.code >= 500 or exc.code in RETRYABLE_STATUSES:
            raise TransientDeliveryError(message) from exc
        raise PermanentDeliveryError(message) from exc
    except (urllib.error.URLError, OSError) as exc:  # refused, DNS, timeout, TLS
        reason = getattr(exc, "reason", exc)
        raise TransientDeliveryError(f"{type(exc).__name__}: {reason}") from exc


def _answer_excerpt(exc: urllib.error.HTTPError) -> str:
    try:
        text = exc.read(ERROR_BODY_CHARS).decode("utf-8", "replace")
    except OSError:
        return ""
    return " ".join(text.split())[:ERROR_BODY_CHARS]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A webhook answers where it was asked; following a redirect would resend the
    POST (and its signature) to a place nobody configured."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)
