"""Pure chouette rules (docs/rules.md R13): profiles, seating and rotation, settlement.
No database. The property tests, fewest transfers and scripted sessions are in
``test_sessions.py``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from chouette.rules import (
    CLASSIC,
    ChouetteError,
    GameEntry,
    Ledger,
    MemberEntry,
    PlayerId,
    Profile,
    Seating,
    come_back,
    join,
    next_seating,
    roll_off_order,
    rotate,
    rotation_outcome,
    seating_from_order,
    seating_from_rolls,
    settle,
    sit_out,
    split_box_share,
)
from tests.chouette.rulesdata import BEAVERS, INDIVIDUAL, entry


# ============================================================================ the issue
def test_worked_example_from_the_issue() -> None:
    """Box doubles captain A, member B and member C; A takes, B drops and pays 1, C takes
    and beavers to 4; A redoubles to 4 and the box takes; the box wins a gammon:
    A -8, B -1, C -8, box +17; next seating B, C, A (box stays, A to the end).

    Individual cubes with beavers: A's cube went 1 -> 2 (box) -> 4 (A), C's 1 -> 2 -> 4
    (beaver), B dropped at 2."""
    seating = Seating(box="X", line=("A", "B", "C"))
    game = entry(
        "X",
        [("A", 4, "took"), ("B", 2, "dropped"), ("C", 4, "took", 1)],
        "box",
        "gammon",
    )
    assert settle(game, BEAVERS) == {"X": 17, "A": -8, "B": -1, "C": -8}
    assert rotation_outcome(game, BEAVERS) == "box"
    after = next_seating(seating, game, BEAVERS)
    assert after == Seating(box="X", line=("B", "C", "A"))
    ledger = Ledger.new(BEAVERS, seating).apply(game)
    assert ledger.totals_dict() == {"X": 17, "A": -8, "B": -1, "C": -8}
    assert ledger.seating.line == ("B", "C", "A")
    # C's beaver needs a profile with beavers.
    with pytest.raises(ChouetteError) as err:
        settle(game, INDIVIDUAL)
    assert err.value.code == "beaver_not_allowed"


# ============================================================================ profiles
def test_profile_defaults_and_round_trip() -> None:
    assert Profile() == CLASSIC
    assert CLASSIC.kind == "classic" and CLASSIC.rotation == "standard"
    p = Profile(
        kind="individual",
        rotation="box_needs_net_profit",
        jacoby=True,
        beavers=True,
        raccoons=True,
        automatic_doubles=2,
        box_must_take_half=True,
        box_partner=True,
        backgammon_value=2,
        max_cube=32,
    )
    assert Profile.from_dict(p.to_dict()) == p
    assert Profile.from_dict({}) == CLASSIC
    assert p.max_initial_cube == 4


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"kind": "tavern"}, "invalid_profile_kind"),
        ({"rotation": "random"}, "invalid_rotation"),
        ({"beavers": True}, "option_needs_individual"),
        ({"box_partner": True}, "option_needs_individual"),
        ({"box_must_take_half": True}, "option_needs_individual"),
        ({"kind": "individual", "raccoons": True}, "raccoons_need_beavers"),
        ({"max_cube": 48}, "invalid_profile"),
        ({"max_cube": 1}, "invalid_profile"),
        ({"backgammon_value": 4}, "invalid_profile"),
        ({"automatic_doubles": 7}, "invalid_profile"),
        ({"automatic_doubles": -1}, "invalid_profile"),
        ({"jacoby": 1}, "invalid_profile"),
        ({"kind": "individual", "box_partner_min_players": 3}, "invalid_profile"),
    ],
)
def test_profile_refuses(options: dict[str, Any], code: str) -> None:
    with pytest.raises(ChouetteError) as err:
        Profile(**options)
    assert err.value.code == code


def test_profile_from_dict_refuses_unknown_keys() -> None:
    with pytest.raises(ChouetteError) as err:
        Profile.from_dict({"kind": "classic", "cube": 2})
    assert err.value.code == "invalid_data"


# ============================================================================ seating
def test_roll_off_highest_is_box_second_captain_rest_in_roll_order() -> None:
    seating = seating_from_rolls({"a": 2, "b": 6, "c": 4, "d": 5})
    assert seating == Seating(box="b", line=("d", "c", "a"))
    assert seating.captain == "d"


def test_roll_off_ties_are_refused_then_broken_by_rerolls() -> None:
    with pytest.raises(ChouetteError) as err:
        seating_from_rolls({"a": 5, "b": 5, "c": 2})
    assert err.value.code == "tied_rolls"
    assert "'a'" in err.value.message and "'b'" in err.value.message
    # a and b re-roll (3 vs 4): b first; c and d tie twice at 2 then 1, 6 -> d first.
    order = roll_off_order({"a": [5, 3], "b": [5, 4], "c": [2, 1, 1], "d": [2, 1, 6], "e": 4})
    assert order == ("b", "a", "e", "d", "c")
    with pytest.raises(ChouetteError) as err:
        roll_off_order({"a": [6, 2], "b": 5, "c": 1})
    assert err.value.code == "needless_reroll"


@pytest.mark.parametrize(
    ("rolls", "code"),
    [
        ({"a": 7, "b": 1, "c": 2}, "invalid_roll"),
        ({"a": 0, "b": 1, "c": 2}, "invalid_roll"),
        ({"a": [], "b": 1, "c": 2}, "invalid_roll"),
        ({"a": 3, "b": 1}, "too_few_players"),
        ({True: 3, "b": 1, "c": 2}, "invalid_player"),
    ],
)
def test_roll_off_refuses(rolls: dict[Any, Any], code: str) -> None:
    with pytest.raises(ChouetteError) as err:
        seating_from_rolls(rolls)
    assert err.value.code == code


def test_seating_checks_and_round_trip() -> None:
    s = Seating(box=1, line=(2, 3), out=(4,))
    assert Seating.from_dict(s.to_dict()) == s
    assert s.all_players == (1, 2, 3, 4)
    cases: list[tuple[dict[str, Any], str]] = [
        ({"box": 1, "line": []}, "too_few_players"),
        ({"box": 1, "line": [2, 1]}, "duplicate_player"),
        ({"box": "", "line": [2]}, "invalid_player"),
        ({"box": 1, "line": [2], "seat": 3}, "invalid_data"),
    ]
    for bad, code in cases:
        with pytest.raises(ChouetteError) as err:
            Seating.from_dict(bad)
        assert err.value.code == code
    with pytest.raises(ChouetteError) as err:
        Seating(box=1, line=[2, 3])  # type: ignore[arg-type]
    assert err.value.code == "invalid_data"


def test_join_sit_out_and_come_back() -> None:
    s = seating_from_order(["B", "C", "D", "E"])
    s = join(s, "N")
    assert s.line == ("C", "D", "E", "N")  # newcomers at the end of the line
    with pytest.raises(ChouetteError) as err:
        join(s, "D")
    assert err.value.code == "already_seated"
    s = sit_out(s, "D")
    assert (s.line, s.out) == (("C", "E", "N"), ("D",))
    with pytest.raises(ChouetteError) as err:
        join(s, "D")
    assert err.value.code == "sitting_out"
    s = come_back(s, "D")  # back at the end, not at the old place
    assert (s.line, s.out) == (("C", "E", "N", "D"), ())
    s = sit_out(s, "C")  # the captain sits out: the next player is captain
    assert s.captain == "E"
    s = sit_out(s, "B")  # the box sits out: the captain takes the box
    assert (s.box, s.line, s.out) == ("E", ("N", "D"), ("C", "B"))
    s = sit_out(s, "N")
    with pytest.raises(ChouetteError) as err:
        sit_out(s, "D")
    assert err.value.code == "too_few_players"
    for action, code in [(sit_out, "not_seated"), (come_back, "not_sitting_out")]:
        with pytest.raises(ChouetteError) as err:
            action(s, "Z")
        assert err.value.code == code


# ============================================================================ rotation
SEAT5 = Seating(box="B", line=("C", "M1", "M2", "M3"))


def _flat(members: int = 4) -> list[tuple[PlayerId, int, str]]:
    return [(p, 1, "took") for p in SEAT5.line[:members]]


def test_rotation_box_beats_captain() -> None:
    game = entry("B", _flat(), "box", "single")
    assert next_seating(SEAT5, game, CLASSIC) == Seating(box="B", line=("M1", "M2", "M3", "C"))


def test_rotation_captain_beats_box() -> None:
    game = entry("B", _flat(), "team", "single")
    assert next_seating(SEAT5, game, CLASSIC) == Seating(box="C", line=("M1", "M2", "M3", "B"))


def test_rotation_captain_dropped_lost_even_if_the_team_won() -> None:
    """The captain dropped; M1 was acting captain and the team won the board: rotation
    goes by the original captain's result, so the box stays."""
    game = entry(
        "B",
        [("C", 2, "dropped"), ("M1", 2, "took"), ("M2", 2, "took"), ("M3", 2, "took")],
        "team",
        "single",
        acting_captain="M1",
    )
    assert settle(game, CLASSIC) == {"B": -5, "C": -1, "M1": 2, "M2": 2, "M3": 2}
    assert next_seating(SEAT5, game, CLASSIC) == Seating(box="B", line=("M1", "M2", "M3", "C"))


