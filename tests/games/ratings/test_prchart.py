"""The PR history chart (games/ratings/prchart.py, pure): the class bounds as gridlines,
a dot per match, the last PR labelled, text escaped; no database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games.ratings.chart import ChartLabels
from games.ratings.prchart import MAX_DOTS, PrChartPoint, pr_chart_svg
from tests.svgtools import parse_svg

LABELS = ChartLabels(title="PR of <Anna>", description="3 & more", empty="Nothing yet")
NS = "{http://www.w3.org/2000/svg}"
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _points(prs):
    return [
        PrChartPoint(at=T0 + timedelta(days=i), pr=pr, match_id=100 + i) for i, pr in enumerate(prs)
    ]


def test_no_matches_is_an_empty_strip_with_its_text():
    svg = parse_svg(pr_chart_svg([], labels=LABELS))
    assert "pr-chart-empty" in svg.get("class")
    assert svg.get("data-count") == "0"
    assert [t.text for t in svg.iter(f"{NS}text")] == ["Nothing yet"]


def test_each_match_is_a_dot_and_the_class_bounds_are_gridlines():
    svg_text = pr_chart_svg(_points([12.0, 3.5, 7.25]), labels=LABELS)
    svg = parse_svg(svg_text)  # well-formed: the title's < and & escaped
    assert svg.find(f"{NS}title").text == "PR of <Anna>"
    assert svg.get("data-count") == "3"
    dots = [c for c in svg.iter(f"{NS}circle") if c.get("class") == "pr-dot"]
    assert [d.get("data-match") for d in dots] == ["100", "101", "102"]
    # Lower PR is drawn lower: 3.5 below 7.25 below 12 (SVG y grows downwards).
    ys = [float(d.get("cy")) for d in dots]
    assert ys[1] > ys[2] > ys[0]
    bounds = [
        line.get("data-value")
        for line in svg.iter(f"{NS}line")
        if line.get("class") == "class-bound"
    ]
    assert bounds == ["2.5", "4", "6.5", "10", "16"]
    last = next(g for g in svg.iter(f"{NS}g") if g.get("class") == "last")
    assert last.get("data-pr") == "7.25"


def test_a_pr_above_twenty_raises_the_axis_to_a_round_top():
    svg = parse_svg(pr_chart_svg(_points([3.0, 27.0]), labels=LABELS))
    grid = [
        line.get("data-value") for line in svg.iter(f"{NS}line") if line.get("class") == "gridline"
    ]
    assert grid == ["0", "20", "30"]


def test_a_long_history_is_a_line_without_dots_and_stays_small():
    svg_text = pr_chart_svg(_points([(i * 7) % 23 for i in range(5000)]), labels=LABELS)
    svg = parse_svg(svg_text)
    assert svg.get("data-count") == "5000"
    assert not [c for c in svg.iter(f"{NS}circle") if c.get("class") == "pr-dot"]
    assert len(svg_text) < 60_000
    assert len(_points(range(MAX_DOTS))) == MAX_DOTS


def test_a_pr_out_of_range_or_a_naive_date_is_refused():
    with pytest.raises(ValueError, match="a PR is between"):
        PrChartPoint(at=T0, pr=float("nan"), match_id=1)
    with pytest.raises(ValueError, match="a PR is between"):
        PrChartPoint(at=T0, pr=-1.0, match_id=1)
    with pytest.raises(ValueError, match="aware"):
        PrChartPoint(at=datetime(2026, 1, 1), pr=1.0, match_id=1)  # noqa: DTZ001
