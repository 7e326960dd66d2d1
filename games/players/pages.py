"""Player pages (issue 8): a player's page and head-to-head (the leaderboard is
:mod:`games.ratings.pages`).

All public reading. Every page runs a number of queries that does not grow with the
history it shows: the ledger reads in :mod:`games.ratings.selectors` are one query each,
the results list is paged, and the sections other apps add (:mod:`games.players.sections`)
promise the same.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import formats
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET

from games.engine import rating as formula
from games.models import Player
from games.players.sections import player_sections
from games.ratings import performance, selectors
from games.ratings.chart import ChartLabels, ChartPoint, rating_chart_svg
from games.ratings.prchart import PrChartPoint, pr_chart_svg

#: Results per page on a player's page and head-to-head.
RESULTS_PER_PAGE = 25
#: The lengths a head-to-head shows the stakes of.
STAKE_LENGTHS = (1, 3, 5, 7, 9, 11)


def _chart(player: Player, history: list[tuple[Any, Any]]) -> str:
    points = [ChartPoint(at=at, rating=rating) for at, rating in history]
    if points:
        top = max(p.rating for p in points)
        description = ngettext(
            "%(count)d rated match, from %(start)s to %(last)s; highest %(top)s.",
            "%(count)d rated matches, from %(start)s to %(last)s; highest %(top)s.",
            len(points),
        ) % {
            "count": len(points),
            "start": formula.INITIAL_RATING,
            "last": f"{points[-1].rating:.2f}",
            "top": f"{top:.2f}",
        }
    else:
        description = _("No rated matches yet.")
    labels = ChartLabels(
        title=_("Rating history of %(name)s") % {"name": player.name},
        description=description,
        empty=_("No rated matches yet."),
        date_format=lambda at: formats.date_format(at, "SHORT_DATE_FORMAT"),
    )
    return rating_chart_svg(points, labels=labels, start=float(formula.INITIAL_RATING))


def _pr_section(request: HttpRequest, player: Player) -> dict[str, Any] | None:
    """The player's analysis in short (issue 28): the PR history chart, the averages and
    the class; ``None`` when the viewer may not see this player's PR."""
    if not performance.pr_visible(request.user, player):
        return None
    summary = performance.player_pr_summary(player_id=player.pk)

    def pr_text(value: float) -> str:
        return str(formats.number_format(value, 2))

    if summary.counted:
        description = ngettext(
            "PR of %(count)d analysed match: average %(average)s.",
            "PR of %(count)d analysed matches: average %(average)s, last %(last)s.",
            summary.counted,
        ) % {
            "count": summary.counted,
            "average": pr_text(summary.average_all or 0.0),
            "last": pr_text(summary.history[-1].pr),
        }
    else:
        description = _("No analysed matches that count yet.")
    labels = ChartLabels(
        title=_("PR history of %(name)s (lower is better)") % {"name": player.name},
        description=description,
        empty=_("No analysed matches that count yet."),
        date_format=lambda at: formats.date_format(at, "SHORT_DATE_FORMAT"),
        number_format=pr_text,
    )
    points = [PrChartPoint(at=p.at, pr=p.pr, match_id=p.match_id) for p in summary.history]
    return {
        "summary": summary,
        "chart": mark_safe(  # noqa: S308 - text escaped by the chart
            pr_chart_svg(
                points,
                labels=labels,
                bound_format=lambda v: str(formats.number_format(v, 0 if v == int(v) else 1)),
            )
        ),
        "public": settings.ANALYSIS_PR_PUBLIC,
        "min_decisions": settings.ANALYSIS_MIN_DECISIONS,
        "recent": performance.RECENT_MATCHES,
        "classes": performance.pr_classes(),
        "latest": performance.player_analysed_matches(player_id=player.pk),
    }


def _results_page(request: HttpRequest, rows: Any, player_id: int) -> tuple[Any, list[Any]]:
    page = Paginator(rows, RESULTS_PER_PAGE).get_page(request.GET.get("page"))
    return page, selectors.player_sides(list(page.object_list), player_id)


@require_GET
def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    """Rating and experience, the history chart, the record by length, the results with
    each rating change's calculation, head-to-head, and the sections of other apps
    (tournament placings, chouette totals)."""
    player = get_object_or_404(Player, pk=player_id)
    opponent = request.GET.get("vs")
    if opponent and opponent.isascii() and opponent.isdigit() and len(opponent) <= 18:
        return redirect("games:head-to-head", player_id=player.pk, opponent_id=int(opponent))
    history = selectors.player_rating_history(player_id=player.pk)
    page, results = _results_page(request, selectors.player_results(player_id=player.pk), player.pk)
    min_experience = settings.RATING_LEADERBOARD_MIN_EXPERIENCE
    # Other apps' sections, each rendered with the context it gives (games cannot name
    # their templates' variables).
    sections = [
        mark_safe(  # noqa: S308 - a rendered template: autoescaped
            render_to_string(s.template, {"player": player, **s.context(player)}, request)
        )
        for s in player_sections()
    ]
    opponents = selectors.player_opponents(player_id=player.pk)
    # Head-to-head against anyone: a name typed in (a select of every member would weigh
    # more than the page in a big club). One player found: straight there.
    vs_name = request.GET.get("vs_name", "").strip()[:80]
    found: list[Player] = []
    if vs_name:
        found = selectors.player_search(name=vs_name, exclude_id=player.pk, limit=20)
        if len(found) == 1:
            return redirect("games:head-to-head", player_id=player.pk, opponent_id=found[0].pk)
    return render(
        request,
        "games/player.html",
        {
            "player": player,
            "chart": mark_safe(_chart(player, history)),  # noqa: S308 - text escaped by the chart
            "rated_count": len(history),
            "peak": max((r for _at, r in history), default=None),
            "record": selectors.player_record(player_id=player.pk),
            "page": page,
            "results": results,
            "opponents": opponents,
            "vs_name": vs_name,
            "found": found,
            "rank": selectors.player_rank(player=player, min_experience=min_experience),
            "min_experience": min_experience,
            "sections": sections,
            "pr": _pr_section(request, player),
        },
    )


@require_GET
def head_to_head_page(request: HttpRequest, player_id: int, opponent_id: int) -> HttpResponse:
    """Two players' record against each other (by length), their results, and what each
    stands to gain or lose if they meet now."""
    player = get_object_or_404(Player, pk=player_id)
    opponent = get_object_or_404(Player, pk=opponent_id)
    if player.pk == opponent.pk:
        return redirect("games:player", player_id=player.pk)
    rows = selectors.head_to_head_results(player_id=player.pk, opponent_id=opponent.pk)
    page, results = _results_page(request, rows, player.pk)
    stakes = [
        (
            n,
            formula.preview(
                player.rating, player.experience, opponent.rating, opponent.experience, n
            ),
        )
        for n in STAKE_LENGTHS
    ]
    return render(
        request,
        "games/head_to_head.html",
        {
            "player": player,
            "opponent": opponent,
            "record": selectors.player_record(player_id=player.pk, opponent_id=opponent.pk),
            "page": page,
            "results": results,
            "stakes": stakes,
        },
    )
