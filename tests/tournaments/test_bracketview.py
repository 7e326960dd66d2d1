"""Bracket layout and SVG drawing (tournaments/bracketview.py): pure, no database.

Every format is built at field sizes 2, 3, 13, 16, 65 and 128 with the pairing builders,
played to the end (and halfway) with seeded random results and a withdrawal, laid out and
drawn; the checks are the ones a page relies on: one box per slot, no overlapping boxes
in a column, connectors pointing forward within a part, the champion shown as the
winner of the final, byes and unknown players labelled, user names escaped, valid XML.
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Collection
from itertools import pairwise
from typing import Any

import pytest

from tournaments.bracketview import (
    CAPTION_H,
    Labels,
    PartLayout,
    RoundName,
    SlotDetail,
    english_round_title,
    layout,
    render_svg,
)
from tournaments.pairing import (
    BYE,
    Bracket,
    EntrantId,
    ResolvedSlot,
    Result,
    build_bracket,
    build_double_elimination,
    build_progressive_consolation,
    build_single_elimination,
    finishing_order,
    resolve,
)

SVG = "{http://www.w3.org/2000/svg}"
EVIL = "<script>alert('x')</script> & \"Co\""

FORMATS: list[tuple[str, dict[str, Any]]] = [
    ("single", {}),
    ("consolation", {"entry_rounds": 1}),
    ("consolation", {"entry_rounds": 2}),
    ("progressive", {}),
    ("last_chance", {"entry_rounds": 1}),
    ("last_chance", {"entry_rounds": 2}),
    ("double", {"bracket_reset": False}),
    ("double", {"bracket_reset": True}),
]
SIZES = [2, 3, 13, 16, 65, 128]


def play(
    bracket: Bracket,
    seeds: list[EntrantId],
    rng: random.Random,
    *,
    withdrawn: Collection[EntrantId] = frozenset(),
    waves: int | None = None,
) -> tuple[dict[str, Result], dict[str, ResolvedSlot]]:
    """Record random results (a few walkovers) for ready slots, wave by wave."""
    results: dict[str, Result] = {}
    wave = 0
    while True:
        resolved = resolve(bracket, seeds, results, withdrawn)
        ready = [k for k, rs in resolved.items() if rs.ready]
        if not ready or (waves is not None and wave >= waves):
            return results, resolved
        for key in ready:
            results[key] = Result(rng.choice("ab"), walkover=rng.random() < 0.05)  # type: ignore[arg-type]
        wave += 1


def names_for(seeds: list[EntrantId]) -> dict[EntrantId, str]:
    names: dict[EntrantId, str] = {e: f"Player {e}" for e in seeds}
    names[seeds[-1]] = EVIL
    return names


def svg_texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)  # noqa: S314 - our own output: checks it is well-formed XML
    return [el.text or "" for el in root.iter(f"{SVG}text")]


def check_geometry(lay: PartLayout) -> None:
    keys = {b.key for b in lay.boxes}
    by_column: dict[int, list[Any]] = {}
    for box in lay.boxes:
        by_column.setdefault(box.column, []).append(box)
        assert box.x >= 0 and box.x + box.width <= lay.width
        assert box.y >= 0 and box.y + box.height <= lay.height
        assert box.x == lay.columns[box.column].x
    for boxes in by_column.values():
        boxes.sort(key=lambda b: b.y)
        for upper, lower in pairwise(boxes):  # room for the lower one's caption, too
            assert upper.y + upper.height + CAPTION_H <= lower.y, (upper.key, lower.key)
    for con in lay.connectors:
        assert con.source in keys and con.target in keys
        assert lay.box(con.source).column < lay.box(con.target).column
        assert lay.box(con.source).round < lay.box(con.target).round
        assert con.points[0][0] == lay.box(con.source).x + lay.box(con.source).width
        assert con.points[-1] == (lay.box(con.target).x, lay.box(con.target).row_y(con.side))
    # the classic look: a slot fed by two slots of its part sits halfway between them
    feeders: dict[str, list[str]] = {}
    for con in lay.connectors:
        feeders.setdefault(con.target, []).append(con.source)
    for target, sources in feeders.items():
        mean = sum(lay.box(s).cy for s in sources) / len(sources)
        assert lay.box(target).cy == pytest.approx(mean)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize(("fmt", "options"), FORMATS, ids=lambda v: str(v))
def test_every_format_and_size_played_out(fmt: str, options: dict[str, Any], n: int) -> None:
    rng = random.Random(f"{fmt}{options}{n}")
    bracket = build_bracket(fmt, n, **options)
    seeds: list[EntrantId] = list(range(1, n + 1))
    withdrawn = {seeds[n // 2]} if n >= 13 else set()
    _, resolved = play(bracket, seeds, rng, withdrawn=withdrawn)
    names = names_for(seeds)
    layouts = layout(bracket, resolved, names)

    # one layout per part, one box per slot
    assert [lay.part for lay in layouts] == list(bracket.parts)
    assert Counter(b.key for lay in layouts for b in lay.boxes) == Counter(
        s.key for s in bracket.slots
    )
    for lay in layouts:
        check_geometry(lay)

    # the sides as resolved: names, byes, unknown players
    box_of = {b.key: b for lay in layouts for b in lay.boxes}
    for key, rs in resolved.items():
        box = box_of[key]
        assert box.status == rs.status
        for side, value in (box.a, rs.a), (box.b, rs.b):
            if value is BYE:
                assert (side.kind, side.text) == ("bye", "bye")
            elif value is None:
                assert (side.kind, side.text) == ("pending", "—")
            else:
                assert (side.kind, side.text) == ("entrant", names[value])
        if rs.status == "walkover" and rs.winner_side is not None:
            winner = box.a if rs.winner_side == "a" else box.b
            assert winner.winner and winner.score == "w/o"

    # the champion of every ranking is the winner of its last slot, drawn as such
    for ranking, places in finishing_order(bracket, resolved).items():
        champions = places[0].entrants
        assert len(champions) == 1 and places[0].final
        parts = bracket.rankings()[ranking]
        terminal = [s for s in bracket.slots if s.part in parts][-1].key
        (holder,) = (lay for lay in layouts if terminal in lay)
        final = holder.box(terminal)
        winner = final.a if final.a.winner else final.b
        assert winner.winner and winner.entrant == champions[0]
        assert winner.text == names[champions[0]]
        assert holder.champion == winner
        svg = render_svg(holder, title=ranking)
        assert names[champions[0]] in svg_texts(svg)

    # the drawing: valid XML, every name as text, user text escaped, byes shown
    for lay in layouts:
        svg = render_svg(lay)
        assert "<script>" not in svg
        texts = svg_texts(svg)
        for box in lay.boxes:
            for side in (box.a, box.b):
                assert side.text in texts
        if any(side.kind == "bye" for box in lay.boxes for side in (box.a, box.b)):
            assert "bye" in texts
        assert svg.count('class="slot slot-') == len(lay.boxes)
        assert svg.count("<path ") == len(lay.connectors)


@pytest.mark.parametrize(("fmt", "options"), FORMATS, ids=lambda v: str(v))
def test_halfway_shows_pending_and_ready(fmt: str, options: dict[str, Any]) -> None:
    bracket = build_bracket(fmt, 13, **options)
    seeds: list[EntrantId] = list(range(1, 14))
    _, resolved = play(bracket, seeds, random.Random(7), waves=1)
    layouts = layout(bracket, resolved, names_for(seeds))
    for lay in layouts:
        check_geometry(lay)
    boxes = [b for lay in layouts for b in lay.boxes]
    statuses = {b.status for b in boxes}
    assert {"pending", "ready", "played"} <= statuses
    pending_sides = [s for b in boxes for s in (b.a, b.b) if s.kind == "pending"]
    assert pending_sides and all(s.text == "—" and not s.winner for s in pending_sides)
    assert all(lay.champion is None for lay in layouts)
    svg = render_svg(layouts[0])
    assert "slot-pending" in svg and "slot-ready" in svg and "side side-b pending" in svg
    assert "connector-advanced" in svg and 'class="connector"' in svg


def test_each_svg_names_its_ranking_and_its_part() -> None:
    bracket = build_bracket("double", 8)
    seeds: list[EntrantId] = list(range(1, 9))
    _, resolved = play(bracket, seeds, random.Random(3), waves=1)
    for lay in layout(bracket, resolved, names_for(seeds)):
        svg = render_svg(lay)
        assert f'data-ranking="main" data-part="{lay.part}"' in svg
        assert f'data-flight="{lay.part}"' in svg  # the former name, for one release


def test_round_titles_codes_and_translation() -> None:
    bracket = build_single_elimination(16)
    resolved = resolve(bracket, list(range(1, 17)))
    (main,) = layout(bracket, resolved, {})
    assert [c.title for c in main.columns] == ["Round 1", "Quarter-final", "Semi-final", "Final"]
    assert [c.name.code for c in main.columns] == ["round", "quarter_final", "semi_final", "final"]

    seen: list[RoundName] = []

    def translate(name: RoundName) -> str:
        seen.append(name)
        return f"{name.part}:{name.code}:{name.number}/{name.rounds_total}"

    double = build_double_elimination(8, bracket_reset=True)
    lays = layout(double, resolve(double, list(range(1, 9))), {}, round_title=translate)
    titles = {lay.part: [c.title for c in lay.columns] for lay in lays}
    assert titles["winners"] == [
        "winners:quarter_final:1/3",
        "winners:semi_final:2/3",
        "winners:final:3/3",
    ]
    # feed-in rounds of one match each: only the last is the (losers') final
    assert titles["losers"][-2:] == ["losers:round:3/4", "losers:final:4/4"]
    assert titles["final"] == ["final:final:5/2", "final:reset:6/2"]
    assert len(seen) == 3 + 4 + 2
    assert english_round_title(RoundName("final", "reset", 6, 2)) == "Second final"

    # progressive consolation: two rounds of two matches, only the last is a semi-final
    prog = build_progressive_consolation(16)
    lays = layout(prog, resolve(prog, list(range(1, 17))), {})
    assert [c.name.code for c in lays[1].columns] == [
        "round",
        "round",
        "round",
        "semi_final",
        "final",
    ]


def test_details_labels_and_escaping() -> None:
    bracket = build_single_elimination(4)
    seeds: list[EntrantId] = ["ann", "bob", "cy", "dee"]
    resolved = resolve(bracket, seeds, {"M1-1": "a", "M1-2": Result("b", walkover=True)})
    names = {"ann": "Ann <b>", "bob": "Bob & Co", "cy": "Cy", "dee": "Dee"}
    details = {
        "M1-1": SlotDetail(score_a="7", score_b="5", table=4, href="/m/1?x=1&y=2"),
        "M2-1": SlotDetail(table="<3>", status="playing <now>"),
    }
    labels = Labels(bye="frei", pending="?", walkover="k.l.", table="Tisch {}")
    (main,) = layout(bracket, resolved, names, details=details, labels=labels)
    m11, m12, m21 = main.box("M1-1"), main.box("M1-2"), main.box("M2-1")
    assert (m11.a.score, m11.b.score, m11.caption) == ("7", "5", "Tisch 4")
    assert m11.a.winner and m11.b.loser and m11.href == "/m/1?x=1&y=2"
    assert (m12.a.score, m12.b.score) == ("", "k.l.") and m12.b.winner
    assert m21.caption == "Tisch <3> · playing <now>"
    assert (m21.a.text, m21.b.text, m21.status) == ("Ann <b>", "Cy", "ready")

    svg = render_svg(main, title='Main <draw> "A"')
    root = ET.fromstring(svg)  # noqa: S314 - our own output
    assert root.get("role") == "group" and root.get("aria-label") == 'Main <draw> "A"'
    assert root.get("width") == "100%"
    assert root.get("viewBox") == f"0 0 {main.width:g} {main.height:g}"
    texts = svg_texts(svg)
    assert {"Ann <b>", "Bob & Co", "Tisch <3> · playing <now>", "k.l.", "7"} <= set(texts)
    assert "Ann &lt;b&gt;" in svg and "Bob &amp; Co" in svg and "<b>" not in svg
    (link,) = root.iter(f"{SVG}a")
    assert link.get("href") == "/m/1?x=1&y=2"
    assert 'class="side side-a entrant winner"' in svg
    assert 'class="side side-b entrant loser"' in svg

    pending = resolve(build_single_elimination(3), [1, 2, 3])
    (small,) = layout(build_single_elimination(3), pending, {}, labels=labels)
    assert small.box("M1-1").b.text == "frei" and small.box("M2-1").b.text == "?"
    assert "side side-b bye" in render_svg(small)


def test_deterministic_and_linear() -> None:
    sizes: dict[int, float] = {}
    for n in (16, 128):
        bracket = build_double_elimination(n)
        seeds: list[EntrantId] = list(range(1, n + 1))
        _, resolved = play(bracket, seeds, random.Random(n))
        svgs = [render_svg(lay) for lay in layout(bracket, resolved, names_for(seeds))]
        again = [render_svg(lay) for lay in layout(bracket, resolved, names_for(seeds))]
        assert svgs == again
        sizes[n] = sum(map(len, svgs)) / len(bracket.slots)
    assert 0.8 < sizes[128] / sizes[16] < 1.25


def test_min_width_and_long_names() -> None:
    bracket = build_single_elimination(2)
    resolved = resolve(bracket, [1, 2], {"M1-1": "b"})
    long = "Bartholomew Fitzgerald-Montgomery III"
    (main,) = layout(bracket, resolved, {1: "Al", 2: long})
    svg = render_svg(main)
    assert f"min-width:{round(main.width * 0.8)}px" in svg
    assert "style=" not in render_svg(main, min_scale=0)
    assert svg.count('lengthAdjust="spacingAndGlyphs"') == 2  # the row and the champion
    assert main.champion is not None and main.champion.text == long
    assert svg_texts(svg).count(long) == 2
