"""The shared core's data: players (and, as match play arrives, matches and games)."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

#: Every player starts at the FIBS rating's origin.
INITIAL_RATING = Decimal("1500.00")


class Player(models.Model):
    """A club member who plays. Not every player has a login (directors enter results
    for members who never use the site), so the user link is optional."""

    name = models.CharField(_("name"), max_length=80)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
    )
    rating = models.DecimalField(
        _("rating"), max_digits=7, decimal_places=2, default=INITIAL_RATING
    )
    #: FIBS experience: the sum of the lengths of the rated matches played.
    experience = models.PositiveIntegerField(_("experience"), default=0)
    is_active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name"]
        constraints = [
            # Two members may not share a name on result sheets; case does not tell
            # "Kiss Anna" from "kiss anna" on paper either.
            models.UniqueConstraint(Lower("name"), name="player_name_unique_ci"),
            models.CheckConstraint(condition=models.Q(rating__gt=0), name="player_rating_positive"),
        ]

    def __str__(self) -> str:
        return self.name
