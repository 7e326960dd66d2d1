"""Knockout brackets: structure, byes, resolving results, finishing order, every format.

The property tests play whole brackets to the end with random results (and random
withdrawals) for every field size 2..65, and check what must hold in any event: every
slot resolves, one champion per ranking, everyone placed exactly once per ranking they
played in, nobody twice in a round, byes only where needed, double elimination players
out only after two losses, and consolation entries in the right rounds.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    BYE,
    Bracket,
    EntrantId,
    PairingError,
    ResolvedSlot,
    Result,
    Slot,
    Source,
    build_bracket,
    build_consolation,
    build_double_elimination,
    build_last_chance,
    build_progressive_consolation,
    build_single_elimination,
    finishing_order,
    late_entry_open,
    resolve,
)

FORMATS: list[tuple[str, dict[str, Any]]] = [
    ("single", {}),
    ("consolation", {"entry_rounds": 1}),
    ("consolation", {"entry_rounds": 2}),
    ("progressive", {}),
    ("progressive", {"last_entry_round": 2}),
    ("last_chance", {"entry_rounds": 1}),
    ("last_chance", {"entry_rounds": 2}),
    ("double", {"bracket_reset": False}),
    ("double", {"bracket_reset": True}),
]


def play_out(
    bracket: Bracket,
    seeds: list[EntrantId | None],
    rng: random.Random,
    withdrawn: Collection[EntrantId] = frozenset(),
) -> tuple[dict[str, Result], dict[str, ResolvedSlot]]:
    """Record random results for ready slots, one wave at a time, until none is ready."""
    results: dict[str, Result] = {}
    for _ in range(len(bracket.slots) + 1):
        resolved = resolve(bracket, seeds, results, withdrawn)
        ready = [r for r in resolved.values() if r.ready]
        if not ready:
            return results, resolved
        for r in ready:
            results[r.key] = Result(rng.choice("ab"), walkover=rng.random() < 0.05)
    raise AssertionError("the bracket did not finish")


def losses_of(resolved: dict[str, ResolvedSlot], parts: Collection[str]) -> Counter[EntrantId]:
    lost: Counter[EntrantId] = Counter()
    for r in resolved.values():
        if r.slot.part in parts and r.decided and r.loser not in (None, BYE):
            lost[r.loser] += 1  # type: ignore[index]
    return lost


def check_finished_bracket(
    bracket: Bracket,
    seeds: list[EntrantId | None],
    resolved: dict[str, ResolvedSlot],
    withdrawn: Collection[EntrantId] = frozenset(),
) -> None:
    entrants = [s for s in seeds if s is not None]
    # Every slot resolves.
    assert all(r.decided for r in resolved.values()), [
        r for r in resolved.values() if not r.decided
    ]
    # Nobody twice in a round of a part.
    rounds: dict[tuple[str, int], list[EntrantId]] = {}
    for r in resolved.values():
        rounds.setdefault((r.slot.part, r.slot.round), []).extend(r.entrants())
    for key, players in rounds.items():
        assert len(players) == len(set(players)), key
    # Byes only where needed: the first round has exactly size - n byes, on the top seeds.
    first = [
        r for r in resolved.values() if r.slot.part in ("main", "winners") and r.slot.round == 1
    ]
    assert len(first) == bracket.size // 2
    assert bracket.size // 2 < len(entrants) <= bracket.size
    with_bye = [r for r in first if r.status == "bye"]
    assert len(with_bye) == bracket.size - len(entrants)
    assert sorted(seeds.index(r.a) + 1 for r in with_bye) == list(range(1, len(with_bye) + 1))
    # One champion per ranking; everyone who played in it placed exactly once.
    orders = finishing_order(bracket, resolved)
    assert set(orders) == set(bracket.rankings())
    for name, places in orders.items():
        parts = bracket.rankings()[name]
        played = {e for r in resolved.values() if r.slot.part in parts for e in r.entrants()}
        placed = [e for p in places for e in p.entrants]
        assert len(placed) == len(set(placed)) == len(played), name
        assert set(placed) == played
        assert all(p.final for p in places)
        assert [p.rank for p in places] == [
            1 + sum(len(q.entrants) for q in places[:i]) for i in range(len(places))
        ]
        terminal = next(r for r in reversed(resolved.values()) if r.slot.part in parts)
        if terminal.winner is not BYE:
            assert places[0].rank == 1 and places[0].entrants == (terminal.winner,)
    # The main ranking places every entrant.
    assert sorted(e for p in orders["main"] for e in p.entrants) == sorted(entrants)


def _build(fmt: str, n: int, options: dict[str, Any]) -> Bracket:
    return build_bracket(fmt, n, **options)


# ---------------------------------------------------------------------------- by hand


def test_13_players_single_elimination_by_hand() -> None:
    """13 players: bracket of 16, seeds 1-3 have byes, 5 matches are played in round 1
    (10 players), and 8 players reach round 2."""
    b = build_single_elimination(13)
    assert b.size == 16
    seeds = [f"p{i}" for i in range(1, 14)]
    res = resolve(b, seeds)
    r1 = [res[s.key] for s in b.round_slots("main", 1)]
    assert [r.a for r in r1 if r.status == "bye"] == ["p1", "p2", "p3"]
    assert len([r for r in r1 if r.ready]) == 5
    assert [(r.a, r.b) for r in r1 if r.ready] == [
        ("p8", "p9"),
        ("p4", "p13"),
        ("p5", "p12"),
        ("p7", "p10"),
        ("p6", "p11"),
    ]
    # The bye holders already stand in round 2.
    r2 = [res[s.key] for s in b.round_slots("main", 2)]
    assert [r.a for r in r2] == ["p1", None, "p2", "p3"]
    assert [r.b for r in r2] == [None, None, None, None]
    assert len(b.slots) == 15


def test_single_elimination_finishing_order_groups() -> None:
    b = build_single_elimination(13)
    seeds: list[EntrantId | None] = list(range(1, 14))
    # The better seed (lower number) always wins.
    results: dict[str, Result | str] = {}
    while True:
        res = resolve(b, seeds, results)
        ready = [r for r in res.values() if r.ready]
        if not ready:
            break
        for r in ready:
            assert isinstance(r.a, int) and isinstance(r.b, int)
            results[r.key] = "a" if r.a < r.b else "b"
    places = finishing_order(b, res)["main"]
    assert [(p.label, sorted(p.entrants)) for p in places] == [
        ("1", [1]),
        ("2", [2]),
        ("3-4", [3, 4]),
        ("5-8", [5, 6, 7, 8]),
        ("9-13", [9, 10, 11, 12, 13]),
    ]


def test_two_players() -> None:
    for fmt, options in FORMATS:
        b = _build(fmt, 2, options)
        res = resolve(b, ["x", "y"], {"M1-1" if "M1-1" in b else "W1-1": "b"})
        order = finishing_order(b, res)
        if fmt == "double":
            # y won the winners' final; x drops and meets y again in the final.
            assert res["F1"].a == "y" and res["F1"].b == "x"
            continue
        assert order == {"main": order["main"]}  # no consolation for 2 players
        assert [p.entrants for p in order["main"]] == [("y",), ("x",)]


def test_double_elimination_shape_8() -> None:
    b = build_double_elimination(8)
    keys = [s.key for s in b.slots]
    assert keys == [
        "W1-1", "W1-2", "W1-3", "W1-4", "W2-1", "W2-2", "W3-1",
        "L1-1", "L1-2", "L2-1", "L2-2", "L3-1", "L4-1", "F1",
    ]  # fmt: skip
    assert b.slot("L2-1").b == Source.loser_of("W2-2")  # mirrored drop-in
    assert b.slot("L4-1").b == Source.loser_of("W3-1")
    assert b.slot("F1").round == 5
    reset = build_double_elimination(8, bracket_reset=True)
    assert reset.slot("F2").reset_of == "F1"


def test_bracket_reset_only_when_losers_winner_wins_the_final() -> None:
    b = build_double_elimination(4, bracket_reset=True)
    seeds: list[EntrantId | None] = [1, 2, 3, 4]
    base = {"W1-1": "a", "W1-2": "a", "W2-1": "a", "L1-1": "a", "L2-1": "a"}
    res = resolve(b, seeds, {**base, "F1": "a"})
    assert res["F2"].status == "bye" and res["F2"].winner == 1
    assert finishing_order(b, res)["main"][0].entrants == (1,)
    res = resolve(b, seeds, {**base, "F1": "b"})
    # Seed 4 won the losers' bracket (beat 3, then 2) and the first final.
    assert res["F2"].ready and (res["F2"].a, res["F2"].b) == (4, 1)
    res = resolve(b, seeds, {**base, "F1": "b", "F2": "b"})
    places = finishing_order(b, res)["main"]
    assert [p.entrants for p in places] == [(1,), (4,), (2,), (3,)]


def test_progressive_consolation_shape_16() -> None:
    b = build_progressive_consolation(16)
    cons = [s for s in b.slots if s.part == "consolation"]
    entries = {s.key: [src for src in (s.a, s.b) if src.kind == "loser"] for s in cons}
    by_round: dict[int, set[str]] = {}
    for s in cons:
        for src in entries[s.key]:
            by_round.setdefault(s.round, set()).add(src.slot.split("-")[0])
    assert by_round == {1: {"M1"}, 2: {"M2"}, 4: {"M3"}}  # semi-final losers in round 4
    assert max(s.round for s in cons) == 5
    assert (
        build_consolation(16, entry_rounds=2).slots
        == build_progressive_consolation(16, last_entry_round=2).slots
    )


def test_last_chance_round_two_losers_join_in_round_two() -> None:
    b = build_last_chance(8, entry_rounds=2)
    lc1 = b.round_slots("last_chance", 1)
    assert [(s.a.encode(), s.b.encode()) for s in lc1] == [
        ("loser:M1-1", "loser:M1-2"),
        ("loser:M1-3", "loser:M1-4"),
    ]
    lc2 = b.round_slots("last_chance", 2)
    assert [(s.a.encode(), s.b.encode()) for s in lc2] == [
        ("winner:LC1-1", "loser:M2-2"),
        ("winner:LC1-2", "loser:M2-1"),
    ]


def test_bye_losers_do_not_drop_into_the_consolation() -> None:
    b = build_consolation(7)  # 8-bracket: seed 1 has a bye
    res = resolve(b, ["s1", "s2", "s3", "s4", "s5", "s6", "s7"], {"M1-2": "a"})  # s4 beat s5
    # Consolation round 1: s5 meets the loser of M1-1 (seed 1's bye, the place a late
    # entry would take): a bye; the losers of M1-3 and M1-4 meet.
    c11 = res["C1-1"]
    assert (c11.slot.a.encode(), c11.slot.b.encode()) == ("loser:M1-2", "loser:M1-1")
    assert (c11.a, c11.b, c11.status, c11.winner) == ("s5", BYE, "bye", "s5")
    assert (res["C1-2"].slot.a.encode(), res["C1-2"].slot.b.encode()) == (
        "loser:M1-3",
        "loser:M1-4",
    )
    assert len(b.round_slots("consolation", 1)) == 2
    # 5 players: one real round-1 loser, nobody to play: no consolation.
    assert build_consolation(5).parts == ("main",)


def test_walkover_and_withdrawal() -> None:
    b = build_single_elimination(4)
    seeds: list[EntrantId | None] = ["a", "b", "c", "d"]
    res = resolve(b, seeds, {"M1-1": Result("b", walkover=True)}, withdrawn={"c"})
    assert res["M1-1"].status == "walkover" and res["M1-1"].winner == "d"
    m12 = res["M1-2"]  # b v c, c withdrew: b advances by walkover
    assert (m12.status, m12.winner, m12.loser) == ("walkover", "b", "c")
    assert res["M2-1"].ready and (res["M2-1"].a, res["M2-1"].b) == ("d", "b")
    # A withdrawn player against a bye does not advance; nor do two withdrawn players.
    b3 = build_single_elimination(3)
    res3 = resolve(b3, [1, 2, 3], withdrawn={1})
    assert res3["M1-1"].status == "bye" and res3["M1-1"].winner is BYE
    res3 = resolve(b3, [1, 2, 3], withdrawn={2, 3})
    assert res3["M1-2"].status == "walkover" and res3["M1-2"].winner is BYE
    assert res3["M2-1"].status == "bye" and res3["M2-1"].winner == 1  # the last one left
    # A result recorded before the withdrawal stands.
    res = resolve(b, seeds, {"M1-2": "b"}, withdrawn={"c"})
    assert res["M1-2"].status == "played" and res["M1-2"].winner == "c"


def test_late_entry_takes_the_lowest_bye() -> None:
    b = build_consolation(13)
    seeds: list[EntrantId | None] = list(range(1, 14))
    assert late_entry_open(b, seeds, {}, entrant=14)
    res = resolve(b, [*seeds, 14])
    assert (res["M1-7"].a, res["M1-7"].b, res["M1-7"].ready) == (3, 14, True)
    # Seed 3's bye already counted once the round-2 match it fed was played.
    results: dict[str, Result | str] = {"M1-8": "a"}
    assert late_entry_open(b, seeds, results, entrant=14)
    results["M2-4"] = "a"
    assert not late_entry_open(b, seeds, results, entrant=14)
    # Consolation: the M1-8 loser advanced on the bye of M1-7's (missing) loser.
    results = {"M1-8": "a", "C1-4": "b"}  # not expected: C1-4 is a bye
    with pytest.raises(PairingError) as err:
        resolve(b, seeds, results)
    assert (err.value.code, err.value.slot) == ("result_not_expected", "C1-4")
    assert not late_entry_open(b, list(range(1, 17)), {}, entrant=99)  # full
    assert not late_entry_open(b, seeds, {}, entrant=5)  # already in


def test_resolve_refusals() -> None:
    b = build_single_elimination(4)
    with pytest.raises(PairingError, match="unknown_slot"):
        resolve(b, [1, 2, 3, 4], {"M9-9": "a"})
    with pytest.raises(PairingError, match="result_not_expected"):
        resolve(b, [1, 2, 3, 4], {"M2-1": "a"})
    with pytest.raises(PairingError, match="invalid_result"):
        resolve(b, [1, 2, 3, 4], {"M1-1": "c"})
    with pytest.raises(PairingError, match="duplicate_entrant"):
        resolve(b, [1, 2, 2, 4])
    with pytest.raises(PairingError, match="too_many_entrants"):
        resolve(b, [1, 2, 3, 4, 5])


def test_unfinished_bracket_groups_those_still_playing() -> None:
    b = build_single_elimination(8)
    res = resolve(b, list(range(1, 9)), {"M1-1": "a", "M1-2": "b"})
    places = finishing_order(b, res)["main"]
    assert places[0].final is False and sorted(places[0].entrants) == [1, 2, 3, 5, 6, 7]
    assert (places[1].rank, sorted(places[1].entrants)) == (7, [4, 8])


@pytest.mark.parametrize(("fmt", "options"), FORMATS)
def test_to_dict_round_trip(fmt: str, options: dict[str, Any]) -> None:
    b = _build(fmt, 11, options)
    data = b.to_dict()
    assert Bracket.from_dict(data) == b
    import json

    assert Bracket.from_dict(json.loads(json.dumps(data))) == b
    assert Result.from_dict(Result("b", True).to_dict()) == Result("b", True)


def test_a_bracket_stored_before_the_rename_reads_the_same() -> None:
    """Slots stored with their part under ``"flight"`` (before migration 0005)."""
    b = build_double_elimination(8, bracket_reset=True)
    data = b.to_dict()
    assert {s["part"] for s in data["slots"]} == {"winners", "losers", "final"}
    for s in data["slots"]:
        s["flight"] = s.pop("part")
    assert Bracket.from_dict(data) == b


def test_tampered_bracket_refused() -> None:
    data = build_single_elimination(4).to_dict()
    data["slots"][2]["a"] = "winner:M2-1"  # refers to itself
    with pytest.raises(PairingError, match="invalid_bracket"):
        Bracket.from_dict(data)
    data = build_single_elimination(4).to_dict()
    data["slots"][1]["a"] = "seed:1"
    with pytest.raises(PairingError, match="invalid_bracket"):
        Bracket.from_dict(data)
    with pytest.raises(PairingError, match="invalid_source"):
        Source.decode("seed:x")
    slot = Slot("X", "nowhere", 1, 1, Source.bye(), Source.bye())
    with pytest.raises(PairingError, match="invalid_bracket"):
        Bracket("single", 2, 2, {}, (slot,))


def test_builder_refusals() -> None:
    with pytest.raises(PairingError, match="too_few_entrants"):
        build_single_elimination(1)
    with pytest.raises(PairingError, match="invalid_option"):
        build_consolation(8, entry_rounds=3)
    with pytest.raises(PairingError, match="invalid_option"):
        build_progressive_consolation(8, last_entry_round=0)
    with pytest.raises(PairingError, match="invalid_format"):
        build_bracket("swiss", 8)
    with pytest.raises(PairingError, match="invalid_option"):
        build_bracket("single", 8, entry_rounds=2)


# ---------------------------------------------------------------------------- every size


def check_entries(bracket: Bracket, resolved: dict[str, ResolvedSlot]) -> None:
    """Consolation parts take exactly the right losers, in the right rounds."""
    main_part = "winners" if bracket.format == "double" else "main"
    side = {"double": "losers", "last_chance": "last_chance"}.get(bracket.format, "consolation")
    k = bracket.size.bit_length() - 1  # main rounds
    option = bracket.options.get("last_entry_round") or bracket.options.get("entry_rounds")
    last = k if bracket.format == "double" else min(k - 1, int(option or k - 1))
    if bracket.format == "double" and bracket.size == 2:
        # No losers' bracket: the loser of the only match goes straight to the final.
        assert resolved["F1"].b == resolved["W1-1"].loser
        return
    first_seen: dict[EntrantId, int] = {}
    for r in resolved.values():
        if r.slot.part == side:
            for e in r.entrants():
                first_seen.setdefault(e, r.slot.round)
    dropped_in: dict[EntrantId, int] = {}
    for r in resolved.values():
        if r.slot.part == main_part and r.slot.round <= last and r.loser not in (None, BYE):
            dropped_in[r.loser] = r.slot.round  # type: ignore[index]
    if side not in bracket.parts:
        assert len(dropped_in) < 2  # nobody to play with: no part
        return
    assert set(first_seen) == set(dropped_in)
    # Later main rounds' losers join later (or, with few round-1 losers, at once).
    for e, f in first_seen.items():
        for g, h in first_seen.items():
            if dropped_in[e] < dropped_in[g]:
                assert f <= h, (e, g)
            if dropped_in[e] >= 2 and dropped_in[e] < dropped_in[g]:
                assert f < h, (e, g)


def check_double_losses(
    bracket: Bracket,
    resolved: dict[str, ResolvedSlot],
    withdrawn: Collection[EntrantId] = frozenset(),
) -> None:
    losses = losses_of(resolved, ("winners", "losers", "final"))
    champion = finishing_order(bracket, resolved)["main"][0].entrants[0]
    played = sum(1 for r in resolved.values() if r.status in ("played", "walkover"))
    n = bracket.n_entrants
    for e, count in losses.items():
        if e in withdrawn:
            continue  # out at once, by walkovers (or with nobody to lose to)
        if e == champion:
            assert count <= 1
        elif bracket.options["bracket_reset"]:
            assert count == 2, (e, count)
        else:
            # Without a reset only the winners' bracket winner can go out after one loss,
            # by losing the final.
            assert count == 2 or (count == 1 and resolved["F1"].loser == e), (e, count)
    if withdrawn:
        return
    assert len(losses) == n or (champion not in losses and len(losses) == n - 1)
    reset_played = "F2" in bracket and resolved["F2"].status in ("played", "walkover")
    assert played == (2 * n - 1 if reset_played else 2 * n - 2)


@pytest.mark.parametrize("n", range(2, 66))
@pytest.mark.parametrize(("fmt", "options"), FORMATS, ids=lambda x: str(x))
def test_every_format_every_size_played_out(fmt: str, options: dict[str, Any], n: int) -> None:
    bracket = _build(fmt, n, options)
    seeds: list[EntrantId | None] = [f"e{i}" for i in range(1, n + 1)]
    rng = random.Random(n * 1000 + len(fmt))
    _, resolved = play_out(bracket, seeds, rng)
    check_finished_bracket(bracket, seeds, resolved)
    if fmt != "single":
        check_entries(bracket, resolved)
    if fmt == "double":
        check_double_losses(bracket, resolved)
    orders = finishing_order(bracket, resolved)
    for places in orders.values():  # exactly one champion per ranking
        assert places[0].rank == 1 and len(places[0].entrants) == 1
        assert len(places) == 1 or len(places[1].entrants) == 1  # one runner-up
    if fmt == "single":
        played = [r for r in resolved.values() if r.status in ("played", "walkover")]
        assert len(played) == n - 1  # each match puts out exactly one player
        size = bracket.size
        groups = [1, 1] + [2**i for i in range(1, size.bit_length() - 2)]
        if size > 2:
            groups.append(n - size // 2)  # round-1 losers; the byes lost nothing
        assert [len(p.entrants) for p in orders["main"]] == groups


@settings(max_examples=60, deadline=None)
@given(
    fmt_index=st.integers(0, len(FORMATS) - 1),
    n=st.integers(2, 65),
    seed=st.integers(0, 2**32),
    withdraw=st.integers(0, 4),
)
def test_random_results_and_withdrawals(fmt_index: int, n: int, seed: int, withdraw: int) -> None:
    fmt, options = FORMATS[fmt_index]
    bracket = _build(fmt, n, options)
    rng = random.Random(seed)
    entrants: list[EntrantId | None] = list(range(100, 100 + n))
    rng.shuffle(entrants)
    withdrawn = set(rng.sample([e for e in entrants if e is not None], min(withdraw, n)))
    results, resolved = play_out(bracket, entrants, rng, withdrawn)
    check_finished_bracket(bracket, entrants, resolved, withdrawn)
    if fmt != "single":
        check_entries(bracket, resolved)
    if fmt == "double":
        check_double_losses(bracket, resolved, withdrawn)
    # A withdrawn player wins only matches recorded as played.
    for r in resolved.values():
        if r.winner in withdrawn:
            assert r.key in results
