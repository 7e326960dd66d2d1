"""Tournaments on the database: events, flights, rounds, entries, matches, corrections.

The pure draw code (:mod:`tournaments.pairing`) decides who plays whom; these models
store what it needs and what it produced:

* :class:`Event` - one day (or weekend) of a club, run by its ``directors``.
* :class:`Flight` - one bracket or one Swiss / round robin of an event, with its
  format, builder ``options``, seeding method and recorded random ``seed``, and the
  ``bracket`` graph (:meth:`tournaments.pairing.Bracket.to_dict`) stored at the draw.
* :class:`FlightRound` - match length, clock and start time of one round of one part of
  a flight. A round without a row uses the flight's defaults.
* :class:`Entry` - a player in a flight, with the seed the draw gave them.
* :class:`TournamentMatch` - one match: a bracket slot (``slot_key`` ``"M2-3"``) or a
  Swiss / round robin pairing (``"R2-3"`` = round 2, board 3). A bracket flight has one
  row for every slot from the draw on (the bracket page draws the empty ones too); the
  service layer keeps the rows in step with :func:`tournaments.pairing.resolve`.
* :class:`ResultCorrection` - the audit row of every change to a result that stood.

``part`` on rounds and matches is the part of the flight's bracket a slot belongs to:
the pairing package's slot part (``main``, ``consolation``, ``last_chance``, ``winners``,
``losers``, ``final``), or ``""`` for Swiss and round robin. A **ranking** is a group of
parts with one finishing order: every part is its own, except that double elimination
ranks ``winners``, ``losers`` and ``final`` together as ``main``. (A flight itself is a
division of the event: one draw.)

Writes go through :mod:`tournaments.services` only.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.codes import CODE_ALPHABET, new_code
from games.models import Match, Player
from tournaments.pairing.lateness import start_score

#: The letters of an event's check-in code: no look-alikes (:data:`games.codes.CODE_ALPHABET`).
CHECK_IN_ALPHABET = CODE_ALPHABET
CHECK_IN_LENGTH = 6


def new_check_in_code() -> str:
    """A fresh check-in code (31**6, some 887 million codes; the check-in is throttled)."""
    return new_code(CHECK_IN_LENGTH)


class Event(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=120, unique=True)
    starts_on = models.DateField(_("starts on"))
    location = models.CharField(_("location"), max_length=200, blank=True)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name=_("directors"), related_name="directed_events"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    #: Whether the event's results count for the players' ratings (issue 8); decided
    #: for each result as it comes to stand, so it changes only before the first result
    #: is in the rating ledger (:func:`tournaments.services.events.event_update` refuses
    #: after).
    rated = models.BooleanField(
        _("rated"),
        default=True,
        help_text=_("The results of this event count for the players' ratings."),
    )
    #: The code players type on their phone to check in at the venue (issue 17), shown
    #: on the director's desk (:mod:`tournaments.pages.desk`).
    check_in_code = models.CharField(
        _("check-in code"), max_length=CHECK_IN_LENGTH, default=new_check_in_code
    )
    #: ISO 4217 code of the night's money (issue 17: fees, side pools, prizes), one of
    #: :data:`tournaments.payouts.CURRENCIES`; set with a flight's money settings.
    currency = models.CharField(_("currency"), max_length=3, default="HUF")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["-starts_on", "-id"]

    def __str__(self) -> str:
        return self.name

    def is_director(self, user: Any) -> bool:
        """Whether ``user`` may run this event: one of its directors, or a superuser
        (active accounts only; never an anonymous visitor). One query at most."""
        if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
            return False
        if user.is_superuser:
            return True
        return self.directors.filter(pk=user.pk).exists()


class Format(models.TextChoices):
    SINGLE_ELIMINATION = "single_elimination", _("single elimination")
    CONSOLATION = "consolation", _("main and consolation")
    PROGRESSIVE_CONSOLATION = "progressive_consolation", _("main and progressive consolation")
    LAST_CHANCE = "last_chance", _("main and last chance")
    CONSOLATION_LAST_CHANCE = "consolation_last_chance", _("main, consolation and last chance")
    DOUBLE_ELIMINATION = "double_elimination", _("double elimination")
    SWISS = "swiss", _("Swiss")
    ROUND_ROBIN = "round_robin", _("round robin")


#: Flight format -> the pairing package's bracket format (the knockout formats).
BRACKET_FORMATS: dict[str, str] = {
    Format.SINGLE_ELIMINATION: "single",
    Format.CONSOLATION: "consolation",
    Format.PROGRESSIVE_CONSOLATION: "progressive",
    Format.LAST_CHANCE: "last_chance",
    Format.CONSOLATION_LAST_CHANCE: "consolation_last_chance",
    Format.DOUBLE_ELIMINATION: "double",
}


#: The parts (``part`` values) of each format, for round settings before the draw.
FORMAT_PARTS: dict[str, tuple[str, ...]] = {
    Format.SINGLE_ELIMINATION: ("main",),
    Format.CONSOLATION: ("main", "consolation"),
    Format.PROGRESSIVE_CONSOLATION: ("main", "consolation"),
    Format.LAST_CHANCE: ("main", "last_chance"),
    Format.CONSOLATION_LAST_CHANCE: ("main", "consolation", "last_chance"),
    Format.DOUBLE_ELIMINATION: ("winners", "losers", "final"),
    Format.SWISS: ("",),
    Format.ROUND_ROBIN: ("",),
}

#: The bracket builders' options (``Flight.options``), per knockout format.
BUILDER_OPTIONS: dict[str, tuple[str, ...]] = {
    Format.SINGLE_ELIMINATION: (),
    Format.CONSOLATION: ("entry_rounds",),
    Format.PROGRESSIVE_CONSOLATION: ("last_entry_round",),
    Format.LAST_CHANCE: ("entry_rounds",),
    Format.CONSOLATION_LAST_CHANCE: ("entry_rounds", "last_chance_rounds"),
    Format.DOUBLE_ELIMINATION: ("bracket_reset",),
}

#: Default season points (``Flight.options["season_points"]``): per match win, by part.
DEFAULT_SEASON_POINTS: dict[str, Any] = {
    "per_win": {"main": 12, "consolation": 8, "last_chance": 2},
    "per_place": {},
}


class ClockPolicy(models.TextChoices):
    OFF = "off", _("no clocks")
    ALLOWED = "allowed", _("clocks allowed")
    REQUIRED = "required", _("clocks required")


class Flight(models.Model):
    """One draw of an event.

    ``options`` (JSON, validated by ``flight_create``):

    * bracket builders: ``entry_rounds`` (consolation, last chance, and main +
      consolation + last chance: 1 or 2), ``last_chance_rounds`` (main + consolation +
      last chance: how many consolation rounds' losers play the last chance, 1 or 2),
      ``last_entry_round`` (progressive consolation), ``bracket_reset`` (double);
    * Swiss: ``rounds`` (required), and Swiss / round robin ``tiebreaks`` (an order of
      :data:`tournaments.pairing.TIEBREAKS`, the wins first; none: the format's default,
      :func:`tournaments.bridge.tiebreak_order`);
    * ``season_points``: ``{"per_win": {part: points}, "per_place": {ranking: [points
      for place 1, 2, ...]}}``; a part missing from ``per_win`` uses its ``"*"`` entry
      (default 0). Default table: 12 per win in the main, 8 in the consolation, 2 in the
      last chance (walkovers count as wins, byes do not), no place points.
    """

    class SeedingMethod(models.TextChoices):
        RATING = "rating", _("by rating")
        RANDOM = "random", _("at random")
        #: The director's own order (``Entry.manual_seed``, set before the draw).
        MANUAL = "manual", _("by hand")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("registration")
        DRAWN = "drawn", _("drawn")
        FINISHED = "finished", _("finished")

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="flights"
    )
    name = models.CharField(_("name"), max_length=80)
    format = models.CharField(_("format"), max_length=30, choices=Format.choices)
    options = models.JSONField(_("options"), default=dict, blank=True)
    seeding = models.CharField(
        _("seeding"), max_length=10, choices=SeedingMethod.choices, default=SeedingMethod.RATING
    )
    #: The integer that made a random seeding (recorded so that the draw can be redone).
    seed = models.BigIntegerField(_("random seed"), null=True, blank=True)
    #: :meth:`tournaments.pairing.Bracket.to_dict`, stored at the draw (knockouts only).
    bracket = models.JSONField(_("bracket"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.REGISTRATION
    )
    match_length = models.PositiveSmallIntegerField(_("default match length"), default=5)
    clock_preset = models.CharField(_("default clock preset"), max_length=20, blank=True)
    clock_policy = models.CharField(
        _("clock policy"), max_length=10, choices=ClockPolicy.choices, default=ClockPolicy.OFF
    )
    #: The club's lateness rule (docs/rules.md R15, :mod:`tournaments.pairing.lateness`):
    #: after ``lateness_grace`` minutes, a penalty point per ``lateness_per_point``
    #: minutes (or part of them) for the late player's opponent; past half the match
    #: length, a forfeit. Changes until the first match starts
    #: (:func:`tournaments.services.lateness.flight_set_lateness`).
    lateness = models.BooleanField(_("lateness penalties"), default=False)
    lateness_grace = models.PositiveSmallIntegerField(_("grace minutes"), default=5)
    lateness_per_point = models.PositiveSmallIntegerField(_("minutes per penalty point"), default=5)
    #: Players may register themselves (issue 17: :mod:`tournaments.services.registration`);
    #: a director confirms each registration. ``capacity``: at most so many places
    #: (active and to-confirm entries); the next registrations wait on the waitlist.
    self_registration = models.BooleanField(_("open for self-registration"), default=False)
    capacity = models.PositiveSmallIntegerField(_("places"), null=True, blank=True)
    #: Issue 29: a later round's match is published and takes results as soon as both
    #: its players are known, without waiting for the whole round before it (players
    #: who finish early play on). Off: a round is published when the round before is
    #: complete (:func:`tournaments.services.common.publish_due`).
    play_ahead = models.BooleanField(
        _("play ahead"),
        default=True,
        help_text=_("A next-round match can be played as soon as both its players are known."),
    )
    #: Bumped by every write to the flight or its matches' results.
    version = models.PositiveIntegerField(_("version"), default=0)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("flight")
        verbose_name_plural = _("flights")
        ordering = ["event", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="flight_name_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.name}"

    @property
    def is_bracket(self) -> bool:
        return self.format in BRACKET_FORMATS


class FlightRound(models.Model):
    """Settings of one round of one part of a flight."""

    flight = models.ForeignKey(
        Flight, verbose_name=_("flight"), on_delete=models.CASCADE, related_name="rounds"
    )
    part = models.CharField(_("part"), max_length=20, blank=True)
    number = models.PositiveSmallIntegerField(_("round"))
    match_length = models.PositiveSmallIntegerField(_("match length"))
    clock_preset = models.CharField(_("clock preset"), max_length=20, blank=True)
    clock_policy = models.CharField(
        _("clock policy"), max_length=10, choices=ClockPolicy.choices, default=ClockPolicy.OFF
    )
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    published_at = models.DateTimeField(_("published"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["flight", "part", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["flight", "part", "number"], name="flight_round_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.flight} {self.part} {self.number}".replace("  ", " ")


class Entry(models.Model):
    """A player in a flight. ``status``: ``active`` (in the draw), ``withdrawn``; and a
    player's own registration (issue 17) before it is in: ``pending`` (to confirm by a
    director), ``waitlisted`` (beyond the flight's ``capacity``, in order of
    registration), ``refused``. Only active entries are drawn; "the flight's entries"
    on pages and in the API are :data:`IN_FLIGHT` (registrations are listed apart)."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        WITHDRAWN = "withdrawn", _("withdrawn")
        PENDING = "pending", _("to confirm")
        WAITLISTED = "waitlisted", _("on the waitlist")
        REFUSED = "refused", _("refused")

    flight = models.ForeignKey(
        Flight, verbose_name=_("flight"), on_delete=models.CASCADE, related_name="entries"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="entries"
    )
    #: Set at the draw (a late entry takes the next number: a bye's seed).
    seed = models.PositiveSmallIntegerField(_("seed"), null=True, blank=True)
    rating = models.DecimalField(_("rating at entry"), max_digits=7, decimal_places=2)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE
    )
    late = models.BooleanField(_("late entry"), default=False)
    #: The director's seed for a manual seeding (``Flight.SeedingMethod.MANUAL``, issue
    #: 29), set before the draw; 1 is the top seed. The draw copies it into ``seed``.
    manual_seed = models.PositiveSmallIntegerField(_("seed by hand"), null=True, blank=True)
    #: The entry's place in the flight's main ranking (the main draw; the three parts of
    #: a double elimination together; the Swiss / round robin standings), as
    #: :func:`tournaments.selectors.flight_finishing_order` gives it, once it is final:
    #: ``place`` the group's best place (3 for "3-4"), ``place_label`` as shown.
    #: Written by :mod:`tournaments.services.advancing` whenever a flight changes (see
    #: ``_store_places``), empty while the entrant is still playing; read by the player
    #: page (:func:`tournaments.selectors.player_placings`) without computing brackets.
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    place_label = models.CharField(_("place (as shown)"), max_length=10, blank=True)
    #: The final place in the other part the entrant played (``consolation`` or
    #: ``last_chance``; main + consolation + last chance: the later of the two they
    #: played, :func:`tournaments.pairing.entrant_places`), the same way; empty when none.
    side_part = models.CharField(_("other part"), max_length=20, blank=True)
    side_place_label = models.CharField(_("place in the other part"), max_length=10, blank=True)
    #: The night's desk (issue 17): when the player was ticked in at the venue (by a
    #: director, or by the player with the event's code), and when the entry fee was
    #: paid. Empty: not (yet). The prize pool counts the paid entries only.
    checked_in_at = models.DateTimeField(_("checked in"), null=True, blank=True)
    paid_at = models.DateTimeField(_("entry fee paid"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["flight", "seed", "id"]
        constraints = [
            models.UniqueConstraint(fields=["flight", "player"], name="entry_once_per_flight"),
            models.UniqueConstraint(
                fields=["flight", "seed"],
                condition=models.Q(seed__isnull=False),
                name="entry_seed_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.flight})"


class TournamentMatch(models.Model):
    """One match of a flight (see the module docstring for keys and rows).

    A result **stands** once ``decided_at`` is set: entered by a director, both players'
    reports agreeing, a report confirmed, a walkover recorded, or an online match that
    finished. Byes and walkovers that follow from withdrawals (bracket formats) are
    derived by :func:`tournaments.pairing.resolve` and keep ``decided_at`` empty.
    ``report_a``/``report_b``: a player's report, ``{"user", "score_a", "score_b",
    "winner", "games", "at"}``.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for players")
        READY = "ready", _("ready")
        REPORTED = "reported", _("reported, to confirm")
        #: Both players reported, with different results (issue 29): both reports are
        #: kept; a director resolves it by choosing one or typing the score.
        DISPUTED = "disputed", _("disputed")
        CONFIRMED = "confirmed", _("played")
        WALKOVER = "walkover", _("walkover")
        BYE = "bye", _("bye")

    class Side(models.TextChoices):
        NONE = "", _("none")
        A = "a", _("side A")
        B = "b", _("side B")

    flight = models.ForeignKey(
        Flight, verbose_name=_("flight"), on_delete=models.CASCADE, related_name="matches"
    )
    slot_key = models.CharField(_("slot"), max_length=20)
    part = models.CharField(_("part"), max_length=20, blank=True)
    round = models.PositiveSmallIntegerField(_("round"))
    index = models.PositiveSmallIntegerField(_("match number"))
    entry_a = models.ForeignKey(
        Entry,
        verbose_name=_("side A"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    entry_b = models.ForeignKey(
        Entry,
        verbose_name=_("side B"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    match_length = models.PositiveSmallIntegerField(_("match length"))
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    winner = models.CharField(
        _("winner"), max_length=1, choices=Side.choices, blank=True, default=""
    )
    score_a = models.PositiveSmallIntegerField(_("score A"), null=True, blank=True)
    score_b = models.PositiveSmallIntegerField(_("score B"), null=True, blank=True)
    #: Game by game: ``[{"winner": 1|2, "points": n, "cube": c}, ...]`` (may be empty).
    games = models.JSONField(_("games"), default=list, blank=True)
    online_match = models.OneToOneField(
        Match,
        verbose_name=_("online match"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournament_match",
    )
    #: The match as recorded from its ``.mat`` file, uploaded by a director or one of its
    #: players after it was played at the board (:mod:`tournaments.services.mats`), for
    #: its analysis; imported, so never rated (the result here is what is rated).
    mat_match = models.OneToOneField(
        Match,
        verbose_name=_("match file"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournament_mat",
    )
    report_a = models.JSONField(_("report of side A"), null=True, blank=True)
    report_b = models.JSONField(_("report of side B"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("confirmed by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    decided_at = models.DateTimeField(_("result stands since"), null=True, blank=True)
    #: Lateness (docs/rules.md R15, :mod:`tournaments.services.lateness`): the side that
    #: was late (``""``: nobody), by how many minutes, and the penalty points, which are
    #: the opponent's starting score (:attr:`start_score`); ``late_forfeit``: the late
    #: player forfeited (the match is a walkover, no starting score).
    late_side = models.CharField(
        _("late side"), max_length=1, choices=Side.choices, blank=True, default=""
    )
    late_minutes = models.PositiveSmallIntegerField(_("minutes late"), null=True, blank=True)
    late_points = models.PositiveSmallIntegerField(_("lateness penalty points"), default=0)
    late_forfeit = models.BooleanField(_("forfeited by lateness"), default=False)
    version = models.PositiveIntegerField(_("version"), default=0)

    class Meta:
        verbose_name = _("tournament match")
        verbose_name_plural = _("tournament matches")
        ordering = ["flight", "id"]
        constraints = [
            models.UniqueConstraint(fields=["flight", "slot_key"], name="tmatch_slot_unique"),
            models.CheckConstraint(
                condition=models.Q(entry_a__isnull=True) | ~models.Q(entry_a=models.F("entry_b")),
                name="tmatch_two_entries",
            ),
        ]
        indexes = [models.Index(fields=["flight", "status"], name="tmatch_flight_status")]

    def __str__(self) -> str:
        return f"{self.flight} {self.slot_key}"

    @property
    def has_result(self) -> bool:
        return self.decided_at is not None

    def side_of(self, entry_id: int | None) -> str:
        """``"a"``, ``"b"`` or ``""`` for an entry id."""
        if entry_id is not None and entry_id == self.entry_a_id:
            return "a"
        if entry_id is not None and entry_id == self.entry_b_id:
            return "b"
        return ""

    @property
    def start_score(self) -> tuple[int, int]:
        """The score (side a, side b) the match starts at: the late player's opponent
        starts at the penalty points (R15); ``(0, 0)`` without one."""
        return start_score(self.late_side, self.late_points)

    @property
    def late_entry(self) -> Entry | None:
        """The entry that was late, if any."""
        return {"a": self.entry_a, "b": self.entry_b}.get(self.late_side)

    @property
    def late_opponent(self) -> Entry | None:
        """The late player's opponent (who starts at the penalty points), if any."""
        return {"a": self.entry_b, "b": self.entry_a}.get(self.late_side)

    def result_dict(self) -> dict[str, object]:
        """The result as stored in a :class:`ResultCorrection` (with the two entries: a
        reset can change a later match's players)."""
        return {
            "entry_a": self.entry_a_id,
            "entry_b": self.entry_b_id,
            "status": self.status,
            "winner": self.winner,
            "score_a": self.score_a,
            "score_b": self.score_b,
            "games": self.games,
        }


#: The entries of the flight proper (drawn, or to be drawn, and those withdrawn): not
#: the registrations still to confirm, waiting or refused.
IN_FLIGHT = (Entry.Status.ACTIVE, Entry.Status.WITHDRAWN)
#: The entries that hold one of a flight's places (its ``capacity``).
HOLDS_PLACE = (Entry.Status.ACTIVE, Entry.Status.PENDING)

#: The matches to be played now: both players known, no result yet.
OPEN = (
    TournamentMatch.Status.READY,
    TournamentMatch.Status.REPORTED,
    TournamentMatch.Status.DISPUTED,
)
#: The matches that are over: played, walked over or a bye.
DONE = (
    TournamentMatch.Status.CONFIRMED,
    TournamentMatch.Status.WALKOVER,
    TournamentMatch.Status.BYE,
)
#: The matches whose results the services put into the rating ledger: played results
#: that stand (walkovers and byes are not in it; a reset takes a result out).
IN_LEDGER = models.Q(status=TournamentMatch.Status.CONFIRMED, decided_at__isnull=False)


class ResultCorrection(models.Model):
    """Audit of one change to a result that stood: who, when, old, new, why; and
    (``kind`` ``dispute``, issue 29) of a director's resolution of a disputed match:
    ``old`` holds both players' reports, ``new`` the result that now stands."""

    class Kind(models.TextChoices):
        CORRECTION = "correction", _("correction")
        DISPUTE = "dispute", _("dispute resolved")

    match = models.ForeignKey(
        TournamentMatch,
        verbose_name=_("match"),
        on_delete=models.CASCADE,
        related_name="corrections",
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    at = models.DateTimeField(_("when"), auto_now_add=True)
    old = models.JSONField(_("old result"))
    new = models.JSONField(_("new result"))
    reason = models.TextField(_("reason"))
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.CORRECTION)

    class Meta:
        verbose_name = _("result correction")
        verbose_name_plural = _("result corrections")
        ordering = ["match", "at", "id"]

    def __str__(self) -> str:
        return f"{self.match} @ {self.at:%Y-%m-%d %H:%M}"


#: The split a club would use, per format (ranking -> percentages for places 1, 2, ...),
#: offered on a flight's money settings before the director sets their own.
DEFAULT_SPLITS: dict[str, dict[str, list[int]]] = {
    Format.SINGLE_ELIMINATION: {"main": [50, 30, 10, 10]},
    Format.CONSOLATION: {"main": [40, 25], "consolation": [25, 10]},
    Format.PROGRESSIVE_CONSOLATION: {"main": [40, 25], "consolation": [25, 10]},
    Format.LAST_CHANCE: {"main": [45, 25], "last_chance": [20, 10]},
    Format.CONSOLATION_LAST_CHANCE: {
        "main": [35, 20],
        "consolation": [20, 10],
        "last_chance": [10, 5],
    },
    Format.DOUBLE_ELIMINATION: {"main": [50, 30, 20]},
    Format.SWISS: {"": [50, 30, 20]},
    Format.ROUND_ROBIN: {"": [50, 30, 20]},
}
#: The split of a new side pool (its flight's main ranking).
DEFAULT_SIDE_POOL_SPLIT = [70, 30]


class FlightMoney(models.Model):
    """A flight's money settings (issue 17; the terms: :mod:`tournaments.payouts`): the
    entry fee, the house's cut (a percentage of what was collected plus a fixed
    amount) and the split of the prize pool, ``{ranking: ["40", "25"]}`` (percentages
    as text, exact). A flight without a row has no fee. Set by
    :func:`tournaments.services.money.flight_money_set` only."""

    flight = models.OneToOneField(
        Flight, verbose_name=_("flight"), on_delete=models.CASCADE, related_name="money"
    )
    fee = models.DecimalField(_("entry fee"), max_digits=12, decimal_places=2, default=0)
    house_percent = models.DecimalField(
        _("house cut (percent)"), max_digits=5, decimal_places=2, default=0
    )
    house_fixed = models.DecimalField(
        _("house cut (fixed)"), max_digits=12, decimal_places=2, default=0
    )
    split = models.JSONField(_("split"), default=dict, blank=True)
    updated_at = models.DateTimeField(_("changed"), auto_now=True)

    class Meta:
        verbose_name = _("money settings")
        verbose_name_plural = _("money settings")

    def __str__(self) -> str:
        return f"{self.flight}: {self.fee}"


class SidePool(models.Model):
    """An optional pool of a flight (issue 17) with its own fee, entrants and split
    (like :attr:`FlightMoney.split`); paid out whole, no house cut."""

    flight = models.ForeignKey(
        Flight, verbose_name=_("flight"), on_delete=models.CASCADE, related_name="side_pools"
    )
    name = models.CharField(_("name"), max_length=80)
    fee = models.DecimalField(_("fee"), max_digits=12, decimal_places=2)
    split = models.JSONField(_("split"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("side pool")
        verbose_name_plural = _("side pools")
        ordering = ["flight", "id"]
        constraints = [
            models.UniqueConstraint(fields=["flight", "name"], name="side_pool_name_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.flight}: {self.name}"


class SidePoolEntry(models.Model):
    """An entry of the flight in one of its side pools; ``paid_at`` empty: not paid
    (counted out of the pool)."""

    pool = models.ForeignKey(
        SidePool, verbose_name=_("side pool"), on_delete=models.CASCADE, related_name="entries"
    )
    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="side_pools"
    )
    paid_at = models.DateTimeField(_("paid"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("side pool entry")
        verbose_name_plural = _("side pool entries")
        ordering = ["pool", "id"]
        constraints = [
            models.UniqueConstraint(fields=["pool", "entry"], name="side_pool_entry_once"),
        ]

    def __str__(self) -> str:
        return f"{self.entry} in {self.pool.name}"
