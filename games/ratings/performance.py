"""The read side of GNU Backgammon's match analysis (issue 28): what the match page, the
replay, the player page, the API and the tournaments' flight page show of the stored
figures (:mod:`games.models.analysis` defines the terms). Selectors only: no writes.

Terms used here:

Figures are stored by a run in one transaction with its ``done``: a player's row exists
only for a match analysed to the end (an analysis asked again keeps the last run's rows
until the new run replaces them), so the reads below take the rows as they are.

- **Counted match**: a :class:`~games.models.PlayerAnalysis` with ``counts`` (the match
  was played to the end and the player made at least ``ANALYSIS_MIN_DECISIONS``
  decisions in it). Only counted matches enter a player's averages and PR history.
- **Average PR**: the plain mean of the counted matches' PRs (each match weighs the
  same, as a player reads a list of their matches), over the last
  :data:`RECENT_MATCHES` and over all of them.
- **PR class**: the band of the average PR (over all counted matches) among the bounds
  the BMAB's title levels use, :data:`PR_CLASS_BOUNDS`: class 1 is PR <= 2.5, class 2
  <= 4, class 3 <= 6.5, class 4 <= 10, class 5 <= 16, class 6 above 16. It is a class,
  never a title: a title needs the federation's own conditions.
- **Visible**: whether a viewer may see a player's figures (:func:`pr_visible`): everyone
  when ``settings.ANALYSIS_PR_PUBLIC``, else the player themself and staff only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.models import DecisionAnalysis, Match, MatchAnalysis, Player, PlayerAnalysis

#: The matches of the "recent" average.
RECENT_MATCHES = 10
#: The upper bounds (inclusive) of PR classes 1-5; above the last is class 6.
PR_CLASS_BOUNDS: tuple[float, ...] = (2.5, 4.0, 6.5, 10.0, 16.0)
#: The status of a match nobody asked to analyse (no MatchAnalysis row).
NONE = "none"


# ====================================================================== visibility
def pr_visible(viewer: Any, player: Player) -> bool:
    """Whether ``viewer`` (a user, maybe anonymous, or ``None``) may see ``player``'s
    analysis figures: anyone when ``ANALYSIS_PR_PUBLIC``; else the player's own login and
    staff."""
    if settings.ANALYSIS_PR_PUBLIC:
        return True
    if viewer is None or not getattr(viewer, "is_authenticated", False):
        return False
    return bool(viewer.is_staff) or (player.user_id is not None and player.user_id == viewer.pk)


def analysis_may_request(user: Any, match: Match) -> bool:
    """Whether ``user`` may ask for ``match``'s analysis: one of its players (their
    login), the user who imported its ``.mat`` file, or staff. (The request itself,
    checked again, is :func:`games.analysis.requesting.analysis_request_by`.)"""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff:
        return True
    if match.imported_by_id is not None and match.imported_by_id == user.pk:
        return True
    return user.pk in (match.player1.user_id, match.player2.user_id)


# ====================================================================== PR class
@dataclass(frozen=True, slots=True)
class PrClass:
    """One PR class (see the module docstring): ``number`` 1-6, ``upper`` its inclusive
    bound (``None`` for the last: above 16)."""

    number: int
    upper: float | None
    lower: float | None

    @property
    def label(self) -> str:
        """ "PR class 2 (≤ 4)", "PR class 6 (above 16)", in the reader's language."""
        if self.upper is None:
            return _("PR class %(number)d (above %(bound)s)") % {
                "number": self.number,
                "bound": _number(self.lower or 0.0),
            }
        return _("PR class %(number)d (≤ %(bound)s)") % {
            "number": self.number,
            "bound": _number(self.upper),
        }


def _number(value: float) -> str:
    text = formats.number_format(value, 1 if value != int(value) else 0)
    return str(text)


def pr_class(pr: float | None) -> PrClass | None:
    """The class of an average ``pr`` (``None`` for none)."""
    if pr is None:
        return None
    lower = None
    for number, upper in enumerate(PR_CLASS_BOUNDS, start=1):
        if pr <= upper:
            return PrClass(number, upper, lower)
        lower = upper
    return PrClass(len(PR_CLASS_BOUNDS) + 1, None, PR_CLASS_BOUNDS[-1])


