"""Main + consolation + last chance as one flight (issue 29, item 12): the pure builder.

Who feeds what (docs/rules.md, "Main, consolation and last chance"): the main's losers
of rounds 1 .. ``entry_rounds`` play the consolation; the consolation's losers of rounds
1 .. ``last_chance_rounds`` play the last chance; every other loser is out. Checked by
hand for 8, 12, 16, 20 and 32 players, for every feed over many sizes, and by playing
whole brackets out at random (with withdrawals and late entries): every slot resolves,
one champion per part, and nobody is ever due in two matches (so in two parts) at once.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.pairing.test_brackets import check_finished_bracket
from tournaments.pairing import (
    BYE,
    Bracket,
    EntrantId,
    PairingError,
    Place,
    Result,
    Source,
    build_bracket,
    build_consolation,
    build_consolation_last_chance,
    entrant_places,
    finishing_order,
    late_entry_open,
    resolve,
)

OPTIONS = [
    {"entry_rounds": 1, "last_chance_rounds": 1},
    {"entry_rounds": 1, "last_chance_rounds": 2},
    {"entry_rounds": 2, "last_chance_rounds": 1},
    {"entry_rounds": 2, "last_chance_rounds": 2},
]


def part_sizes(bracket: Bracket) -> dict[str, int]:
    return dict(Counter(s.part for s in bracket.slots))


def round_sources(bracket: Bracket, part: str, round_no: int) -> list[tuple[str, str]]:
    return [(s.a.encode(), s.b.encode()) for s in bracket.round_slots(part, round_no)]


def feeder(bracket: Bracket, src: Source) -> tuple[str, int]:
    slot = bracket.slot(src.slot)
    return slot.part, slot.round


# ---------------------------------------------------------------------------- by hand


def test_sixteen_players_defaults() -> None:
    b = build_bracket("consolation_last_chance", 16)
    assert b.format == "consolation_last_chance" and b.size == 16
    assert b.options == {"entry_rounds": 1, "last_chance_rounds": 1}
    assert b.parts == ("main", "consolation", "last_chance")
    # The consolation is the plain consolation's: 8 round-1 losers, 4 + 2 + 1 matches.
    assert [s for s in b.slots if s.part != "last_chance"] == list(build_consolation(16).slots)
    # The last chance: the 4 losers of consolation round 1, neighbours first.
    assert part_sizes(b) == {"main": 15, "consolation": 7, "last_chance": 3}
    assert round_sources(b, "last_chance", 1) == [
        ("loser:C1-1", "loser:C1-2"),
        ("loser:C1-3", "loser:C1-4"),
    ]
    assert round_sources(b, "last_chance", 2) == [("winner:LC1-1", "winner:LC1-2")]
    assert b.rankings() == {
        "main": ("main",),
        "consolation": ("consolation",),
        "last_chance": ("last_chance",),
    }


def test_eight_players_one_last_chance_match() -> None:
    b = build_consolation_last_chance(8)
    assert part_sizes(b) == {"main": 7, "consolation": 3, "last_chance": 1}
    assert round_sources(b, "last_chance", 1) == [("loser:C1-1", "loser:C1-2")]


def test_twelve_players_byes_have_no_loser() -> None:
    # 16 places, seeds 13-16 are byes: 4 real round-1 matches, 4 losers in the consolation.
    b = build_consolation_last_chance(12)
    assert part_sizes(b) == {"main": 15, "consolation": 3, "last_chance": 1}
    assert round_sources(b, "last_chance", 1) == [("loser:C1-1", "loser:C1-2")]


def test_twenty_and_thirty_two_players() -> None:
    b = build_consolation_last_chance(20)  # 32 places, 4 real round-1 matches
    assert part_sizes(b) == {"main": 31, "consolation": 3, "last_chance": 1}
    b = build_consolation_last_chance(32)
    assert part_sizes(b) == {"main": 31, "consolation": 15, "last_chance": 7}
    assert len(b.round_slots("last_chance", 1)) == 4


def test_last_chance_rounds_two_feeds_consolation_round_two_losers() -> None:
    b = build_consolation_last_chance(16, last_chance_rounds=2)
    # 4 losers of consolation round 1 play down to 2; the 2 losers of consolation round 2
    # enter against them (mirrored); then a final.
    assert part_sizes(b)["last_chance"] == 5
    assert round_sources(b, "last_chance", 2) == [
        ("winner:LC1-1", "loser:C2-2"),
        ("winner:LC1-2", "loser:C2-1"),
    ]
    assert round_sources(b, "last_chance", 3) == [("winner:LC2-1", "winner:LC2-2")]


def test_entry_rounds_two_with_the_last_chance() -> None:
    b = build_consolation_last_chance(16, entry_rounds=2)
    main_fed = [
        feeder(b, src)
        for s in b.slots
        if s.part == "consolation"
        for src in (s.a, s.b)
        if src.kind == "loser"
    ]
    assert Counter(main_fed) == {("main", 1): 8, ("main", 2): 4}
    assert round_sources(b, "last_chance", 1) == [
        ("loser:C1-1", "loser:C1-2"),
        ("loser:C1-3", "loser:C1-4"),
    ]


def test_small_fields_leave_out_what_cannot_be_played() -> None:
    # Two players: one match, nobody to console.
    assert build_consolation_last_chance(2).parts == ("main",)
    # Four players: a consolation final of the two round-1 losers; its loser is second
    # of the consolation and drops nowhere, so there is no last chance.
    assert build_consolation_last_chance(4).parts == ("main", "consolation")
    # Six players (8 places): 2 real round-1 matches, a one-match consolation, no last
    # chance.
    assert part_sizes(build_consolation_last_chance(6)) == {"main": 7, "consolation": 1}


def test_refusals_and_round_trip() -> None:
    for bad in ({"entry_rounds": 3}, {"last_chance_rounds": 0}, {"last_chance_rounds": 3}):
        with pytest.raises(PairingError, match="invalid_option"):
            build_bracket("consolation_last_chance", 8, **bad)
    with pytest.raises(PairingError, match="invalid_option"):
        build_bracket("consolation_last_chance", 8, last_chance_rounds=True)
    with pytest.raises(PairingError, match="invalid_option"):
        build_bracket("consolation_last_chance", 8, last_entry_round=2)
    b = build_bracket("consolation_last_chance", 13, entry_rounds=2, last_chance_rounds=2)
    assert Bracket.from_dict(b.to_dict()) == b


# ---------------------------------------------------------------------------- every feed


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
@pytest.mark.parametrize("n", range(2, 41))
def test_every_feed(n: int, options: dict[str, Any]) -> None:
    """Each part takes only the losers it should, and every loser that can drop has a
    place: main losers of rounds <= entry_rounds in the consolation (before the final),
    consolation losers of rounds <= last_chance_rounds in the last chance (before the
    consolation's final); nothing else feeds anything."""
    b = build_consolation_last_chance(n, **options)
    plain = build_consolation(n, entry_rounds=options["entry_rounds"])
    assert [s for s in b.slots if s.part != "last_chance"] == list(plain.slots)
    main_rounds = max(s.round for s in b.slots if s.part == "main")
    cons = [s for s in b.slots if s.part == "consolation"]
    cons_rounds = max((s.round for s in cons), default=0)
    fed: dict[str, str] = {}  # slot key -> the part its loser goes to
    for slot in b.slots:
        for src in (slot.a, slot.b):
            if src.kind != "loser":
                continue
            part, rnd = feeder(b, src)
            fed[src.slot] = slot.part
            if slot.part == "consolation":
                assert part == "main" and rnd <= min(options["entry_rounds"], main_rounds - 1)
            else:
                assert slot.part == "last_chance"
                assert part == "consolation"
                assert rnd <= min(options["last_chance_rounds"], cons_rounds - 1)
    lc = [s for s in b.slots if s.part == "last_chance"]
    if lc:
        # Every consolation match of a feeding round that can have a loser feeds it.
        for slot in cons:
            feeding = slot.round <= options["last_chance_rounds"] and slot.round < cons_rounds
            can_lose = "bye" not in (slot.a.kind, slot.b.kind)
            if feeding and can_lose and slot.key not in fed:
                # Only a match waiting for a late entrant's loser may be left out, when
                # the last chance has no bye to give it.
                assert any(
                    src.kind == "loser"
                    and b.slot(src.slot).part == "main"
                    and max(b.slot(src.slot).a.seed, b.slot(src.slot).b.seed) > n
                    for src in (slot.a, slot.b)
                ), slot
    # The last chance's entrants: as many as the feeding consolation matches.
    lc_entrants = sum(1 for part in fed.values() if part == "last_chance")
    assert not lc or lc_entrants >= 2


# ---------------------------------------------------------------------------- played out


def _play_checking_one_match_each(
    bracket: Bracket,
    seeds: list[EntrantId | None],
    rng: random.Random,
    withdrawn: frozenset[EntrantId] = frozenset(),
) -> dict[str, Any]:
    """Play waves of random results; in every wave nobody is due in two matches (the
    parts run one after the other for each player)."""
    results: dict[str, Result] = {}
    for _ in range(len(bracket.slots) + 1):
        resolved = resolve(bracket, seeds, results, withdrawn)
        due = Counter(e for r in resolved.values() if r.ready for e in r.entrants())
        assert not due or max(due.values()) == 1, due
        ready = [r for r in resolved.values() if r.ready]
        if not ready:
            return resolved
        for r in ready:
            results[r.key] = Result(rng.choice("ab"), walkover=rng.random() < 0.05)
    raise AssertionError("the bracket did not finish")


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=40),
    options=st.sampled_from(OPTIONS),
    seed=st.integers(min_value=0, max_value=2**31),
    withdraw=st.integers(min_value=0, max_value=3),
)
def test_played_out_at_random(n: int, options: dict[str, Any], seed: int, withdraw: int) -> None:
    rng = random.Random(seed)
    bracket = build_consolation_last_chance(n, **options)
    seeds: list[EntrantId | None] = list(range(1, n + 1))
    withdrawn = frozenset(rng.sample(range(1, n + 1), min(withdraw, n - 2)))
    resolved = _play_checking_one_match_each(bracket, seeds, rng, withdrawn)
    check_finished_bracket(bracket, seeds, resolved, withdrawn)
    # The parts come one after another: who plays the last chance played the
    # consolation and lost there; who plays the consolation lost in the main.
    in_part: dict[str, set[EntrantId]] = {}
    for r in resolved.values():
        in_part.setdefault(r.slot.part, set()).update(r.entrants())
    lost_in: dict[str, set[EntrantId]] = {}
    for r in resolved.values():
        if r.decided and r.loser not in (None, BYE):
            lost_in.setdefault(r.slot.part, set()).add(r.loser)  # type: ignore[arg-type]
    assert in_part.get("consolation", set()) <= lost_in.get("main", set())
    assert in_part.get("last_chance", set()) <= lost_in.get("consolation", set())


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
@pytest.mark.parametrize("n", [3, 5, 9, 11, 13, 17, 21, 25, 29])
def test_late_entries_find_their_place(n: int, options: dict[str, Any]) -> None:
    """Late entries take the byes while every part they would drop into has room; played
    out, no slot is ever two byes and every slot resolves."""
    bracket = build_consolation_last_chance(n, **options)
    seeds: list[EntrantId | None] = list(range(1, n + 1))
    while late_entry_open(bracket, seeds, {}, entrant=len(seeds) + 1):
        seeds.append(len(seeds) + 1)
    for count in sorted({n, len(seeds)}):
        resolved = _play_checking_one_match_each(bracket, seeds[:count], random.Random(count))
        for r in resolved.values():
            assert not (r.a is BYE and r.b is BYE), r.key
        check_finished_bracket(bracket, seeds[:count], resolved)


