"""The backgammon board drawn as server-side SVG (issue 4, Pages).

Pure Python, no Django: views build a :class:`BoardView` (or let
:func:`view_from_position` build one from an engine :class:`~games.engine.position.Position`)
and embed the string returned by :func:`render_board` in the page. It works without
JavaScript; every drawn thing carries CSS classes and ``data-`` attributes so that page CSS
can restyle it and later JavaScript can address it.

Orientation (docs/rules.md R1): the board is seen by the player drawn at the **bottom** (the
viewer). Point numbers are the viewer's own: 1-6 are the viewer's home board, bottom right
by default; ``home="left"`` mirrors the whole board so that the home board is bottom left
(seed 002's preference). The top player's point ``q`` is the viewer's point ``25 - q``.

Layout, home on the right (mirrored for ``home="left"``)::

    +------+---------------------------+-----+---------------------------+------+
    | pips | 13 14 15 16 17 18         | bar | 19 20 21 22 23 24         | off  |
    | cube |  outer board (top player) |     |  home boards              | tray |
    |      |  ... dice of top player   |     |  dice of bottom player... |      |
    | pips | 12 11 10  9  8  7         |     |  6  5  4  3  2  1         | off  |
    +------+---------------------------+-----+---------------------------+------+

The left strip holds pip counts (top and bottom corners), Acey-Deucey unentered checkers,
the doubling cube (top, centre or bottom by owner) and the Crawford marker; the tray on the
home side holds the borne-off checkers of both players with their counts.

Addressable elements (classes; ``side`` is ``bottom`` or ``top``):

* ``polygon.point[data-point=N]`` the 24 triangles (viewer's numbering), plus
  ``point-highlight`` for highlighted ones; ``text.point-number[data-point=N]``.
* ``last-move`` with ``last-move-from``/``last-move-to`` on the points (and ``rect.bar``,
  ``rect.tray``) of :attr:`BoardView.last_move`, and ``last-move`` on the checker stacks
  of ``last_move_side`` it landed on.
* ``g.hits`` drawn last: transparent ``rect.hit[data-point=N]`` tap areas, one per point
  (its whole column, half the board's height), ``data-point=bar`` (the bar) and
  ``data-point=off`` (the tray and the frame beside it), for static/games/board.js.
* ``g.checkers.checkers-{side}[data-point=N][data-count=C]`` one stack on a point, holding
  at most five ``circle.checker.checker-{side}`` and, beyond five, a
  ``text.checker-count`` with the full count. ``data-point`` is ``bar`` for the bar.
* ``g.off.off-{side}[data-count=C]`` the borne-off tray with ``text.off-count`` when C > 0.
* ``g.unentered.unentered-{side}[data-count=C]`` (only when C > 0).
* ``g.cube[data-value=V][data-owner=bottom|top|centre]`` (``cube-offered`` when offered).
* ``g.dice.dice-{side}`` holding two ``g.die[data-value=D]``.
* ``text.pips.pips-{side}``; ``g.crawford``.

Colours are presentation attributes (the lowest CSS priority), so the SVG looks right on its
own and any page stylesheet can override them. No scripts, no external resources, no IDs
other than the ``<title>``/``<desc>`` ones derived from :attr:`BoardView.svg_id`; the
output is deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Literal
from xml.sax.saxutils import escape

from games.text.svgmarkup import attrs as _attrs

if TYPE_CHECKING:
    from games.engine.position import Position

Side = Literal["bottom", "top"]
Home = Literal["right", "left"]

__all__ = ["BoardView", "Home", "Side", "render_board", "view_from_position"]

# ------------------------------------------------------------------------ geometry
# All lengths are viewBox units. The board is laid out with the home board on the right
# and mirrored horizontally (text stays readable) for home="left".

STRIP: Final = 60  # side strip: pips, cube, unentered, Crawford marker
FRAME: Final = 14  # wooden frame between strip, boards and tray
POINT_W: Final = 60  # width of one point
# The bar and the tray are wide enough to be tapped: 124 of the 1070 units are 45 CSS px
# on a 390 px phone showing the board edge to edge (tests/browser/test_board.py).
BAR_W: Final = 124
TRAY_W: Final = 124
RAIL: Final = 40  # frame height above and below the playing surface (point numbers)
CHECKER_D: Final = 56  # stacking step of checkers
CHECKER_R: Final = 27
MAX_SHOWN: Final = 5  # circles drawn per stack; a count label shows the rest
HALF_H: Final = MAX_SHOWN * CHECKER_D  # 280: one row of points
GAP: Final = 100  # between the two rows of points: the dice
TRIANGLE_H: Final = 258

OUTER_X0: Final = STRIP + FRAME  # 74
BAR_X0: Final = OUTER_X0 + 6 * POINT_W  # 434
HOME_X0: Final = BAR_X0 + BAR_W  # 558
HOME_X1: Final = HOME_X0 + 6 * POINT_W  # 918
TRAY_X0: Final = HOME_X1 + FRAME  # 932
WIDTH: Final = TRAY_X0 + TRAY_W + FRAME  # 1070
SURF_Y0: Final = RAIL  # 40
SURF_Y1: Final = RAIL + 2 * HALF_H + GAP  # 700
HEIGHT: Final = SURF_Y1 + RAIL  # 740
MID_Y: Final = (SURF_Y0 + SURF_Y1) // 2  # 370
STRIP_CX: Final = STRIP // 2
BAR_CX: Final = BAR_X0 + BAR_W // 2
TRAY_CX: Final = TRAY_X0 + TRAY_W // 2

CUBE_SIZE: Final = 52
DIE_SIZE: Final = 48
OFF_SLAB_W: Final = 84
OFF_SLAB_H: Final = 14
OFF_STEP: Final = 17

# ------------------------------------------------------------------------- colours

FONT: Final = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
C_FRAME: Final = "#5b3a22"
C_FRAME_EDGE: Final = "#3d2614"
C_FELT: Final = "#2f6a4f"
C_TRAY: Final = "#3f2817"
C_BAR: Final = "#4e311c"
C_POINT_ODD: Final = "#e4d3ac"  # the viewer's odd points: 1, 3, ... (24 is opposite 1)
C_POINT_EVEN: Final = "#a9432e"
C_HIGHLIGHT: Final = "#ffd23f"
C_LAST_MOVE: Final = "#ff8a3d"
C_RAIL_TEXT: Final = "#f3e7cf"
C_RAIL_TEXT_DIM: Final = "#cdb894"
CHECKER_FILL: Final = {"bottom": "#f7f2e7", "top": "#26211d"}
CHECKER_EDGE: Final = {"bottom": "#6e5a43", "top": "#050403"}
CHECKER_RING: Final = {"bottom": "#d9cdb4", "top": "#4a423b"}
CHECKER_TEXT: Final = {"bottom": "#26211d", "top": "#f7f2e7"}
C_CUBE: Final = "#fbfaf6"
C_CUBE_TEXT: Final = "#1d1a17"
C_CUBE_OFFER: Final = "#f39c12"
C_CRAWFORD: Final = "#c0392b"

_SVG_ID: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*\Z")

# Pip positions on a die, in units of a third of the die's half-size, from its centre.
_DIE_PIPS: Final[dict[int, tuple[tuple[int, int], ...]]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


# ------------------------------------------------------------------------ the view


@dataclass(frozen=True, slots=True)
class BoardView:
    """Everything the board drawing shows, from the viewer's (bottom player's) side.

    Attributes:
        bottom: 25 counts of the viewer (gnubg convention, R1): index i = own point i + 1,
            index 24 = bar.
        top: 25 counts of the opponent in the opponent's own numbering.
        bottom_off / top_off: borne-off checkers.
        bottom_unentered / top_unentered: Acey-Deucey checkers not yet entered (R3).
        cube_value: the value shown on the cube; ``1`` is drawn as 64, as on a real cube.
            To show a pending double, pass the proposed value with ``cube_offered=True``.
        cube_owner: ``None`` for a centred cube, else the side it is placed at.
        cube_offered: draw the cube highlighted (a double is pending).
        dice: the two dice, drawn on the board half of ``dice_owner``.
        dice_owner: whose dice: ``bottom`` on the home half, ``top`` on the outer half
            (``None`` draws them on the home half too).
        pips: ``(bottom, top)`` pip counts, or ``None`` to leave them out.
        home: ``right`` (default) or ``left`` (seed 002): where the viewer's home board is.
        title: the accessible name (already translated); ``description`` an optional
            longer text for ``<desc>``.
        crawford: show the Crawford marker (R11).
        highlight: viewer's point numbers (1-24) to highlight.
        last_move: the last play of ``last_move_side`` as ``(from, to)`` pairs in the
            viewer's numbering (25: the bar, 0: borne off), one per checker moved: its
            points are marked ``last-move`` (the opponent's last move, on the match page
            and the chouette table).
        last_move_side: whose checkers moved in ``last_move``.
        svg_id: prefix for the element IDs, unique per page when a page shows two boards.
        pip_label: the short word above the pip counts (already translated).
    """

    bottom: tuple[int, ...]
    top: tuple[int, ...]
    bottom_off: int = 0
    top_off: int = 0
    bottom_unentered: int = 0
    top_unentered: int = 0
    cube_value: int = 1
    cube_owner: Side | None = None
    cube_offered: bool = False
    dice: tuple[int, int] | None = None
    dice_owner: Side | None = None
    pips: tuple[int, int] | None = None
    home: Home = "right"
    title: str = "Backgammon board"
    description: str = ""
    crawford: bool = False
    highlight: frozenset[int] = field(default_factory=frozenset)
    last_move: tuple[tuple[int, int], ...] = ()
    last_move_side: Side = "top"
    svg_id: str = "board"
    pip_label: str = "pips"

    def __post_init__(self) -> None:
        for name in ("bottom", "top"):
            side = tuple(getattr(self, name))
            object.__setattr__(self, name, side)
            if len(side) != 25:
                raise ValueError(f"{name} needs 25 counts, got {len(side)}")
            if any(type(c) is not int or c < 0 for c in side):
                raise ValueError(f"{name} has a bad count")
        for i in range(24):
            if self.bottom[i] and self.top[23 - i]:
                raise ValueError(f"point {i + 1} (viewer's numbering) is held by both sides")
        for name in ("bottom_off", "top_off", "bottom_unentered", "top_unentered"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise ValueError(f"{name} must be a non-negative int, got {value!r}")
        if type(self.cube_value) is not int or self.cube_value < 1:
            raise ValueError(f"bad cube value {self.cube_value!r}")
        if self.cube_owner not in (None, "bottom", "top"):
            raise ValueError(f"bad cube owner {self.cube_owner!r}")
        if self.dice_owner not in (None, "bottom", "top"):
            raise ValueError(f"bad dice owner {self.dice_owner!r}")
        if self.dice is not None:
            dice = tuple(self.dice)
            if len(dice) != 2 or any(type(d) is not int or not 1 <= d <= 6 for d in dice):
                raise ValueError(f"bad dice {self.dice!r}")
            object.__setattr__(self, "dice", dice)
        if self.home not in ("right", "left"):
            raise ValueError(f"home must be 'right' or 'left', got {self.home!r}")
        highlight = frozenset(self.highlight)
        if any(type(p) is not int or not 1 <= p <= 24 for p in highlight):
            raise ValueError("highlight takes point numbers 1-24")
        object.__setattr__(self, "highlight", highlight)
        last = tuple((int(a), int(b)) for a, b in self.last_move)
        if any(not 0 <= p <= 25 for move in last for p in move):
            raise ValueError("last_move takes points 0-25")
        object.__setattr__(self, "last_move", last)
        if self.last_move_side not in ("bottom", "top"):
            raise ValueError(f"bad last_move_side {self.last_move_side!r}")
        if not _SVG_ID.match(self.svg_id):
            raise ValueError(f"svg_id must be a plain XML name, got {self.svg_id!r}")


def view_from_position(
    position: Position,
    *,
    viewer_is_mover: bool,
    dice: tuple[int, int] | None = None,
    cube_value: int = 1,
    cube_owner: Literal["mover", "opponent"] | None = None,
    cube_offered: bool = False,
    home: Home = "right",
    title: str = "Backgammon board",
    description: str = "",
    crawford: bool = False,
    show_pips: bool = True,
    highlight: Iterable[int] = (),
    last_move: Iterable[tuple[int, int]] = (),
    last_move_by_mover: bool = False,
    svg_id: str = "board",
    pip_label: str = "pips",
) -> BoardView:
    """Build a :class:`BoardView` of an engine position for one of its two players.

    ``viewer_is_mover`` says whether the viewer (drawn at the bottom) is the player on roll.
    ``dice`` are the mover's roll (the position is seen from the player on roll, R1), so
    they are drawn on the mover's side. ``cube_owner`` is in mover/opponent terms;
    ``highlight`` is in the viewer's numbering; ``last_move`` is a play of the mover
    (``last_move_by_mover``) or of the opponent, as ``(from, to)`` pairs in that player's
    own numbering (25 the bar, 0 off).
    """
    mover: Side = "bottom" if viewer_is_mover else "top"
    opponent: Side = "top" if viewer_is_mover else "bottom"
    owner: Side | None = None
    if cube_owner == "mover":
        owner = mover
    elif cube_owner == "opponent":
        owner = opponent
    elif cube_owner is not None:
        raise ValueError(f"cube_owner must be 'mover', 'opponent' or None, got {cube_owner!r}")
    mover_pips, opponent_pips = position.pip_count()
    if viewer_is_mover:
        bottom, top = position.mover, position.opponent
        bottom_off, top_off = position.mover_off, position.opponent_off
        bottom_un, top_un = position.mover_unentered, position.opponent_unentered
        pips = (mover_pips, opponent_pips)
    else:
        bottom, top = position.opponent, position.mover
        bottom_off, top_off = position.opponent_off, position.mover_off
        bottom_un, top_un = position.opponent_unentered, position.mover_unentered
        pips = (opponent_pips, mover_pips)
    return BoardView(
        bottom=bottom,
        top=top,
        bottom_off=bottom_off,
        top_off=top_off,
        bottom_unentered=bottom_un,
        top_unentered=top_un,
        cube_value=cube_value,
        cube_owner=owner,
        cube_offered=cube_offered,
        dice=dice,
        dice_owner=mover if dice is not None else None,
        pips=pips if show_pips else None,
        home=home,
        title=title,
        description=description,
        crawford=crawford,
        highlight=frozenset(highlight),
        last_move=tuple(
            (_seen_by(a, flip), _seen_by(b, flip))
            for a, b in last_move
            for flip in ((mover if last_move_by_mover else opponent) == "top",)
        ),
        last_move_side=mover if last_move_by_mover else opponent,
        svg_id=svg_id,
        pip_label=pip_label,
    )


def _seen_by(point: int, flip: bool) -> int:
    """A point in its player's numbering (25 bar, 0 off) in the viewer's numbering."""
    return 25 - point if flip and 1 <= point <= 24 else point


# ------------------------------------------------------------------------ rendering


class _Canvas:
    """Collects SVG elements, mirroring x coordinates for a home board on the left."""

    def __init__(self, mirrored: bool) -> None:
        self.mirrored = mirrored
        self.out: list[str] = []

    def x(self, x: int) -> int:
        """A point's x coordinate after the optional mirroring."""
        return WIDTH - x if self.mirrored else x

    def x0(self, x: int, width: int) -> int:
        """Left edge of a box whose unmirrored left edge is ``x``."""
        return WIDTH - x - width if self.mirrored else x

    def add(self, text: str) -> None:
        self.out.append(text)

    def rect(self, x: int, y: int, w: int, h: int, **attrs: str | float | None) -> None:
        self.add(f"<rect{_attrs(x=self.x0(x, w), y=y, width=w, height=h, **attrs)}/>")

    def circle(self, cx: int, cy: int, r: int, **attrs: str | float | None) -> None:
        self.add(f"<circle{_attrs(cx=self.x(cx), cy=cy, r=r, **attrs)}/>")

    def text(self, x: int, y: int, content: str, **attrs: str | float | None) -> None:
        self.add(f"<text{_attrs(x=self.x(x), y=y, **attrs)}>{escape(content)}</text>")

    def polygon(self, points: Iterable[tuple[int, int]], **attrs: str | float | None) -> None:
        coords = " ".join(f"{self.x(x)},{y}" for x, y in points)
        self.add(f"<polygon{_attrs(points=coords, **attrs)}/>")