def pr_classes() -> list[PrClass]:
    """Every class, best first (for a legend)."""
    classes = []
    lower = None
    for number, upper in enumerate(PR_CLASS_BOUNDS, start=1):
        classes.append(PrClass(number, upper, lower))
        lower = upper
    classes.append(PrClass(len(PR_CLASS_BOUNDS) + 1, None, lower))
    return classes


# ====================================================================== gnubg's words
#: gnubg's rating words (``show statistics match``, "Overall rating") translated.
RATING_WORDS = {
    "Awful!": gettext_lazy("Awful!"),
    "Beginner": gettext_lazy("Beginner"),
    "Casual player": gettext_lazy("Casual player"),
    "Intermediate": gettext_lazy("Intermediate"),
    "Advanced": gettext_lazy("Advanced"),
    "Expert": gettext_lazy("Expert"),
    "World class": gettext_lazy("World class"),
    "Supernatural": gettext_lazy("Supernatural"),
}
#: gnubg's luck words ("Luck rating") translated.
LUCK_WORDS = {
    "Go to bed": gettext_lazy("Go to bed"),
    "Bad dice, man!": gettext_lazy("Bad dice, man!"),
    "None": gettext_lazy("None"),
    "Good dice, man!": gettext_lazy("Good dice, man!"),
    "Go to Las Vegas": gettext_lazy("Go to Las Vegas"),
}


def rating_words_text(words: str) -> str:
    """gnubg's rating words in the reader's language (as gnubg printed them when unknown)."""
    return str(RATING_WORDS.get(words.strip(), words))


def luck_words_text(words: str) -> str:
    return str(LUCK_WORDS.get(words.strip(), words))


# ====================================================================== a match
@dataclass(frozen=True)
class PlayerFigures:
    """One player's figures in an analysed match, as the pages and the API show them.
    ``visible`` false: the viewer may not see them (``row`` is then ``None``)."""

    index: int
    player: Player
    visible: bool
    row: PlayerAnalysis | None

    @property
    def rating_text(self) -> str:
        return "" if self.row is None else rating_words_text(self.row.rating_words)

    @property
    def luck_text(self) -> str:
        return "" if self.row is None else luck_words_text(self.row.luck_words)

    @property
    def decisions(self) -> int:
        return 0 if self.row is None else self.row.unforced_moves + self.row.close_cube_decisions


@dataclass(frozen=True)
class MatchFigures:
    """A match's analysis as one viewer sees it.

    ``status``: ``none`` (never asked), ``queued``, ``running``, ``done``, ``failed``.
    ``players``: both players' figures in index order when stored (also while an
    analysis asked again is queued or running: the last run's), else empty.
    """

    match: Match
    status: str
    analysis: MatchAnalysis | None
    players: list[PlayerFigures] = field(default_factory=list)

    @property
    def progress(self) -> int:
        return 0 if self.analysis is None else self.analysis.progress

    @property
    def plies(self) -> int | None:
        return None if self.analysis is None else self.analysis.plies

    @property
    def failure_code(self) -> str:
        return "" if self.analysis is None else self.analysis.failure_code

    @property
    def failure_reason(self) -> str:
        return "" if self.analysis is None else self.analysis.failure_reason

    @property
    def has_figures(self) -> bool:
        return bool(self.players)

    @property
    def pending(self) -> bool:
        return self.status in (MatchAnalysis.Status.QUEUED, MatchAnalysis.Status.RUNNING)

    def visible_indexes(self) -> set[int]:
        return {f.index for f in self.players if f.visible}


def match_analysis_get(*, match_id: int) -> MatchAnalysis | None:
    """The analysis row of a match, if any (one query)."""
    return MatchAnalysis.objects.filter(match_id=match_id).first()


def match_figures(*, match: Match, viewer: Any) -> MatchFigures:
    """A match's analysis state and both players' figures as ``viewer`` may see them (two
    queries: the analysis, its players' rows). ``match`` with its players loaded."""
    analysis = match_analysis_get(match_id=match.pk)
    if analysis is None:
        return MatchFigures(match=match, status=NONE, analysis=None)
    rows = {r.index: r for r in PlayerAnalysis.objects.filter(analysis=analysis)}
    players: list[PlayerFigures] = []
    if len(rows) == 2:
        for index, player in enumerate((match.player1, match.player2)):
            visible = pr_visible(viewer, player)
            players.append(PlayerFigures(index, player, visible, rows[index] if visible else None))
    return MatchFigures(match=match, status=analysis.status, analysis=analysis, players=players)


