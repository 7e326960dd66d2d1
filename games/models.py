"""The shared core's data: players (and, as match play arrives, matches and games)."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

#: Every player starts at the FIBS rating's origin.
INITIAL_RATING = Decimal("1500.00")


class BoardOrientation(models.TextChoices):
    """Where a player sees their home board: bottom right is the usual diagram, bottom
    left is seed 002's app."""

    RIGHT = "right", _("home board bottom right")
    LEFT = "left", _("home board bottom left")


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
    country = models.CharField(
        _("country"), max_length=2, blank=True, help_text=_("ISO 3166 code, e.g. HU.")
    )
    club = models.CharField(_("club"), max_length=100, blank=True)
    board_orientation = models.CharField(
        _("board orientation"),
        max_length=5,
        choices=BoardOrientation.choices,
        default=BoardOrientation.RIGHT,
    )
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


class Match(models.Model):
    """A match to N points between two players, or a money session (length 0).

    ``player1`` is the engine's player 0, ``player2`` its player 1. ``rules`` is the
    frozen snapshot of the engine's rule options (R4, R6, R8, R9) taken when the match
    was created; ``state`` is the engine's match state (score sheet, Crawford flag), and
    the score columns repeat it for listing and sorting.
    """

    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting to start")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")

    player1 = models.ForeignKey(
        Player, verbose_name=_("player 1"), on_delete=models.PROTECT, related_name="+"
    )
    player2 = models.ForeignKey(
        Player, verbose_name=_("player 2"), on_delete=models.PROTECT, related_name="+"
    )
    length = models.PositiveSmallIntegerField(
        _("match length"), help_text=_("Points to win; 0 for a money session.")
    )
    rules = models.JSONField(_("rules"))
    state = models.JSONField(_("match state"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.WAITING
    )
    score1 = models.PositiveSmallIntegerField(_("score of player 1"), default=0)
    score2 = models.PositiveSmallIntegerField(_("score of player 2"), default=0)
    winner = models.ForeignKey(
        Player,
        verbose_name=_("winner"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "-created_at"], name="match_status_created")]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(player1=models.F("player2")), name="match_two_players"
            ),
            models.CheckConstraint(condition=models.Q(length__lte=64), name="match_length_max"),
        ]

    def __str__(self) -> str:
        return f"{self.player1} \u2013 {self.player2}"

    @property
    def is_money(self) -> bool:
        return self.length == 0

    def player_index(self, player_id: int) -> int | None:
        """The engine's index (0 or 1) of a player in this match, else ``None``."""
        if player_id == self.player1_id:
            return 0
        if player_id == self.player2_id:
            return 1
        return None


class Game(models.Model):
    """One game of a match. ``state`` is the engine's snapshot after the last logged
    action; ``version`` counts the actions in the log, so an action made against an old
    version is refused (``stale_version``). The Position ID and Match ID columns repeat
    the state for listing and export.

    A money session ended between games keeps its unplayed last game, marked over with
    ``result_kind`` :attr:`VOID` (the log is append-only, so it is never deleted)."""

    VOID = "void"

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.PROTECT, related_name="games"
    )
    number = models.PositiveSmallIntegerField(_("game number"))
    state = models.JSONField(_("state"))
    version = models.PositiveIntegerField(_("version"), default=0)
    position_id = models.CharField(_("Position ID"), max_length=14)
    gnubg_match_id = models.CharField(_("Match ID"), max_length=12)
    is_over = models.BooleanField(_("over"), default=False)
    winner_index = models.PositiveSmallIntegerField(_("winner"), null=True, blank=True)
    points = models.PositiveSmallIntegerField(_("points"), null=True, blank=True)
    result_kind = models.CharField(_("result"), max_length=12, blank=True)
    crawford = models.BooleanField(_("Crawford game"), default=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.match} #{self.number}"


class GameAction(models.Model):
    """One entry of a game's append-only log (R14): every roll with both dice, every
    play, cube and resignation action, timeout and claim, with who made it and when.

    Rows are never changed or deleted: on PostgreSQL a trigger refuses UPDATE and
    DELETE (migration ``0003``), and the foreign key protects the games they belong to.
    """

    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.PROTECT, related_name="actions"
    )
    seq = models.PositiveIntegerField(_("sequence number"))
    kind = models.CharField(_("kind"), max_length=24)
    #: The engine's player index (0/1); ``None`` for the opening roll, which both make.
    player_index = models.PositiveSmallIntegerField(_("player"), null=True, blank=True)
    actor = models.ForeignKey(
        Player,
        verbose_name=_("actor"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    data = models.JSONField(_("data"), default=dict, blank=True)
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("game action")
        verbose_name_plural = _("game actions")
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="game_action_seq_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.game} {self.seq}: {self.kind}"
