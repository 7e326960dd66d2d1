"""The rating history chart (issue 8, player page): valid, accessible, small SVG.

Plain pytest, no database: :mod:`games.ratings.chart` is pure. The output is parsed with
ElementTree and addressed by the classes and ``data-`` attributes the module documents;
ratings are mapped to y coordinates through the drawn gridlines, so the tests check what a
reader sees rather than the module's arithmetic.
"""

from __future__ import annotations

import itertools
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.ratings.chart import (
    MIN_SPAN,
    ChartLabels,
    ChartPoint,
    downsample,
    nice_ticks,
    rating_chart_svg,
)
from tests.svgtools import NS, classes, find_all, find_one
from tests.svgtools import parse_svg as parse

LABELS = ChartLabels(
    title="Rating history of Anna",
    description="3 rated matches from 1500.00 to 1512.50, highest 1520.00",
    empty="No rated matches yet.",
)
T0 = datetime(2024, 3, 1, 18, 30, tzinfo=UTC)


def series(ratings: list[float], *, every: timedelta = timedelta(hours=5)) -> list[ChartPoint]:
    return [ChartPoint(at=T0 + i * every, rating=r) for i, r in enumerate(ratings)]


def chart(ratings: list[float], every: timedelta = timedelta(hours=5), **kwargs: Any) -> ET.Element:
    return parse(rating_chart_svg(series(ratings, every=every), labels=LABELS, **kwargs))


def line_points(root: ET.Element) -> list[tuple[float, float]]:
    text = find_one(root, "rating-line", "polyline").get("points", "")
    return [(float(x), float(y)) for x, y in (pair.split(",") for pair in text.split())]


def view_box(root: ET.Element) -> tuple[float, float, float, float]:
    x, y, w, h = (float(v) for v in root.get("viewBox", "").split())
    return x, y, w, h


def y_ticks(root: ET.Element) -> list[int]:
    return [int(el.get("data-value", "")) for el in find_all(root, "gridline", "line")]


def rating_to_y(root: ET.Element) -> Callable[[float], float]:
    """The chart's own y scale, read from its lowest and highest gridlines."""
    grid = find_all(root, "gridline", "line")
    (v0, y0), (v1, y1) = (
        (float(el.get("data-value", "")), float(el.get("y1", ""))) for el in (grid[0], grid[-1])
    )
    return lambda rating: y0 + (y1 - y0) * (rating - v0) / (v1 - v0)


def random_walk(n: int, seed: int = 7) -> list[float]:
    rng = random.Random(seed)
    rating, out = 1500.0, []
    for _ in range(n):
        rating += rng.gauss(0, 6)
        out.append(round(rating, 2))
    return out


# ------------------------------------------------------------------ shape and accessibility


def test_svg_is_well_formed_accessible_and_themable() -> None:
    svg = rating_chart_svg(series([1510, 1520, 1512.5]), labels=LABELS)
    root = parse(svg)
    assert root.tag == f"{NS}svg"
    assert root.get("role") == "img"
    assert root.get("viewBox") == "0 0 720 260"
    assert root.get("width") == "100%"
    assert root.get("height") is None
    assert classes(root) == {"rating-chart"}
    assert root.get("data-count") == "3"
    title = root.find(f"{NS}title")
    desc = root.find(f"{NS}desc")
    assert title is not None and title.text == LABELS.title
    assert desc is not None and desc.text == LABELS.description
    assert root.get("aria-labelledby") == title.get("id") == "rating-chart-title"
    assert root.get("aria-describedby") == desc.get("id") == "rating-chart-desc"
    # Every colour is the page's text colour: no hard-coded colour anywhere.
    assert not re.search(r"#[0-9a-fA-F]{3,6}\b|rgb\(", svg)
    assert "currentColor" in svg
    assert "<script" not in svg and "href" not in svg