def test_rotation_box_dropped_the_captains_double_captain_won() -> None:
    """Individual cubes: the box dropped the captain's double, then beat the rest with a
    gammon. The captain won (+1), so the captain takes the box."""
    game = entry(
        "B",
        [("C", 2, "box_dropped"), ("M1", 1, "took"), ("M2", 2, "took"), ("M3", 1, "took")],
        "box",
        "gammon",
    )
    assert settle(game, INDIVIDUAL) == {"B": 7, "C": 1, "M1": -2, "M2": -4, "M3": -2}
    assert next_seating(SEAT5, game, INDIVIDUAL) == Seating(box="C", line=("M1", "M2", "M3", "B"))


def test_rotation_net_profit_variant() -> None:
    net = Profile(kind="individual", rotation="box_needs_net_profit")
    # The box beat the captain but lost overall (dropped two doubles): the box passes.
    game = entry(
        "B",
        [("C", 1, "took"), ("M1", 2, "box_dropped"), ("M2", 2, "box_dropped"), ("M3", 1, "took")],
        "box",
        "single",
    )
    assert settle(game, net)["B"] == 0
    assert rotation_outcome(game, INDIVIDUAL) == "box"
    assert rotation_outcome(game, net) == "captain"
    # The box beat the captain and made a profit: it stays.
    won = replace(game, kind="gammon")
    assert settle(won, net)["B"] == 2
    assert rotation_outcome(won, net) == "box"
    # The captain won: the box passes whatever the box's net result.
    lost = entry("B", [("C", 1, "took"), ("M1", 4, "dropped"), ("M2", 1, "took")], "team", "single")
    assert settle(lost, net)["B"] == 0
    assert rotation_outcome(lost, net) == "captain"


