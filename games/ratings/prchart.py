"""A player's PR history drawn as server-side SVG (issue 28, the player page).

Pure Python, standard library only, like :mod:`games.ratings.chart` (the rating history),
whose approach and helpers it shares: the x axis is the match number (one step per
analysed match that counts, dates as ticks), everything in ``currentColor`` told apart by
width and opacity, ``role="img"`` with ``<title>``/``<desc>`` from translated labels, a
``viewBox`` and ``width="100%"``, deterministic output with every text escaped.

The y axis is the PR (lower is better), from 0 up to a round top above the worst match
(at least 20). Its gridlines are the PR classes' bounds (2.5, 4, 6.5, 10, 16; dashed),
labelled on the left unless too close to the one below, so the reader sees which class
each match fell in; a plain gridline every 10 above 20. Each match is a dot (while there
are few enough to tell apart) on a line; the last one is labelled with its PR.

Classes for page CSS: ``svg.pr-chart`` (``pr-chart-empty``), ``data-count``;
``line.class-bound[data-value]``; ``polyline.pr-line``; ``circle.pr-dot[data-match]``
(the match's id: a test or a script finds it) with a ``<title>`` tooltip;
``g.last[data-pr]`` (two decimals with a dot).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final
from xml.sax.saxutils import escape

from games.ratings.chart import (
    CHAR_W,
    FONT_SIZE,
    INK,
    ChartLabels,
    _nice_step,
    _open_svg,
    empty_chart,
)
from games.ratings.chart import downsample as _downsample
from games.text.svgmarkup import attrs as _attrs
from games.text.svgmarkup import number as _n
from games.text.svgmarkup import text as _text

__all__ = ["PrChartPoint", "pr_chart_svg"]

LEFT: Final = 40
RIGHT: Final = 56
TOP: Final = 16
BOTTOM: Final = 30
EMPTY_HEIGHT: Final = 64
#: The class bounds drawn as dashed gridlines (games.ratings.performance.PR_CLASS_BOUNDS).
DEFAULT_BOUNDS: Final = (2.5, 4.0, 6.5, 10.0, 16.0)
#: The lowest top of the axis: a good player's chart still shows the classes above.
MIN_TOP: Final = 20
#: At most this many dots; beyond, the line alone (downsampled as the rating chart's).
MAX_DOTS: Final = 80
MAX_PR: Final = 1000.0
X_TICK_MIN_GAP: Final = 110


@dataclass(frozen=True, slots=True)
class PrChartPoint:
    """One analysed match: when (aware), the player's PR, the match's id."""

    at: datetime
    pr: float
    match_id: int

    def __post_init__(self) -> None:
        if self.at.tzinfo is None or self.at.utcoffset() is None:
            raise ValueError(f"PrChartPoint.at must be an aware datetime, got {self.at!r}")
        if not math.isfinite(self.pr) or not 0 <= self.pr <= MAX_PR:
            raise ValueError(f"a PR is between 0 and {MAX_PR}, got {self.pr!r}")


def _two(value: float) -> str:
    return f"{value:.2f}"


def _bound_text(value: float) -> str:
    return f"{value:g}"


def pr_chart_svg(
    points: Sequence[PrChartPoint],
    *,
    labels: ChartLabels,
    bounds: Sequence[float] = DEFAULT_BOUNDS,
    width: int = 720,
    height: int = 240,
    svg_id: str = "pr-chart",
    bound_format: Callable[[float], str] | None = None,
) -> str:
    """The PR history as an ``<svg>`` string (see the module docstring). ``points``: the
    analysed matches that count, in any order (drawn by ``at``, stably). ``labels``: as
    the rating chart's (``number_format`` for the last PR and the tooltips;
    ``date_format`` for the ticks). ``bound_format``: the text of a y tick (default
    ``2.5``, ``10``: as short as the value allows)."""
    date_text: Callable[[datetime], str] = labels.date_format or (lambda at: at.date().isoformat())
    number_text: Callable[[float], str] = labels.number_format or _two
    bound_text: Callable[[float], str] = bound_format or _bound_text
    out: list[str] = []
    if not points:
        return empty_chart(labels=labels, svg_id=svg_id, width=width, cls="pr-chart")

    ordered = sorted(points, key=lambda p: p.at)
    values = [p.pr for p in ordered]
    worst = max(values)
    top = max(MIN_TOP, math.ceil(worst / 10) * 10 if worst > MIN_TOP else MIN_TOP)
    x0, x1, y0, y1 = LEFT, width - RIGHT, TOP, height - BOTTOM
    count = len(ordered)

    def x(i: int) -> float:  # match i (0-based); one match: in the middle
        return (x0 + x1) / 2 if count == 1 else x0 + (x1 - x0) * i / (count - 1)

    def y(value: float) -> float:
        return y1 - (y1 - y0) * value / top

    _open_svg(
        out, labels=labels, svg_id=svg_id, width=width, height=height, cls="pr-chart", count=count
    )
    # The y axis: 0, the class bounds (dashed), every 10 above 20.
    out.append(f"<g{_attrs(class_='y-axis')}>")
    grid: list[tuple[float, bool]] = [(0.0, False)]
    grid += [(b, True) for b in bounds if 0 < b < top]
    grid += [(float(v), False) for v in range(MIN_TOP, top + 1, 10)]
    last_label_y = math.inf
    for value, is_bound in sorted(grid):
        gy = y(value)
        line = _attrs(
            x1=float(x0),
            y1=gy,
            x2=float(x1),
            y2=gy,
            class_="class-bound" if is_bound else "gridline",
            data_value=_bound_text(value),
            stroke=INK,
            stroke_opacity=0.3 if is_bound else 0.12,
            stroke_width=1,
            stroke_dasharray="4 4" if is_bound else None,
        )
        out.append(f"<line{line}/>")
        if last_label_y - gy >= FONT_SIZE:  # the label fits above the one below
            last_label_y = gy
            out.append(
                _text(
                    x0 - 6,
                    gy + FONT_SIZE * 0.35,
                    bound_text(value),
                    class_="y-tick",
                    data_value=_bound_text(value),
                    text_anchor="end",
                    fill_opacity=0.75,
                )
            )
    out.append("</g>")
    # The x axis: date ticks at round match numbers.
    out.append(f"<g{_attrs(class_='x-axis')}>")
    base = _attrs(
        x1=float(x0), y1=float(y1), x2=float(x1), y2=float(y1), stroke=INK, stroke_opacity=0.45
    )
    out.append(f'<line{base} class="baseline"/>')
    if count > 1:
        step = _nice_step((count - 1) / max(1, (x1 - x0) // X_TICK_MIN_GAP))
        shown = ""
        for i in range(0, count, step):
            label = date_text(ordered[i].at)
            if label == shown:
                continue
            shown = label
            out.append(
                _text(
                    x(i), y1 + 18, label, class_="x-tick", text_anchor="middle", fill_opacity=0.75
                )
            )
    else:
        out.append(
            _text(x(0), y1 + 18, date_text(ordered[0].at), class_="x-tick", text_anchor="middle")
        )
    out.append("</g>")
    # The line, then the dots with their tooltips.
    kept = _downsample(values, x1 - x0) if count > 1 else [0]
    coords = " ".join(f"{_n(x(i))},{_n(y(values[i]))}" for i in kept)
    line = _attrs(class_="pr-line", points=coords, fill="none", stroke=INK, stroke_width=2)
    out.append(f"<polyline{line}{_attrs(stroke_linejoin='round', stroke_linecap='round')}/>")
    if count <= MAX_DOTS:
        for i, p in enumerate(ordered):
            dot = _attrs(
                cx=x(i), cy=y(p.pr), r=3.0, fill=INK, class_="pr-dot", data_match=p.match_id
            )
            tip = f"{number_text(p.pr)} · {date_text(p.at)}"
            out.append(f"<circle{dot}><title>{escape(tip)}</title></circle>")
    last = count - 1
    last_text = number_text(values[last])
    out.append(f"<g{_attrs(class_='last', data_pr=_two(values[last]))}>")
    out.append(f"<circle{_attrs(cx=x(last), cy=y(values[last]), r=4.5, fill=INK)}/>")
    label_x = min(x(last) + 7, width - CHAR_W * len(last_text) - 2)
    out.append(
        _text(
            label_x,
            y(values[last]) + FONT_SIZE * 0.35,
            last_text,
            class_="last-value",
            font_weight="bold",
        )
    )
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)
