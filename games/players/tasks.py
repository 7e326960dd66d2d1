"""The Celery task of a forgotten password (issue 30): thin, it takes ids, calls one
service and is safe to run twice. Routed to the ``notifications`` queue by name
(settings), with the other mail; sent by name (:mod:`games.background`)."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from games.notifications.transports import MAX_DELIVERY_ATTEMPTS, TransientDeliveryError
from games.players import logins


@shared_task(
    name=logins.PASSWORD_RESET_SEND,
    ignore_result=True,
    # A timeout, a refused connection, an SMTP "try later", a database blip: again after
    # about 1, 2, 4, 8, 16 s (randomised, capped: no ETA beyond Redis's visibility
    # timeout), as the notifications' sends are; after the last, Celery logs the error.
    autoretry_for=(TransientDeliveryError, OperationalError),
    retry_backoff=True,
    retry_backoff_max=600,
    retry_jitter=True,
    max_retries=MAX_DELIVERY_ATTEMPTS - 1,
)
def password_reset_send(user_id: int, email_digest: str, language: str, site_url: str) -> bool:
    """Mail login ``user_id`` its link to choose a new password (the token is made here,
    never carried by the broker). Safe to run twice: a second run (a redelivery, a retry
    after a send whose answer was lost) mails a second message with a link that works as
    well as the first: whichever is used first sets the password, and then neither works.
    That is acceptable; a row recording "sent" would cost more than the duplicate."""
    return logins.password_reset_send(
        user_id=user_id, email_digest=email_digest, language=language, site_url=site_url
    )
