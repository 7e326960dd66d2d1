"""The server-side SVG board (issue 4, Pages): what it draws, where, and that it is valid XML.

Plain pytest: no database. The output is parsed with ElementTree and addressed by the CSS
classes and ``data-`` attributes that :mod:`games.play.boardsvg` documents.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from games.engine.position import Position, start_position
from games.play.boardsvg import BoardView, render_board, view_from_position
from tests.svgtools import NS, classes, find_all, find_one, parse_svg

EMPTY = (0,) * 25


def side(points: dict[int, int], bar: int = 0) -> tuple[int, ...]:
    """25 counts from ``{point: checkers}`` in that side's own numbering."""
    counts = [0] * 25
    for point, n in points.items():
        counts[point - 1] = n
    counts[24] = bar
    return tuple(counts)


def parse(view: BoardView) -> ET.Element:
    return parse_svg(render_board(view))


def stacks(root: ET.Element, who: str) -> dict[str, int]:
    """``data-point -> circles drawn`` for one side's checker stacks."""
    result = {}
    for group in find_all(root, f"checkers-{who}", "g"):
        circles = [c for c in group.iter(f"{NS}circle") if f"checker-{who}" in classes(c)]
        result[group.get("data-point", "")] = len(circles)
    return result


def text_of(el: ET.Element) -> str:
    return "".join(el.itertext()).strip()


def start_view(**kwargs: object) -> BoardView:
    return view_from_position(start_position(), viewer_is_mover=True, **kwargs)  # type: ignore[arg-type]


def point_xs(root: ET.Element) -> dict[int, float]:
    """Centre x of each triangle (the apex is the middle vertex of its points attribute)."""
    xs = {}
    for poly in find_all(root, "point", "polygon"):
        vertices = [tuple(map(float, v.split(","))) for v in poly.get("points", "").split()]
        xs[int(poly.get("data-point", "0"))] = sum(x for x, _ in vertices) / 3
    return xs


# ----------------------------------------------------------------------- structure


def test_output_is_valid_responsive_accessible_svg() -> None:
    svg = render_board(start_view())
    root = parse_svg(svg)
    assert root.tag == f"{NS}svg"
    assert root.get("viewBox", "").startswith("0 0 ")
    assert root.get("width") == "100%"
    assert root.get("height") is None
    assert root.get("role") == "img"
    title = root[0]
    assert title.tag == f"{NS}title"
    assert title.get("id") == root.get("aria-labelledby")
    assert "<script" not in svg
    assert "href" not in svg  # no external resources
    assert "style=" not in svg


def test_output_is_deterministic() -> None:
    assert render_board(start_view()) == render_board(start_view())


def test_title_and_description_are_escaped() -> None:
    view = start_view(title="A <b> & 'c' \"d\"", description="x</desc><script>", svg_id="b2")
    root = parse(view)
    assert text_of(root[0]) == "A <b> & 'c' \"d\""
    assert root.get("aria-labelledby") == "b2-title"
    desc = root.find(f"{NS}desc")
    assert desc is not None
    assert text_of(desc) == "x</desc><script>"
    assert root.get("aria-describedby") == desc.get("id") == "b2-desc"
    assert root.find(f"{NS}script") is None


def test_pip_label_is_escaped() -> None:
    root = parse(start_view(pip_label="<&>"))
    labels = find_all(root, "pips-label", "text")
    assert [text_of(el) for el in labels] == ["<&>", "<&>"]


def test_all_point_numbers_present() -> None:
    root = parse(start_view())
    numbers = find_all(root, "point-number", "text")
    assert sorted(int(text_of(el)) for el in numbers) == list(range(1, 25))
    assert all(el.get("data-point") == text_of(el) for el in numbers)
    triangles = find_all(root, "point", "polygon")
    assert sorted(int(el.get("data-point", "0")) for el in triangles) == list(range(1, 25))


# ------------------------------------------------------------------------ checkers


def test_start_position_checkers() -> None:
    root = parse(start_view())
    bottom = stacks(root, "bottom")
    top = stacks(root, "top")
    assert bottom == {"6": 5, "8": 3, "13": 5, "24": 2}
    # The opponent's 6, 8, 13 and 24 points are the viewer's 19, 17, 12 and 1.
    assert top == {"19": 5, "17": 3, "12": 5, "1": 2}
    assert sum(bottom.values()) == sum(top.values()) == 15
    assert len(find_all(root, "checker-bottom", "circle")) == 15
    assert len(find_all(root, "checker-top", "circle")) == 15
    assert find_all(root, "checker-count") == []