def _point_x(point: int) -> int:
    """Unmirrored centre x of the viewer's point 1-24 (home board on the right)."""
    half = POINT_W // 2
    if point <= 6:
        return HOME_X1 - (point - 1) * POINT_W - half
    if point <= 12:
        return BAR_X0 - (point - 7) * POINT_W - half
    if point <= 18:
        return OUTER_X0 + (point - 13) * POINT_W + half
    return HOME_X0 + (point - 19) * POINT_W + half


def _draw_frame(c: _Canvas, view: BoardView) -> None:
    c.rect(0, 0, WIDTH, HEIGHT, class_="frame", fill=C_FRAME, rx=10)
    c.rect(
        OUTER_X0, SURF_Y0, 6 * POINT_W, SURF_Y1 - SURF_Y0, class_="board-half outer", fill=C_FELT
    )
    c.rect(HOME_X0, SURF_Y0, 6 * POINT_W, SURF_Y1 - SURF_Y0, class_="board-half home", fill=C_FELT)
    c.rect(
        BAR_X0,
        SURF_Y0 - 6,
        BAR_W,
        SURF_Y1 - SURF_Y0 + 12,
        class_="bar" + _last_move_classes(view, 25),
        fill=C_BAR,
        stroke=C_LAST_MOVE if _last_move_classes(view, 25) else C_FRAME_EDGE,
        stroke_width=2,
    )
    c.rect(
        TRAY_X0,
        SURF_Y0,
        TRAY_W,
        SURF_Y1 - SURF_Y0,
        class_="tray" + _last_move_classes(view, 0),
        fill=C_TRAY,
        stroke=C_LAST_MOVE if _last_move_classes(view, 0) else C_FRAME_EDGE,
        stroke_width=2,
        rx=4,
    )
    # The tray is split in two: the top player's half and the viewer's half.
    c.add(
        f"<line{_attrs(x1=c.x(TRAY_X0 + 8), y1=MID_Y, x2=c.x(TRAY_X0 + TRAY_W - 8), y2=MID_Y)}"
        f"{_attrs(class_='tray-divider', stroke=C_FRAME_EDGE, stroke_width=2)}/>"
    )