def test_user_text_is_escaped() -> None:
    nasty = "Anna <b>&amp; \"Bob\"</b> 'x'"
    labels = ChartLabels(
        title=f"Rating history of {nasty}",
        description=f"desc {nasty}",
        empty=f"empty {nasty}",
        date_format=lambda at: f"<{at.year}&\"'>",
        number_format=lambda value: f'"{value:.1f}"<',
    )
    for points in (series([1510, 1490, 1505]), []):
        svg = rating_chart_svg(points, labels=labels, svg_id="c")
        root = parse(svg)
        assert root.find(f"{NS}title").text == labels.title
        assert root.find(f"{NS}desc").text == labels.description
        assert "<b>" not in svg
    root = parse(rating_chart_svg(series([1510, 1490, 1505]), labels=labels))
    assert find_one(root, "last-value", "text").text == '"1505.0"<'
    assert {el.text for el in find_all(root, "x-tick", "g") for el in el.iter(f"{NS}text")} == {
        "<2024&\"'>"
    }


def test_no_description_no_desc() -> None:
    labels = ChartLabels(title="t", description="", empty="e")
    root = parse(rating_chart_svg(series([1510]), labels=labels))
    assert root.find(f"{NS}desc") is None
    assert root.get("aria-describedby") is None


def test_output_is_deterministic_and_decimal_is_accepted() -> None:
    ratings = random_walk(500)
    as_float = rating_chart_svg(series(ratings), labels=LABELS)
    again = rating_chart_svg(series(ratings), labels=LABELS)
    as_decimal = rating_chart_svg(
        series([Decimal(f"{r:.2f}") for r in ratings]),
        labels=LABELS,
        start=Decimal("1500.00"),
    )
    assert as_float == again == as_decimal


def test_coordinates_have_at_most_one_decimal() -> None:
    svg = rating_chart_svg(series(random_walk(3000)), labels=LABELS)
    numbers = re.findall(r'\s(?:x|y|x1|x2|y1|y2|cx|cy)="([^"]*)"', svg)
    numbers += [n for pair in re.findall(r'points="([^"]*)"', svg) for n in re.split("[ ,]", pair)]
    assert numbers
    assert all(re.fullmatch(r"-?\d+(\.\d)?", n) for n in numbers), numbers[:5]


# ------------------------------------------------------------------ the special cases


def test_no_results_shows_the_empty_text() -> None:
    root = parse(rating_chart_svg([], labels=LABELS))
    assert classes(root) == {"rating-chart", "rating-chart-empty"}
    assert root.get("data-count") == "0"
    assert find_one(root, "empty", "text").text == "No rated matches yet."
    assert not find_all(root, "rating-line")
    assert not find_all(root, "gridline")
    assert root.find(f"{NS}title").text == LABELS.title


def test_one_result_draws_from_the_start_to_it() -> None:
    root = chart([1488.44])
    (x_start, y_start), (x_end, y_end) = line_points(root)
    to_y = rating_to_y(root)
    assert x_start == 48 and x_end == 720 - 68
    assert y_start == pytest.approx(to_y(1500), abs=0.11)
    assert y_end == pytest.approx(to_y(1488.44), abs=0.11)
    assert find_one(root, "last-value", "text").text == "1488.44"
    highest = find_one(root, "highest", "g")
    assert highest.get("data-match") == "1"
    assert not find_all(highest, "highest-value")  # the last label says it already
    ticks = find_all(root, "x-tick", "g")
    assert [t.get("data-match") for t in ticks] == ["1"]
    assert ticks[0].find(f"{NS}text").text == "2024-03-01"


@pytest.mark.parametrize("rating", [1500, 1500.0, 1734.5, 12.25])
def test_equal_ratings_draw_a_flat_line_in_a_non_empty_range(rating: float) -> None:
    root = chart([rating] * 6, start=rating)
    ys = {y for _, y in line_points(root)}
    assert len(ys) == 1
    ticks = y_ticks(root)
    assert ticks[-1] - ticks[0] >= MIN_SPAN
    assert ticks[0] < rating < ticks[-1]
    (y,) = ys
    assert y == pytest.approx(rating_to_y(root)(rating), abs=0.11)
    assert find_one(root, "highest", "g").get("data-match") == "1"
    assert find_one(root, "last", "g").get("data-rating") == f"{rating:.2f}"


