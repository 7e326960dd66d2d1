"""The writes of sign-up (issue 30). Decisions, each written down here once:

* **A taken username is said** (the person must choose another; the login form tells
  the same to anyone who tries it). **An address already used is not**: the sign-up
  answers as for a new address and mails the address's owner their username and the
  password-reset page instead, so the form tells nobody which addresses have logins.
* **A claim of an existing player** (a player without a login whose name folds to the
  same as the one typed: no case, no accents, :func:`games.text.fold.fold`, as
  ``Player.search_name``) is never granted without staff, whatever the setting. A refused
  claim refuses the whole sign-up, in both modes: the account's name is that player's,
  which the club already uses, so it could not get a player of its own under it; the
  person may sign up again under a name people can tell apart.
* **Refused**: the login is deleted (its username and address are free again); the row
  stays for the record.
* **Expiry**: a sign-up not confirmed within ``SIGNUP_CONFIRM_HOURS`` is deleted with its
  login, by beat's ``games.signup_sweep`` (hourly) and at every new sign-up, so an
  abandoned one never holds a username for long.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games import wallclock
from games.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from games.models import ClubSettings, Player, SignUp, SignupMode
from games.notifications import transports
from games.notifications.services import notify
from games.players.logins import player_login_check
from games.players.names import player_name_clean
from games.players.signup import mails
from games.text.fold import fold

log = logging.getLogger(__name__)

#: The states of a sign-up still open (holding its name).
PENDING = (SignUp.State.UNCONFIRMED, SignUp.State.WAITING)


def signup_mode() -> str:
    """The club's setting: ``off``, ``open`` or ``approved``."""
    return str(ClubSettings.load().signup)


def club_settings_set_signup(*, mode: str) -> ClubSettings:
    """Change the club's sign-up setting (the demo club's loader; staff use the admin)."""
    if mode not in SignupMode.values:
        raise ValidationFailed("invalid_signup_mode", _("Choose off, open or approved."))
    row = ClubSettings.load()
    row.signup = mode
    row.save()
    return row


def claimable_player(name: str) -> Player | None:
    """The player without a login whose name is ``name`` (no case, no accents)."""
    return (
        Player.objects.filter(search_name=fold(name), user__isnull=True, bot="")
        .order_by("pk")
        .first()
    )


def signup_check(
    *, name: str, username: str, email: str, password: str, claim: bool
) -> tuple[str, Player | None]:
    """Everything that would refuse :func:`signup_create` (each refusal names its
    ``field``), checked before anything is written. Returns the name as stored and the
    player claimed (``None``: none)."""
    try:
        clean = player_name_clean(name=name)
    except ValidationFailed as exc:
        exc.extra["field"] = "name"
        raise
    folded = fold(clean)
    same = Player.objects.filter(search_name=folded).exclude(bot="").exists() or (
        Player.objects.filter(search_name=folded, user__isnull=False).exists()
    )
    if same:
        raise Conflict(
            "name_taken",
            _(
                "A player named %(name)s already has a login. If that is you, log in; "
                "otherwise choose a name people can tell apart (add a middle initial)."
            )
            % {"name": clean},
            extra={"field": "name"},
        )
    player = claimable_player(clean)
    if player is None and claim:
        raise ValidationFailed(
            "nothing_to_claim",
            _("The club has no player without a login named %(name)s to claim.") % {"name": clean},
            extra={"field": "claim"},
        )
    if player is not None and not claim:
        raise Conflict(
            "name_taken",
            _(
                "The club already has a player named %(name)s. If that is you, tick “I am "
                "this player” (staff will check); otherwise choose a name people can tell "
                "apart (add a middle initial)."
            )
            % {"name": player.name},
            extra={"field": "name", "claimable": True},
        )
    if player is None:
        # Not one at this same address: that is the person again (resent their link).
        pending = SignUp.objects.filter(state__in=PENDING, claim__isnull=True).exclude(
            email__iexact=email.strip()
        )
        if any(fold(other) == folded for other in pending.values_list("name", flat=True)):
            raise Conflict(
                "name_taken",
                _("Someone is signing up under the name %(name)s: choose another.")
                % {"name": clean},
                extra={"field": "name"},
            )
    if not email:
        raise ValidationFailed(
            "invalid_email", _("Give your e-mail address."), extra={"field": "email"}
        )
    try:
        validate_email(email)
    except ValidationError as exc:
        raise ValidationFailed(
            "invalid_email", " ".join(str(m) for m in exc.messages), extra={"field": "email"}
        ) from None
    if not password:
        raise ValidationFailed(
            "invalid_password", _("Choose a password."), extra={"field": "password"}
        )
    # The username's rules and the password validators are the admin's (issue 18).
    player_login_check(player=None, username=username, email=email, password=password, invite=False)
    # A claim is under the club's spelling of the name ("kovacs anna" claims Kovács Anna).
    return (player.name if player is not None else clean), player