def test_viewer_not_mover_swaps_sides() -> None:
    mover = side({6: 5, 8: 3, 13: 5, 23: 1, 24: 1})
    opponent = side({6: 5, 8: 3, 13: 5, 24: 2})
    view = view_from_position(Position(mover, opponent), viewer_is_mover=False, dice=(3, 1))
    root = parse(view)
    assert stacks(root, "bottom") == {"6": 5, "8": 3, "13": 5, "24": 2}
    assert stacks(root, "top") == {"19": 5, "17": 3, "12": 5, "2": 1, "1": 1}
    # The dice are the mover's: drawn for the top player.
    assert find_one(root, "dice", "g").get("class") == "dice dice-top"


def test_stack_of_seven_shows_five_circles_and_label() -> None:
    view = BoardView(bottom=side({6: 7, 8: 8}), top=side({6: 15}))
    root = parse(view)
    bottom = {g.get("data-point"): g for g in find_all(root, "checkers-bottom", "g")}
    six = bottom["6"]
    assert six.get("data-count") == "7"
    assert len([c for c in six.iter(f"{NS}circle") if "checker" in classes(c)]) == 5
    assert [text_of(t) for t in find_all(six, "checker-count", "text")] == ["7"]
    top = find_one(root, "checkers-top", "g")
    assert top.get("data-point") == "19"
    assert [text_of(t) for t in find_all(top, "checker-count", "text")] == ["15"]


def test_five_checkers_have_no_label() -> None:
    root = parse(BoardView(bottom=side({6: 5}), top=EMPTY))
    assert find_all(root, "checker-count") == []


def test_bar_checkers_in_each_sides_half() -> None:
    view = BoardView(bottom=side({6: 5}, bar=2), top=side({6: 5}, bar=7))
    root = parse(view)
    assert stacks(root, "bottom")["bar"] == 2
    assert stacks(root, "top")["bar"] == 5
    height = float(root.get("viewBox", "").split()[3])
    bar_groups = {
        who: next(g for g in find_all(root, f"checkers-{who}", "g") if g.get("data-point") == "bar")
        for who in ("bottom", "top")
    }
    assert bar_groups["top"].get("data-count") == "7"
    assert [text_of(t) for t in find_all(bar_groups["top"], "checker-count")] == ["7"]
    bottom_ys = [float(c.get("cy", "0")) for c in find_all(bar_groups["bottom"], "checker")]
    top_ys = [float(c.get("cy", "0")) for c in find_all(bar_groups["top"], "checker")]
    assert min(bottom_ys) > height / 2 > max(top_ys)


def test_off_counts() -> None:
    view = BoardView(bottom=side({1: 2}), top=side({1: 1}), bottom_off=13, top_off=14)
    root = parse(view)
    off = {g.get("class"): g for g in find_all(root, "off", "g")}
    assert off["off off-bottom"].get("data-count") == "13"
    assert text_of(find_one(off["off off-bottom"], "off-count")) == "13"
    assert len(find_all(off["off off-bottom"], "off-checker")) == 13
    assert text_of(find_one(off["off off-top"], "off-count")) == "14"


def test_from_position_off_counts() -> None:
    position = Position(side({1: 3}), side({2: 5, 3: 5}))
    root = parse(view_from_position(position, viewer_is_mover=True))
    assert text_of(find_one(root, "off-count-bottom")) == "12"
    assert text_of(find_one(root, "off-count-top")) == "5"


def test_no_off_count_when_nothing_borne_off() -> None:
    root = parse(start_view())
    assert find_all(root, "off-count") == []
    assert [g.get("data-count") for g in find_all(root, "off", "g")] == ["0", "0"]


def test_acey_deucey_unentered_shown_only_when_present() -> None:
    root = parse(view_from_position(start_position("acey-deucey"), viewer_is_mover=True))
    for who in ("bottom", "top"):
        group = find_one(root, f"unentered-{who}", "g")
        assert group.get("data-count") == "15"
        assert text_of(find_one(group, "unentered-count")) == "15"
    assert find_all(root, "checker", "circle") == []
    assert find_all(parse(start_view()), "unentered") == []


# ---------------------------------------------------------------------- orientation


def test_home_right_puts_point_one_bottom_right() -> None:
    xs = point_xs(parse(start_view()))
    bottom = {p: xs[p] for p in range(1, 13)}
    assert max(bottom, key=bottom.__getitem__) == 1
    assert min(bottom, key=bottom.__getitem__) == 12
    assert sorted(bottom, key=bottom.__getitem__) == list(range(12, 0, -1))
    top = {p: xs[p] for p in range(13, 25)}
    assert sorted(top, key=top.__getitem__) == list(range(13, 25))
    assert xs[24] == xs[1] and xs[13] == xs[12]