def test_reference_line_only_when_in_range() -> None:
    root = chart([1510, 1490])
    reference = find_one(root, "reference", "line")
    assert reference.get("data-value") == "1500.00"
    assert reference.get("stroke-dasharray")
    assert float(reference.get("y1", "")) == pytest.approx(rating_to_y(root)(1500), abs=0.11)
    assert not find_all(chart([1850, 1900], start=1840), "reference")
    assert not find_all(chart([1510], reference=None), "reference")


def test_points_are_sorted_by_time_keeping_ties_in_order() -> None:
    a = ChartPoint(at=T0, rating=1510)
    b = ChartPoint(at=T0, rating=1520)
    c = ChartPoint(at=T0 + timedelta(days=1), rating=1490)
    root = parse(rating_chart_svg([c, a, b], labels=LABELS))
    assert find_one(root, "last", "g").get("data-rating") == "1490.00"
    assert find_one(root, "highest", "g").get("data-match") == "2"


def test_highest_marks_the_first_time_it_was_reached() -> None:
    root = chart([1510, 1530, 1520, 1530, 1525])
    highest = find_one(root, "highest", "g")
    assert highest.get("data-match") == "2"
    assert highest.get("data-rating") == "1530.00"
    assert find_one(highest, "highest-value", "text").text == "1530.00"
    circle = highest.find(f"{NS}circle")
    assert circle is not None
    assert circle.find(f"{NS}title").text == "1530.00 · 2024-03-01"


def test_highest_label_stays_clear_of_the_last_label() -> None:
    root = chart([1500 + i for i in range(50)] + [1548.5])
    text = find_one(root, "highest-value", "text")
    assert text.get("text-anchor") == "end"


def test_x_ticks_are_dates_at_round_match_numbers_without_repeats() -> None:
    root = chart(random_walk(1000), every=timedelta(hours=7))
    ticks = find_all(root, "x-tick", "g")
    matches = [int(t.get("data-match", "")) for t in ticks]
    assert matches == [200, 400, 600, 800, 1000]
    texts = [t.find(f"{NS}text").text for t in ticks]
    assert texts[0] == (T0 + 199 * timedelta(hours=7)).date().isoformat()
    # Ten results a day: ticks every 2 matches would repeat dates; repeats are left out.
    root = chart(random_walk(8), every=timedelta(hours=2))
    texts = [t.find(f"{NS}text").text for t in find_all(root, "x-tick", "g")]
    assert texts == ["2024-03-01", "2024-03-02"]


def test_date_format_is_the_callers() -> None:
    labels = ChartLabels(
        title="t", description="d", empty="e", date_format=lambda at: at.strftime("%d.%m.%Y")
    )
    root = parse(rating_chart_svg(series([1510]), labels=labels))
    assert find_one(root, "x-tick", "g").find(f"{NS}text").text == "01.03.2024"


# ------------------------------------------------------------------ large histories


def test_ten_thousand_results_make_a_small_svg_keeping_peaks() -> None:
    ratings = random_walk(10_000)
    ratings[3_333] = max(ratings) + 80  # a one-match spike up
    ratings[6_666] = min(ratings) - 90  # and one down
    svg = rating_chart_svg(series(ratings), labels=LABELS)
    assert len(svg.encode()) < 120_000
    root = parse(svg)
    points = line_points(root)
    assert len(points) <= 4 * (720 - 48 - 68 + 1)
    to_y = rating_to_y(root)
    ys = [y for _, y in points]
    top_y = to_y(max(ratings))
    assert min(ys) == pytest.approx(top_y, abs=0.11)
    assert max(ys) == pytest.approx(to_y(min(ratings)), abs=0.11)
    highest = find_one(root, "highest", "g")
    assert highest.get("data-match") == "3334"
    assert float(highest.find(f"{NS}circle").get("cy", "")) == min(ys)
    xs = [x for x, _ in points]
    assert xs == sorted(xs)
    assert xs[0] == 48 and xs[-1] == 720 - 68