def _draw_points(c: _Canvas, view: BoardView) -> None:
    half = POINT_W // 2
    for point in range(1, 25):
        cx = _point_x(point)
        if point <= 12:  # bottom row: base on the bottom edge
            base, apex = SURF_Y1, SURF_Y1 - TRIANGLE_H
        else:
            base, apex = SURF_Y0, SURF_Y0 + TRIANGLE_H
        tone = "point-light" if point % 2 else "point-dark"
        lit = point in view.highlight
        last = _last_move_classes(view, point)
        c.polygon(
            ((cx - half + 1, base), (cx + half - 1, base), (cx, apex)),
            class_=f"point {tone}" + (" point-highlight" if lit else "") + last,
            data_point=point,
            fill=C_POINT_ODD if point % 2 else C_POINT_EVEN,
            stroke=C_HIGHLIGHT if lit else C_LAST_MOVE if last else None,
            stroke_width=4 if lit or last else None,
            stroke_linejoin="round" if lit or last else None,
            stroke_dasharray="8 5" if "last-move-from" in last and not lit else None,
        )
    for point in range(1, 25):
        y = HEIGHT - 12 if point <= 12 else RAIL - 12
        lit = point in view.highlight
        c.text(
            _point_x(point),
            y,
            str(point),
            class_="point-number" + (" point-number-highlight" if lit else ""),
            data_point=point,
            text_anchor="middle",
            font_size=27,
            font_weight="bold" if lit or point in (1, 6, 7, 12, 13, 18, 19, 24) else None,
            fill=C_HIGHLIGHT if lit else C_RAIL_TEXT,
        )


