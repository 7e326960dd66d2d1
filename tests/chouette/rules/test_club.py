"""Pure chouette club rules of issue 19 (docs/rules.md R13, "Club rules"): the rotation
variants, proxies for an absent member's cube decisions, and splitting a chouette of
eight or more into two. No database."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.rules import (
    ROTATION_VARIANTS,
    ChouetteError,
    Ledger,
    PlayerId,
    Profile,
    SeatChange,
    Seating,
    check_proxies,
    default_movers,
    game_proxies,
    next_seating,
    rotate,
    rotation_outcome,
    seating_from_order,
    set_proxy,
    settle,
    split_plan,
)
from tests.chouette.rulesdata import INDIVIDUAL, entry

SEAT4 = Seating(box="B", line=("C", "M1", "M2"))


def _profile(rotation: str) -> Profile:
    return Profile(kind="individual", rotation=rotation)  # type: ignore[arg-type]


# ============================================================================ rotation
def test_profile_knows_every_variant_and_refuses_others() -> None:
    assert ROTATION_VARIANTS == (
        "standard",
        "box_needs_net_profit",
        "net_profit_decides",
        "double_stand_up",
    )
    for name in ROTATION_VARIANTS:
        assert Profile.from_dict(_profile(name).to_dict()).rotation == name
    with pytest.raises(ChouetteError) as err:
        Profile(rotation="majority")  # type: ignore[arg-type]
    assert err.value.code == "invalid_rotation"
    assert Profile().rotation == "standard"  # the seed's rule stays the default


#: The box beat the captain (cube 1) but dropped two doubles: net -1 (1 - 1 - 1).
BEAT_CAPTAIN_LOST_NET = entry(
    "B", [("C", 1, "took"), ("M1", 2, "box_dropped"), ("M2", 2, "box_dropped")], "box", "single"
)
#: The box beat the captain and broke even: +1 +1 -2.
BEAT_CAPTAIN_EVEN = entry(
    "B",
    [("C", 1, "took"), ("M1", 1, "took"), ("M2", 4, "box_dropped")],
    "box",
    "single",
)
#: The captain beat the box (cube 1) but two members dropped the box's doubles: net +1.
LOST_TO_CAPTAIN_NET_PROFIT = entry(
    "B", [("C", 1, "took"), ("M1", 2, "dropped"), ("M2", 2, "dropped")], "team", "single"
)
#: The box beat everybody.
CLEAN_WIN = entry("B", [("C", 1, "took"), ("M1", 1, "took"), ("M2", 1, "took")], "box", "gammon")


@pytest.mark.parametrize(
    ("game", "net", "expected"),
    [
        (
            BEAT_CAPTAIN_LOST_NET,
            -1,
            {
                "standard": "box",
                "box_needs_net_profit": "captain",
                "net_profit_decides": "captain",
                "double_stand_up": "both",
            },
        ),
        (
            BEAT_CAPTAIN_EVEN,
            0,
            {
                "standard": "box",
                "box_needs_net_profit": "captain",
                "net_profit_decides": "captain",
                "double_stand_up": "box",
            },
        ),
        (
            LOST_TO_CAPTAIN_NET_PROFIT,
            1,
            {
                "standard": "captain",
                "box_needs_net_profit": "captain",
                "net_profit_decides": "box",
                "double_stand_up": "captain",
            },
        ),
        (
            CLEAN_WIN,
            6,
            dict.fromkeys(ROTATION_VARIANTS, "box"),
        ),
    ],
)
def test_rotation_variants(game, net: int, expected: dict[str, str]) -> None:
    for variant, outcome in expected.items():
        profile = _profile(variant)
        assert settle(game, profile)["B"] == net
        assert rotation_outcome(game, profile) == outcome, variant


def test_double_stand_up_seating() -> None:
    """Both stand up: the captain to the end, the old box behind; the next takes the box."""
    profile = _profile("double_stand_up")
    after = next_seating(SEAT4, BEAT_CAPTAIN_LOST_NET, profile)
    assert after == Seating(box="M1", line=("M2", "C", "B"))
    # The other outcomes are R13's.
    assert next_seating(SEAT4, BEAT_CAPTAIN_EVEN, profile) == Seating(
        box="B", line=("M1", "M2", "C")
    )
    assert next_seating(SEAT4, LOST_TO_CAPTAIN_NET_PROFIT, profile) == Seating(
        box="C", line=("M1", "M2", "B")
    )


def test_both_stand_up_with_two_seated_hands_the_box_to_the_captain() -> None:
    s = Seating(box="a", line=("b",), out=("c",))
    assert rotate(s, "both") == rotate(s, "captain") == Seating(box="b", line=("a",), out=("c",))
    three = Seating(box="a", line=("b", "c"))
    assert rotate(three, "both") == Seating(box="c", line=("b", "a"))


def test_double_stand_up_with_a_partner() -> None:
    """The partner is a position: after both stand up, the old box is last, so partners
    the new box; the old partner joins the team."""
    profile = Profile(kind="individual", rotation="double_stand_up", box_partner=True)
    six = Seating(box="B", line=("C", "M1", "M2", "M3", "P"))
    game = entry(
        "B",
        [("C", 1, "took"), ("M1", 2, "box_dropped"), ("M2", 2, "box_dropped"), ("M3", 1, "took")],
        "box",
        "single",
        partner="P",
    )
    assert settle(game, profile)["B"] + settle(game, profile)["P"] == 0  # even: box stays
    assert rotation_outcome(game, profile) == "box"
    worse = replace(
        game,
        members=(*game.members[:3], replace(game.members[3], fate="box_dropped", cube=2)),
    )
    assert rotation_outcome(worse, profile) == "both"
    after = next_seating(six, worse, profile)
    assert after == Seating(box="M1", line=("M2", "M3", "P", "C", "B"))
    assert after.partner(profile) == "B"


# ============================================================================ proxies
PARTICIPANTS = ("A", "B", "C", "D", "E")


def test_set_and_clear_a_proxy() -> None:
    proxies = set_proxy({}, PARTICIPANTS, "A", "B")
    assert proxies == {"A": "B"}
    # Two absent members may name the same proxy.
    proxies = set_proxy(proxies, PARTICIPANTS, "C", "B")
    assert proxies == {"A": "B", "C": "B"}
    # Naming another replaces; None clears; clearing no proxy is harmless.
    assert set_proxy(proxies, PARTICIPANTS, "A", "D") == {"A": "D", "C": "B"}
    assert set_proxy(proxies, PARTICIPANTS, "A", None) == {"C": "B"}
    assert set_proxy({}, PARTICIPANTS, "A", None) == {}


@pytest.mark.parametrize(
    ("proxies", "player", "proxy", "code"),
    [
        ({}, "A", "A", "proxy_self"),
        ({}, "A", "Z", "proxy_not_in_session"),
        ({}, "Z", "A", "not_a_participant"),
        ({"B": "C"}, "A", "B", "proxy_chained"),  # B is away themselves
        ({"C": "A"}, "A", "B", "proxy_chained"),  # A answers for C: A is here
        ({}, "A", True, "invalid_player"),
    ],
)
def test_proxy_refusals(proxies, player, proxy, code: str) -> None:
    with pytest.raises(ChouetteError) as err:
        set_proxy(proxies, PARTICIPANTS, player, proxy)
    assert err.value.code == code


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(PARTICIPANTS), st.none() | st.sampled_from(PARTICIPANTS)),
        max_size=20,
    )
)
def test_any_sequence_of_proxy_changes_leaves_no_self_and_no_chain(changes) -> None:
    proxies: dict[PlayerId, PlayerId] = {}
    for player, proxy in changes:
        try:
            after = set_proxy(proxies, PARTICIPANTS, player, proxy)
        except ChouetteError as exc:
            refused = exc.code
        else:
            refused = None
        if refused is not None:
            assert refused in ("proxy_self", "proxy_chained")
            continue
        # Only the player's own entry changed.
        assert {p: q for p, q in after.items() if p != player} == {
            p: q for p, q in proxies.items() if p != player
        }
        assert after.get(player) == proxy
        proxies = after
        check_proxies(proxies)
        assert not set(proxies) & set(proxies.values())


def test_a_proxy_on_the_box_side_does_not_answer() -> None:
    seating = Seating(box="B", line=("C", "M1", "M2", "M3", "P"), out=("O",))
    partnered = Profile(kind="individual", box_partner=True)
    proxies = {"M1": "B", "M2": "C", "M3": "P", "O": "C"}
    # M1's proxy is the box, M3's the partner: they do not answer; O sits out.
    assert game_proxies(proxies, seating, partnered) == {"M2": "C"}
    # Without a partner P is a team member: M3's proxy answers.
    assert game_proxies(proxies, seating, INDIVIDUAL) == {"M2": "C", "M3": "P"}


# ============================================================================ split
EIGHT = seating_from_order(["B", "C", "M1", "M2", "M3", "M4", "M5", "M6"])


def test_default_split_every_second_player_of_the_line() -> None:
    plan = split_plan(EIGHT, INDIVIDUAL)
    assert plan.moved == ("C", "M2", "M4", "M6") == default_movers(EIGHT)
    assert plan.staying == Seating(box="B", line=("M1", "M3", "M5"), out=("C", "M2", "M4", "M6"))
    assert plan.new == Seating(box="C", line=("M2", "M4", "M6"))


def test_split_chosen_players_the_box_too() -> None:
    seating = replace(EIGHT, out=("X",))
    plan = split_plan(seating, INDIVIDUAL, ["M6", "B", "M1"])
    assert plan.moved == ("B", "M1", "M6")  # in the order they sat
    assert plan.new == Seating(box="B", line=("M1", "M6"))
    # The box sat out: the captain took it.
    assert plan.staying == Seating(
        box="C", line=("M2", "M3", "M4", "M5"), out=("X", "B", "M1", "M6")
    )


@pytest.mark.parametrize(
    ("seating", "profile", "move", "code"),
    [
        (
            Seating(box="B", line=("C", "M1", "M2", "M3", "M4", "M5")),
            INDIVIDUAL,
            None,
            "split_too_few_players",
        ),
        (EIGHT, INDIVIDUAL, ["C", "M1"], "split_side_too_small"),
        (EIGHT, INDIVIDUAL, ["C", "M1", "M2", "M3", "M4", "M5"], "split_side_too_small"),
        (replace(EIGHT, out=("X",)), INDIVIDUAL, ["C", "M1", "X"], "split_not_seated"),
        (EIGHT, INDIVIDUAL, ["C", "M1", "Z"], "split_not_seated"),
        (EIGHT, INDIVIDUAL, ["C", "C", "M1"], "duplicate_player"),
        (EIGHT, Profile(split_min_players=9), None, "split_too_few_players"),
    ],
)
def test_split_refusals(seating, profile, move, code: str) -> None:
    with pytest.raises(ChouetteError) as err:
        split_plan(seating, profile, move)
    assert err.value.code == code


def test_split_threshold_is_a_profile_option() -> None:
    six = seating_from_order(["B", "C", "M1", "M2", "M3", "M4"])
    plan = split_plan(six, Profile(split_min_players=6))
    assert plan.new == Seating(box="C", line=("M2", "M4"))
    with pytest.raises(ChouetteError) as err:
        Profile(split_min_players=5)
    assert err.value.code == "invalid_profile"


@settings(max_examples=200, deadline=None)
@given(st.integers(8, 14).flatmap(lambda n: st.tuples(st.just(n), st.permutations(range(n)))))
def test_any_default_split_is_even_and_keeps_the_order(case) -> None:
    n, order = case
    seating = seating_from_order([f"p{i}" for i in order])
    plan = split_plan(seating, INDIVIDUAL)
    staying = plan.staying.seated
    assert sorted(plan.moved + staying) == sorted(seating.seated)
    assert len(plan.moved) == n // 2 and len(staying) == n - n // 2
    assert plan.staying.box == seating.box  # the box keeps the box
    assert plan.staying.out == plan.moved
    # Both halves keep the players' relative order.
    position = {p: i for i, p in enumerate(seating.seated)}
    assert list(staying) == sorted(staying, key=position.__getitem__)
    assert list(plan.new.seated) == sorted(plan.new.seated, key=position.__getitem__)
    # The ledger agrees: the movers sit out there, one seat change each.
    ledger = Ledger.new(INDIVIDUAL, seating)
    for p in plan.moved:
        ledger = ledger.seat(SeatChange("sit_out", p))
    assert ledger.seating == plan.staying
