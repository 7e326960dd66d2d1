"""The rating ledger (issue 8): every result with the rating change it made, and the
audit of club results typed in."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class RatedResult(models.Model):
    """One match result in the rating ledger (issue 8), with the rating change it made.

    Terms: the **source** says where the result comes from -- ``online`` (a casual match
    played here, ``match`` set), ``tournament`` (a tournament match, whether typed in by a
    director, reported by the players or played online) or ``club`` (a club match typed
    in). ``source_key`` names the result within the app that owns it (``"match:7"``,
    ``"tmatch:123"``, ``"club:..."``): a result is recorded once per key.

    A result is **rated** when its source's setting (``settings.RATING_SOURCES``) and the
    event it belongs to say so, decided when it is recorded; an unrated result stays in
    the ledger (it is still a result of the players) without numbers. Money sessions and
    chouettes never come here.

    Rated results count in the order of ``(at, id)``: ``at`` is the moment the result
    counts (the match finished, or the result came to stand), the id breaks ties in the
    order of recording. Each rated row keeps the calculation (P_upset, each K, each
    change) and both players' ratings and experiences before and after, so every step of
    a player's history can be checked by hand; ``Player.rating`` and ``experience`` are
    the values after the player's last rated row (see :mod:`games.ratings.services`).
    """

    class Source(models.TextChoices):
        ONLINE = "online", _("casual online match")
        TOURNAMENT = "tournament", _("tournament match")
        CLUB = "club", _("club match typed in")

    source = models.CharField(_("source"), max_length=12, choices=Source.choices)
    source_key = models.CharField(_("source key"), max_length=64, unique=True)
    # No index (each one slows a replay's rewrite of every row): matches are never
    # deleted (their games protect them), and the player pages find results by player.
    match = models.ForeignKey(
        "games.Match",
        verbose_name=_("online match"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,
    )
    # No index of their own: the (player, at) indexes below serve every lookup by player.
    player1 = models.ForeignKey(
        "games.Player",
        verbose_name=_("player 1"),
        on_delete=models.PROTECT,
        related_name="+",
        db_index=False,
    )
    player2 = models.ForeignKey(
        "games.Player",
        verbose_name=_("player 2"),
        on_delete=models.PROTECT,
        related_name="+",
        db_index=False,
    )
    length = models.PositiveSmallIntegerField(_("match length"))
    winner = models.ForeignKey(
        "games.Player",
        verbose_name=_("winner"),
        on_delete=models.PROTECT,
        related_name="+",
        db_index=False,  # always one of the players, found by their indexes
    )
    at = models.DateTimeField(_("counts from"))
    rated = models.BooleanField(_("rated"))
    # The calculation (``None`` while the row is not rated).
    p_upset = models.FloatField(_("P_upset"), null=True, blank=True)
    k1 = models.FloatField(_("K of player 1"), null=True, blank=True)
    k2 = models.FloatField(_("K of player 2"), null=True, blank=True)
    change1 = models.DecimalField(
        _("change of player 1"), max_digits=7, decimal_places=2, null=True, blank=True
    )
    change2 = models.DecimalField(
        _("change of player 2"), max_digits=7, decimal_places=2, null=True, blank=True
    )
    rating1_before = models.DecimalField(
        _("rating of player 1 before"), max_digits=7, decimal_places=2, null=True, blank=True
    )
    rating1_after = models.DecimalField(
        _("rating of player 1 after"), max_digits=7, decimal_places=2, null=True, blank=True
    )
    rating2_before = models.DecimalField(
        _("rating of player 2 before"), max_digits=7, decimal_places=2, null=True, blank=True
    )
    rating2_after = models.DecimalField(
        _("rating of player 2 after"), max_digits=7, decimal_places=2, null=True, blank=True
    )
    experience1_before = models.PositiveIntegerField(
        _("experience of player 1 before"), null=True, blank=True
    )
    experience1_after = models.PositiveIntegerField(
        _("experience of player 1 after"), null=True, blank=True
    )
    experience2_before = models.PositiveIntegerField(
        _("experience of player 2 before"), null=True, blank=True
    )
    experience2_after = models.PositiveIntegerField(
        _("experience of player 2 after"), null=True, blank=True
    )
    recorded_at = models.DateTimeField(_("recorded"), auto_now_add=True)

    class Meta:
        verbose_name = _("rated result")
        verbose_name_plural = _("rated results")
        ordering = ["at", "id"]
        # On PostgreSQL the table also leaves half of each page free (fillfactor 50, set
        # by migration 0009_ratings_fillfactor: Django models have no such option), so
        # that a replay rewrites most rows without touching these indexes. Each index
        # more slows every record and each row a replay cannot rewrite in place.
        indexes = [
            # The replay's order, and "is there a later rated result of these players".
            models.Index(fields=["at", "id"], name="ratedresult_order"),
            models.Index(fields=["player1", "at"], name="ratedresult_player1_at"),
            models.Index(fields=["player2", "at"], name="ratedresult_player2_at"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(player1=models.F("player2")), name="ratedresult_two_players"
            ),
            models.CheckConstraint(
                condition=models.Q(winner=models.F("player1"))
                | models.Q(winner=models.F("player2")),
                name="ratedresult_winner_plays",
            ),
            models.CheckConstraint(condition=models.Q(length__gte=1), name="ratedresult_not_money"),
        ]

    def __str__(self) -> str:
        return f"{self.source_key}: {self.player1_id} \u2013 {self.player2_id}"

    @property
    def winner_index(self) -> int:
        """1 or 2: which player won."""
        return 1 if self.winner_id == self.player1_id else 2


class ClubResult(models.Model):
    """Who typed in a club match result (issue 8: a match played over the board outside a
    tournament, e.g. a club night's friendly), when, and who last corrected or voided it.

    The result itself is the ledger's row (:class:`RatedResult`, source ``club``, the same
    ``source_key``) while it stands: its numbers and order live there only. This row is
    the audit beside it, written by :mod:`games.ratings.club_results`. It is linked by the key,
    not by a foreign key, because a void deletes the ledger row (``rating_void``) and the
    audit must outlive it; so it also keeps the result as last typed in (players, length,
    winner, date), and a voided result still shows what was voided, by whom and when.
    """

    source_key = models.CharField(_("source key"), max_length=64, unique=True)
    player1 = models.ForeignKey(
        "games.Player", verbose_name=_("player 1"), on_delete=models.PROTECT, related_name="+"
    )
    player2 = models.ForeignKey(
        "games.Player", verbose_name=_("player 2"), on_delete=models.PROTECT, related_name="+"
    )
    length = models.PositiveSmallIntegerField(_("match length"))
    winner = models.ForeignKey(
        "games.Player", verbose_name=_("winner"), on_delete=models.PROTECT, related_name="+"
    )
    played_at = models.DateTimeField(_("played"))
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("typed in by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    entered_at = models.DateTimeField(_("typed in"))
    corrected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("last corrected by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    corrected_at = models.DateTimeField(_("last corrected"), null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("voided by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    voided_at = models.DateTimeField(_("voided"), null=True, blank=True)

    class Meta:
        verbose_name = _("club result")
        verbose_name_plural = _("club results")
        ordering = ["-played_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(player1=models.F("player2")), name="clubresult_two_players"
            ),
            models.CheckConstraint(
                condition=models.Q(winner=models.F("player1"))
                | models.Q(winner=models.F("player2")),
                name="clubresult_winner_plays",
            ),
            models.CheckConstraint(
                condition=models.Q(length__gte=1, length__lte=64), name="clubresult_length"
            ),
        ]

    def __str__(self) -> str:
        return self.source_key
