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
  :func:`chouette.services.session_split`) names the session it came from
  (``split_from``).
* :class:`ChouetteEvent` - the append-only log: a played game (``data`` is
  :meth:`chouette.rules.GameEntry.to_dict`) or a seat change between games
  (:meth:`chouette.rules.SeatChange.to_dict`), numbered ``seq`` 1, 2, ... per session.
  Undoing the last game sets its ``undone`` flag (the row stays, for the history): the
  ledger is the replay of the events that are not undone, which restores totals *and*
  seating exactly (:meth:`chouette.rules.Ledger.undo`).
* :class:`ChouetteLine` - one player's points for one game. **The lines of every game sum
  to zero** (R13): the service checks it before writing, and on PostgreSQL a deferred
  constraint trigger (migration ``0002_zero_sum_trigger``) refuses, at commit, any
  transaction that leaves a game's lines unbalanced, whoever wrote them. SQLite (the
  one-command local run only) has no such trigger and relies on the service's check.
  Running totals are the sums of the lines of games not undone, so they sum to zero too.

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
    #: (:func:`chouette.services.session_reopen`); the end itself is then cleared.
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
    not chained; set by :func:`chouette.services.participant_proxy_set`)."""

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
