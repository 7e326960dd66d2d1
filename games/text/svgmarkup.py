"""SVG markup helpers shared by the pure drawings (``games.ratings.chart``,
``games.play.boardsvg``, ``tournaments.bracketview``): coordinates with at most one
decimal, attributes quoted and escaped, text escaped. Pure: standard library only."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr


def number(value: float) -> str:
    """A coordinate: at most one decimal, no trailing zero, no negative zero."""
    text = f"{value:.1f}"
    if text == "-0.0":
        return "0"
    return text[:-2] if text.endswith(".0") else text


def attrs(**attributes: str | float | None) -> str:
    """XML attributes, in the given order; ``None`` values are skipped, ``_`` becomes ``-``
    (a trailing ``_`` is dropped: ``class_``); floats are written by :func:`number`."""
    parts = []
    for key, value in attributes.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        text = number(value) if isinstance(value, float) else str(value)
        parts.append(f" {name}={quoteattr(text)}")
    return "".join(parts)


def text(x: float, y: float, content: str, **attributes: str | float | None) -> str:
    """A ``<text>`` element at (x, y) with ``content`` escaped."""
    return f"<text{attrs(x=float(x), y=float(y), **attributes)}>{escape(content)}</text>"