PARTNERED = Profile(kind="individual", box_partner=True)


def test_partner_is_the_end_of_the_line_from_six_players() -> None:
    five = seating_from_order(["B", "C", "M1", "M2", "M3"])
    assert five.partner(PARTNERED) is None
    six = join(five, "M4")
    assert six.partner(PARTNERED) == "M4"
    assert six.team(PARTNERED) == ("C", "M1", "M2", "M3")
    assert six.partner(INDIVIDUAL) is None  # the option is off


def test_partner_rotation() -> None:
    """Box win: the losing captain goes to the end and partners the box; the previous
    partner joins the team. Captain win: the old box goes to the end and partners the
    new box."""
    six = Seating(box="B", line=("C", "M1", "M2", "M3", "P"))
    team = [("C", 1, "took"), ("M1", 1, "took"), ("M2", 1, "took"), ("M3", 1, "took")]
    box_win = entry("B", team, "box", "single", partner="P")
    after = next_seating(six, box_win, PARTNERED)
    assert after == Seating(box="B", line=("M1", "M2", "M3", "P", "C"))
    assert after.partner(PARTNERED) == "C"
    assert after.team(PARTNERED) == ("M1", "M2", "M3", "P")

    captain_win = entry("B", team, "team", "single", partner="P")
    after = next_seating(six, captain_win, PARTNERED)
    assert after == Seating(box="C", line=("M1", "M2", "M3", "P", "B"))
    assert after.partner(PARTNERED) == "B"

    # The entry must name the seating's partner.
    with pytest.raises(ChouetteError) as err:
        next_seating(six, replace(box_win, partner=None), PARTNERED)
    assert err.value.code == "entry_seating_mismatch"
    swapped = entry(
        "B",
        [("C", 1, "took"), ("M1", 1, "took"), ("M2", 1, "took"), ("P", 1, "took")],
        "box",
        "single",
        partner="M3",
    )
    with pytest.raises(ChouetteError) as err:
        next_seating(six, swapped, PARTNERED)
    assert err.value.code == "entry_seating_mismatch"


