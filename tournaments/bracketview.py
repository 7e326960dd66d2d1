"""Knockout brackets drawn as server-side SVG: a pure layout, then a string renderer.

Pure Python, no Django, no database (like :mod:`games.play.boardsvg`): a view resolves the
bracket (:func:`tournaments.pairing.resolve`), calls :func:`layout` with the entrants'
display names, and embeds :func:`render_svg` of each returned :class:`PartLayout` in
the page.

One layout per **part** (``main``, ``consolation``, ``last_chance``; for double
elimination ``winners``, ``losers`` and ``final``), in play order. ``PartLayout.ranking``
says which ranking the part belongs to (the three double-elimination parts share
``main``). Within a part:

* one **column** per round, left to right, with a title;
* one **box** per slot: two rows (side ``a`` above ``b``), each with a name and a score,
  and a small caption above the box (table number, status text);
* **connectors** from a slot to the slot of the same part that its winner goes to.
  Drops into another part (losers to a consolation or losers' bracket) are not drawn;
  each side keeps its :class:`~tournaments.pairing.Source` (``data-source``) instead.

Placement is the classic look: slots that no slot of their part feeds (usually round
1) are stacked top to bottom in the order the tree is walked (side ``a`` first), and
every later slot is centred between its feeders (on its single feeder for a feed-in
round). Each slot is within the vertical span of the slots it descends from, and slots of
one column descend from disjoint slots, so boxes of a column never overlap.

Translation: this module has no gettext (docs/architecture.md). Round titles come from the
``round_title`` callable, which receives a :class:`RoundName` (a stable ``code`` such as
``"semi_final"`` plus numbers) and returns the text; the default is English. The few
words drawn inside boxes ("bye", "w/o", "—", "Table 4") come from :class:`Labels`. The
Django side passes translated versions of both.

Output: a standalone ``<svg>`` with a ``viewBox`` and ``width="100%"`` (fills a wall
display) and a ``min-width`` in pixels so that text stays readable on a phone, where the
page wraps it in a horizontally scrolling container. Every element carries CSS classes
and colours are presentation attributes (the lowest CSS priority), so a stylesheet can
theme it:

* ``svg.bracket.bracket-{part}[data-ranking=RANKING][data-part=PART]`` (also
  ``data-flight``, the part's former name, for one release);
* ``text.round-title[data-round=N]`` one per column;
* ``path.connector`` (``connector-advanced`` once the feeder is decided);
* ``g.slot.slot-{status}[data-slot=KEY]`` (status: ``pending``, ``ready``, ``played``,
  ``walkover``, ``bye``), holding ``text.slot-caption``, ``rect.slot-frame`` and two
  ``g.side.side-{a|b}`` with class ``entrant``, ``bye`` or ``pending`` and, once the slot is
  decided, ``winner`` or ``loser``; each has ``text.name`` and ``text.score``. A slot with
  an ``href`` is wrapped in an ``<a>``;
* ``g.champion`` with ``text.champion-name`` after the final of a ranking, once decided.

All user text (names, captions, scores) is escaped. The output is deterministic and
grows linearly with the number of slots.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Final, Literal
from xml.sax.saxutils import escape

from games.text.svgmarkup import attrs as _attrs
from games.text.svgmarkup import number as _n
from games.text.svgmarkup import text as _text
from tournaments.pairing.brackets import Bracket, Slot, Source
from tournaments.pairing.common import Bye, EntrantId, Side, SideName
from tournaments.pairing.resolve import ResolvedSlot, Status

__all__ = [
    "Box",
    "Column",
    "Connector",
    "Labels",
    "PartLayout",
    "RoundCode",
    "RoundName",
    "RoundTitle",
    "SideBox",
    "SlotDetail",
    "english_round_title",
    "layout",
    "render_svg",
    "round_names",
]

# ------------------------------------------------------------------------ geometry
# Lengths are viewBox units; at the default min_scale a unit is at least 0.8 CSS pixel.

MARGIN: Final = 16
HEADER_H: Final = 32  # column titles
BOX_W: Final = 220
ROW_H: Final = 26  # one side of a box
BOX_H: Final = 2 * ROW_H
CAPTION_H: Final = 16  # the caption line above a box
BOX_GAP: Final = 12  # between a box and the caption of the next one
PITCH: Final = CAPTION_H + BOX_H + BOX_GAP  # vertical step between stacked slots
COL_GAP: Final = 44  # between columns: the connectors
CHAMPION_W: Final = 190  # the champion's name after a ranking's final
PAD: Final = 8  # text inset in a box
SCORE_W: Final = 44  # right part of a row: the score
NAME_W: Final = BOX_W - 2 * PAD - SCORE_W
NAME_CHARS: Final = 21  # longer names are squeezed into NAME_W (textLength)
FONT_SIZE: Final = 14
SMALL_FONT: Final = 11
TITLE_FONT: Final = 15

FONT: Final = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
C_FRAME: Final = "#8a8f98"
C_BOX: Final = "#ffffff"
C_WINNER_BG: Final = "#e2f2e4"
C_TEXT: Final = "#1d1f23"
C_DIM: Final = "#7a7f87"
C_LINE: Final = "#a9aeb6"
C_LINE_ADVANCED: Final = "#3c8d4f"
C_TITLE: Final = "#3a3f47"

# ------------------------------------------------------------------------ the data

RoundCode = Literal["round", "quarter_final", "semi_final", "final", "reset"]
SideKind = Literal["entrant", "bye", "pending"]


@dataclass(frozen=True, slots=True)
class RoundName:
    """What a column is, for :data:`RoundTitle` to put into words.

    ``code``: ``final`` (the last round of the part), ``semi_final`` and
    ``quarter_final`` (the knockout rounds just before it, with 2 and 4 matches),
    ``reset`` (double elimination's second final), else ``round``. ``number`` is the
    bracket's round number within the part (1-based; the double-elimination ``final``
    part continues the losers' numbering). ``rounds_total`` is the number of columns.
    """

    part: str
    code: RoundCode
    number: int
    rounds_total: int


RoundTitle = Callable[[RoundName], str]
"""Puts a :class:`RoundName` into words (the Django side passes a translating one)."""


def english_round_title(name: RoundName) -> str:
    """The default :data:`RoundTitle`: "Round 1", "Quarter-final", ..., "Final"."""
    return {
        "final": "Final",
        "semi_final": "Semi-final",
        "quarter_final": "Quarter-final",
        "reset": "Second final",
    }.get(name.code, f"Round {name.number}")


@dataclass(frozen=True, slots=True)
class Labels:
    """The words drawn inside boxes (pass translated ones). ``table`` is a template in
    which ``{}`` is replaced by the table number."""

    bye: str = "bye"
    pending: str = "—"
    walkover: str = "w/o"
    table: str = "Table {}"


DEFAULT_LABELS: Final = Labels()


@dataclass(frozen=True, slots=True)
class SlotDetail:
    """Optional extras for one slot, from the application.

    ``score_a``/``score_b``: score text shown next to each side (e.g. ``"7"``);
    ``table``: the table number, shown through :attr:`Labels.table`; ``status``: a short
    text for the caption (e.g. "playing", already translated); ``href``: a link for the
    whole box (e.g. the match page).
    """

    score_a: str = ""
    score_b: str = ""
    table: int | str | None = None
    status: str = ""
    href: str = ""


@dataclass(frozen=True, slots=True)
class SideBox:
    """One row of a box.

    ``kind``: ``entrant`` (``entrant`` holds the id), ``bye`` or ``pending`` (not known
    yet). ``text``: the name, or :attr:`Labels.bye` / :attr:`Labels.pending`. ``winner``
    / ``loser``: set once the slot is decided (an entrant who withdrew against a bye is
    a loser; a bye is neither). ``source``: the encoded :class:`Source` feeding this side
    (``"seed:3"``, ``"loser:W1-2"``), for a page that wants to say where a player comes from.
    """

    side: SideName
    kind: SideKind
    text: str
    entrant: EntrantId | None = None
    score: str = ""
    winner: bool = False
    loser: bool = False
    source: str = ""

    @property
    def css_class(self) -> str:
        state = " winner" if self.winner else " loser" if self.loser else ""
        return f"side side-{self.side} {self.kind}{state}"


@dataclass(frozen=True, slots=True)
class Box:
    """One slot drawn: its rectangle (top-left ``x``, ``y``), sides and caption."""

    key: str
    column: int
    round: int
    index: int
    x: float
    y: float
    width: int
    height: int
    status: Status
    a: SideBox
    b: SideBox
    caption: str = ""
    href: str = ""

    @property
    def cy(self) -> float:
        """The vertical centre."""
        return self.y + self.height / 2

    def row_y(self, side: SideName) -> float:
        """The vertical centre of one side's row."""
        return self.y + (ROW_H / 2 if side == "a" else ROW_H * 1.5)


@dataclass(frozen=True, slots=True)
class Column:
    """One round of a part: position (``x`` of its boxes), name and title."""

    index: int
    round: int
    x: float
    name: RoundName
    title: str


@dataclass(frozen=True, slots=True)
class Connector:
    """The line from slot ``source`` to the ``side`` of slot ``target`` its winner joins;
    ``points`` is the polyline; ``advanced``: the source slot is decided with a winner."""

    source: str
    target: str
    side: SideName
    points: tuple[tuple[float, float], ...]
    advanced: bool


@dataclass(frozen=True)
class PartLayout:
    """One part laid out, in viewBox units (``width`` x ``height``).

    ``champion`` is the winner's row of the ranking's last slot, when this part holds
    that slot and it is decided (drawn after the last column at ``champion_at``).
    """

    ranking: str
    part: str
    width: float
    height: float
    columns: tuple[Column, ...]
    boxes: tuple[Box, ...]
    connectors: tuple[Connector, ...]
    champion: SideBox | None = None
    champion_at: tuple[float, float] | None = None
    _by_key: dict[str, Box] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_key", {b.key: b for b in self.boxes})

    def box(self, key: str) -> Box:
        """The box of slot ``key`` (``KeyError`` if it is not in this part)."""
        return self._by_key[key]

    def __contains__(self, key: object) -> bool:
        return key in self._by_key


# ------------------------------------------------------------------------ layout


def round_names(bracket: Bracket) -> dict[str, list[RoundName]]:
    """Part -> its rounds in order, named as the drawing titles its columns (for the
    director's round settings, which say which round is the final)."""
    out: dict[str, list[RoundName]] = {}
    for part in bracket.parts:
        slots = [s for s in bracket.slots if s.part == part]
        rounds = sorted({s.round for s in slots})
        codes = _round_codes(slots, rounds)
        out[part] = [RoundName(part, codes[r], r, len(rounds)) for r in rounds]
    return out


def _round_codes(slots: list[Slot], rounds: list[int]) -> dict[int, RoundCode]:
    """Name rounds from the end: reset(s), then final, semi-final, quarter-final while
    each round has twice the matches of the next; every other round is a ``round``."""
    count = {r: sum(1 for s in slots if s.round == r) for r in rounds}
    codes: dict[int, RoundCode] = dict.fromkeys(rounds, "round")
    expected = 1
    for r in reversed(rounds):
        if all(s.reset_of for s in slots if s.round == r):
            codes[r] = "reset"
            continue
        if count[r] != expected or expected > 4:
            break
        codes[r] = "final" if expected == 1 else "semi_final" if expected == 2 else "quarter_final"
        expected *= 2
    return codes


def _side_box(
    side: SideName,
    value: Side,
    source: Source,
    rs: ResolvedSlot,
    names: Mapping[EntrantId, str],
    detail: SlotDetail | None,
    labels: Labels,
) -> SideBox:
    entrant: EntrantId | None = None
    kind: SideKind
    if value is None:
        kind, text = "pending", labels.pending
    elif isinstance(value, Bye):
        kind, text = "bye", labels.bye
    else:
        kind, entrant = "entrant", value
        text = names.get(value, str(value))
    winner = rs.decided and kind == "entrant" and rs.winner_side == side
    loser = rs.decided and kind == "entrant" and not winner
    score = ""
    if detail is not None:
        score = detail.score_a if side == "a" else detail.score_b
    walkover_won = rs.status == "walkover" and (winner or rs.winner_side is None)
    if not score and kind == "entrant" and walkover_won:
        score = labels.walkover
    return SideBox(side, kind, text, entrant, score, winner, loser, source.encode())


def _caption(detail: SlotDetail | None, labels: Labels) -> str:
    if detail is None:
        return ""
    parts = []
    if detail.table is not None and detail.table != "":
        parts.append(labels.table.replace("{}", str(detail.table)))
    if detail.status:
        parts.append(detail.status)
    return " · ".join(parts)


def _part_layout(
    ranking: str,
    part: str,
    slots: list[Slot],
    terminal: str,
    resolved: Mapping[str, ResolvedSlot],
    names: Mapping[EntrantId, str],
    details: Mapping[str, SlotDetail],
    round_title: RoundTitle,
    labels: Labels,
) -> PartLayout:
    keys = {s.key for s in slots}
    rounds = sorted({s.round for s in slots})
    col_of = {r: i for i, r in enumerate(rounds)}
    col_x = [MARGIN + i * (BOX_W + COL_GAP) for i in range(len(rounds))]
    feeders = {
        s.key: [src.slot for src in (s.a, s.b) if src.kind == "winner" and src.slot in keys]
        for s in slots
    }
    fed = {k for ks in feeders.values() for k in ks}

    # Classic placement (module docstring): walk each tree from its root, side a first.
    first_centre = MARGIN + HEADER_H + CAPTION_H + BOX_H / 2
    centre: dict[str, float] = {}
    leaves = 0
    for root in (s.key for s in slots if s.key not in fed):
        stack: list[tuple[str, bool]] = [(root, False)]
        while stack:
            key, expanded = stack.pop()
            kids = feeders[key]
            if expanded or not kids:
                if kids:
                    centre[key] = sum(centre[k] for k in kids) / len(kids)
                else:
                    centre[key] = first_centre + leaves * PITCH
                    leaves += 1
                continue
            stack.append((key, True))
            stack.extend((k, False) for k in reversed(kids))

    boxes: list[Box] = []
    for s in slots:
        rs = resolved[s.key]
        detail = details.get(s.key)
        boxes.append(
            Box(
                key=s.key,
                column=col_of[s.round],
                round=s.round,
                index=s.index,
                x=col_x[col_of[s.round]],
                y=centre[s.key] - BOX_H / 2,
                width=BOX_W,
                height=BOX_H,
                status=rs.status,
                a=_side_box("a", rs.a, s.a, rs, names, detail, labels),
                b=_side_box("b", rs.b, s.b, rs, names, detail, labels),
                caption=_caption(detail, labels),
                href=detail.href if detail is not None else "",
            )
        )
    by_key = {b.key: b for b in boxes}

    connectors: list[Connector] = []
    for s in slots:
        target = by_key[s.key]
        sides: tuple[tuple[SideName, Source], ...] = (("a", s.a), ("b", s.b))
        for side, src in sides:
            if src.kind != "winner" or src.slot not in keys:
                continue
            start = by_key[src.slot]
            x1, y1 = start.x + start.width, start.cy
            x2, y2 = target.x, target.row_y(side)
            xm = x2 - COL_GAP / 2
            from_slot = resolved[src.slot]
            connectors.append(
                Connector(
                    source=src.slot,
                    target=s.key,
                    side=side,
                    points=((x1, y1), (xm, y1), (xm, y2), (x2, y2)),
                    advanced=from_slot.decided and from_slot.winner_side is not None,
                )
            )

    codes = _round_codes(slots, rounds)
    columns = []
    for i, r in enumerate(rounds):
        name = RoundName(part, codes[r], r, len(rounds))
        columns.append(Column(i, r, col_x[i], name, round_title(name)))

    width: float = col_x[-1] + BOX_W + MARGIN
    champion: SideBox | None = None
    champion_at: tuple[float, float] | None = None
    if terminal in keys:
        width += COL_GAP + CHAMPION_W
        last = by_key[terminal]
        final = resolved[terminal]
        if final.decided and final.winner_side is not None:
            champion = last.a if final.winner_side == "a" else last.b
            champion_at = (last.x + last.width + COL_GAP, last.cy)
    height = first_centre + max(leaves - 1, 0) * PITCH + BOX_H / 2 + MARGIN
    return PartLayout(
        ranking=ranking,
        part=part,
        width=width,
        height=height,
        columns=tuple(columns),
        boxes=tuple(boxes),
        connectors=tuple(connectors),
        champion=champion,
        champion_at=champion_at,
    )


def layout(
    bracket: Bracket,
    resolved: Mapping[str, ResolvedSlot],
    names: Mapping[EntrantId, str],
    *,
    details: Mapping[str, SlotDetail] | None = None,
    round_title: RoundTitle = english_round_title,
    labels: Labels = DEFAULT_LABELS,
) -> list[PartLayout]:
    """Lay out every part of ``bracket`` (in play order; see the module docstring).

    ``resolved``: :func:`tournaments.pairing.resolve` of the bracket. ``names``: entrant
    id -> display name (an id without a name is shown as ``str(id)``). ``details``: slot
    key -> :class:`SlotDetail`. ``round_title`` and ``labels``: the words, translated.
    """
    details = details or {}
    ranking_of: dict[str, str] = {}
    terminal_of: dict[str, str] = {}
    for ranking, parts in bracket.rankings().items():
        ranking_slots = [s for s in bracket.slots if s.part in parts]
        for f in parts:
            ranking_of[f] = ranking
        if ranking_slots:
            terminal_of[ranking] = ranking_slots[-1].key
    out = []
    for part in bracket.parts:
        ranking = ranking_of.get(part, part)
        out.append(
            _part_layout(
                ranking,
                part,
                [s for s in bracket.slots if s.part == part],
                terminal_of.get(ranking, ""),
                resolved,
                names,
                details,
                round_title,
                labels,
            )
        )
    return out


# ------------------------------------------------------------------------ rendering


def _name_fit(text: str) -> dict[str, str | float | None]:
    """Squeeze a long name into its room rather than cut it (the full name stays text)."""
    if len(text) <= NAME_CHARS:
        return {}
    return {"textLength": NAME_W, "lengthAdjust": "spacingAndGlyphs"}


def _draw_side(out: list[str], box: Box, row: SideBox) -> None:
    top = box.y + (0 if row.side == "a" else ROW_H)
    baseline = top + ROW_H / 2 + FONT_SIZE * 0.35
    out.append(
        f"<g{_attrs(class_=row.css_class, data_side=row.side, data_source=row.source or None)}>"
    )
    if row.winner:
        out.append(
            f"<rect{_attrs(class_='side-bg', x=box.x, y=top, width=box.width, height=ROW_H)}"
            f"{_attrs(fill=C_WINNER_BG)}/>"
        )
    colour = C_TEXT if row.kind == "entrant" and not row.loser else C_DIM
    out.append(
        _text(
            box.x + PAD,
            baseline,
            row.text,
            class_="name",
            fill=colour,
            font_weight="bold" if row.winner else None,
            font_style="italic" if row.kind == "bye" else None,
            **_name_fit(row.text),
        )
    )
    if row.score:
        out.append(
            _text(
                box.x + box.width - PAD,
                baseline,
                row.score,
                class_="score",
                fill=colour,
                text_anchor="end",
                font_weight="bold" if row.winner else None,
            )
        )
    out.append("</g>")


def _draw_box(out: list[str], box: Box) -> None:
    out.append(
        f"<g{_attrs(class_=f'slot slot-{box.status}', data_slot=box.key, data_status=box.status)}>"
    )
    if box.href:
        out.append(f"<a{_attrs(href=box.href)}>")
    if box.caption:
        out.append(
            _text(
                box.x + 2,
                box.y - 4,
                box.caption,
                class_="slot-caption",
                fill=C_DIM,
                font_size=SMALL_FONT,
            )
        )
    frame = _attrs(x=box.x, y=box.y, width=box.width, height=box.height, rx=4)
    out.append(f"<rect{_attrs(class_='slot-frame')}{frame}{_attrs(fill=C_BOX, stroke=C_FRAME)}/>")
    _draw_side(out, box, box.a)
    _draw_side(out, box, box.b)
    mid = box.y + ROW_H
    divider = _attrs(x1=box.x, y1=mid, x2=box.x + box.width, y2=mid, stroke=C_LINE)
    out.append(f"<line{_attrs(class_='slot-divider')}{divider}/>")
    out.append(
        f"<rect{_attrs(class_='slot-outline')}{frame}"
        f"{_attrs(fill='none', stroke=C_FRAME, stroke_width=1.5)}/>"
    )
    if box.href:
        out.append("</a>")
    out.append("</g>")


def render_svg(layout: PartLayout, *, title: str = "", min_scale: float = 0.8) -> str:
    """One part as a standalone ``<svg>`` string (see the module docstring).

    ``title``: the accessible name (already translated), used for ``aria-label`` and
    ``<title>``; the part's code when empty. ``min_scale``: CSS pixels per viewBox unit
    below which the drawing does not shrink (a ``min-width``; the page scrolls instead);
    ``0`` for none.
    """
    label = title or layout.part
    style = f"min-width:{round(layout.width * min_scale)}px" if min_scale > 0 else None
    out: list[str] = []
    svg = _attrs(
        xmlns="http://www.w3.org/2000/svg",
        class_=f"bracket bracket-{layout.part}",
        viewBox=f"0 0 {_n(layout.width)} {_n(layout.height)}",
        width="100%",
        preserveAspectRatio="xMinYMin meet",
        # A group, not an image: its match boxes are links (an image's content is
        # hidden from assistive technology, and a link inside one is WCAG's nested
        # interactive control; axe-core nested-interactive). Named by aria-label.
        role="group",
        aria_label=label,
        data_ranking=layout.ranking,
        data_part=layout.part,
        data_flight=layout.part,  # its former name, kept for one release like the API's
        font_family=FONT,
        font_size=FONT_SIZE,
        style=style,
    )
    out.append(f"<svg{svg}>")
    out.append(f"<title>{escape(label)}</title>")
    out.append(f"<g{_attrs(class_='round-titles')}>")
    out.extend(
        _text(
            col.x + BOX_W / 2,
            MARGIN + TITLE_FONT,
            col.title,
            class_="round-title",
            data_round=col.round,
            text_anchor="middle",
            font_size=TITLE_FONT,
            font_weight="bold",
            fill=C_TITLE,
        )
        for col in layout.columns
    )
    out.append("</g>")
    out.append(f"<g{_attrs(class_='connectors', fill='none')}>")
    for con in layout.connectors:
        (x1, y1), *rest = con.points
        d = f"M{_n(x1)} {_n(y1)}" + "".join(f"L{_n(x)} {_n(y)}" for x, y in rest)
        cls = "connector connector-advanced" if con.advanced else "connector"
        colour = C_LINE_ADVANCED if con.advanced else C_LINE
        out.append(
            f"<path{_attrs(class_=cls, d=d, stroke=colour, stroke_width=1.5)}"
            f"{_attrs(data_from=con.source, data_to=con.target)}/>"
        )
    out.append("</g>")
    out.append(f"<g{_attrs(class_='slots')}>")
    for box in layout.boxes:
        _draw_box(out, box)
    out.append("</g>")
    if layout.champion is not None and layout.champion_at is not None:
        x, y = layout.champion_at
        out.append(f"<g{_attrs(class_='champion')}>")
        line = _attrs(x1=x - COL_GAP, y1=y, x2=x + CHAMPION_W - PAD, y2=y)
        out.append(f"<line{_attrs(class_='champion-line')}{line}{_attrs(stroke=C_LINE_ADVANCED)}/>")
        out.append(
            _text(
                x,
                y - 6,
                layout.champion.text,
                class_="champion-name",
                font_weight="bold",
                fill=C_TEXT,
                **_name_fit(layout.champion.text),
            )
        )
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)