@dataclass(frozen=True)
class SignupCreated:
    """What :func:`signup_create` did: the new sign-up (``None`` when the address was
    already used: its owner was mailed instead) and whether the e-mail left."""

    signup: SignUp | None
    mail_sent: bool


def signup_create(
    *,
    name: str,
    username: str,
    email: str,
    password: str,
    claim: bool = False,
    language: str,
    site_url: str,
) -> SignupCreated:
    """Sign up: an inactive login and a sign-up waiting for its e-mail confirmation,
    whose link is mailed in ``language``. Refused, with nothing written: sign-up off
    (403 ``signup_closed``), or as :func:`signup_check`."""
    if signup_mode() == SignupMode.OFF:
        raise PermissionDenied("signup_closed", _("The club does not take sign-ups here."))
    signups_expire()
    username, email = username.strip(), email.strip()
    user_model = get_user_model()
    with transaction.atomic():
        clean, player = signup_check(
            name=name, username=username, email=email, password=password, claim=claim
        )
        owner = user_model.objects.filter(email__iexact=email).order_by("pk").first()
        if owner is not None:
            signup = None
        else:
            try:
                with transaction.atomic():  # a savepoint: the race below refuses cleanly
                    user = user_model.objects.create_user(
                        username=username, email=email, password=password, is_active=False
                    )
            except IntegrityError:
                raise Conflict(
                    "username_taken",
                    _("The username “%(username)s” is taken: choose another.")
                    % {"username": username},
                    extra={"field": "username"},
                ) from None
            signup = SignUp.objects.create(
                user=user,
                name=clean,
                username=username,
                email=email,
                language=language,
                claim=player,
                created_at=wallclock.now(),
                sent_at=wallclock.now(),
            )
    try:
        if signup is None:
            assert owner is not None
            if SignUp.objects.filter(user=owner, state=SignUp.State.UNCONFIRMED).exists():
                # Their own sign-up, still unconfirmed: its link again, as a resend (at
                # most once every SIGNUP_RESEND_SECONDS).
                signup_resend(email=email, site_url=site_url)
            else:
                mails.address_taken_send(
                    email=email,
                    username=owner.get_username(),
                    language=language,
                    site_url=site_url,
                )
        else:
            mails.confirmation_send(signup=signup, site_url=site_url)
    except transports.DeliveryError as exc:
        log.warning("sign-up confirmation to %s not sent: %s", email, exc)
        return SignupCreated(signup=signup, mail_sent=False)
    return SignupCreated(signup=signup, mail_sent=True)