def test_y_ticks_are_nice_and_cover_the_data() -> None:
    for n, seed in ((5, 1), (200, 2), (5_000, 3)):
        ratings = random_walk(n, seed)
        root = chart(ratings)
        ticks = y_ticks(root)
        assert ticks[0] <= min([1500, *ratings]) and ticks[-1] >= max([1500, *ratings])
        steps = {b - a for a, b in itertools.pairwise(ticks)}
        assert len(steps) == 1
        assert_nice(steps.pop())
        assert all(t % (ticks[1] - ticks[0]) == 0 for t in ticks)
        labels = [el.text for el in find_all(root, "y-tick", "text")]
        assert labels == [str(t) for t in ticks]


def assert_nice(step: int) -> None:
    while step % 10 == 0 and step > 25:
        step //= 10
    assert step in {1, 2, 5, 10, 20, 25}, step  # 1, 2, 5 x 10^k, or 25 x 10^k


@pytest.mark.parametrize(
    ("low", "high", "expected"),
    [
        (1500, 1500, (1490, 1495, 1500, 1505, 1510)),
        (1483.2, 1548.9, (1480, 1500, 1520, 1540, 1560)),
        (1400, 1650, (1400, 1450, 1500, 1550, 1600, 1650)),
        (1380, 1950, (1200, 1400, 1600, 1800, 2000)),
        (1250, 1500, (1250, 1300, 1350, 1400, 1450, 1500)),
        (0.5, 0.5, (-10, -5, 0, 5, 10, 15)),
        (1612.34, 1500, (1500, 1520, 1540, 1560, 1580, 1600, 1620)),
        (1470.5, 2549.64, (1400, 1600, 1800, 2000, 2200, 2400, 2600)),
    ],
)
def test_nice_ticks(low: float, high: float, expected: tuple[int, ...]) -> None:
    assert nice_ticks(low, high) == expected


@given(
    low=st.floats(min_value=-1e9, max_value=1e9),
    span=st.floats(min_value=0, max_value=1e9),
)
def test_nice_ticks_always_cover_with_a_few_round_steps(low: float, span: float) -> None:
    high = low + span
    ticks = nice_ticks(low, high)
    assert ticks[0] <= low and ticks[-1] >= high
    assert 2 <= len(ticks) <= 7
    step = ticks[1] - ticks[0]
    assert all(b - a == step for a, b in itertools.pairwise(ticks))
    assert_nice(step)


@pytest.mark.parametrize("most", [1, 2, 3, 6, 10])
def test_nice_ticks_respect_the_most_intervals(most: int) -> None:
    for low, high in ((1500, 1500), (1483.2, 1548.9), (900, 2400), (1499.99, 1500.01)):
        ticks = nice_ticks(low, high, most=most)
        assert 2 <= len(ticks) <= most + 1
        assert ticks[0] <= low and ticks[-1] >= high
        assert_nice(ticks[1] - ticks[0])


def test_a_short_chart_keeps_its_gridlines_apart() -> None:
    for height in (120, 160, 260, 600):
        root = chart(random_walk(300), height=height)
        ys = [float(el.get("y1", "")) for el in find_all(root, "gridline", "line")]
        assert len(ys) >= 2
        assert all(a - b >= 30 for a, b in itertools.pairwise(ys)), (height, ys)


def test_downsample_keeps_ends_and_extremes_with_four_per_column() -> None:
    values = random_walk(50_000, seed=11)
    kept = downsample(values, 100)
    assert kept == sorted(set(kept))
    assert kept[0] == 0 and kept[-1] == len(values) - 1
    assert values.index(max(values)) in kept
    assert values.index(min(values)) in kept
    assert len(kept) <= 4 * 101
    columns: dict[int, int] = {}
    for i in kept:
        column = i * 100 // (len(values) - 1)
        columns[column] = columns.get(column, 0) + 1
    assert max(columns.values()) <= 4
    assert downsample([1.0, 2.0, 3.0], 600) == [0, 1, 2]
    assert downsample([], 10) == []


