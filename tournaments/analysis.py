"""A flight's PR table (issue 28): GNU Backgammon's figures of the flight's analysed
matches, for its page and its API. Reads only.

An **analysed match** of a flight is one of its tournament matches whose recorded
``games.Match`` (played online here, ``TournamentMatch.online_match``, or recorded from
its ``.mat`` file, ``TournamentMatch.mat_match``) has stored figures
(``games.models.PlayerAnalysis``, stored by a finished analysis run). **PR** is
gnubg's error rate / 2 (:mod:`games.models.analysis`). A player's **average PR** here
is over their analysed matches of the flight that count (``PlayerAnalysis.counts``:
played to the end, enough decisions), as on the player page.

**Who sees the figures**: everyone when ``settings.ANALYSIS_PR_PUBLIC``; otherwise a
player sees their own figures only, and the event's directors and staff see all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from games.models import Player, PlayerAnalysis
from games.ratings.performance import rating_words_text
from tournaments.models import TournamentMatch


@dataclass(frozen=True)
class PrFigures:
    """One player's figures in one analysed match (``shown``: the viewer may see them)."""

    player_id: int
    name: str
    pr: float
    error_rate_memg: float
    luck_rate_memg: float
    rating_words: str
    counts: bool


@dataclass(frozen=True)
class PrRow:
    """One analysed tournament match: its recorded match (``match_id``, the match page),
    how it was recorded (``source``: ``"online"`` or ``"file"``), each side's figures
    (``None``: not shown to this viewer)."""

    tmatch: TournamentMatch
    match_id: int
    source: str
    side_a: PrFigures | None
    side_b: PrFigures | None


@dataclass(frozen=True)
class PrSummary:
    """A player's line: analysed matches in the flight, those counted, the average PR
    over those counted (``None``: none counts)."""

    player_id: int
    name: str
    matches: int
    counted: int
    average_pr: float | None


@dataclass(frozen=True)
class PrTable:
    rows: list[PrRow]
    summary: list[PrSummary]
    #: Every player's figures are shown (public, or a director or staff looks).
    everything: bool


def pr_visible_all(*, viewer: Any, director: bool) -> bool:
    """Whether ``viewer`` sees every player's PR (``ANALYSIS_PR_PUBLIC``, a director of
    the event, staff); else only their own."""
    if settings.ANALYSIS_PR_PUBLIC or director:
        return True
    return bool(getattr(viewer, "is_staff", False) and getattr(viewer, "is_active", False))


def flight_pr_table(*, matches: Sequence[TournamentMatch], viewer: Any, director: bool) -> PrTable:
    """The PR table of a flight's ``matches`` (as the viewer may see them: the page's,
    with their entries and players loaded), in round order, and each player's summary,
    best average PR first. One query."""
    everything = pr_visible_all(viewer=viewer, director=director)
    me = None if everything else Player.of_user(viewer)
    recorded: dict[int, tuple[TournamentMatch, str]] = {}
    for m in matches:
        if m.online_match_id is not None:
            recorded[m.online_match_id] = (m, "online")
        if m.mat_match_id is not None:
            recorded[m.mat_match_id] = (m, "file")
    figures: dict[int, dict[int, PrFigures]] = {}
    if recorded and (everything or me is not None):
        # Stored figures, whatever the job's status now: a match queued again keeps
        # its figures until the new run stores its own (analysis_request).
        found = PlayerAnalysis.objects.filter(match_id__in=recorded).select_related("player")
        if not everything:
            assert me is not None
            found = found.filter(player=me)
        for pa in found:
            figures.setdefault(pa.match_id, {})[pa.player_id] = PrFigures(
                player_id=pa.player_id,
                name=pa.player.name,
                pr=pa.pr,
                error_rate_memg=pa.error_rate_memg,
                luck_rate_memg=pa.luck_rate_memg,
                rating_words=rating_words_text(pa.rating_words),  # gnubg's words, translated
                counts=pa.counts,
            )
    rows: list[PrRow] = []
    for match_id, (m, source) in recorded.items():
        by_player = figures.get(match_id)
        if not by_player or m.entry_a is None or m.entry_b is None:
            continue
        rows.append(
            PrRow(
                tmatch=m,
                match_id=match_id,
                source=source,
                side_a=by_player.get(m.entry_a.player_id),
                side_b=by_player.get(m.entry_b.player_id),
            )
        )
    rows.sort(key=lambda r: (r.tmatch.round, r.tmatch.part, r.tmatch.index, r.match_id))
    return PrTable(rows=rows, summary=_summary(rows), everything=everything)


def _summary(rows: Sequence[PrRow]) -> list[PrSummary]:
    seen: dict[int, list[PrFigures]] = {}
    for row in rows:
        for side in (row.side_a, row.side_b):
            if side is not None:
                seen.setdefault(side.player_id, []).append(side)
    out = []
    for player_id, all_figures in seen.items():
        counted = [f.pr for f in all_figures if f.counts]
        out.append(
            PrSummary(
                player_id=player_id,
                name=all_figures[0].name,
                matches=len(all_figures),
                counted=len(counted),
                average_pr=sum(counted) / len(counted) if counted else None,
            )
        )
    out.sort(key=lambda s: (s.average_pr is None, s.average_pr or 0.0, s.name))
    return out
