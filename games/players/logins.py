"""A login for a player in one step (issue 18): the director makes the account from the
player's admin page (username, e-mail, and a password or an invitation), and the player
may be sent an invitation e-mail with a link to choose their own password.

The link is Django's password-reset link (``django.contrib.auth.tokens``): it holds no
secret of ours, is never stored, works once (setting the password changes what the token
was made from) and expires after ``PASSWORD_RESET_TIMEOUT``. The e-mail leaves through the
notifications' mail transport (``games.notifications.transports.email_send``), in the
club's language, as the notifications' e-mails do.

The same link answers a forgotten password (issue 30): :func:`password_reset_request`,
from the login page's "Forgot your password?" (``config.passwords``), enqueues one task
per login with the address typed, and :func:`password_reset_send`, in the worker, mails
each its link in the language of the one who asked.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import background
from games.errors import Conflict, NotFound, ValidationFailed
from games.models import Player
from games.notifications import transports

log = logging.getLogger(__name__)


def _messages(exc: ValidationError) -> str:
    return " ".join(str(m) for m in exc.messages)


def player_login_check(
    *, player: Player | None, username: str, email: str, password: str, invite: bool
) -> None:
    """Everything that would refuse :func:`player_login_create`, checked before anything is
    written (the admin's form asks this to show the reason at its field). ``player``:
    ``None`` for one not saved yet. Each refusal names its ``field``."""
    if player is not None and player.user_id is not None:
        raise Conflict(
            "player_has_login",
            _("This player already has a login: %(username)s.")
            % {"username": player.user.get_username()},
            extra={"field": "username"},
        )
    user_model = get_user_model()
    try:
        if not username:
            raise ValidationError(_("Give a username."))
        user_model.username_validator(username)
    except ValidationError as exc:
        raise ValidationFailed(
            "invalid_username", _messages(exc), extra={"field": "username"}
        ) from None
    # Case does not tell "Anna" from "anna" when one types it to log in either.
    if user_model.objects.filter(username__iexact=username).exists():
        raise Conflict(
            "username_taken",
            _("The username “%(username)s” is taken: choose another.") % {"username": username},
            extra={"field": "username"},
        )
    if email:
        try:
            validate_email(email)
        except ValidationError as exc:
            raise ValidationFailed(
                "invalid_email", _messages(exc), extra={"field": "email"}
            ) from None
    if invite and not email:
        raise ValidationFailed(
            "invitation_needs_email",
            _("An invitation is sent by e-mail: give the player's e-mail address."),
            extra={"field": "email"},
        )
    if password:
        try:
            validate_password(password, user_model(username=username, email=email))
        except ValidationError as exc:
            raise ValidationFailed(
                "invalid_password", _messages(exc), extra={"field": "password"}
            ) from None
    elif not invite:
        raise ValidationFailed(
            "login_needs_a_way_in",
            _("Give a password, or send an invitation for the player to choose one."),
            extra={"field": "password"},
        )


def player_login_create(
    *, player_id: int, username: str, email: str = "", password: str = "", invite: bool = False
) -> Any:
    """Make a login (a Django user) for the player and link it; returns the user. With no
    password the account has none usable until the player sets one through the
    invitation (:func:`player_invitation_send`, which the caller sends once this has
    committed). Refused, with nothing written: as :func:`player_login_check`; a username
    taken at the same moment by someone else is 409 ``username_taken`` too."""
    username = username.strip()
    email = email.strip()
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(pk=player_id).first()
        if player is None:
            raise NotFound("player_not_found", _("There is no player with this id."))
        player_login_check(
            player=player, username=username, email=email, password=password, invite=invite
        )
        try:
            with transaction.atomic():  # a savepoint: the race below refuses cleanly
                user = get_user_model().objects.create_user(
                    username=username, email=email, password=password or None
                )
        except IntegrityError:
            raise Conflict(
                "username_taken",
                _("The username “%(username)s” is taken: choose another.") % {"username": username},
                extra={"field": "username"},
            ) from None
        player.user = user
        player.save(update_fields=["user"])
    return user


def invitation_link(*, user: Any, site_url: str) -> str:
    """The set-password link of ``user``: ``site_url`` (``SITE_URL``, or the address the
    director's request came to) and Django's password-reset confirm page."""
    path = reverse(
        "password_reset_confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": default_token_generator.make_token(user),
        },
    )
    return site_url.rstrip("/") + path


def player_invitation_send(*, player_id: int, site_url: str) -> str:
    """E-mail the player's login an invitation: their username and a link to choose their
    password. Returns the address it went to. Refused: no such player (404), a player
    without a login (409 ``no_login``) or without an e-mail address (400 ``no_email``);
    a mail server that refuses or is down raises the transport's
    :class:`~games.notifications.transports.DeliveryError`, for the caller to tell."""
    player = Player.objects.select_related("user").filter(pk=player_id).first()
    if player is None:
        raise NotFound("player_not_found", _("There is no player with this id."))
    user = player.user
    if user is None:
        raise Conflict(
            "no_login",
            _("%(name)s has no login yet: make one first.") % {"name": player.name},
        )
    if not user.email:
        raise ValidationFailed(
            "no_email",
            _("The login of %(name)s has no e-mail address to send the invitation to.")
            % {"name": player.name},
        )
    days = max(1, settings.PASSWORD_RESET_TIMEOUT // 86400)
    link = invitation_link(user=user, site_url=site_url)
    with translation.override(settings.LANGUAGE_CODE):
        subject = _("%(club)s: your login") % {"club": settings.CLUB_NAME}
        body = "\n\n".join(
            [
                _("Hello %(name)s,") % {"name": player.name},
                _(
                    "the club has made you a login to its site, for playing online, "
                    "reporting results and your notifications. Your username: %(username)s"
                )
                % {"username": user.get_username()},
                _("Choose your password here:") + "\n" + link,
                ngettext(
                    "The link works once, for %(days)d day.",
                    "The link works once, for %(days)d days.",
                    days,
                )
                % {"days": days},
            ]
        )
    transports.email_send(to=user.email, subject=subject, body=body)
    return str(user.email)


#: The Celery task that mails one reset link (games.players.tasks; the notifications
#: queue: settings). Sent by name (games.background): the task imports this module.
PASSWORD_RESET_SEND = "games.password_reset_send"  # noqa: S105 (a task name, no secret)


def _email_digest(email: str) -> str:
    """An address as the task carries it: no address in the broker, and case aside, as
    Django's ``PasswordResetForm.get_users`` compares."""
    return hashlib.sha256(email.strip().casefold().encode()).hexdigest()


def password_reset_request(*, email: str, site_url: str) -> int:
    """Ask for a link to choose a new password for each login with the address ``email``
    (case aside), in the active language (the request's: the one who asked). Which
    logins: Django's rule (``PasswordResetForm.get_users``): active, with a usable
    password (an invited player who has not chosen one yet asks the director for a new
    invitation).

    Nothing is mailed here: one :data:`PASSWORD_RESET_SEND` task per login is enqueued when
    the transaction commits, and the worker mails it (:func:`password_reset_send`). So the
    request does the same small work whether or not the address is known (a lookup and
    zero or more enqueues), and answers as fast either way: waiting on the mail server
    here would tell a known address by the time the answer takes, and hold a web worker
    up to ``EMAIL_TIMEOUT``. The task carries the login's id, the language, the site URL
    and a digest of the address, never the token (made in the worker). A broker that is
    down is logged, not told (telling would say that the address is known). Returns how
    many were enqueued, for the tests only: the caller answers the same whatever it is."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    user_ids = [user.pk for user in PasswordResetForm().get_users(email)]
    digest = _email_digest(email)

    def enqueue() -> None:
        for user_id in user_ids:
            try:
                background.task(PASSWORD_RESET_SEND).delay(user_id, digest, language, site_url)
            except Exception:
                log.exception("could not enqueue the password reset e-mail of user %s", user_id)

    if user_ids:
        transaction.on_commit(enqueue)
    return len(user_ids)


def password_reset_send(*, user_id: int, email_digest: str, language: str, site_url: str) -> bool:
    """E-mail the login ``user_id`` a link to choose a new password, in ``language``, if it
    may still have one: it exists, is active, has a usable password and its address is
    still the one asked for (``email_digest``; one changed since goes unmailed: the
    asker named the old one). Returns whether a mail was sent. The link (Django's token)
    is made here, in the worker. A mail server that is down or answers "later" raises
    :class:`~games.notifications.transports.TransientDeliveryError` (the task tries
    again); one that refuses the address is logged, as Django's own reset form does."""
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None or not user.is_active or not user.has_usable_password():
        return False
    email = getattr(user, get_user_model().get_email_field_name(), "") or ""
    if not email or _email_digest(email) != email_digest:
        return False
    days = max(1, settings.PASSWORD_RESET_TIMEOUT // 86400)
    with translation.override(language):
        username = user.get_username()
        subject = _("%(club)s: a new password") % {"club": settings.CLUB_NAME}
        body = "\n\n".join(
            [
                _("Hello %(username)s,") % {"username": username},
                _(
                    "someone, we hope you, asked for a new password for your login "
                    "“%(username)s” at %(club)s."
                )
                % {"username": username, "club": settings.CLUB_NAME},
                _("Choose your new password here:")
                + "\n"
                + invitation_link(user=user, site_url=site_url),
                ngettext(
                    "The link works once, for %(days)d day.",
                    "The link works once, for %(days)d days.",
                    days,
                )
                % {"days": days},
                _("If you did not ask for it, ignore this e-mail: your password stays as it is."),
            ]
        )
    try:
        transports.email_send(to=email, subject=subject, body=body)
    except transports.PermanentDeliveryError:
        log.exception("the password reset e-mail of user %s was refused", user_id)
        return False
    return True