def match_decisions(
    *, figures: MatchFigures, game_number: int | None = None, errors_only: bool = False
) -> list[DecisionAnalysis]:
    """The analysed decisions of the match (of its game ``game_number`` when given), of
    the players whose figures the viewer may see, in the games' order. ``errors_only``:
    those gnubg marked (doubtful, bad, very bad). One query."""
    visible = figures.visible_indexes()
    if figures.analysis is None or not visible:
        return []
    rows = DecisionAnalysis.objects.filter(
        analysis=figures.analysis, player_index__in=sorted(visible)
    )
    if game_number is not None:
        rows = rows.filter(game_number=game_number)
    if errors_only:
        rows = rows.exclude(mark="")
    return list(rows.order_by("game_number", "ordinal"))


# ====================================================================== a player
@dataclass(frozen=True, slots=True)
class PrPoint:
    """One counted match in a player's PR history."""

    at: datetime
    pr: float
    match_id: int


@dataclass(frozen=True)
class PrSummary:
    """A player's analysis in short: ``analysed`` matches (all), ``counted`` (those in the
    averages), the averages (``None`` without counted matches) and the class."""

    analysed: int
    counted: int
    average_recent: float | None
    average_all: float | None
    pr_class: PrClass | None
    history: list[PrPoint]


def player_pr_history(*, player_id: int) -> list[PrPoint]:
    """The PR of every counted match of the player, oldest first (one query)."""
    rows = (
        PlayerAnalysis.objects.filter(player_id=player_id, counts=True)
        .order_by("played_at", "id")
        .values_list("played_at", "pr", "match_id")
    )
    return [PrPoint(at, pr, match_id) for at, pr, match_id in rows]


def player_analysed_matches(*, player_id: int, limit: int = RECENT_MATCHES) -> list[PlayerAnalysis]:
    """The player's latest analysed matches, newest first, counted or not (a short match
    shows its PR too, left out of the averages), with the match and its players. One
    query."""
    return list(
        PlayerAnalysis.objects.filter(player_id=player_id)
        .select_related("match__player1", "match__player2")
        .order_by("-played_at", "-id")[:limit]
    )


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def player_pr_summary(*, player_id: int) -> PrSummary:
    """The player's PR history, averages and class (two queries)."""
    history = player_pr_history(player_id=player_id)
    analysed = PlayerAnalysis.objects.filter(player_id=player_id).count()
    values = [p.pr for p in history]
    average_all = _mean(values)
    return PrSummary(
        analysed=analysed,
        counted=len(values),
        average_recent=_mean(values[-RECENT_MATCHES:]),
        average_all=average_all,
        pr_class=pr_class(average_all),
        history=history,
    )


def matches_figures(*, match_ids: list[int]) -> dict[int, list[PlayerAnalysis]]:
    """The stored figures of many matches at once (a flight's PR table): match id -> its
    players' rows in index order; matches without stored figures are left out. One
    query. Visibility is the caller's (:func:`pr_visible` per row's player)."""
    found: dict[int, list[PlayerAnalysis]] = {}
    rows = (
        PlayerAnalysis.objects.filter(match_id__in=match_ids)
        .select_related("player")
        .order_by("match_id", "index")
    )
    for row in rows:
        found.setdefault(row.match_id, []).append(row)
    return found


def matches_figures_seen(*, match_ids: list[int], viewer: Any) -> dict[int, list[PlayerFigures]]:
    """:func:`matches_figures` as ``viewer`` may see them (a flight's PR table): match id
    -> both players' :class:`PlayerFigures` in index order, ``row`` ``None`` where the
    viewer may not see that player's PR. One query."""
    seen: dict[int, list[PlayerFigures]] = {}
    for match_id, rows in matches_figures(match_ids=match_ids).items():
        figures = []
        for row in rows:
            visible = pr_visible(viewer, row.player)
            figures.append(PlayerFigures(row.index, row.player, visible, row if visible else None))
        seen[match_id] = figures
    return seen


#: The status words, for pages (the model's choices plus "not analysed").
STATUS_WORDS = {
    NONE: gettext_lazy("not analysed"),
    **dict(MatchAnalysis.Status.choices),
}
