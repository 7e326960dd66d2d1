"""Players who sign themselves up (issue 30): the club's setting, and each sign-up from
the form to staff's decision. Its own module of the models package, as the analysis's."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class SignupMode(models.TextChoices):
    """Whether and how people may sign themselves up."""

    OFF = "off", _("off: staff make every login")
    OPEN = "open", _("open: a confirmed e-mail address is enough")
    APPROVED = "approved", _("approved: staff approve each sign-up")


class ClubSettings(models.Model):
    """The club's settings that staff change without a redeploy: one row (``pk`` 1),
    made when first read (:meth:`load`), edited in the admin. The settings file keeps
    what belongs to the installation (mail server, addresses); this, what belongs to
    the club."""

    SINGLETON_PK = 1

    signup = models.CharField(
        _("sign-up"),
        max_length=10,
        choices=SignupMode.choices,
        default=SignupMode.OFF,
        help_text=_(
            "Whether people may make their own login from the login page. A claim of an "
            "existing player always waits for staff."
        ),
    )
    updated_at = models.DateTimeField(_("changed"), auto_now=True)

    class Meta:
        verbose_name = _("club settings")
        verbose_name_plural = _("club settings")
        constraints = [
            models.CheckConstraint(condition=models.Q(pk=1), name="clubsettings_one_row"),
        ]

    def __str__(self) -> str:
        return str(_("Club settings"))

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.pk = self.SINGLETON_PK
        super().save(*args, **kwargs)

    @classmethod
    def load(cls) -> ClubSettings:
        """The one row, made with the defaults when missing."""
        row, _created = cls.objects.get_or_create(pk=cls.SINGLETON_PK)
        return row


class SignUp(models.Model):
    """One person's sign-up: an inactive login made at once (so the username and the
    address are held), confirmed by e-mail, then active — or waiting for staff when the
    club approves sign-ups or the person claims an existing player."""

    class State(models.TextChoices):
        UNCONFIRMED = "unconfirmed", _("e-mail not confirmed")
        WAITING = "waiting", _("waiting for staff")
        APPROVED = "approved", _("approved")
        REFUSED = "refused", _("refused")

    #: Deleted with its login when it expires unconfirmed; after a refusal the login is
    #: deleted (the username and address are free again) and the row stays, for the record.
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="signup",
    )
    #: The name as the club should show it (checked as every player's name).
    name = models.CharField(_("name"), max_length=80)
    username = models.CharField(_("username"), max_length=150)
    email = models.EmailField(_("e-mail address"))
    #: The visitor's language when signing up: every e-mail to them is written in it.
    language = models.CharField(_("language"), max_length=10)
    #: The player of the same name the person says they are (never linked without staff).
    claim = models.ForeignKey(
        "games.Player",
        verbose_name=_("claimed player"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    #: The player the login got: the claimed one, or one made for the sign-up.
    player = models.ForeignKey(
        "games.Player",
        verbose_name=_("player"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    state = models.CharField(
        _("state"), max_length=12, choices=State.choices, default=State.UNCONFIRMED
    )
    #: Bumped by every change of state: staff's decisions check it (409 on a stale one).
    version = models.PositiveIntegerField(_("version"), default=0)
    created_at = models.DateTimeField(_("signed up"))
    #: When the last confirmation e-mail left: resending waits a while after it.
    sent_at = models.DateTimeField(_("confirmation sent"), null=True, blank=True)
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("decided by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["state", "created_at"], name="signup_state_created")]

    def __str__(self) -> str:
        return f"{self.name} ({self.username})"