def _last_move_classes(view: BoardView, point: int) -> str:
    """`` last-move last-move-from``/``-to`` for a point (0-25) of the last move."""
    names = []
    if any(a == point for a, _ in view.last_move):
        names.append("last-move-from")
    if any(b == point for _, b in view.last_move):
        names.append("last-move-to")
    return " last-move " + " ".join(names) if names else ""


def _draw_stack(
    c: _Canvas,
    side: Side,
    count: int,
    cx: int,
    first_cy: int,
    step: int,
    data_point: str | int,
    extra: str = "",
) -> None:
    """A stack of ``count`` checkers from ``first_cy`` in direction ``step`` (at most 5)."""
    classes = f"checkers checkers-{side}{extra}"
    c.add(f"<g{_attrs(class_=classes, data_point=data_point, data_count=count)}>")
    shown = min(count, MAX_SHOWN)
    for k in range(shown):
        cy = first_cy + k * step
        c.circle(
            cx,
            cy,
            CHECKER_R,
            class_=f"checker checker-{side}",
            fill=CHECKER_FILL[side],
            stroke=CHECKER_EDGE[side],
            stroke_width=2,
        )
        # A ring inside the edge reads as a real checker and is left without a class so
        # that tests and scripts counting checkers see one circle per checker.
        c.add(
            f"<circle{_attrs(cx=c.x(cx), cy=cy, r=CHECKER_R - 7, fill='none')}"
            f"{_attrs(stroke=CHECKER_RING[side], stroke_width=2, class_='checker-ring')}/>"
        )
    if count > MAX_SHOWN:
        cy = first_cy + (shown - 1) * step
        c.text(
            cx,
            cy + 10,
            str(count),
            class_="checker-count",
            text_anchor="middle",
            font_size=28,
            font_weight="bold",
            fill=CHECKER_TEXT[side],
        )
    c.add("</g>")


