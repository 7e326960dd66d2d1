"""The e-mails of a sign-up, each in the language the person signed up in, through the
notifications' mail transport (as the invitation of :mod:`games.players.logins`).

The confirmation link is made with ``django.core.signing``: it holds the sign-up's id and
version, signed with the ``SECRET_KEY`` and a salt of its own, and expires after
``SIGNUP_CONFIRM_HOURS``. Nothing secret is stored; confirming bumps the version, so a
link works once.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import SignUp
from games.notifications import transports

log = logging.getLogger(__name__)

SALT = "games.players.signup.confirm"


def confirmation_token(signup: SignUp) -> str:
    return signing.dumps({"id": signup.pk, "v": signup.version}, salt=SALT)


def confirmation_read(token: str) -> tuple[int, int] | None:
    """The (id, version) a link names, or ``None`` when it is forged, damaged or expired."""
    try:
        data = signing.loads(token, salt=SALT, max_age=settings.SIGNUP_CONFIRM_HOURS * 3600)
    except signing.BadSignature:  # SignatureExpired is one too
        return None
    if not isinstance(data, dict):
        return None
    ident, version = data.get("id"), data.get("v")
    if not isinstance(ident, int) or not isinstance(version, int):
        return None
    return ident, version


def _url(site_url: str, path: str) -> str:
    return site_url.rstrip("/") + path


def confirmation_send(*, signup: SignUp, site_url: str) -> None:
    """The confirmation link to the sign-up's address. Raises the transport's
    :class:`~games.notifications.transports.DeliveryError` for the caller to tell."""
    link = _url(site_url, reverse("signup-confirm", kwargs={"token": confirmation_token(signup)}))
    hours = settings.SIGNUP_CONFIRM_HOURS
    with translation.override(signup.language):
        subject = _("%(club)s: confirm your sign-up") % {"club": settings.CLUB_NAME}
        body = "\n\n".join(
            [
                _("Hello %(name)s,") % {"name": signup.name},
                _("you signed up to the club's site with the username %(username)s.")
                % {"username": signup.username},
                _("Confirm your e-mail address here:") + "\n" + link,
                ngettext(
                    "The link works for %(hours)d hour. If you did not sign up, ignore "
                    "this e-mail: the sign-up is deleted then.",
                    "The link works for %(hours)d hours. If you did not sign up, ignore "
                    "this e-mail: the sign-up is deleted then.",
                    hours,
                )
                % {"hours": hours},
            ]
        )
    transports.email_send(to=signup.email, subject=subject, body=body)


def address_taken_send(*, email: str, username: str, language: str, site_url: str) -> None:
    """To the owner of an address someone signed up with again: the page said the same as
    for a new address (so it tells nobody which addresses have logins); the owner learns
    their username and where to choose a new password."""
    reset = _url(site_url, reverse("password_reset"))
    with translation.override(language):
        subject = _("%(club)s: a sign-up with your address") % {"club": settings.CLUB_NAME}
        body = "\n\n".join(
            [
                _("Hello,"),
                _(
                    "someone (perhaps you) tried to sign up to the club's site with this "
                    "e-mail address, which already has a login: %(username)s."
                )
                % {"username": username},
                _("If you forgot your password, choose a new one here:") + "\n" + reset,
                _("If it was not you, you need not do anything: nothing was changed."),
            ]
        )
    transports.email_send(to=email, subject=subject, body=body)


def outcome_send(*, signup: SignUp, site_url: str) -> None:
    """Staff's decision, to the person. Best effort: a mail server that is down is logged,
    the decision stands (the person sees it when they try to log in)."""
    login = _url(site_url, reverse("login"))
    with translation.override(signup.language):
        if signup.state == SignUp.State.APPROVED:
            subject = _("%(club)s: your sign-up is approved") % {"club": settings.CLUB_NAME}
            lines = [
                _("Hello %(name)s,") % {"name": signup.name},
                _("the club approved your sign-up. Log in as %(username)s here:")
                % {"username": signup.username}
                + "\n"
                + login,
            ]
            if signup.claim_id is not None and signup.player_id == signup.claim_id:
                lines.append(_("Your login is linked to your player record in the club."))
        else:
            subject = _("%(club)s: your sign-up was not approved") % {"club": settings.CLUB_NAME}
            lines = [
                _("Hello %(name)s,") % {"name": signup.name},
                _(
                    "the club did not approve your sign-up, and the login was deleted. "
                    "Ask the club's staff if you think this is a mistake."
                ),
            ]
    _quietly(signup.email, subject, "\n\n".join(lines))


def staff_waiting_send(*, signup: SignUp, addresses: Iterable[str], site_url: str) -> None:
    """Staff are told a sign-up waits for them (in the club's language). Best effort."""
    link = _url(site_url, reverse("signup-list"))
    with translation.override(settings.LANGUAGE_CODE):
        subject = _("%(club)s: a sign-up waits for approval") % {"club": settings.CLUB_NAME}
        lines = [
            _("%(name)s (%(username)s) signed up.")
            % {"name": signup.name, "username": signup.username}
        ]
        if signup.claim_id is not None:
            lines.append(_("They say they are the club's player of this name."))
        lines.append(_("Approve or refuse here:") + "\n" + link)
    for address in addresses:
        _quietly(address, subject, "\n\n".join(lines))


def _quietly(to: str, subject: str, body: str) -> None:
    try:
        transports.email_send(to=to, subject=subject, body=body)
    except transports.DeliveryError as exc:
        log.warning("sign-up e-mail to %s not sent: %s", to, exc)