def test_rotate_with_two_seated() -> None:
    s = Seating(box="a", line=("b",), out=("c",))
    assert rotate(s, "box") == s
    assert rotate(s, "captain") == Seating(box="b", line=("a",), out=("c",))
    with pytest.raises(ChouetteError) as err:
        rotate(s, "team")  # type: ignore[arg-type]
    assert err.value.code == "invalid_outcome"


# ============================================================================ settlement
def test_classic_box_double_some_take_some_drop() -> None:
    """Classic: the box doubles the team to 2; C and M2 take, M1 and M3 drop (pay 1 each);
    the team wins a gammon: takers +4 each."""
    game = entry(
        "B",
        [("C", 2, "took"), ("M1", 2, "dropped"), ("M2", 2, "took"), ("M3", 2, "dropped")],
        "team",
        "gammon",
    )
    assert settle(game, CLASSIC) == {"B": -6, "C": 4, "M1": -1, "M2": 4, "M3": -1}


def test_classic_team_double_dropped_by_the_box() -> None:
    """Classic: box doubles to 2 (M1 drops), the team redoubles to 4 unanimously, the box
    drops: each remaining member wins 2."""
    game = entry("B", [("C", 4, "box_dropped"), ("M1", 2, "dropped"), ("M2", 4, "box_dropped")])
    assert settle(game, CLASSIC) == {"B": -3, "C": 2, "M1": -1, "M2": 2}
    assert rotation_outcome(game, CLASSIC) == "captain"


def test_classic_redoubles_and_backgammon() -> None:
    game = entry(
        "B", [("C", 4, "took"), ("M1", 2, "dropped"), ("M2", 4, "took")], "box", "backgammon"
    )
    assert settle(game, CLASSIC) == {"B": 25, "C": -12, "M1": -1, "M2": -12}


@pytest.mark.parametrize(("value", "points"), [(3, 6), (2, 4), (1, 2)])
def test_backgammon_value(value: int, points: int) -> None:
    profile = Profile(backgammon_value=value)
    game = entry("B", [("C", 2, "took"), ("M1", 2, "took")], "team", "backgammon")
    assert settle(game, profile) == {"B": -2 * points, "C": points, "M1": points}


def test_jacoby_per_cube() -> None:
    """Jacoby: gammons count only on a turned cube, each cube on its own. An automatic
    double is not a turn."""
    jacoby = Profile(kind="individual", jacoby=True, automatic_doubles=1)
    game = entry("B", [("C", 1, "took"), ("M1", 2, "took"), ("M2", 1, "took")], "team", "gammon")
    assert settle(game, jacoby) == {"B": -6, "C": 1, "M1": 4, "M2": 1}
    assert settle(game, INDIVIDUAL) == {"B": -8, "C": 2, "M1": 4, "M2": 2}
    auto = replace(
        game, members=tuple(replace(m, cube=m.cube * 2) for m in game.members), initial_cube=2
    )
    assert settle(auto, jacoby) == {"B": -12, "C": 2, "M1": 8, "M2": 2}
    classic_jacoby = Profile(jacoby=True)
    flat = entry("B", [("C", 1, "took"), ("M1", 1, "took")], "box", "backgammon")
    assert settle(flat, classic_jacoby) == {"B": 2, "C": -1, "M1": -1}