def _draw_checkers(c: _Canvas, view: BoardView) -> None:
    first_bottom = SURF_Y1 - CHECKER_D // 2
    first_top = SURF_Y0 + CHECKER_D // 2
    for point in range(1, 25):
        cx = _point_x(point)
        bottom = view.bottom[point - 1]
        top = view.top[24 - point]  # the top player's point 25 - p
        row_first, step = (first_bottom, -CHECKER_D) if point <= 12 else (first_top, CHECKER_D)
        for side, count in (("bottom", bottom), ("top", top)):
            if count:
                moved = side == view.last_move_side and any(b == point for _, b in view.last_move)
                extra = " last-move" if moved else ""
                _draw_stack(c, side, count, cx, row_first, step, point, extra)
    # The bar: each side's checkers in its own half, from the middle outwards.
    offset = 6 + CHECKER_D // 2
    if view.bottom[24]:
        _draw_stack(c, "bottom", view.bottom[24], BAR_CX, MID_Y + offset, CHECKER_D, "bar")
    if view.top[24]:
        _draw_stack(c, "top", view.top[24], BAR_CX, MID_Y - offset, -CHECKER_D, "bar")


def _draw_off(c: _Canvas, view: BoardView) -> None:
    for side, count in (("bottom", view.bottom_off), ("top", view.top_off)):
        c.add(f"<g{_attrs(class_=f'off off-{side}', data_count=count)}>")
        for k in range(min(count, 15)):
            if side == "bottom":
                y = SURF_Y1 - 5 - OFF_SLAB_H - k * OFF_STEP
            else:
                y = SURF_Y0 + 5 + k * OFF_STEP
            c.rect(
                TRAY_CX - OFF_SLAB_W // 2,
                y,
                OFF_SLAB_W,
                OFF_SLAB_H,
                class_=f"off-checker off-checker-{side}",
                rx=3,
                fill=CHECKER_FILL[side],
                stroke=CHECKER_EDGE[side],
                stroke_width=1.5,
            )
        if count:
            c.text(
                TRAY_CX,
                MID_Y + 34 if side == "bottom" else MID_Y - 14,
                str(count),
                class_=f"off-count off-count-{side}",
                text_anchor="middle",
                font_size=28,
                font_weight="bold",
                fill=C_RAIL_TEXT,
            )
        c.add("</g>")


