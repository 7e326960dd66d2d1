"""Over-the-board table clocks (R12): a tablet's clock between two players, synced to the
server (``games.clocks.services``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class TableClock(models.Model):
    """An over-the-board clock (R12): a tablet or phone between two players at a table,
    synced to the server (``games.clocks.services``).

    ``state`` is the pure clock's :class:`games.engine.clock.ClockState` (``to_dict``,
    its settings included); ``clock_settings`` repeats the settings for listing.
    Every write locks the row and bumps ``version``; a tap made against an old version is
    refused (``stale_version``). ``deadline_at`` is when the running player flags; a
    Celery task armed for ``armed_version`` (or the sweeper) records the flag even when
    the tablet is gone. While paused, ``paused_at`` is the moment the clock stopped and
    every reading is taken then."""

    class Status(models.TextChoices):
        READY = "ready", _("ready")
        RUNNING = "running", _("running")
        PAUSED = "paused", _("paused")
        FLAGGED = "flagged", _("flagged")
        FINISHED = "finished", _("finished")

    label = models.CharField(_("label"), max_length=60, help_text=_("For example: Table 7."))
    player1_name = models.CharField(_("player 1"), max_length=80)
    player2_name = models.CharField(_("player 2"), max_length=80)
    player1 = models.ForeignKey(
        "games.Player",
        verbose_name=_("player 1 (member)"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    player2 = models.ForeignKey(
        "games.Player",
        verbose_name=_("player 2 (member)"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    match = models.ForeignKey(
        "games.Match",
        verbose_name=_("match"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="table_clocks",
    )
    #: The preset the settings came from (``seed002``, ``usbgf``, ...); empty: custom.
    preset = models.CharField(_("clock preset"), max_length=20, blank=True)
    #: The match length the reserves were computed for (0: money or not given).
    match_length = models.PositiveSmallIntegerField(_("match length"), default=0)
    clock_settings = models.JSONField(_("clock settings"))
    state = models.JSONField(_("clock state"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.READY
    )
    version = models.PositiveIntegerField(_("version"), default=0)
    #: The player (0/1) who ran out of time first, once recorded.
    flagged_index = models.PositiveSmallIntegerField(_("flagged player"), null=True, blank=True)
    paused_at = models.DateTimeField(_("paused at"), null=True, blank=True)
    #: When the running player flags; ``None`` unless the clock runs.
    deadline_at = models.DateTimeField(_("deadline"), null=True, blank=True)
    #: The version for which a timer task was sent; the sweeper arms the rest.
    armed_version = models.PositiveIntegerField(_("timer armed for version"), null=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("table clock")
        verbose_name_plural = _("table clocks")
        ordering = ["label", "id"]
        indexes = [
            # The sweeper's query: only running clocks carry a deadline.
            models.Index(
                fields=["deadline_at"],
                name="table_clock_deadline_at",
                condition=models.Q(deadline_at__isnull=False),
            ),
            models.Index(fields=["status", "label"], name="table_clock_status_label"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(flagged_index__isnull=True) | models.Q(flagged_index__lte=1),
                name="table_clock_flagged_index",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.label}: {self.player1_name} \u2013 {self.player2_name}"

    @property
    def names(self) -> tuple[str, str]:
        return (self.player1_name, self.player2_name)