def test_a_last_chance_player_is_placed_there() -> None:
    """The finishing orders give three rankings; an entrant who played the consolation
    and the last chance gets the last chance place (where their night ended)."""
    bracket = build_consolation_last_chance(16)
    seeds: list[EntrantId | None] = list(range(1, 17))
    results: dict[str, str] = {}
    for _ in range(len(bracket.slots)):
        ready = [r for r in resolve(bracket, seeds, results).values() if r.ready]
        if not ready:
            break
        results |= {r.key: "a" for r in ready}
    resolved = resolve(bracket, seeds, results)
    orders = finishing_order(bracket, resolved)
    assert set(orders) == {"main", "consolation", "last_chance"}
    lc_champion = orders["last_chance"][0].entrants[0]
    places = entrant_places(orders, main="main")
    assert places[lc_champion].side_part == "last_chance"
    assert places[lc_champion].side_label == "1"
    cons_champion = orders["consolation"][0].entrants[0]
    assert places[cons_champion].side_part == "consolation"
    # Each of the 16 is placed in the main; 8 in the consolation; 4 in the last chance.
    assert sum(len(p.entrants) for p in orders["main"]) == 16
    assert sum(len(p.entrants) for p in orders["consolation"]) == 8
    assert sum(len(p.entrants) for p in orders["last_chance"]) == 4


def test_entrant_places_later_part_counts() -> None:
    orders = {
        "main": (Place(1, ("a",)), Place(2, ("b",)), Place(3, ("c", "d"))),
        "consolation": (Place(1, ("c",)), Place(2, ("d",))),
        "last_chance": (Place(1, ("d",)),),
    }
    places = entrant_places(orders, main="main")
    assert (places["c"].side_part, places["c"].side_label) == ("consolation", "1")
    assert (places["d"].side_part, places["d"].side_label) == ("last_chance", "1")
    assert places["d"].label == "3-4"