def test_partner_splits_the_box_result_odd_point_to_the_box() -> None:
    six = [("C", 4, "took"), ("M1", 2, "dropped"), ("M2", 4, "took", 1), ("M3", 1, "took")]
    game = entry("B", six, "box", "gammon", partner="P")
    profile = Profile(kind="individual", box_partner=True, beavers=True)
    # members -8, -1, -8, -2: the box side wins 19 = box 10 + partner 9
    assert settle(game, profile) == {"B": 10, "P": 9, "C": -8, "M1": -1, "M2": -8, "M3": -2}
    lost = replace(game, winner="team")
    # members +8, -1, +8, +2: the box side loses 17 = box -9 + partner -8
    assert settle(lost, profile) == {"B": -9, "P": -8, "C": 8, "M1": -1, "M2": 8, "M3": 2}
    assert split_box_share(0) == (0, 0)
    assert split_box_share(1) == (1, 0)
    assert split_box_share(-1) == (-1, 0)
    assert split_box_share(-6) == (-3, -3)


def test_box_must_take_half_of_simultaneous_initial_doubles() -> None:
    profile = Profile(kind="individual", box_must_take_half=True)
    members = [("C", 2, "box_dropped"), ("M1", 2, "box_dropped"), ("M2", 2, "took")]
    game = entry("B", members, "box", "single", initial_double_groups=(("C", "M1", "M2"),))
    with pytest.raises(ChouetteError) as err:
        settle(game, profile)
    assert err.value.code == "box_must_take_half"
    assert settle(game, INDIVIDUAL) == {"B": 0, "C": 1, "M1": 1, "M2": -2}
    # Of four the box may drop two.
    members4 = [*members, ("M3", 2, "took")]
    game4 = entry("B", members4, "box", "single", initial_double_groups=(("C", "M1", "M2", "M3"),))
    assert settle(game4, profile)["B"] == 2
    # Two doubles one after the other are not simultaneous.
    apart = replace(game, initial_double_groups=(("C", "M2"), ("M1",)))
    assert settle(apart, profile)["B"] == 0


def _individual_members(*rows: tuple[PlayerId, int, str]) -> list[tuple[PlayerId, int, str]]:
    return list(rows)


