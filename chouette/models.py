"""Chouette on the database: sessions, participants, the event log and the ledger lines.

The pure rules (:mod:`chouette.rules`) decide everything: seating, rotation, settlement,
undo. These models store their inputs and outputs so that any session can be replayed
and audited:

* :class:`ChouetteSession` - one evening of chouette: its players (through
  :class:`ChouetteParticipant`), the stake per point (optional, with a currency), the rule
  ``profile`` (:meth:`chouette.rules.Profile.to_dict`, fixed for the session), the roll-off
  ``rolls`` and the ``start_seating`` they gave, the current ``seating`` (a cache of the
  ledger's, rewritten by every write) and a ``version`` bumped by every write. An
  ended session can be reopened (``reopened_at``, ``reopened_by``: the last reopening).
  Its ``join_code`` (issue 19) lets a newcomer join from a phone (``/chouette/join/``):
  six letters without look-alikes (:mod:`games.codes`), unique among the open sessions
  (a partial unique constraint), shown with a QR code on the scoreboard and its wall.
  A session split off a chouette grown to eight (issue 19,
  :func:`chouette.services.sessions.session_split`) names the session it came from
  (``split_from``).
* :class:`ChouetteEvent` - the append-only log: a played game (``data`` is
  :meth:`chouette.rules.GameEntry.to_dict`) or a seat change between games
  (:meth:`chouette.rules.SeatChange.to_dict`), numbered ``seq`` 1, 2, ... per session.
  Undoing the last game sets its ``undone`` flag (the row stays, for the history): the
  ledger is the replay of the events that are not undone, which restores totals *and*
  seating exactly (:meth:`chouette.rules.Ledger.undo`). A seating set by hand (issue 27)
  is a seat change with the action ``set`` (:class:`chouette.rules.Reseat`: the new box
  and line, and the seating before). **Editing** a typed game (issue 27) appends the
  corrected entry as a new game row that ``corrects`` the old one and takes its
  ``place``, and flags the old row ``undone`` (kept, with who and when): the log stays
  append-only, and the ledger replays the rows that count in ``place`` order
  (``place`` is ``seq`` for every other row).
* :class:`ChouetteLine` - one player's points for one game. **The lines of every game sum
  to zero** (R13): the service checks it before writing, and on PostgreSQL a deferred
  constraint trigger (migration ``0002_zero_sum_trigger``) refuses, at commit, any
  transaction that leaves a game's lines unbalanced, whoever wrote them. SQLite (the
  one-command local run only) has no such trigger and relies on the service's check.
  Running totals are the sums of the lines of games not undone, so they sum to zero too.

Played online (issue 19, :mod:`chouette.online`):

* :class:`ChouetteOnlineGame` - one game of a session played on the server: the box
  against the team on one board. ``table`` is :meth:`chouette.online.table.Table.to_dict`
  (the engine's board and every member's cube), ``version`` is bumped by every action,
  ``clock`` the R12 move clock of box and captain (``games.engine.clock.ClockState``,
  when the session has one), ``alarm_at`` the next moment something is due (the end of a
  cube decision's time window or a flag). When it ends, its
  :meth:`~chouette.online.table.Table.entry` is recorded as an ordinary game event
  (``event``), through the same settlement and ledger as a game typed in.
* :class:`ChouetteOnlineAction` - the game's append-only log: every roll, play and cube
  action with who made it (``seq`` = the game's version after it).
* :class:`ChouetteTeamMessage` - the team's consultation: chat lines and suggested
  plays, shown to the team only (never to the box or the partner).

Player ids in the JSON columns are :class:`games.models.Player` primary keys.
Writes go through :mod:`chouette.services` only.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.codes import new_code
from games.models import Player

#: A session's join code: 6 letters of 31 (:data:`games.codes.CODE_ALPHABET`); typing one
#: is throttled (``chouette_join``), so it cannot be found by trying.
JOIN_CODE_LENGTH = 6
#: Online play: a cube decision's time window unless the session says otherwise.
DEFAULT_DECISION_SECONDS = 30
#: The longest window a session may set (a decision is a decision, not a coffee break).
MAX_DECISION_SECONDS = 600
#: The wait when nobody at the table can act and the session has no decision window
#: (0): a decision nobody present answers, a side nobody present moves for (R13 online).
AWAY_WINDOW_SECONDS = 120


def new_join_code() -> str:
    """A fresh join code (the service makes sure no other open session has it)."""
    return new_code(JOIN_CODE_LENGTH)


class ChouetteSession(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("open")
        ENDED = "ended", _("ended")

    name = models.CharField(_("name"), max_length=120)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    started_at = models.DateTimeField(_("started"), default=timezone.now)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)
    #: The last time the session was reopened after an end by mistake, and by whom
    #: (:func:`chouette.services.sessions.session_reopen`); the end itself is then cleared.
    reopened_at = models.DateTimeField(_("reopened"), null=True, blank=True)
    reopened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("reopened by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.OPEN
    )
    #: Money per point; ``None``: the session is played for points only.
    stake_per_point = models.DecimalField(
        _("stake per point"), max_digits=10, decimal_places=2, null=True, blank=True
    )
    currency = models.CharField(_("currency"), max_length=3, blank=True)
    #: :meth:`chouette.rules.Profile.to_dict`, chosen at the start, never changed.
    profile = models.JSONField(_("rule profile"), default=dict)
    #: The roll-off: ``[{"player": id, "rolls": [die, re-roll, ...]}, ...]``.
    rolls = models.JSONField(_("roll-off"), default=list)
    #: Whether the server rolled the roll-off (``secrets``) rather than the table.
    rolled_by_server = models.BooleanField(_("rolled by the server"), default=False)
    #: :meth:`chouette.rules.Seating.to_dict` after the roll-off.
    start_seating = models.JSONField(_("starting seating"), default=dict)
    #: The seating now (the ledger's, stored by every write for cheap reading).
    seating = models.JSONField(_("seating"), default=dict)
    #: Bumped by every write to the session.
    version = models.PositiveIntegerField(_("version"), default=0)
    #: What a newcomer types (or scans) to join from a phone: unique among open sessions.
    join_code = models.CharField(_("join code"), max_length=JOIN_CODE_LENGTH, default=new_join_code)
    #: Online play (issue 19): the time a member has for a cube decision (0: no limit),
    #: and what an unanswered take-or-drop becomes (chouette.online.table).
    decision_seconds = models.PositiveSmallIntegerField(
        _("seconds for a cube decision"), default=DEFAULT_DECISION_SECONDS
    )
    decision_default = models.CharField(
        _("unanswered double"),
        max_length=4,
        choices=[("take", _("taken")), ("drop", _("dropped"))],
        default="take",
    )
    #: The R12 move clock of box and captain online (``ClockSettings`` as a dict), or none.
    online_clock = models.JSONField(_("move clock online"), null=True, blank=True)
    #: The session this one was split off (its players sit out there), if any.
    split_from = models.ForeignKey(
        "self",
        verbose_name=_("split from"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="splits",
    )

    class Meta:
        verbose_name = _("chouette session")
        verbose_name_plural = _("chouette sessions")
        ordering = ["-started_at", "-id"]
        #: The club's scorekeeper (granted in the admin, to a user or a group) may start
        #: and keep any session, also one they do not play in (:mod:`chouette.services`).
        permissions = [("keep_score", _("Can start and keep the score of any chouette session"))]
        constraints = [
            models.UniqueConstraint(
                fields=["join_code"],
                condition=models.Q(status="open"),
                name="chouette_join_code_open_unique",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


class ChouetteParticipant(models.Model):
    """A player of a session, in the order they joined (the roll-off order first).

    ``proxy`` (issue 19): another participant who takes this player's cube decisions
    while they are away from the table (:mod:`chouette.rules.proxies`: not the player,
    not chained; set by :func:`chouette.services.proxies.participant_proxy_set`)."""

    session = models.ForeignKey(
        ChouetteSession,
        verbose_name=_("session"),
        on_delete=models.CASCADE,
        related_name="participants",
    )
    player = models.ForeignKey(
        Player,
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        related_name="chouette_seats",
    )
    order = models.PositiveSmallIntegerField(_("joined order"))
    joined_at = models.DateTimeField(_("joined"), default=timezone.now)
    proxy = models.ForeignKey(
        Player,
        verbose_name=_("proxy"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text=_("Another player of the session who takes this player's cube decisions."),
    )

    class Meta:
        verbose_name = _("chouette participant")
        verbose_name_plural = _("chouette participants")
        ordering = ["session", "order"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(proxy=models.F("player")),
                name="chouette_participant_proxy_not_self",
            ),
            models.UniqueConstraint(
                fields=["session", "player"], name="chouette_participant_unique"
            ),
            models.UniqueConstraint(
                fields=["session", "order"], name="chouette_participant_order_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session}: {self.player}"


class ChouetteEvent(models.Model):
    """One entry of a session's append-only log (see the module docstring)."""

    class Kind(models.TextChoices):
        GAME = "game", _("game")
        SEAT_CHANGE = "seat_change", _("seat change")

    session = models.ForeignKey(
        ChouetteSession,
        verbose_name=_("session"),
        on_delete=models.CASCADE,
        related_name="events",
    )
    seq = models.PositiveIntegerField(_("number"))
    #: Where the event replays (``seq``, or the ``seq`` of the game a correction replaces).
    place = models.PositiveIntegerField(_("place in the replay"), default=0)
    #: The game row this one corrects (an edit, issue 27); that row is flagged undone.
    corrects = models.OneToOneField(
        "self",
        verbose_name=_("corrects"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="correction",
    )
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    data = models.JSONField(_("data"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("entered"), default=timezone.now)
    #: An undone game stays in the log but no longer counts.
    undone = models.BooleanField(_("undone"), default=False)
    undone_at = models.DateTimeField(_("undone at"), null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("undone by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("chouette event")
        verbose_name_plural = _("chouette events")
        ordering = ["session", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["session", "seq"], name="chouette_event_seq_unique"),
            # One row that counts per place (a correction takes its game's place).
            models.UniqueConstraint(
                fields=["session", "place"],
                condition=models.Q(undone=False),
                name="chouette_event_place_counted_unique",
            ),
            models.CheckConstraint(
                condition=models.Q(kind="game") | models.Q(undone=False),
                name="chouette_event_only_games_undone",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session} #{self.seq} {self.kind}"


class ChouetteLine(models.Model):
    """One player's points in one game; a game's lines sum to zero (module docstring)."""

    session = models.ForeignKey(
        ChouetteSession,
        verbose_name=_("session"),
        on_delete=models.CASCADE,
        related_name="lines",
    )
    event = models.ForeignKey(
        ChouetteEvent, verbose_name=_("game"), on_delete=models.CASCADE, related_name="lines"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="chouette_lines"
    )
    points = models.IntegerField(_("points"))

    class Meta:
        verbose_name = _("chouette ledger line")
        verbose_name_plural = _("chouette ledger lines")
        ordering = ["event", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="chouette_line_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.player_id} {self.points:+d}"


class ChouetteOnlineGame(models.Model):
    """One game of a session played online (see the module docstring)."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")
        ABANDONED = "abandoned", _("abandoned")

    session = models.ForeignKey(
        ChouetteSession,
        verbose_name=_("session"),
        on_delete=models.CASCADE,
        related_name="online_games",
    )
    number = models.PositiveIntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLAYING
    )
    table = models.JSONField(_("table"))
    version = models.PositiveIntegerField(_("version"), default=0)
    clock = models.JSONField(_("clock"), null=True, blank=True)
    #: When something is due: a decision's window ends or a move clock flags.
    alarm_at = models.DateTimeField(_("due at"), null=True, blank=True)
    #: When the open cube decisions were first asked, or when the side on roll was left
    #: with nobody at the table to move for it (the window runs from here).
    decisions_since = models.DateTimeField(_("decisions asked"), null=True, blank=True)
    event = models.OneToOneField(
        ChouetteEvent,
        verbose_name=_("recorded game"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="online_game",
    )
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("started by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    started_at = models.DateTimeField(_("started"), default=timezone.now)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)

    class Meta:
        verbose_name = _("online chouette game")
        verbose_name_plural = _("online chouette games")
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "number"], name="chouette_online_game_number_unique"
            ),
            # One game at a time at a chouette table.
            models.UniqueConstraint(
                fields=["session"],
                condition=models.Q(status="playing"),
                name="chouette_online_game_one_playing",
            ),
        ]
        indexes = [
            models.Index(
                fields=["alarm_at"],
                condition=models.Q(status="playing", alarm_at__isnull=False),
                name="chouette_online_alarm_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session} online #{self.number}"

    @property
    def is_playing(self) -> bool:
        return self.status == self.Status.PLAYING


class ChouetteOnlineAction(models.Model):
    """One row of an online game's append-only log."""

    game = models.ForeignKey(
        ChouetteOnlineGame,
        verbose_name=_("game"),
        on_delete=models.CASCADE,
        related_name="actions",
    )
    seq = models.PositiveIntegerField(_("sequence number"))
    kind = models.CharField(_("kind"), max_length=24)
    actor = models.ForeignKey(
        Player,
        verbose_name=_("actor"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    #: Who pressed the button, when it was not the actor (a proxy).
    by_player = models.ForeignKey(
        Player,
        verbose_name=_("pressed by"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    data = models.JSONField(_("data"), default=dict, blank=True)
    created_at = models.DateTimeField(_("time"), default=timezone.now)

    class Meta:
        verbose_name = _("online chouette action")
        verbose_name_plural = _("online chouette actions")
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="chouette_online_action_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.seq} {self.kind}"


#: The longest line of the team's chat.
TEAM_MESSAGE_LENGTH = 300


class ChouetteTeamMessage(models.Model):
    """A line of the team's consultation (the box does not see it)."""

    game = models.ForeignKey(
        ChouetteOnlineGame,
        verbose_name=_("game"),
        on_delete=models.CASCADE,
        related_name="team_messages",
    )
    author = models.ForeignKey(
        Player, verbose_name=_("author"), on_delete=models.PROTECT, related_name="+"
    )
    text = models.CharField(_("text"), max_length=TEAM_MESSAGE_LENGTH, blank=True)
    #: A suggested play: its notation (``13/7 8/7``) for the dice it was suggested for.
    play = models.CharField(_("suggested play"), max_length=80, blank=True)
    created_at = models.DateTimeField(_("time"), default=timezone.now)

    class Meta:
        verbose_name = _("team message")
        verbose_name_plural = _("team messages")
        ordering = ["game", "id"]

    def __str__(self) -> str:
        return f"{self.game}: {self.author_id}"
