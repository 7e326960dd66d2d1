"""The club's players: who plays, their board settings and rating cache (issue 8), and
the one way names are searched and a user's player found."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

# Every player starts at the FIBS rating's origin (1500, experience 0).
from games.engine.rating import INITIAL_RATING
from games.errors import PermissionDenied
from games.text.fold import fold


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
    #: The FIBS rating and experience after the player's last rated result: a cache of
    #: the ledger (:class:`RatedResult`), written only by :mod:`games.ratings.services`.
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
    #: Seed 000: a good player is at ease both ways round, so the board may switch sides
    #: by itself: when a match this player played finishes, ``board_orientation`` flips
    #: (``games.players.services.players_switch_sides``, in the transaction that
    #: finishes the match).
    switch_sides_after_match = models.BooleanField(
        _("switch sides after each match"),
        default=False,
        help_text=_(
            "When a match the player played finishes, their home board moves to the other side."
        ),
    )
    #: Issue 27, the board script (static/games/board.js) acts on these two: roll by
    #: itself when it is the player's turn and no double is possible, and submit a play
    #: by itself when the roll has exactly one legal play.
    auto_roll = models.BooleanField(
        _("roll automatically"),
        default=False,
        help_text=_("When it is your turn and you cannot double, the dice are rolled for you."),
    )
    auto_confirm_forced = models.BooleanField(
        _("play forced moves automatically"),
        default=False,
        help_text=_("When your roll can be played in one way only, it is played for you."),
    )
    #: A short beep when a live update of a match page makes it this player's turn
    #: (static/games/matchwords.js); off unless they turn it on.
    turn_sound = models.BooleanField(
        _("sound when it is my turn"),
        default=False,
        help_text=_("A short beep on the match page when it becomes your turn."),
    )
    #: Bumped by every write of the board settings (the player's own and the switch after
    #: a match), so a settings form opened before a match ended cannot undo its switch
    #: unseen (409 ``stale_settings``).
    settings_version = models.PositiveIntegerField(_("settings version"), default=0)
    #: ``{kind: [channel, ...]}`` as the player chose; a kind not listed uses the
    #: registry's default (``games.notifications.services``). Written only through
    #: ``player_set_notification_channels``, which validates it.
    notification_channels = models.JSONField(_("notification channels"), default=dict, blank=True)
    #: A computer player's engine ("gnubg": GNU Backgammon, the practice opponent of
    #: games.practice); empty for a person. A bot plays through the same services.
    bot = models.CharField(_("computer player"), max_length=12, blank=True, default="")
    is_active = models.BooleanField(_("active"), default=True)
    #: ``name`` folded (:func:`games.text.fold.fold`: no case, no accents), what name
    #: searches compare with; kept in step by :meth:`save`.
    search_name = models.CharField(
        _("name for searching"), max_length=240, blank=True, default="", editable=False
    )
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

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save, with ``search_name`` the fold of ``name`` (also when only ``name`` is
        in ``update_fields``)."""
        self.search_name = fold(self.name)
        fields = kwargs.get("update_fields")
        if fields is not None and "name" in fields and "search_name" not in fields:
            kwargs["update_fields"] = [*fields, "search_name"]
        super().save(*args, **kwargs)

    @staticmethod
    def search(query: str) -> models.QuerySet[Player]:
        """The players whose name contains ``query``, whatever the case and the accents
        ("kovacs" finds Kovács Anna). Every name search goes through here."""
        return Player.objects.filter(search_name__contains=fold(query.strip()))

    @staticmethod
    def of_user(user: Any) -> Player | None:
        """The player linked to ``user``: ``None`` for anonymous visitors and for
        accounts without a player (staff, a director who does not play)."""
        if user is None or not getattr(user, "is_authenticated", False):
            return None
        return getattr(user, "player", None)

    @staticmethod
    def of_user_or_refuse(user: Any) -> Player:
        """The player linked to ``user``; a refusal (403 ``no_player``) when there is none:
        only a club member can play, report or receive notifications."""
        player = Player.of_user(user)
        if player is None:
            raise PermissionDenied(
                "no_player", _("Your account is not linked to a player of the club.")
            )
        return player