def test_home_left_mirrors_the_board() -> None:
    right = point_xs(parse(start_view()))
    left_root = parse(start_view(home="left"))
    left = point_xs(left_root)
    bottom = {p: left[p] for p in range(1, 13)}
    assert min(bottom, key=bottom.__getitem__) == 1
    assert max(bottom, key=bottom.__getitem__) == 12
    width = float(left_root.get("viewBox", "").split()[2])
    assert all(left[p] == width - right[p] for p in range(1, 25))
    # Checkers follow their points.
    assert stacks(left_root, "bottom") == {"6": 5, "8": 3, "13": 5, "24": 2}
    # The borne-off tray stays on the home side.
    tray = find_one(left_root, "tray", "rect")
    assert float(tray.get("x", "0")) < min(left.values())


def test_home_bottom_checkers_are_low_and_top_checkers_high() -> None:
    root = parse(start_view())
    height = float(root.get("viewBox", "").split()[3])
    for group in find_all(root, "checkers", "g"):
        point = int(group.get("data-point", "0"))
        ys = [float(c.get("cy", "0")) for c in find_all(group, "checker", "circle")]
        if point <= 12:
            assert min(ys) > height / 2
        else:
            assert max(ys) < height / 2


# ------------------------------------------------------------------- cube and dice


def test_centred_cube_shows_64() -> None:
    root = parse(start_view())
    cube = find_one(root, "cube", "g")
    assert cube.get("data-owner") == "centre"
    assert cube.get("data-value") == "1"
    assert text_of(find_one(cube, "cube-value")) == "64"
    assert "cube-offered" not in classes(cube)


def cube_y(root: ET.Element) -> float:
    face = find_one(root, "cube-face", "rect")
    return float(face.get("y", "0")) + float(face.get("height", "0")) / 2


@pytest.mark.parametrize("home", ["right", "left"])
def test_owned_cube_sits_at_the_owners_side(home: str) -> None:
    base = BoardView(bottom=side({6: 5}), top=side({6: 5}), home=home)  # type: ignore[arg-type]
    root = parse(base)
    height = float(root.get("viewBox", "").split()[3])
    assert cube_y(root) == height / 2
    top_root = parse(BoardView(bottom=base.bottom, top=base.top, cube_value=4, cube_owner="top"))
    assert cube_y(top_root) < height / 3
    assert text_of(find_one(top_root, "cube-value")) == "4"
    assert find_one(top_root, "cube").get("data-owner") == "top"
    bottom_root = parse(
        BoardView(bottom=base.bottom, top=base.top, cube_value=2, cube_owner="bottom")
    )
    assert cube_y(bottom_root) > height * 2 / 3
    assert text_of(find_one(bottom_root, "cube-value")) == "2"


def test_cube_owner_from_position_is_relative_to_the_viewer() -> None:
    position = start_position()
    as_mover = parse(
        view_from_position(position, viewer_is_mover=True, cube_value=2, cube_owner="mover")
    )
    as_opponent = parse(
        view_from_position(position, viewer_is_mover=False, cube_value=2, cube_owner="mover")
    )
    assert find_one(as_mover, "cube").get("data-owner") == "bottom"
    assert find_one(as_opponent, "cube").get("data-owner") == "top"


def test_offered_cube_is_highlighted() -> None:
    view = BoardView(
        bottom=side({6: 5}), top=side({6: 5}), cube_value=2, cube_owner="top", cube_offered=True
    )
    cube = find_one(parse(view), "cube", "g")
    assert "cube-offered" in classes(cube)
    assert find_all(cube, "cube-offer-glow")


def test_dice_appear_only_when_given() -> None:
    assert find_all(parse(start_view()), "die") == []
    root = parse(start_view(dice=(6, 5)))
    dice = find_one(root, "dice", "g")
    assert "dice-bottom" in classes(dice)
    dies = find_all(dice, "die", "g")
    assert [d.get("data-value") for d in dies] == ["6", "5"]
    assert [len(find_all(d, "die-pip", "circle")) for d in dies] == [6, 5]