def _draw_strip(c: _Canvas, view: BoardView) -> None:
    """Pip counts, unentered checkers, cube and Crawford marker in the side strip."""
    if view.pips is not None:
        for side, pips, label_y, value_y in (
            ("top", view.pips[1], 24, 54),
            ("bottom", view.pips[0], HEIGHT - 42, HEIGHT - 12),
        ):
            c.text(
                STRIP_CX,
                label_y,
                view.pip_label,
                class_=f"pips-label pips-label-{side}",
                text_anchor="middle",
                font_size=19,
                fill=C_RAIL_TEXT_DIM,
            )
            c.text(
                STRIP_CX,
                value_y,
                str(pips),
                class_=f"pips pips-{side}",
                text_anchor="middle",
                font_size=28,
                font_weight="bold",
                fill=C_RAIL_TEXT,
            )
    for side, count, cy in (
        ("top", view.top_unentered, 102),
        ("bottom", view.bottom_unentered, HEIGHT - 102),
    ):
        if not count:
            continue
        c.add(f"<g{_attrs(class_=f'unentered unentered-{side}', data_count=count)}>")
        c.circle(
            STRIP_CX,
            cy,
            24,
            class_=f"unentered-checker unentered-checker-{side}",
            fill=CHECKER_FILL[side],
            stroke=CHECKER_EDGE[side],
            stroke_width=2,
            stroke_dasharray="5 3",
        )
        c.text(
            STRIP_CX,
            cy + 9,
            str(count),
            class_="unentered-count",
            text_anchor="middle",
            font_size=24,
            font_weight="bold",
            fill=CHECKER_TEXT[side],
        )
        c.add("</g>")
    _draw_cube(c, view)
    if view.crawford:
        cy = MID_Y + 72
        c.add(f"<g{_attrs(class_='crawford')}>")
        c.circle(STRIP_CX, cy, 18, fill=C_CRAWFORD, stroke=C_RAIL_TEXT, stroke_width=2)
        c.text(
            STRIP_CX,
            cy + 8,
            "C",
            text_anchor="middle",
            font_size=22,
            font_weight="bold",
            fill="#ffffff",
        )
        c.add("</g>")


