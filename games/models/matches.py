"""Match play as stored: matches (casual, a tournament's, against the practice opponent,
or recorded from a ``.mat`` file), the invitation to a casual match, each game's engine
snapshot and its append-only action log (R14)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Greatest, Least
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

#: The practice opponent's strengths (games.practice): gnubg's 0-ply with noise up to
#: its 2-ply "world class".
BOT_LEVELS = [
    ("beginner", _("beginner")),
    ("intermediate", _("intermediate")),
    ("expert", _("expert")),
    ("world_class", _("world class")),
]


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
        #: Never played: the invitation to it was declined or withdrawn
        #: (:class:`MatchInvitation` says which).
        CANCELLED = "cancelled", _("called off")

    player1 = models.ForeignKey(
        "games.Player", verbose_name=_("player 1"), on_delete=models.PROTECT, related_name="+"
    )
    player2 = models.ForeignKey(
        "games.Player", verbose_name=_("player 2"), on_delete=models.PROTECT, related_name="+"
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
        "games.Player",
        verbose_name=_("winner"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    #: The clock (R12) as a snapshot of :class:`games.engine.clock.ClockSettings`
    #: (``settings_to_dict``); ``None``: played without a clock.
    clock = models.JSONField(_("clock"), null=True, blank=True)
    #: R12: the opponent must claim a win on time (seed 002), else it is applied at once.
    timeout_claim = models.BooleanField(
        _("a win on time must be claimed"),
        default=True,
        help_text=_("Otherwise the game is scored as soon as a player's time runs out."),
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
    #: Recorded from a ``.mat`` file (games.play.interchange) rather than played here:
    #: when, and by whom (``None`` with ``imported_at`` set: an operator's command, or
    #: a user since deleted). An imported match is never rated: what it holds was
    #: played, if at all, where nobody here saw it.
    imported_at = models.DateTimeField(_("imported"), null=True, blank=True)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("imported by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    #: What the match is played for, as an opaque key of the app that owns it (e.g.
    #: ``"tmatch:12"``, a tournament match); empty for a casual match. A casual match is
    #: rated as an online result when it finishes; any other is rated (or not) by its
    #: owner, through :mod:`games.ratings.services`, under its own key.
    played_for = models.CharField(_("played for"), max_length=40, blank=True, default="")
    #: Against the practice opponent (games.practice): its strength; empty otherwise.
    #: Such a match is never rated.
    bot_level = models.CharField(
        _("computer's level"), max_length=12, blank=True, default="", choices=BOT_LEVELS
    )

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-created_at", "-id"]
        permissions = [
            # A club scorekeeper or director: may record from a .mat file a match between
            # any two players (anyone else only a match they played; staff may too).
            ("import_any_match", _("Can import a .mat file of any two players' match")),
        ]
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

    @property
    def is_imported(self) -> bool:
        """Recorded from a ``.mat`` file, not played here (never rated)."""
        return self.imported_at is not None

    def player_index(self, player_id: int) -> int | None:
        """The engine's index (0 or 1) of a player in this match, else ``None``."""
        if player_id == self.player1_id:
            return 0
        if player_id == self.player2_id:
            return 1
        return None


class MatchInvitation(models.Model):
    """A casual match starts when the opponent accepts: the inviter's match waits
    (``Match.Status.WAITING``) until the invitee accepts it (it starts), declines it or
    the inviter withdraws it (the match is called off, ``CANCELLED``). Written only by
    :mod:`games.play.invitations`; a tournament's match (``Match.played_for``) has none.

    Every answer moves a pending invitation to its final status, once: the status is the
    row's version (an answer to one no longer pending is 409 ``invitation_answered``)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for an answer")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        WITHDRAWN = "withdrawn", _("withdrawn")

    match = models.OneToOneField(
        "games.Match", verbose_name=_("match"), on_delete=models.PROTECT, related_name="invitation"
    )
    inviter = models.ForeignKey(
        "games.Player", verbose_name=_("invited by"), on_delete=models.PROTECT, related_name="+"
    )
    invitee = models.ForeignKey(
        "games.Player", verbose_name=_("invited player"), on_delete=models.PROTECT, related_name="+"
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(_("sent"), default=timezone.now)
    answered_at = models.DateTimeField(_("answered"), null=True, blank=True)

    class Meta:
        verbose_name = _("match invitation")
        verbose_name_plural = _("match invitations")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(inviter=models.F("invitee")), name="invitation_two_players"
            ),
            models.CheckConstraint(
                condition=models.Q(status="pending", answered_at__isnull=True)
                | (~models.Q(status="pending") & models.Q(answered_at__isnull=False)),
                name="invitation_answered_at",
            ),
            # One open invitation between two players, whoever sent it (the service
            # says so first; this is the backstop against a race).
            models.UniqueConstraint(
                Least("inviter", "invitee"),
                Greatest("inviter", "invitee"),
                condition=models.Q(status="pending"),
                name="invitation_one_pending_per_pair",
            ),
        ]
        indexes = [
            # The lobby's "your invitations": the pending ones sent and received.
            models.Index(
                fields=["invitee"],
                condition=models.Q(status="pending"),
                name="invitation_pending_invitee",
            ),
            models.Index(
                fields=["inviter"],
                condition=models.Q(status="pending"),
                name="invitation_pending_inviter",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.inviter} \u2192 {self.invitee} ({self.status})"


class Game(models.Model):
    """One game of a match. ``state`` is the engine's snapshot after the last logged
    action; ``version`` counts the actions in the log, so an action made against an old
    version is refused (``stale_version``). The Position ID and Match ID columns repeat
    the state for listing and export.

    A money session ended between games keeps its unplayed last game, marked over with
    ``result_kind`` :attr:`VOID` (the log is append-only, so it is never deleted)."""

    VOID = "void"

    match = models.ForeignKey(
        "games.Match", verbose_name=_("match"), on_delete=models.PROTECT, related_name="games"
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
    #: The clock's state (:class:`games.engine.clock.ClockState` ``to_dict``), when the
    #: match has a clock. Every action recomputes it with the columns below.
    clock = models.JSONField(_("clock"), null=True, blank=True)
    #: When the player who must act runs out of time (R12); ``None`` when no clock runs.
    deadline_at = models.DateTimeField(_("deadline"), null=True, blank=True)
    #: The next moment the server must look at this game: the deadline, or earlier the
    #: "time running low" notice. The sweeper and the timers go by this column.
    alarm_at = models.DateTimeField(_("next alarm"), null=True, blank=True)
    #: The version for which a timer task was sent; the sweeper arms the rest.
    armed_version = models.PositiveIntegerField(_("timer armed for version"), null=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["match", "number"]
        indexes = [
            # The sweeper's query: only clocked, live games carry an alarm.
            models.Index(
                fields=["alarm_at"],
                name="game_alarm_at",
                condition=models.Q(alarm_at__isnull=False),
            ),
        ]
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

    # No index of its own: the unique (game, seq) index below serves every lookup by
    # game, and one index less is less work for every move's INSERT.
    game = models.ForeignKey(
        "games.Game",
        verbose_name=_("game"),
        on_delete=models.PROTECT,
        related_name="actions",
        db_index=False,
    )
    seq = models.PositiveIntegerField(_("sequence number"))
    kind = models.CharField(_("kind"), max_length=24)
    #: The engine's player index (0/1); ``None`` for the opening roll, which both make.
    player_index = models.PositiveSmallIntegerField(_("player"), null=True, blank=True)
    actor = models.ForeignKey(
        "games.Player",
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
