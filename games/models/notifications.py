"""What players are told: each notification once, the club's webhooks, and
one delivery row per channel it is sent on."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class NotificationChannel(models.TextChoices):
    """How a notification reaches its recipient. ``in_app`` is the list on the site (the
    notification row itself); ``email`` and ``webhook`` are sent by a task, one
    :class:`NotificationDelivery` row each."""

    IN_APP = "in_app", _("on the site")
    EMAIL = "email", _("email")
    WEBHOOK = "webhook", _("club chat (webhook)")


class Notification(models.Model):
    """Something a player is told, once: the key (recipient, kind, subject) is unique, so
    a service or task that runs twice creates (and sends) nothing the second time.

    ``kind`` names an entry of the open registry in ``games.notifications.services``; ``subject``
    is a short string the caller chooses to say which event this is (``game:42:v17``,
    ``match:7``). ``title`` and ``body`` are rendered from ``context`` in the club's
    language when the row is made (they are what email and webhooks send); the pages
    render them again in the reader's language. ``in_app`` says whether the recipient's
    list on the site shows it (they may switch that channel off per kind)."""

    recipient = models.ForeignKey(
        "games.Player",
        verbose_name=_("recipient"),
        on_delete=models.CASCADE,
        related_name="notifications",
    )
    kind = models.CharField(_("kind"), max_length=40)
    subject = models.CharField(_("subject"), max_length=100)
    context = models.JSONField(_("context"), default=dict, blank=True)
    title = models.CharField(_("title"), max_length=200)
    body = models.TextField(_("text"), blank=True)
    in_app = models.BooleanField(_("shown on the site"), default=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    read_at = models.DateTimeField(_("read"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["recipient", "kind", "subject"], name="notification_once"
            ),
        ]
        indexes = [
            models.Index(fields=["recipient", "-created_at"], name="notification_recipient_new"),
            # The header's unread count, on every page a player opens.
            models.Index(
                fields=["recipient"],
                condition=models.Q(read_at__isnull=True, in_app=True),
                name="notification_unread",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.recipient}: {self.kind} {self.subject}"


class Webhook(models.Model):
    """A URL the club set up (for example a chat's incoming webhook) that receives an
    HTTP POST of JSON for each notification of the kinds it lists, when the recipient
    chose the webhook channel for that kind. Deactivate rather than delete one: deleting
    it deletes its delivery history."""

    name = models.CharField(_("name"), max_length=80)
    url = models.URLField(_("URL"), max_length=500)
    kinds = models.JSONField(
        _("kinds"), default=list, blank=True, help_text=_("The kinds of notification sent here.")
    )
    secret = models.CharField(
        _("signing secret"),
        max_length=200,
        blank=True,
        help_text=_(
            "When set, each request carries an X-Signature-256 header: sha256= and the "
            "HMAC-SHA256 of the body with this secret."
        ),
    )
    is_active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class NotificationDelivery(models.Model):
    """One notification sent on one channel (email, or one webhook): its own state, so a
    failing webhook neither blocks nor repeats the email. The send task locks this row,
    does nothing when it is no longer pending, and records every attempt."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")

    notification = models.ForeignKey(
        "games.Notification",
        verbose_name=_("notification"),
        on_delete=models.CASCADE,
        related_name="deliveries",
    )
    channel = models.CharField(_("channel"), max_length=10, choices=NotificationChannel.choices)
    webhook = models.ForeignKey(
        "games.Webhook",
        verbose_name=_("webhook"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="deliveries",
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    last_attempt_at = models.DateTimeField(_("last attempt"), null=True, blank=True)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification delivery")
        verbose_name_plural = _("notification deliveries")
        ordering = ["-created_at", "-id"]
        constraints = [
            # Once per notification by email, once per notification and webhook.
            models.UniqueConstraint(
                fields=["notification", "channel"],
                condition=models.Q(webhook__isnull=True),
                name="delivery_once_per_channel",
            ),
            models.UniqueConstraint(
                fields=["notification", "webhook"],
                condition=models.Q(webhook__isnull=False),
                name="delivery_once_per_webhook",
            ),
            models.CheckConstraint(
                condition=models.Q(channel=NotificationChannel.EMAIL, webhook__isnull=True)
                | models.Q(channel=NotificationChannel.WEBHOOK, webhook__isnull=False),
                name="delivery_channel_target",
            ),
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="delivery_status_created")]

    def __str__(self) -> str:
        target = self.webhook or self.get_channel_display()
        return f"{self.notification} \u2192 {target} ({self.status})"
