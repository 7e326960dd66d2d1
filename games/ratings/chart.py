"""A player's rating history drawn as server-side SVG (issue 8, the player page).

Pure Python, standard library only (like :mod:`games.play.boardsvg` and
:mod:`tournaments.bracketview`): no Django, no gettext. A view reads the player's rated
results in ledger order, turns them into :class:`ChartPoint` values (the rating *after*
each result), passes translated :class:`ChartLabels` and embeds the string returned by
:func:`rating_chart_svg` in the page.

The x axis is the **match number**, not the calendar. Results are drawn at even steps,
result ``i`` at ``x = i``, after the starting rating at ``x = 0``; the x ticks are dates
(the date of the result under the tick). This is how FIBS-style rating graphs read, and the
reason is how club players play: fifty matches on a tournament weekend, then nothing for
two months. On a time axis the weekend (where the rating actually moved) becomes a vertical
smear a few pixels wide and the idle months become long flat lines with no information in
them. Per match, every result gets the same width, and the date ticks still say when.
Ticks are placed at round match numbers (every 1, 2, 5, 10, 20, 25, 50, ... matches,
``data-match`` on each tick), at least :data:`X_TICK_MIN_GAP` units apart; a tick whose
date text equals the previous tick's is left out (many matches on one day).

The y axis runs between round numbers, with a tick and a gridline every 5, 10, 20, 25,
50, 100, 200, 250, 500, ... points (:func:`nice_ticks`): the tightest such axis covering the
starting rating and all results in at most :data:`Y_MOST_INTERVALS` intervals (fewer on a
short chart, so gridlines stay :data:`Y_TICK_MIN_GAP` apart). A range narrower than
:data:`MIN_SPAN` points (one result, or a run of equal ratings) is widened around its
middle, so a flat line is drawn in the middle of the chart and the scale never collapses
to zero. A dashed reference line marks ``reference`` (1500,
where everyone starts) when it falls inside the axis range.

Marked: the highest result (``g.highest``: a ring and its value, the first time it was
reached) and the last one (``g.last``: a dot and the current rating, right of the chart).

Size: the line is **downsampled** for drawing (:func:`downsample`). Results are grouped by
the one-unit column of the plot they fall in; each column keeps its first, lowest, highest
and last result, in their order. Every peak and trough survives (the highest result is
always a vertex of the line, exactly at the top of the data), and the line has at most
four vertices per column, about 2,500 for the default width, however long the history.
Coordinates are rounded to one decimal. 10,000 results make an SVG of about 25 kB (some
2,000 vertices), drawn in about 15 ms.

Output: a standalone ``<svg>`` with a ``viewBox``, ``width="100%"`` and no pixel size
(CSS sizes it; the height follows the aspect ratio), ``role="img"`` with ``<title>`` and
``<desc>`` from the labels. Text is :data:`FONT_SIZE` units high, so it is 12 px when the
chart is drawn as wide as its ``width``; for a narrow column (a phone) render it with a
smaller ``width`` such as 420 (or give it a CSS ``min-width`` in a scrolling box), else
the text shrinks with the drawing. Everything is drawn in ``currentColor`` (the page's text
colour, black when the SVG stands alone), told apart by width, opacity and dashes, so it
is readable dark on light and follows a dark theme; every element carries a class for page
CSS to restyle (presentation attributes have the lowest CSS priority):

* ``svg.rating-chart`` (``rating-chart-empty`` without results), ``data-count`` = results;
* ``g.y-axis`` of ``line.gridline`` and ``text.y-tick``, each with ``data-value``;
* ``line.reference[data-value]``;
* ``g.x-axis``: ``line.baseline`` and ``g.x-tick[data-match]`` with a ``line`` and a
  ``text``;
* ``polyline.rating-line``;
* ``g.highest[data-match][data-rating]`` (``circle`` with a ``<title>`` tooltip, and
  ``text.highest-value`` unless the last rating's label shows the same number);
* ``g.last[data-match][data-rating]`` (``circle``, ``text.last-value``);

``data-rating`` is always two decimals with a dot (for scripts and tests), whatever
``number_format`` gives the visible text.
* without results only ``text.empty``.

All text (labels, formatted dates and numbers) is escaped; the output is deterministic.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Final
from xml.sax.saxutils import escape

from games.text.svgmarkup import attrs as _attrs
from games.text.svgmarkup import number as _n
from games.text.svgmarkup import text as _text

__all__ = [
    "ChartLabels",
    "ChartPoint",
    "downsample",
    "nice_ticks",
    "rating_chart_svg",
]

# ------------------------------------------------------------------------ geometry
# Lengths are viewBox units; at the default width a unit is a CSS pixel on a desktop page.

LEFT: Final = 48  # y tick labels
RIGHT: Final = 68  # the last rating's label
TOP: Final = 24  # room for the highest result's label above the plot
BOTTOM: Final = 30  # date ticks
FONT_SIZE: Final = 12
CHAR_W: Final = 0.6 * FONT_SIZE  # rough width of a digit, to keep labels apart
MIN_WIDTH: Final = 240
MIN_HEIGHT: Final = 120
EMPTY_HEIGHT: Final = 64  # without results: a short strip with the empty text
#: The narrowest y range drawn, in rating points (so a flat line is not a zero range).
MIN_SPAN: Final = 20
Y_MOST_INTERVALS: Final = 6  # y gridlines: at most this many intervals ...
Y_TICK_MIN_GAP: Final = 30  # ... and at least this far apart
X_TICK_MIN_GAP: Final = 110  # x ticks at least this far apart (room for a date)
#: Ratings beyond this size are refused: nothing real comes near, and the axis stays finite.
MAX_ABS_RATING: Final = 1e12

FONT: Final = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
INK: Final = "currentColor"
# Strokes, all in the text colour, told apart by opacity (and the reference by dashes).
_GRID: Final[Mapping[str, str | float]] = {"stroke": INK, "stroke_opacity": 0.12, "stroke_width": 1}
_AXIS: Final[Mapping[str, str | float]] = {"stroke": INK, "stroke_opacity": 0.45, "stroke_width": 1}
_REFERENCE: Final[Mapping[str, str | float]] = {
    "stroke": INK,
    "stroke_opacity": 0.5,
    "stroke_width": 1,
}

_SVG_ID: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*\Z")


# ------------------------------------------------------------------------ the data


@dataclass(frozen=True, slots=True)
class ChartPoint:
    """One rated result: when (an aware datetime) and the player's rating after it.

    ``rating`` may be a :class:`~decimal.Decimal` (the ledger's two-decimal column); it is
    drawn as a float. It must be finite and within :data:`MAX_ABS_RATING`.
    """

    at: datetime
    rating: float | Decimal

    def __post_init__(self) -> None:
        if self.at.tzinfo is None or self.at.utcoffset() is None:
            raise ValueError(f"ChartPoint.at must be an aware datetime, got {self.at!r}")
        _check_rating(self.rating, "rating")


@dataclass(frozen=True)
class ChartLabels:
    """The words of the chart, translated by the caller (this module has no gettext).

    ``title``: the accessible name (``<title>``), e.g. "Rating history of Anna".
    ``description``: the text alternative (``<desc>``), e.g. "42 rated matches from
    1500.00 to 1612.34, highest 1640.10"; left out when empty.
    ``empty``: shown instead of the chart when there are no results.
    ``date_format``: the text of a date tick (and of the highest result's tooltip) from a
    result's datetime; the default is the ISO date in the datetime's own time zone, so pass
    one that converts to the viewer's zone and locale.
    ``number_format``: the text of the highest and last ratings; default two decimals.
    """

    title: str
    description: str
    empty: str
    date_format: Callable[[datetime], str] | None = None
    number_format: Callable[[float], str] | None = None


def _iso_date(at: datetime) -> str:
    return at.date().isoformat()


def _two_decimals(value: float) -> str:
    """The default rating text, and always that of ``data-`` attributes."""
    return f"{value:.2f}"


def _check_rating(value: float | Decimal, name: str) -> float:
    number = float(value)
    if not math.isfinite(number) or abs(number) > MAX_ABS_RATING:
        raise ValueError(f"{name} must be a finite rating, got {value!r}")
    return number


# ------------------------------------------------------------------------ the scales


def _nice_steps() -> Iterator[int]:
    """1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, ... (2.5 only from 25 on: whole numbers)."""
    yield from (1, 2, 5)
    decade = 10
    while True:
        yield from (decade, 2 * decade, 5 * decade // 2, 5 * decade)
        decade *= 10


def _nice_step(raw: float) -> int:
    """The smallest of :func:`_nice_steps` that is at least ``raw``."""
    return next(step for step in _nice_steps() if step >= raw)


def nice_ticks(low: float, high: float, *, most: int = Y_MOST_INTERVALS) -> tuple[int, ...]:
    """Round y ticks, evenly spaced, the first ``<= low`` and the last ``>= high``.

    The step is the smallest of 1, 2, 5, 10, 20, 25, 50, 100, 200, 250, ... for which the
    range, rounded outwards to multiples of it, has at most ``most`` intervals: the tightest
    round axis with that many gridlines. A range narrower than :data:`MIN_SPAN` is widened
    around its middle first, so there are always at least two distinct ticks (and the step
    is never below 5 for the default ``most``).
    """
    if low > high:
        low, high = high, low
    if high - low < MIN_SPAN:
        middle = (low + high) / 2
        low, high = middle - MIN_SPAN / 2, middle + MIN_SPAN / 2
    most = max(1, most)
    for step in _nice_steps():
        if step * most < high - low:
            continue
        first, last = math.floor(low / step), math.ceil(high / step)
        # The divisions round (they underflow for tiny values): correct to exact multiples.
        first -= first * step > low
        last += last * step < high
        if last - first <= most:
            return tuple(range(first * step, last * step + 1, step))
    raise AssertionError("unreachable: the steps grow without bound")  # pragma: no cover


def downsample(values: Sequence[float], columns: int) -> list[int]:
    """The indices of ``values`` worth drawing when they are spread evenly over a width of
    ``columns`` units (index 0 at 0, the last index at ``columns``).

    Indices are grouped by the unit column they fall in; each group keeps its first, lowest,
    highest and last index (the first of equal lowest or highest ones), in index order. So
    the first and last values and the first occurrence of the overall minimum and maximum
    are always kept, and at most ``4 * (columns + 1)`` indices are returned.
    """
    n = len(values)
    if n <= 2 or columns <= 0 or n <= columns:
        return list(range(n))
    last = n - 1
    kept: list[int] = []
    start = 0
    while start < n:
        column = start * columns // last
        # The first index of the next column: the smallest i with i * columns // last > column.
        end = min(n, -(-(column + 1) * last // columns))
        group = range(start, end)
        lowest = min(group, key=values.__getitem__)
        highest = max(group, key=values.__getitem__)
        kept.extend(sorted({start, lowest, highest, end - 1}))
        start = end
    return kept


# ------------------------------------------------------------------------ rendering


def _line(x1: float, y1: float, x2: float, y2: float, **attrs: str | float | None) -> str:
    coords = _attrs(x1=float(x1), y1=float(y1), x2=float(x2), y2=float(y2))
    return f"<line{coords}{_attrs(**attrs)}/>"


def _open_svg(
    out: list[str],
    *,
    labels: ChartLabels,
    svg_id: str,
    width: int,
    height: int,
    cls: str,
    count: int,
) -> None:
    title_id = f"{svg_id}-title"
    desc_id = f"{svg_id}-desc"
    svg = _attrs(
        xmlns="http://www.w3.org/2000/svg",
        class_=cls,
        viewBox=f"0 0 {width} {height}",
        width="100%",
        preserveAspectRatio="xMidYMid meet",
        role="img",
        aria_labelledby=title_id,
        aria_describedby=desc_id if labels.description else None,
        font_family=FONT,
        font_size=FONT_SIZE,
        fill=INK,
        data_count=count,
    )
    out.append(f"<svg{svg}>")
    out.append(f"<title{_attrs(id=title_id)}>{escape(labels.title)}</title>")
    if labels.description:
        out.append(f"<desc{_attrs(id=desc_id)}>{escape(labels.description)}</desc>")


def empty_chart(*, labels: ChartLabels, svg_id: str, width: int, cls: str) -> str:
    """A chart with nothing to draw yet: ``labels.empty`` in the middle of a short box
    (``cls`` and ``cls-empty`` its classes); the PR chart (prchart.py) draws it too."""
    out: list[str] = []
    _open_svg(
        out,
        labels=labels,
        svg_id=svg_id,
        width=width,
        height=EMPTY_HEIGHT,
        cls=f"{cls} {cls}-empty",
        count=0,
    )
    out.append(
        _text(
            width / 2,
            EMPTY_HEIGHT / 2 + FONT_SIZE * 0.35,
            labels.empty,
            class_="empty",
            text_anchor="middle",
            fill_opacity=0.7,
        )
    )
    out.append("</svg>")
    return "\n".join(out)


@dataclass(frozen=True, slots=True)
class _Plot:
    """The plot area and its scales: match ``0..results`` across, ``low..high`` up."""

    x0: int
    x1: int
    y0: int
    y1: int
    results: int
    low: int
    high: int

    def x(self, match: int) -> float:
        return self.x0 + (self.x1 - self.x0) * match / self.results

    def y(self, value: float) -> float:
        return self.y1 - (self.y1 - self.y0) * (value - self.low) / (self.high - self.low)


def _draw_y_axis(
    out: list[str], plot: _Plot, ticks: Sequence[int], reference: float | None
) -> None:
    out.append(f"<g{_attrs(class_='y-axis')}>")
    for tick in ticks:
        y = plot.y(tick)
        out.append(_line(plot.x0, y, plot.x1, y, class_="gridline", data_value=tick, **_GRID))
        out.append(
            _text(
                plot.x0 - 8,
                y + FONT_SIZE * 0.35,
                str(tick),
                class_="y-tick",
                data_value=tick,
                text_anchor="end",
                fill_opacity=0.75,
            )
        )
    out.append("</g>")
    if reference is not None and plot.low <= reference <= plot.high:
        y = plot.y(reference)
        out.append(
            _line(
                plot.x0,
                y,
                plot.x1,
                y,
                class_="reference",
                data_value=_two_decimals(reference),
                stroke_dasharray="5 4",
                **_REFERENCE,
            )
        )


def _draw_x_axis(
    out: list[str], plot: _Plot, dates: Sequence[datetime], date_text: Callable[[datetime], str]
) -> None:
    """The baseline and date ticks at round match numbers, at least
    :data:`X_TICK_MIN_GAP` apart; a tick repeating the previous tick's text is left out."""
    out.append(f"<g{_attrs(class_='x-axis')}>")
    out.append(_line(plot.x0, plot.y1, plot.x1, plot.y1, class_="baseline", **_AXIS))
    most = max(1, (plot.x1 - plot.x0) // X_TICK_MIN_GAP)
    step = _nice_step(plot.results / most)
    shown = ""
    for match in range(step, plot.results + 1, step):
        label = date_text(dates[match - 1])
        if label == shown:
            continue
        shown = label
        x = plot.x(match)
        out.append(f"<g{_attrs(class_='x-tick', data_match=match)}>")
        out.append(_line(x, plot.y1, x, plot.y1 + 4, **_AXIS))
        out.append(_text(x, plot.y1 + 18, label, text_anchor="middle", fill_opacity=0.75))
        out.append("</g>")
    out.append("</g>")


def _draw_marks(
    out: list[str],
    plot: _Plot,
    values: Sequence[float],
    dates: Sequence[datetime],
    date_text: Callable[[datetime], str],
    number_text: Callable[[float], str],
) -> None:
    """The highest result (its first occurrence) and the last one, with their values."""
    last = plot.results
    last_x, last_y = plot.x(last), plot.y(values[last])
    last_text = number_text(values[last])
    top = max(range(1, last + 1), key=values.__getitem__)
    top_x, top_y = plot.x(top), plot.y(values[top])
    top_text = number_text(values[top])
    tooltip = f"{top_text} · {date_text(dates[top - 1])}"
    ring = _attrs(cx=top_x, cy=top_y, r=5.0, fill="none", stroke=INK, stroke_width=1.5)
    out.append(
        f"<g{_attrs(class_='highest', data_match=top, data_rating=_two_decimals(values[top]))}>"
    )
    out.append(f"<circle{ring}><title>{escape(tooltip)}</title></circle>")
    if top != last and top_text != last_text:  # else the last rating's label says it
        # Centred above the ring; right of it near the y axis; left of it when it would
        # run past the plot or into the last rating's label.
        text_w = CHAR_W * len(top_text)
        box = (top_x - text_w / 2, top_y - 19, top_x + text_w / 2, top_y - 7)
        last_box = (last_x + 7, last_y - 8, last_x + 7 + CHAR_W * len(last_text), last_y + 4)
        anchor, x = "middle", top_x
        if box[0] < plot.x0:
            anchor, x = "start", top_x - 4
        elif box[2] > plot.x1 or _overlaps(box, last_box):
            anchor, x = "end", top_x + 4
        out.append(
            _text(
                x,
                top_y - 9,
                top_text,
                class_="highest-value",
                text_anchor=anchor,
                font_size=FONT_SIZE - 1,
            )
        )
    out.append("</g>")
    out.append(
        f"<g{_attrs(class_='last', data_match=last, data_rating=_two_decimals(values[last]))}>"
    )
    out.append(f"<circle{_attrs(cx=last_x, cy=last_y, r=3.5, fill=INK)}/>")
    out.append(
        _text(
            last_x + 7,
            last_y + FONT_SIZE * 0.35,
            last_text,
            class_="last-value",
            font_weight="bold",
        )
    )
    out.append("</g>")


def _overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Whether two boxes ``(left, top, right, bottom)`` overlap."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def rating_chart_svg(
    points: Sequence[ChartPoint],
    *,
    labels: ChartLabels,
    start: float | Decimal = 1500.0,
    reference: float | Decimal | None = 1500.0,
    width: int = 720,
    height: int = 260,
    svg_id: str = "rating-chart",
) -> str:
    """The rating history as an ``<svg>`` element string (see the module docstring).

    ``points``: the rated results, oldest first (they are sorted by ``at``, stably, so
    ledger order ``(at, id)`` is kept). ``start``: the rating before the first result,
    where the line begins. ``reference``: the value of the dashed reference line, drawn when
    inside the y range (``None`` for none). ``width``/``height``: the ``viewBox`` (CSS
    decides the size on the page); without results the height is :data:`EMPTY_HEIGHT`.
    ``svg_id``: prefix of the ``<title>``/``<desc>`` IDs, unique per page.
    """
    if not _SVG_ID.match(svg_id):
        raise ValueError(f"svg_id must be a plain XML name, got {svg_id!r}")
    if type(width) is not int or type(height) is not int:
        raise ValueError("width and height must be ints")
    if width < MIN_WIDTH or height < MIN_HEIGHT:
        raise ValueError(f"the chart needs at least {MIN_WIDTH} x {MIN_HEIGHT} units")
    start_value = _check_rating(start, "start")
    reference_value = None if reference is None else _check_rating(reference, "reference")
    date_text = labels.date_format or _iso_date
    number_text = labels.number_format or _two_decimals

    out: list[str] = []
    if not points:
        return empty_chart(labels=labels, svg_id=svg_id, width=width, cls="rating-chart")

    ordered = sorted(points, key=lambda p: p.at)
    dates = [p.at for p in ordered]
    values = [start_value, *(float(p.rating) for p in ordered)]
    most = min(Y_MOST_INTERVALS, (height - TOP - BOTTOM) // Y_TICK_MIN_GAP)
    ticks = nice_ticks(min(values), max(values), most=most)
    plot = _Plot(
        x0=LEFT,
        x1=width - RIGHT,
        y0=TOP,
        y1=height - BOTTOM,
        results=len(ordered),
        low=ticks[0],
        high=ticks[-1],
    )

    _open_svg(
        out,
        labels=labels,
        svg_id=svg_id,
        width=width,
        height=height,
        cls="rating-chart",
        count=plot.results,
    )
    _draw_y_axis(out, plot, ticks, reference_value)
    _draw_x_axis(out, plot, dates, date_text)
    kept = downsample(values, plot.x1 - plot.x0)
    coords = " ".join(f"{_n(plot.x(i))},{_n(plot.y(values[i]))}" for i in kept)
    line = _attrs(class_="rating-line", points=coords, fill="none", stroke=INK, stroke_width=2)
    out.append(f"<polyline{line}{_attrs(stroke_linejoin='round', stroke_linecap='round')}/>")
    _draw_marks(out, plot, values, dates, date_text, number_text)
    out.append("</svg>")
    return "\n".join(out)