def test_dice_sit_on_the_owners_half() -> None:
    board = {"bottom": side({6: 5}), "top": side({6: 5})}

    def dice_x(owner: str, home: str) -> float:
        view = BoardView(**board, dice=(1, 2), dice_owner=owner, home=home)  # type: ignore[arg-type]
        faces = find_all(parse(view), "die-face", "rect")
        return sum(float(f.get("x", "0")) for f in faces) / 2

    width = float(parse(BoardView(**board)).get("viewBox", "").split()[2])  # type: ignore[arg-type]
    assert dice_x("bottom", "right") > width / 2 > dice_x("top", "right")
    assert dice_x("bottom", "left") < width / 2 < dice_x("top", "left")


# ------------------------------------------------------------------- text elements


def test_pip_counts() -> None:
    root = parse(view_from_position(start_position(), viewer_is_mover=True))
    assert text_of(find_one(root, "pips-bottom")) == "167"
    assert text_of(find_one(root, "pips-top")) == "167"
    position = Position(side({1: 2}), side({6: 1}))
    root = parse(view_from_position(position, viewer_is_mover=False))
    assert text_of(find_one(root, "pips-bottom")) == "6"
    assert text_of(find_one(root, "pips-top")) == "2"
    assert find_all(parse(start_view(show_pips=False)), "pips") == []


def test_crawford_marker() -> None:
    assert find_all(parse(start_view()), "crawford") == []
    marker = find_one(parse(start_view(crawford=True)), "crawford", "g")
    assert text_of(marker) == "C"


def test_highlighted_points() -> None:
    root = parse(start_view(highlight={6, 24}))
    lit = find_all(root, "point-highlight", "polygon")
    assert sorted(int(el.get("data-point", "0")) for el in lit) == [6, 24]


def test_the_last_move_is_marked_on_its_points_and_the_stack_it_reached() -> None:
    """The opponent's 24/13 and bar/22 (their numbering) are the viewer's 1 -> 12 and
    bar -> 3: marked ``last-move`` with from/to, the top stack on 12 too."""
    position = start_position()
    root = parse(view_from_position(position, viewer_is_mover=True, last_move=[(24, 13), (25, 22)]))
    froms = find_all(root, "last-move-from")
    tos = find_all(root, "last-move-to")
    assert sorted(el.get("data-point") or el.get("class", "").split()[0] for el in froms) == [
        "1",
        "bar",
    ]
    assert sorted(el.get("data-point", "") for el in tos) == ["12", "3"]
    moved = find_all(root, "last-move", "g")
    assert [(g.get("data-point"), "checkers-top" in classes(g)) for g in moved] == [("12", True)]
    # The mover's own last move stays in the mover's numbering.
    root = parse(
        view_from_position(
            position, viewer_is_mover=True, last_move=[(8, 0)], last_move_by_mover=True
        )
    )
    assert [el.get("data-point") for el in find_all(root, "last-move-from")] == ["8"]
    assert "last-move-to" in classes(find_one(root, "tray", "rect"))


def test_tap_areas_cover_each_column_the_bar_and_the_tray() -> None:
    root = parse(start_view())
    hits = find_all(root, "hit", "rect")
    names = [h.get("data-point") for h in hits]
    assert names == [str(p) for p in range(1, 25)] + ["bar", "off"]
    height = float(root.get("viewBox", "").split()[3])
    width = float(root.get("viewBox", "").split()[2])
    for hit in hits[:24]:
        assert float(hit.get("height", "0")) == height / 2  # the whole column
    # The bar and the tray are wide enough to be 44 px on a 390 px phone.
    for hit in hits[24:]:
        assert float(hit.get("width", "0")) / width * 390 >= 44
    # Drawn last: nothing is on top of them.
    assert list(root)[-1].get("class") == "hits"


# ---------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"bottom": (0,) * 24}, "needs 25 counts"),
        ({"bottom": side({6: -1})}, "bad count"),
        ({"bottom": side({6: 1}), "top": side({19: 1})}, "held by both"),
        ({"dice": (0, 3)}, "bad dice"),
        ({"dice": (1, 2, 3)}, "bad dice"),
        ({"cube_value": 0}, "bad cube value"),
        ({"cube_owner": "left"}, "bad cube owner"),
        ({"dice_owner": "left"}, "bad dice owner"),
        ({"home": "top"}, "home must be"),
        ({"highlight": frozenset({25})}, "highlight"),
        ({"last_move": ((26, 3),)}, "last_move"),
        ({"last_move_side": "left"}, "last_move_side"),
        ({"svg_id": 'x" onload="y'}, "svg_id"),
        ({"bottom_off": -1}, "bottom_off"),
    ],
)
def test_bad_views_are_refused(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"bottom": EMPTY, "top": EMPTY, **kwargs}
    with pytest.raises(ValueError, match=message):
        BoardView(**args)  # type: ignore[arg-type]