def _draw_cube(c: _Canvas, view: BoardView) -> None:
    if view.cube_owner == "top":
        cy = SURF_Y0 + 136
    elif view.cube_owner == "bottom":
        cy = SURF_Y1 - 136
    else:
        cy = MID_Y
    label = "64" if view.cube_value == 1 and view.cube_owner is None else str(view.cube_value)
    classes = "cube" + (" cube-offered" if view.cube_offered else "")
    owner = view.cube_owner or "centre"
    c.add(f"<g{_attrs(class_=classes, data_value=view.cube_value, data_owner=owner)}>")
    half = CUBE_SIZE // 2
    if view.cube_offered:
        c.rect(
            STRIP_CX - half - 6,
            cy - half - 6,
            CUBE_SIZE + 12,
            CUBE_SIZE + 12,
            class_="cube-offer-glow",
            rx=12,
            fill=C_CUBE_OFFER,
            opacity="0.55",
        )
    c.rect(
        STRIP_CX - half,
        cy - half,
        CUBE_SIZE,
        CUBE_SIZE,
        class_="cube-face",
        rx=8,
        fill=C_CUBE,
        stroke=C_CUBE_OFFER if view.cube_offered else C_CUBE_TEXT,
        stroke_width=4 if view.cube_offered else 2,
    )
    c.text(
        STRIP_CX,
        cy + 10,
        label,
        class_="cube-value",
        text_anchor="middle",
        font_size=28 if len(label) < 3 else 22,
        font_weight="bold",
        fill=C_CUBE_TEXT,
    )
    c.add("</g>")