def signup_resend(*, email: str, site_url: str) -> None:
    """The confirmation link again to ``email`` when a sign-up waits for it there, at
    most once every ``SIGNUP_RESEND_SECONDS``. Says nothing either way (the caller
    answers the same), so it tells nobody which addresses signed up."""
    email = email.strip()
    if not email:
        return
    now = wallclock.now()
    with transaction.atomic():
        signup = (
            SignUp.objects.select_for_update()
            .filter(email__iexact=email, state=SignUp.State.UNCONFIRMED, user__isnull=False)
            .order_by("-pk")
            .first()
        )
        if signup is None or signup.created_at < now - _confirm_window():
            return
        if signup.sent_at and signup.sent_at > now - timedelta(
            seconds=settings.SIGNUP_RESEND_SECONDS
        ):
            return
        signup.sent_at = now
        signup.save(update_fields=["sent_at"])
    try:
        mails.confirmation_send(signup=signup, site_url=site_url)
    except transports.DeliveryError as exc:
        log.warning("sign-up confirmation to %s not sent again: %s", email, exc)


def _confirm_window() -> timedelta:
    return timedelta(hours=settings.SIGNUP_CONFIRM_HOURS)


@dataclass(frozen=True)
class SignupConfirmed:
    """What :func:`signup_confirm` found: the sign-up, and whether this call confirmed
    it (``False``: the link was opened again)."""

    signup: SignUp
    now: bool


def signup_confirm(*, signup_id: int, version: int, site_url: str) -> SignupConfirmed:
    """The e-mail address confirmed (the link's id and version). With sign-up ``open``
    and no claim, the login becomes active with a new player of the sign-up's name;
    otherwise the sign-up waits for staff, who are told. A sign-up already confirmed is
    returned as it stands (a link opened twice), with ``now`` false. Refused: 404
    ``signup_link_invalid`` (no such sign-up, expired, or a version it never had)."""
    staff_told = False
    with transaction.atomic():
        signup = SignUp.objects.select_for_update().filter(pk=signup_id).first()
        invalid = NotFound(
            "signup_link_invalid",
            _("This link does not work: it expired or the sign-up is gone. Sign up again."),
        )
        if signup is None or signup.user_id is None:
            raise invalid
        if signup.state != SignUp.State.UNCONFIRMED:
            if version >= signup.version:
                raise invalid
            return SignupConfirmed(signup=signup, now=False)
        if version != signup.version or signup.created_at < wallclock.now() - _confirm_window():
            raise invalid
        signup.confirmed_at = wallclock.now()
        signup.version += 1
        made = None
        if signup.claim_id is None and signup_mode() == SignupMode.OPEN:
            made = _player_make(signup)
        if made is None:
            signup.state = SignUp.State.WAITING
            signup.save()
            staff_told = True
            _staff_notify(signup)
        else:
            _activate(signup, made, by=None)
            signup.save()
    if staff_told:
        _staff_mail(signup, site_url)
    return SignupConfirmed(signup=signup, now=True)


def _player_make(signup: SignUp) -> Player | None:
    """A new player of the sign-up's name, or ``None`` when the name was taken since."""
    try:
        with transaction.atomic():
            return Player.objects.create(name=signup.name)
    except IntegrityError:
        return None


def _activate(signup: SignUp, player: Player, *, by: Any) -> None:
    user = signup.user
    assert user is not None
    user.is_active = True
    user.save(update_fields=["is_active"])
    player.user = user
    player.save(update_fields=["user"])
    signup.player = player
    signup.state = SignUp.State.APPROVED
    signup.decided_at = wallclock.now()
    signup.decided_by = by


def _staff() -> Any:
    return get_user_model().objects.filter(is_staff=True, is_active=True)


def _staff_notify(signup: SignUp) -> None:
    """An in-app notification to each staff member who is a player (kind
    ``signup_waiting``); those who are not read the e-mail (:func:`_staff_mail`)."""
    for player in Player.objects.filter(user__in=_staff()).select_related("user"):
        notify(
            recipient=player,
            kind="signup_waiting",
            subject=f"signup:{signup.pk}",
            context={"name": signup.name, "username": signup.username},
        )


def _staff_mail(signup: SignUp, site_url: str) -> None:
    addresses = sorted({u.email for u in _staff().exclude(email="") if u.email})
    mails.staff_waiting_send(signup=signup, addresses=addresses, site_url=site_url)


