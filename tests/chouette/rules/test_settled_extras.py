"""Pure chouette rules (docs/rules.md R13): settlements and extras. No database.

A **settlement**: mid-game the box offers a member a result in points; a member who
accepts leaves the game with it (fate ``settled``). An **extra**: a side bet of two
players on the board's result (the taker backs the team, the giver the box), the
club's "extra cube": the giver pays the taker a price, then the stake rides on the board.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.rules import (
    CLASSIC,
    MAX_EXTRAS,
    ChouetteError,
    Extra,
    GameEntry,
    Ledger,
    MemberEntry,
    Profile,
    Seating,
    extra_points,
    extras_result,
    member_points,
    rotation_outcome,
    settle,
    settlement_bounds,
)
from tests.chouette.rules.test_sessions import games
from tests.chouette.rulesdata import INDIVIDUAL, entry

OLD_ENTRY_KEYS = {
    "box",
    "captain",
    "partner",
    "members",
    "winner",
    "kind",
    "initial_cube",
    "acting_captain",
    "initial_double_groups",
}
OLD_MEMBER_KEYS = {"player", "cube", "fate", "beavers", "raccoons"}


# ============================================================================ settlements
def test_settlement_bounds_are_the_cube_times_the_backgammon_value() -> None:
    assert settlement_bounds(1, CLASSIC) == (-3, 3)
    assert settlement_bounds(4, CLASSIC) == (-12, 12)
    assert settlement_bounds(4, Profile(backgammon_value=2)) == (-8, 8)
    assert settlement_bounds(2, Profile(backgammon_value=1)) == (-2, 2)
    with pytest.raises(ChouetteError) as err:
        settlement_bounds(3, CLASSIC)
    assert err.value.code == "invalid_cube"


def test_a_member_who_settled_gets_the_agreed_points_and_leaves() -> None:
    game = entry(
        "X",
        [("A", 2, "took"), ("B", 2, "settled", 0, 0, -3), ("C", 1, "settled", 0, 0, 2)],
        "team",
        "single",
    )
    assert settle(game, INDIVIDUAL) == {"X": -1, "A": 2, "B": -3, "C": 2}
    assert [m.player for m in game.takers] == ["A"]
    assert member_points(game.member("B"), game, INDIVIDUAL) == -3
    # A settlement needs no double: a cube still at 1 may settle.
    assert game.member("C").cube == 1


def test_settlement_for_nothing_and_every_member_settled() -> None:
    game = entry("X", [("A", 2, "settled", 0, 0, 0), ("B", 4, "settled", 0, 0, 5)])
    assert game.winner is None
    assert settle(game, INDIVIDUAL) == {"X": -5, "A": 0, "B": 5}


@pytest.mark.parametrize(("settled", "outcome"), [(1, "captain"), (0, "box"), (-2, "box")])
def test_rotation_a_captain_who_settled_won_only_if_positive(settled: int, outcome: str) -> None:
    """Decision (docs/rules.md R13): a positive settlement beat the box; nothing or less
    did not, whatever the board did after (the box stays)."""
    game = entry("X", [("A", 2, "settled", 0, 0, settled), ("B", 2, "took")], "team", "gammon")
    assert rotation_outcome(game, INDIVIDUAL) == outcome
    after = Ledger.new(INDIVIDUAL, Seating(box="X", line=("A", "B"))).apply(game).seating
    assert after.box == ("A" if outcome == "captain" else "X")
    assert after.captain == "B"
    # An acting captain moved the checkers after the captain settled.
    assert settle(replace(game, acting_captain="B"), INDIVIDUAL)["A"] == settled


@pytest.mark.parametrize(
    ("build", "code"),
    [
        (lambda: MemberEntry("A", 2, "settled"), "settlement_missing"),
        (lambda: MemberEntry("A", 2, "settled", settled=True), "settlement_missing"),
        (lambda: MemberEntry("A", 2, "settled", settled="2"), "settlement_missing"),
        (lambda: MemberEntry("A", 2, "took", settled=1), "settlement_without_fate"),
        (lambda: MemberEntry("A", 2, "dropped", settled=0), "settlement_without_fate"),
        (lambda: MemberEntry("A", 3, "settled", settled=1), "invalid_cube"),
    ],
)
def test_bad_settled_members_are_refused(build: Any, code: str) -> None:
    with pytest.raises(ChouetteError) as err:
        build()
    assert err.value.code == code


@pytest.mark.parametrize(
    ("profile", "members", "code"),
    [
        (INDIVIDUAL, [("A", 2, "settled", 0, 0, 7)], "settlement_out_of_bounds"),
        (INDIVIDUAL, [("A", 2, "settled", 0, 0, -7)], "settlement_out_of_bounds"),
        (Profile(backgammon_value=1), [("A", 1, "settled", 0, 0, 2)], "settlement_out_of_bounds"),
        # classic: a member who settled left at the team cube of then, never above it.
        (CLASSIC, [("A", 2, "took"), ("B", 4, "settled", 0, 0, 1)], "settled_beyond_cube"),
        (
            CLASSIC,
            [("A", 4, "box_dropped"), ("B", 4, "settled", 0, 0, 1)],
            "settled_beyond_cube",
        ),
    ],
)
def test_impossible_settlements_are_refused(profile: Profile, members: Any, code: str) -> None:
    has_takers = any(m[2] == "took" for m in members)
    game = entry("X", members, "box" if has_takers else None, "single" if has_takers else None)
    with pytest.raises(ChouetteError) as err:
        settle(game, profile)
    assert err.value.code == code


def test_classic_accepts_a_settlement_like_a_drop() -> None:
    """One team cube at 2 (the box doubled): B dropped, C settled for -1 on the 2-cube,
    A took; the team redoubled to 4, the box took and won a single."""
    game = entry(
        "X",
        [("A", 4, "took"), ("B", 2, "dropped"), ("C", 2, "settled", 0, 0, -1)],
        "box",
        "single",
    )
    assert settle(game, CLASSIC) == {"X": 6, "A": -4, "B": -1, "C": -1}
    # The settled member before a team double the box dropped.
    game = entry("X", [("A", 4, "box_dropped"), ("C", 2, "settled", 0, 0, 2)])
    assert settle(game, CLASSIC) == {"X": -4, "A": 2, "C": 2}


# ============================================================================ extras
def _murphy(winner: str, kind: str) -> dict[Any, int]:
    """rec.games.backgammon (D. Murphy, 1997): the box doubles, B drops (pays 1) and
    gives A, who took, an extra: B pays A 1 to take a cube from B at 2."""
    game = entry(
        "X",
        [("A", 2, "took"), ("B", 2, "dropped")],
        winner,
        kind,
        extras=(Extra(taker="A", giver="B", stake=2, price=1),),
    )
    return settle(game, INDIVIDUAL)


def test_the_club_extra_worked_example() -> None:
    assert _murphy("box", "single")["B"] == 0  # B breaks even: -1 box, -1 A, +2 extra
    assert _murphy("team", "single")["B"] == -4
    assert _murphy("box", "gammon")["B"] == 2
    assert _murphy("team", "gammon")["B"] == -6
    assert _murphy("box", "single") == {"X": 3, "A": -2 + 1 - 2, "B": 0}


def test_extra_points_gammons_count_jacoby_never() -> None:
    profile = Profile(kind="individual", jacoby=True, backgammon_value=2)
    game = entry(
        "X",
        [("A", 1, "took"), ("B", 1, "took")],
        "team",
        "backgammon",
        extras=(Extra("A", "B", 2), Extra("B", "X", 1)),
    )
    # The members' own cubes never turned: Jacoby scores them singles; the extras count.
    assert extra_points(game.extras[0], game, profile) == 4
    assert extra_points(game.extras[1], game, profile) == 2
    assert settle(game, profile) == {"X": -2 - 2, "A": 1 + 4, "B": 1 - 4 + 2}


def test_extras_are_not_shared_with_the_partner_nor_count_for_rotation() -> None:
    profile = Profile(kind="individual", box_partner=True, rotation="box_needs_net_profit")
    members = [(f"M{i}", 1, "took") for i in range(4)]
    game = entry("B", members, "box", "single", partner="P", extras=(Extra("M1", "B", 8, 3),))
    points = settle(game, profile)
    # The box side wins 4: box 2, partner 2; the box's extra: +8 - 3 = +5, its own.
    assert points["P"] == 2 and points["B"] == 2 + 5 and points["M1"] == -1 - 5
    assert sum(points.values()) == 0
    # The box side's net (4 > 0) keeps the box, extras aside.
    assert rotation_outcome(game, profile) == "box"


def test_extras_without_a_board_result() -> None:
    """Nobody played to the end: the extras ride on who gave the board up."""
    dropped = entry(
        "X", [("A", 4, "dropped"), ("B", 2, "dropped")], extras=(Extra("A", "B", 2, 1),)
    )
    assert extras_result(dropped, INDIVIDUAL) == ("box", "single")
    assert settle(dropped, INDIVIDUAL) == {"X": 3, "A": -2 - 1, "B": -1 + 1}
    team_double = entry(
        "X", [("A", 4, "box_dropped"), ("B", 2, "dropped")], extras=(Extra("A", "X", 2),)
    )
    # classic: the box dropped the team's double, which ended the game.
    assert extras_result(team_double, CLASSIC) == ("team", "single")
    assert settle(team_double, CLASSIC) == {"X": -1 - 2, "A": 2 + 2, "B": -1}
    every = entry("X", [("A", 2, "box_dropped"), ("B", 2, "box_dropped")])
    assert extras_result(every, INDIVIDUAL) == ("team", "single")
    # individual, drops on both sides (or a settlement): who gave up is not known.
    for game in (team_double, entry("X", [("A", 2, "settled", 0, 0, 1)])):
        with pytest.raises(ChouetteError) as err:
            settle(replace(game, extras=(Extra("A", "X", 2),)), INDIVIDUAL)
        assert err.value.code == "extra_without_result"
    # Without extras the same entry is fine.
    assert settle(replace(team_double, extras=()), INDIVIDUAL) == {"X": -1, "A": 2, "B": -1}


@pytest.mark.parametrize(
    ("build", "code"),
    [
        (lambda: Extra("A", "A", 2), "extra_same_player"),
        (lambda: Extra("A", "B", 0), "invalid_extra_stake"),
        (lambda: Extra("A", "B", -2), "invalid_extra_stake"),
        (lambda: Extra("A", "B", True), "invalid_extra_stake"),
        (lambda: Extra("A", "B", 2, 2), "invalid_extra_price"),
        (lambda: Extra("A", "B", 2, -1), "invalid_extra_price"),
        (lambda: Extra("A", "", 2), "invalid_player"),
        (lambda: _extra_game(Extra("A", "Z", 2)), "extra_not_in_game"),
        (lambda: _extra_game(Extra("Z", "A", 2)), "extra_not_in_game"),
        # Both on the box's side, or the box backing the team: not a bet on the board.
        (lambda: _extra_game(Extra("X", "A", 2)), "extra_taker_not_member"),
        (lambda: _extra_game(*[Extra("A", "B", 1)] * (MAX_EXTRAS + 1)), "too_many_extras"),
        (lambda: GameEntry.from_dict({**_extra_game().to_dict(), "extras": "A"}), "invalid_data"),
        (
            lambda: GameEntry.from_dict(
                {**_extra_game().to_dict(), "extras": [{"taker": "A", "giver": "B"}]}
            ),
            "invalid_data",
        ),
        (
            lambda: GameEntry.from_dict(
                {**_extra_game().to_dict(), "extras": [{"taker": "A", "giver": "B", "x": 1}]}
            ),
            "invalid_data",
        ),
    ],
)
def test_bad_extras_are_refused(build: Any, code: str) -> None:
    with pytest.raises(ChouetteError) as err:
        build()
    assert err.value.code == code


def _extra_game(*extras: Extra) -> GameEntry:
    return entry("X", [("A", 1, "took"), ("B", 1, "took")], "box", "single", extras=extras)


def test_an_extra_above_the_highest_cube_is_refused() -> None:
    with pytest.raises(ChouetteError) as err:
        settle(_extra_game(Extra("A", "B", 128)), CLASSIC)
    assert err.value.code == "extra_stake_above_max"
    assert settle(_extra_game(Extra("A", "B", 64)), CLASSIC)["A"] == -1 - 64


# ============================================================================ storage
def test_old_entries_keep_their_stored_shape() -> None:
    game = entry(
        "X", [("A", 2, "dropped"), ("B", 4, "took"), ("C", 2, "box_dropped")], "team", "gammon"
    )
    data = game.to_dict()
    assert set(data) == OLD_ENTRY_KEYS
    assert all(set(m) == OLD_MEMBER_KEYS for m in data["members"])
    # What an entry stored before this change reads back as, and writes out again.
    stored = {
        "box": "X",
        "captain": "A",
        "partner": None,
        "members": [{"player": "A", "cube": 1, "fate": "took", "beavers": 0, "raccoons": 0}],
        "winner": "box",
        "kind": "single",
        "initial_cube": 1,
        "acting_captain": None,
        "initial_double_groups": [],
    }
    assert GameEntry.from_dict(stored).to_dict() == stored


def test_new_keys_only_when_used() -> None:
    game = entry(
        "X",
        [("A", 2, "settled", 0, 0, -2), ("B", 2, "took")],
        "box",
        "single",
        extras=(Extra("B", "A", 2, 1),),
    )
    data = game.to_dict()
    assert data["members"][0]["settled"] == -2
    assert "settled" not in data["members"][1]
    assert data["extras"] == [{"taker": "B", "giver": "A", "stake": 2, "price": 1}]
    assert GameEntry.from_dict(json.loads(json.dumps(data))) == game
    # An explicit null settlement of a member who did not settle reads as none.
    data["members"][1]["settled"] = None
    assert GameEntry.from_dict(data) == game


# ============================================================================ properties
@st.composite
def games_with_settlements_and_extras(draw: st.DrawFn, kind: str) -> Any:
    """A random valid game (``games`` of ``tests/chouette/rules/test_sessions.py``) where
    some members settled instead (at their cube of then) and a few extras ride on the
    board."""
    profile, seating, game = draw(games(kind))
    members = []
    grouped = {p for g in game.initial_double_groups for p in g}
    for m in game.members:
        # A drop's cube is the value offered: the member settled before, at half (not
        # a member whose first double was that one).
        cube = m.cube if m.fate == "took" else m.cube // 2
        if draw(st.integers(0, 3)) == 0 and not (
            m.player in grouped and cube < 2 * game.initial_cube
        ):
            low, high = settlement_bounds(cube, profile)
            m = MemberEntry(
                m.player, cube, "settled", m.beavers, m.raccoons, draw(st.integers(low, high))
            )
        members.append(m)
    takers = [m for m in members if m.fate == "took"]
    # An acting captain is a member who played on after the captain left.
    acting = game.acting_captain
    if members[0].fate == "took" or acting not in [m.player for m in takers]:
        acting = None
    game = replace(
        game,
        members=tuple(members),
        winner=game.winner if takers else None,
        kind=game.kind if takers else None,
        acting_captain=acting,
    )
    in_game = [seating.box, *game.players] + ([game.partner] if game.partner else [])
    extras = []
    for _ in range(draw(st.integers(0, 3))):
        taker = draw(st.sampled_from(game.players))
        giver = draw(st.sampled_from([p for p in in_game if p != taker]))
        stake = draw(st.integers(1, profile.max_cube))
        extras.append(Extra(taker, giver, stake, draw(st.integers(0, stake - 1))))
    with_extras = replace(game, extras=tuple(extras))
    fates = {m.fate for m in members}
    known = fates == {"dropped"} or fates == {"box_dropped"}
    known = known or (profile.kind == "classic" and "box_dropped" in fates)
    if extras and not takers and not known:
        with pytest.raises(ChouetteError) as err:
            settle(with_extras, profile)
        assert err.value.code == "extra_without_result"
        return profile, seating, game
    return profile, seating, with_extras


def _check(profile: Profile, seating: Seating, game: GameEntry) -> None:
    points = settle(game, profile)
    assert sum(points.values()) == 0
    assert set(points) == set(seating.seated)
    cube_points = {m.player: member_points(m, game, profile) for m in game.members}
    for m in game.members:
        if m.fate == "settled":
            assert cube_points[m.player] == m.settled
    net = dict.fromkeys(points, 0)
    for x in game.extras:
        won = extra_points(x, game, profile)
        net[x.taker] += won
        net[x.giver] -= won
    for p, v in cube_points.items():
        assert points[p] == v + net[p]
    data = json.loads(json.dumps(game.to_dict()))
    again = GameEntry.from_dict(data)
    assert again == game
    assert again.to_dict() == game.to_dict()
    assert ("extras" in data) == bool(game.extras)
    for m, stored in zip(game.members, data["members"], strict=True):
        assert ("settled" in stored) == (m.fate == "settled")
    ledger = Ledger.new(profile, seating).apply(game)
    replayed = Ledger.replay(profile, seating, [again])
    assert replayed.totals == ledger.totals
    assert replayed.seating == ledger.seating
    assert ledger.totals_dict() == points


@settings(max_examples=150, deadline=None)
@given(games_with_settlements_and_extras("classic"))
def test_random_classic_games_with_settlements_and_extras(case: Any) -> None:
    _check(*case)


@settings(max_examples=150, deadline=None)
@given(games_with_settlements_and_extras("individual"))
def test_random_individual_games_with_settlements_and_extras(case: Any) -> None:
    _check(*case)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["classic", "individual"]).flatmap(games))
def test_random_old_games_keep_the_old_shape(case: Any) -> None:
    _profile, _seating, game = case
    data = game.to_dict()
    assert set(data) == OLD_ENTRY_KEYS
    assert all(set(m) == OLD_MEMBER_KEYS for m in data["members"])