# ------------------------------------------------------------------ input checks


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="aware"):
        ChartPoint(at=datetime(2024, 1, 1), rating=1500)  # noqa: DTZ001
    with pytest.raises(ValueError, match="finite"):
        ChartPoint(at=T0, rating=float("nan"))
    with pytest.raises(ValueError, match="finite"):
        ChartPoint(at=T0, rating=Decimal("Infinity"))
    with pytest.raises(ValueError, match="finite"):
        rating_chart_svg([], labels=LABELS, start=float("inf"))
    with pytest.raises(ValueError, match="svg_id"):
        rating_chart_svg([], labels=LABELS, svg_id='x" onload="y')
    with pytest.raises(ValueError, match="at least"):
        rating_chart_svg([], labels=LABELS, width=100)


def test_other_time_zones_and_sizes() -> None:
    tz = timezone(timedelta(hours=-5))
    points = [ChartPoint(at=datetime(2024, 1, 1, 23, tzinfo=tz), rating=1520)]
    root = parse(rating_chart_svg(points, labels=LABELS, width=400, height=150, svg_id="mini"))
    assert root.get("viewBox") == "0 0 400 150"
    assert root.find(f"{NS}title").get("id") == "mini-title"
    # The default date is the result's own local date.
    assert find_one(root, "x-tick", "g").find(f"{NS}text").text == "2024-01-01"


# ------------------------------------------------------------------ property


aware_datetimes = st.datetimes(
    min_value=datetime(2000, 1, 1),  # noqa: DTZ001 (hypothesis takes naive bounds)
    max_value=datetime(2100, 1, 1),  # noqa: DTZ001
    timezones=st.sampled_from([UTC, timezone(timedelta(hours=9, minutes=30))]),
)
ratings = st.one_of(
    st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False),
    st.decimals(min_value=0, max_value=99999, places=2, allow_nan=False, allow_infinity=False),
)


@settings(max_examples=80, deadline=None)
@given(
    points=st.lists(st.builds(ChartPoint, at=aware_datetimes, rating=ratings), max_size=60)
    | st.lists(st.builds(ChartPoint, at=st.just(T0), rating=ratings), min_size=300, max_size=600),
    start=st.floats(min_value=-1e6, max_value=1e6),
    width=st.integers(min_value=240, max_value=1600),
    height=st.integers(min_value=120, max_value=600),
)
def test_any_history_gives_valid_svg_inside_the_view_box(
    points: list[ChartPoint], start: float, width: int, height: int
) -> None:
    svg = rating_chart_svg(points, labels=LABELS, start=start, width=width, height=height)
    root = parse(svg)
    _, _, w, h = view_box(root)
    assert root.get("data-count") == str(len(points))
    if not points:
        assert not find_all(root, "rating-line")
        return
    drawn = line_points(root)
    assert len(drawn) <= 4 * (width - 48 - 68 + 1)
    xs = [x for x, _ in drawn]
    assert xs == sorted(xs)
    assert all(0 <= x <= w and 0 <= y <= h for x, y in drawn)
    for el in root.iter(f"{NS}line"):
        for a in ("x1", "x2"):
            assert 0 <= float(el.get(a, "")) <= w
        for a in ("y1", "y2"):
            assert 0 <= float(el.get(a, "")) <= h
    for el in root.iter(f"{NS}circle"):
        assert 0 <= float(el.get("cx", "")) <= w and 0 <= float(el.get("cy", "")) <= h
    ticks = y_ticks(root)
    values = [start, *(float(p.rating) for p in points)]
    assert ticks[0] <= min(values) and ticks[-1] >= max(values)
    assert svg == rating_chart_svg(points, labels=LABELS, start=start, width=width, height=height)