def _draw_dice(c: _Canvas, view: BoardView) -> None:
    if view.dice is None:
        return
    owner: Side = view.dice_owner or "bottom"
    # The bottom player rolls on the home half, the top player on the outer half.
    half_cx = (HOME_X0 + HOME_X1) // 2 if owner == "bottom" else (OUTER_X0 + BAR_X0) // 2
    fill = CHECKER_FILL[owner]
    pip = CHECKER_TEXT[owner]
    half = DIE_SIZE // 2
    spacing = DIE_SIZE + 14
    c.add(f"<g{_attrs(class_=f'dice dice-{owner}')}>")
    for n, value in enumerate(view.dice):
        cx = half_cx + (n * 2 - 1) * spacing // 2
        c.add(f"<g{_attrs(class_='die', data_value=value)}>")
        c.rect(
            cx - half,
            MID_Y - half,
            DIE_SIZE,
            DIE_SIZE,
            class_="die-face",
            rx=8,
            fill=fill,
            stroke=CHECKER_EDGE[owner],
            stroke_width=2,
        )
        unit = 13
        for dx, dy in _DIE_PIPS[value]:
            # Mirroring the die for home="left" keeps it a valid die face.
            c.circle(cx + dx * unit, MID_Y + dy * unit, 5, class_="die-pip", fill=pip)
        c.add("</g>")
    c.add("</g>")


def _draw_hits(c: _Canvas) -> None:
    """Transparent tap areas over everything (static/games/board.js): each point's whole
    column, half the board's height from its rail to the middle; the bar; the tray with
    the frame beside it."""
    c.add(f"<g{_attrs(class_='hits', fill='#000', fill_opacity='0')}>")
    half = POINT_W // 2
    for point in range(1, 25):
        y = MID_Y if point <= 12 else 0
        c.rect(_point_x(point) - half, y, POINT_W, HEIGHT // 2, class_="hit", data_point=point)
    c.rect(BAR_X0, 0, BAR_W, HEIGHT, class_="hit hit-bar", data_point="bar")
    c.rect(HOME_X1, 0, WIDTH - HOME_X1, HEIGHT, class_="hit hit-off", data_point="off")
    c.add("</g>")


def render_board(view: BoardView) -> str:
    """The board as an ``<svg>`` element string: responsive, accessible, deterministic."""
    c = _Canvas(mirrored=view.home == "left")
    title_id = f"{view.svg_id}-title"
    desc_id = f"{view.svg_id}-desc"
    svg_attrs = _attrs(
        xmlns="http://www.w3.org/2000/svg",
        class_=f"board board-home-{view.home}",
        viewBox=f"0 0 {WIDTH} {HEIGHT}",
        width="100%",
        preserveAspectRatio="xMidYMid meet",
        role="img",
        aria_labelledby=title_id,
        aria_describedby=desc_id if view.description else None,
        font_family=FONT,
    )
    c.add(f"<svg{svg_attrs}>")
    c.add(f"<title{_attrs(id=title_id)}>{escape(view.title)}</title>")
    if view.description:
        c.add(f"<desc{_attrs(id=desc_id)}>{escape(view.description)}</desc>")
    _draw_frame(c, view)
    _draw_points(c, view)
    _draw_checkers(c, view)
    _draw_off(c, view)
    _draw_strip(c, view)
    _draw_dice(c, view)
    _draw_hits(c)
    c.add("</svg>")
    return "\n".join(c.out)
