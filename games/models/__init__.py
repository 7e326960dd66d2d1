"""The shared core's data: players, matches and games, and the notifications players get."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.functions import Greatest, Least, Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# Every player starts at the FIBS rating's origin (1500, experience 0).
from games.engine.rating import INITIAL_RATING
from games.errors import PermissionDenied
from games.textfold import fold


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
    #: ``name`` folded (:func:`games.textfold.fold`: no case, no accents), what name
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
        Match, verbose_name=_("match"), on_delete=models.PROTECT, related_name="invitation"
    )
    inviter = models.ForeignKey(
        Player, verbose_name=_("invited by"), on_delete=models.PROTECT, related_name="+"
    )
    invitee = models.ForeignKey(
        Player, verbose_name=_("invited player"), on_delete=models.PROTECT, related_name="+"
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
        Game,
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


# ====================================================================== notifications
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
        Player,
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
        Notification,
        verbose_name=_("notification"),
        on_delete=models.CASCADE,
        related_name="deliveries",
    )
    channel = models.CharField(_("channel"), max_length=10, choices=NotificationChannel.choices)
    webhook = models.ForeignKey(
        Webhook,
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


# ====================================================================== table clocks
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
        Player,
        verbose_name=_("player 1 (member)"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    player2 = models.ForeignKey(
        Player,
        verbose_name=_("player 2 (member)"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    match = models.ForeignKey(
        Match,
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
        Match,
        verbose_name=_("online match"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,
    )
    # No index of their own: the (player, at) indexes below serve every lookup by player.
    player1 = models.ForeignKey(
        Player,
        verbose_name=_("player 1"),
        on_delete=models.PROTECT,
        related_name="+",
        db_index=False,
    )
    player2 = models.ForeignKey(
        Player,
        verbose_name=_("player 2"),
        on_delete=models.PROTECT,
        related_name="+",
        db_index=False,
    )
    length = models.PositiveSmallIntegerField(_("match length"))
    winner = models.ForeignKey(
        Player,
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
        Player, verbose_name=_("player 1"), on_delete=models.PROTECT, related_name="+"
    )
    player2 = models.ForeignKey(
        Player, verbose_name=_("player 2"), on_delete=models.PROTECT, related_name="+"
    )
    length = models.PositiveSmallIntegerField(_("match length"))
    winner = models.ForeignKey(
        Player, verbose_name=_("winner"), on_delete=models.PROTECT, related_name="+"
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


# GNU Backgammon's analysis of a match (issue 28), in its own module of this package;
# imported last because it refers to the models above.
from games.models import analysis as _analysis  # noqa: E402

DecisionAnalysis = _analysis.DecisionAnalysis
MatchAnalysis = _analysis.MatchAnalysis
PlayerAnalysis = _analysis.PlayerAnalysis

# Sign-up (issue 30): the club's settings row and each sign-up, in their own module.
from games.models import signup as _signup  # noqa: E402

ClubSettings = _signup.ClubSettings
SignUp = _signup.SignUp
SignupMode = _signup.SignupMode