@pytest.mark.parametrize(
    ("profile", "build", "code"),
    [
        # entry shape
        (CLASSIC, lambda: entry("B", [("C", 3, "took")], "box", "single"), "invalid_cube"),
        (CLASSIC, lambda: entry("B", [("C", 1, "dropped")]), "drop_without_double"),
        (CLASSIC, lambda: entry("B", [("C", 2, "took")]), "missing_result"),
        (CLASSIC, lambda: entry("B", [("C", 2, "took")], "box"), "missing_result"),
        (
            CLASSIC,
            lambda: entry("B", [("C", 2, "dropped")], "box", "single"),
            "result_without_takers",
        ),
        (CLASSIC, lambda: entry("B", [("C", 2, "took")], "draw", "single"), "missing_result"),
        (CLASSIC, lambda: entry("B", [("C", 2, "won")], "box", "single"), "invalid_fate"),
        (
            CLASSIC,
            lambda: entry("B", [("C", 1, "took"), ("C", 1, "took")], "box", "single"),
            "duplicate_player",
        ),
        (CLASSIC, lambda: entry("C", [("C", 1, "took")], "box", "single"), "duplicate_player"),
        (
            CLASSIC,
            lambda: GameEntry(
                box="B", captain="Z", members=(MemberEntry("C"),), winner="box", kind="single"
            ),
            "captain_not_member",
        ),
        (
            CLASSIC,
            lambda: entry("B", [("C", 1, "took")], "box", "single", initial_cube=2),
            "cube_below_initial",
        ),
        (
            CLASSIC,
            lambda: entry("B", [("C", 2, "took")], "box", "single", initial_cube=2),
            "automatic_double_not_allowed",
        ),
        (
            Profile(automatic_doubles=1),
            lambda: entry("B", [("C", 4, "took")], "box", "single", initial_cube=4),
            "initial_cube_above_limit",
        ),
        (CLASSIC, lambda: entry("B", [("C", 128, "took")], "box", "single"), "cube_above_max"),
        (
            CLASSIC,
            lambda: entry(
                "B", [("C", 2, "took"), ("M", 2, "took")], "box", "single", acting_captain="M"
            ),
            "invalid_acting_captain",
        ),
        (
            CLASSIC,
            lambda: entry(
                "B", [("C", 2, "dropped"), ("M", 2, "took")], "box", "single", acting_captain="Z"
            ),
            "invalid_acting_captain",
        ),
        # beavers and raccoons
        (
            BEAVERS,
            lambda: entry("B", [("C", 2, "took", 1)], "box", "single"),
            "cube_too_small_for_beavers",
        ),
        (
            BEAVERS,
            lambda: GameEntry(
                box="B",
                captain="C",
                members=(MemberEntry("C", 8, "took", 1, 1),),
                winner="box",
                kind="single",
            ),
            "raccoon_not_allowed",
        ),
        (
            BEAVERS,
            lambda: GameEntry(
                box="B",
                captain="C",
                members=(MemberEntry("C", 8, "took", 0, 1),),
                winner="box",
                kind="single",
            ),
            "raccoon_without_beaver",
        ),
        (CLASSIC, lambda: entry("B", [("C", 4, "took", 1)], "box", "single"), "beaver_not_allowed"),
        # classic: one team cube, unanimous team doubles
        (
            CLASSIC,
            lambda: entry("B", [("C", 2, "took"), ("M", 4, "took")], "box", "single"),
            "classic_cubes_differ",
        ),
        (
            CLASSIC,
            lambda: entry("B", [("C", 2, "box_dropped"), ("M", 2, "took")], "box", "single"),
            "classic_team_double_not_unanimous",
        ),
        (
            CLASSIC,
            lambda: entry("B", [("C", 2, "box_dropped"), ("M", 4, "box_dropped")]),
            "classic_team_double_not_unanimous",
        ),
        (
            CLASSIC,
            lambda: entry("B", [("C", 4, "dropped"), ("M", 2, "took")], "box", "single"),
            "dropped_beyond_offer",
        ),
        (
            CLASSIC,
            lambda: entry("B", [("C", 4, "dropped"), ("M", 4, "box_dropped")]),
            "dropped_beyond_offer",
        ),
        (
            CLASSIC,
            lambda: entry(
                "B", [("C", 2, "dropped"), ("M", 4, "dropped"), ("N", 4, "took")], "box", "single"
            ),
            "classic_drops_inconsistent",
        ),
        (
            CLASSIC,
            lambda: entry("B", [("C", 2, "dropped"), ("M", 8, "box_dropped")]),
            "classic_drops_inconsistent",
        ),
        (
            CLASSIC,
            lambda: entry("B", [("C", 2, "took")], "box", "single", partner="P"),
            "partner_not_allowed",
        ),
        (
            PARTNERED,
            lambda: entry("B", [("C", 2, "took")], "box", "single", partner="P"),
            "partner_too_few_players",
        ),
        (
            PARTNERED,
            lambda: entry("B", [(f"M{i}", 1, "took") for i in range(5)], "box", "single"),
            "partner_missing",
        ),
        (
            INDIVIDUAL,
            lambda: entry(
                "B", [("C", 2, "took")], "box", "single", initial_double_groups=(("Z",),)
            ),
            "invalid_double_group",
        ),
        (
            INDIVIDUAL,
            lambda: entry(
                "B", [("C", 1, "took")], "box", "single", initial_double_groups=(("C",),)
            ),
            "invalid_double_group",
        ),
        (
            CLASSIC,
            lambda: entry(
                "B", [("C", 2, "took")], "box", "single", initial_double_groups=(("C",),)
            ),
            "option_needs_individual",
        ),
    ],
)
def test_impossible_entries_are_refused(profile: Profile, build: Any, code: str) -> None:
    with pytest.raises(ChouetteError) as err:
        settle(build(), profile)
    assert err.value.code == code


def test_game_entry_round_trip_and_bad_data() -> None:
    game = entry(
        "B",
        [("C", 2, "dropped"), ("M1", 8, "took", 1), ("M2", 2, "box_dropped")],
        "team",
        "gammon",
        acting_captain="M1",
        initial_double_groups=(("M2", "M1"),),
    )
    data = game.to_dict()
    assert GameEntry.from_dict(data) == game
    import json

    assert GameEntry.from_dict(json.loads(json.dumps(data))) == game
    with pytest.raises(ChouetteError) as err:
        GameEntry.from_dict({**data, "members": "C"})
    assert err.value.code == "invalid_data"
    with pytest.raises(ChouetteError) as err:
        GameEntry.from_dict({"box": "B", "members": []})
    assert err.value.code == "invalid_data"
