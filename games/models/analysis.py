"""GNU Backgammon's analysis of a match, as stored (issue 28).

Terms are gnubg's own, as its ``show statistics match`` prints them:

- **EMG**: equity in normalised money-game units. An *error* is the equity lost by a
  decision against gnubg's best one (always >= 0 here); the **error total** is their sum.
- **Unforced move**: a move with more than one legal play. **Close or actual cube
  decision**: a cube decision gnubg counts (an actual double, take or drop, or a
  no-double close enough to doubling).
- **Error rate (mEMG per decision)**: error total / (unforced moves + close or actual
  cube decisions) x 1000. **PR** (Performance Rating on XG's scale) = error rate / 2.
- **Snowie error rate**: error total / both players' moves x 1000 (mEMG).
- **Luck**: the equity a roll gained against the average roll (positive: lucky); the
  **luck rate** is the luck total per move in mEMG, the **luck-adjusted result** the
  match's result less the luck (gnubg's: in % of match winning chances for a match, in
  points for a money session).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class MatchAnalysis(models.Model):
    """One match's analysis job and, once done, its result (one row per match).

    The job's life: ``queued`` -> ``running`` (``progress`` 0-100) -> ``done``, or back to
    ``queued`` once when a run is killed or times out (``attempts`` counts runs), then
    ``failed`` with a stable ``failure_code`` and a human ``failure_reason``. A run
    stores its figures (the :class:`PlayerAnalysis` and :class:`DecisionAnalysis` rows)
    in one transaction together with ``status = done``: a killed run leaves none.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    match = models.OneToOneField(
        "games.Match", verbose_name=_("match"), on_delete=models.CASCADE, related_name="analysis"
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.QUEUED
    )
    #: gnubg's lookahead for chequer play and cube decisions: 0 (quick), 2 (its
    #: default, "world class"). Setting ``ANALYSIS_PLIES``.
    plies = models.PositiveSmallIntegerField(_("plies"), default=2)
    progress = models.PositiveSmallIntegerField(_("progress (%)"), default=0)
    attempts = models.PositiveSmallIntegerField(_("runs"), default=0)
    failure_code = models.CharField(_("failure code"), max_length=40, blank=True)
    failure_reason = models.TextField(_("failure reason"), blank=True)
    #: Which run holds the job now (a fresh token each run): a run that was given up
    #: on (timed out, its worker killed) finds another token and stores nothing.
    run_token = models.CharField(_("run token"), max_length=32, blank=True)
    gnubg_version = models.CharField(_("GNU Backgammon version"), max_length=60, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("requested by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    requested_at = models.DateTimeField(_("requested"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    #: Bumped by every change of status or progress (the API's and live screens' ETag).
    version = models.PositiveIntegerField(_("version"), default=0)

    class Meta:
        verbose_name = _("match analysis")
        verbose_name_plural = _("match analyses")
        ordering = ["-requested_at", "-id"]
        indexes = [models.Index(fields=["status", "requested_at"], name="analysis_status")]

    def __str__(self) -> str:
        return f"{self.match} ({self.get_status_display()})"


class PlayerAnalysis(models.Model):
    """One player's figures in one analysed match (gnubg's ``show statistics match``)."""

    analysis = models.ForeignKey(
        MatchAnalysis, verbose_name=_("analysis"), on_delete=models.CASCADE, related_name="players"
    )
    # Repeated from the analysis for the player pages' queries (history, averages).
    match = models.ForeignKey(
        "games.Match", verbose_name=_("match"), on_delete=models.CASCADE, related_name="+"
    )
    player = models.ForeignKey(
        "games.Player",
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="match_analyses",
    )
    #: The engine's index of the player in the match (0: player 1, 1: player 2).
    index = models.PositiveSmallIntegerField(_("player index"))
    unforced_moves = models.PositiveIntegerField(_("unforced moves"))
    close_cube_decisions = models.PositiveIntegerField(_("close or actual cube decisions"))
    chequer_error_emg = models.FloatField(_("chequer play error (EMG)"))
    cube_error_emg = models.FloatField(_("cube error (EMG)"))
    error_total_emg = models.FloatField(_("error total (EMG)"))
    error_rate_memg = models.FloatField(_("error rate (mEMG per decision)"))
    pr = models.FloatField(_("PR"))
    snowie_error_rate = models.FloatField(_("Snowie error rate"))
    luck_total_emg = models.FloatField(_("luck total (EMG)"))
    luck_rate_memg = models.FloatField(_("luck rate (mEMG per move)"))
    #: As gnubg prints it: in a match, the result less the luck in % of match winning
    #: chances; in a money session, in points. None when the match was not played to
    #: its end (lost on time, or still on): gnubg gives none then.
    luck_adjusted_result = models.FloatField(
        _("luck-adjusted result (percent of match winning chances; points for money)"),
        null=True,
        blank=True,
    )
    #: gnubg's words for the figures ("World class", "Go to bed", ...), as it prints them.
    rating_words = models.CharField(_("gnubg's rating"), max_length=40, blank=True)
    luck_words = models.CharField(_("gnubg's luck rating"), max_length=40, blank=True)
    #: In the player's averages: the match was played to the end and the player made at
    #: least ``ANALYSIS_MIN_DECISIONS`` (30) decisions in it.
    counts = models.BooleanField(_("counts in averages"))
    #: When the match was played (finished, or imported): the PR history's x axis.
    played_at = models.DateTimeField(_("played"))

    class Meta:
        verbose_name = _("player's analysis")
        verbose_name_plural = _("players' analyses")
        ordering = ["-played_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["analysis", "index"], name="player_analysis_once"),
        ]
        indexes = [models.Index(fields=["player", "-played_at"], name="player_analysis_history")]

    def __str__(self) -> str:
        return f"{self.player}: PR {self.pr:.2f}"


class DecisionAnalysis(models.Model):
    """One decision of one game as gnubg judged it: a move (with the luck of the roll
    before it) or a cube decision."""

    class Kind(models.TextChoices):
        MOVE = "move", _("move")
        CUBE = "cube", _("cube decision")

    class Mark(models.TextChoices):
        NONE = "", _("no mark")
        DOUBTFUL = "doubtful", _("doubtful")
        BAD = "bad", _("bad")
        VERY_BAD = "very_bad", _("very bad")

    class LuckMark(models.TextChoices):
        NONE = "", _("no mark")
        VERY_UNLUCKY = "very_unlucky", _("very unlucky")
        UNLUCKY = "unlucky", _("unlucky")
        LUCKY = "lucky", _("lucky")
        VERY_LUCKY = "very_lucky", _("very lucky")

    analysis = models.ForeignKey(
        MatchAnalysis,
        verbose_name=_("analysis"),
        on_delete=models.CASCADE,
        related_name="decisions",
    )
    game_number = models.PositiveSmallIntegerField(_("game number"))
    #: ``seq`` of the :class:`~games.models.GameAction` this decision made (the move, the
    #: double, the take or drop; for a no-double, the roll that followed it).
    action_seq = models.PositiveIntegerField(_("action"))
    #: The decision's place in its game, from 1 (the replay's step).
    ordinal = models.PositiveSmallIntegerField(_("decision number"))
    player_index = models.PositiveSmallIntegerField(_("player index"))
    kind = models.CharField(_("kind"), max_length=4, choices=Kind.choices)
    #: Moves: the dice ("63"); empty for a cube decision.
    dice = models.CharField(_("dice"), max_length=2, blank=True)
    #: What was played and gnubg's best, in gnubg's notation ("24/18 13/10"); cube
    #: decisions in words keys ("no_double", "double", "take", "drop", "beaver").
    played = models.CharField(_("played"), max_length=80)
    best = models.CharField(_("best"), max_length=80)
    equity_lost = models.FloatField(_("equity lost (EMG)"))
    mark = models.CharField(_("mark"), max_length=8, choices=Mark.choices, blank=True)
    #: The luck of the roll played by this move (EMG; moves only).
    luck = models.FloatField(_("luck (EMG)"), null=True, blank=True)
    luck_mark = models.CharField(
        _("luck mark"), max_length=12, choices=LuckMark.choices, blank=True
    )
    #: Forced moves (one legal play) are stored but count in no rate.
    forced = models.BooleanField(_("forced"), default=False)

    class Meta:
        verbose_name = _("analysed decision")
        verbose_name_plural = _("analysed decisions")
        ordering = ["game_number", "ordinal"]
        constraints = [
            models.UniqueConstraint(
                fields=["analysis", "game_number", "ordinal"], name="decision_analysis_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_number}.{self.ordinal} {self.kind}: {self.played}"