def _decidable(*, signup_id: int, by: Any, version: int | None) -> SignUp:
    if by is None or not getattr(by, "is_staff", False):
        raise PermissionDenied("staff_only", _("Only the club's staff decide sign-ups."))
    signup = SignUp.objects.select_for_update().filter(pk=signup_id).first()
    if signup is None:
        raise NotFound("signup_not_found", _("There is no sign-up with this id."))
    if signup.state != SignUp.State.WAITING:
        raise Conflict(
            "signup_not_waiting",
            _("This sign-up is not waiting for a decision: it is %(state)s.")
            % {"state": signup.get_state_display()},
            extra={"state": signup.state, "version": signup.version},
        )
    if version is not None and version != signup.version:
        raise Conflict(
            "stale_signup",
            _("This sign-up changed since you read it: look at it again."),
            extra={"state": signup.state, "version": signup.version},
        )
    if signup.user_id is None:
        raise Conflict("signup_no_login", _("The login of this sign-up was deleted."))
    return signup


def signup_approve(*, signup_id: int, by: Any, version: int | None = None, site_url: str) -> SignUp:
    """Staff approve a waiting sign-up: the login becomes active, linked to the claimed
    player or to a new one of the sign-up's name; the person is mailed. Refused: not
    staff (403 ``staff_only``), 404 ``signup_not_found``, 409 ``signup_not_waiting``
    (already decided, or not confirmed), ``stale_signup`` (``version`` given and not the
    stored one), ``player_has_login`` (the claimed player got a login meanwhile),
    ``name_taken`` (a player of that name was made meanwhile: rename the sign-up in the
    admin). Two approvals at once: the row lock lets the second see the first's
    decision (409), so nothing is linked twice."""
    with transaction.atomic():
        signup = _decidable(signup_id=signup_id, by=by, version=version)
        if signup.claim_id is not None:
            player = Player.objects.select_for_update().get(pk=signup.claim_id)
            if player.user_id is not None:
                raise Conflict(
                    "player_has_login",
                    _("%(name)s already has a login: refuse this sign-up.") % {"name": player.name},
                )
        else:
            made = _player_make(signup)
            if made is None:
                raise Conflict(
                    "name_taken",
                    _(
                        "A player named %(name)s exists now: change the sign-up's name in "
                        "the admin, or refuse it."
                    )
                    % {"name": signup.name},
                )
            player = made
        _activate(signup, player, by=by)
        signup.version += 1
        signup.save()
    mails.outcome_send(signup=signup, site_url=site_url)
    return signup


def signup_refuse(*, signup_id: int, by: Any, version: int | None = None, site_url: str) -> SignUp:
    """Staff refuse a waiting sign-up (a claim included: the module's docstring says
    why the whole sign-up): the login is deleted, the person mailed. Refused as
    :func:`signup_approve`."""
    with transaction.atomic():
        signup = _decidable(signup_id=signup_id, by=by, version=version)
        user = signup.user
        signup.user = None
        signup.state = SignUp.State.REFUSED
        signup.decided_at = wallclock.now()
        signup.decided_by = by
        signup.version += 1
        signup.save()
        if user is not None:
            user.delete()
    mails.outcome_send(signup=signup, site_url=site_url)
    return signup


def signups_expire() -> int:
    """Delete the sign-ups left unconfirmed longer than ``SIGNUP_CONFIRM_HOURS``, with
    their logins (never used: inactive since made). Returns how many. Safe to run twice
    and at the same time as a sign-up (a login deleted twice is deleted once)."""
    cutoff = wallclock.now() - _confirm_window()
    with transaction.atomic():
        old = list(
            SignUp.objects.select_for_update(skip_locked=True).filter(
                state=SignUp.State.UNCONFIRMED, created_at__lt=cutoff
            )
        )
        user_ids = [s.user_id for s in old if s.user_id is not None]
        SignUp.objects.filter(pk__in=[s.pk for s in old]).delete()
        get_user_model().objects.filter(pk__in=user_ids, is_active=False).delete()
    return len(old)
