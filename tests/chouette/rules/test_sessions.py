"""Pure chouette rules (docs/rules.md R13), whole sessions: random valid games, the
ledger with undo, fewest transfers and the session summary. No database.

The property tests simulate cube play (one team cube in ``classic``, own cubes with
beavers and raccoons in ``individual``) to build random *valid* entries and check that
every one is accepted, sums to zero, survives ``to_dict``/``from_dict`` and fits a
ledger. The scripted sessions check totals game by game against a small reference
written independently below.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.rules import (
    CLASSIC,
    EXACT_LIMIT,
    ROTATION_VARIANTS,
    ChouetteError,
    GameEntry,
    Ledger,
    MemberEntry,
    PlayerId,
    Profile,
    SeatChange,
    Seating,
    Stake,
    fewest_transfers,
    seating_from_order,
    seating_from_rolls,
    settle,
    summarize,
    zero_sum_groups,
)
from tests.chouette.rulesdata import (
    CLASSIC_SCRIPT,
    EXPECTED_FINAL,
    INDIVIDUAL_SCRIPT,
    SESSION_PROFILES,
    entry,
    reference_game,
    script_entry,
)


# ============================================================================ properties
@st.composite
def profiles(draw: st.DrawFn, kind: str) -> Profile:
    individual = kind == "individual"
    beavers = individual and draw(st.booleans())
    return Profile(
        kind=kind,  # type: ignore[arg-type]
        rotation=draw(st.sampled_from(ROTATION_VARIANTS)),
        jacoby=draw(st.booleans()),
        beavers=beavers,
        raccoons=beavers and draw(st.booleans()),
        automatic_doubles=draw(st.integers(0, 2)),
        box_must_take_half=individual and draw(st.booleans()),
        box_partner=individual and draw(st.booleans()),
        backgammon_value=draw(st.sampled_from([1, 2, 3])),
        max_cube=draw(st.sampled_from([8, 16, 64])),
    )


def _sim_classic(
    draw: st.DrawFn, team: tuple[PlayerId, ...], a: int, cap: int
) -> tuple[list[MemberEntry], bool]:
    """One team cube: doubles alternate; the box's doubles are answered member by member,
    the team's doubles are unanimous and the box takes or drops them all."""
    cube, owner = a, None
    active = list(team)
    done: dict[PlayerId, MemberEntry] = {}
    for _ in range(draw(st.integers(0, 4))):
        if not active or 2 * cube > cap:
            break
        doubler = draw(st.sampled_from([s for s in ("box", "team") if owner in (None, s)]))
        cube *= 2
        if doubler == "box":
            for p in list(active):
                if draw(st.booleans()):
                    done[p] = MemberEntry(p, cube, "dropped")
                    active.remove(p)
            owner = "team"
        elif draw(st.booleans()):
            for p in active:
                done[p] = MemberEntry(p, cube, "box_dropped")
            active = []
        else:
            owner = "box"
    for p in active:
        done[p] = MemberEntry(p, cube, "took")
    return [done[p] for p in team], bool(active)


def _sim_individual(
    draw: st.DrawFn, team: tuple[PlayerId, ...], a: int, profile: Profile
) -> tuple[list[MemberEntry], tuple[tuple[PlayerId, ...], ...]]:
    """Own cubes: doubles by either side per cube, beavers and raccoons; some members may
    open with simultaneous initial doubles (the box drops at most half if it must)."""
    cap = profile.max_cube
    group: tuple[PlayerId, ...] = ()
    if 2 * a <= cap:
        group = tuple(p for p in team if draw(st.booleans()))
    may_drop = len(group) // 2 if profile.box_must_take_half and len(group) > 1 else len(group)
    rows = []
    for p in team:
        cube, owner, fate, beavers, raccoons = a, None, "took", 0, 0
        steps = draw(st.integers(1 if p in group else 0, 3))
        for step in range(steps):
            if 2 * cube > cap:
                break
            if step == 0 and p in group:
                doubler = "member"
            else:
                doubler = draw(
                    st.sampled_from([s for s in ("box", "member") if owner in (None, s)])
                )
            cube *= 2
            drop = draw(st.booleans())
            if drop and step == 0 and p in group and doubler == "member":
                drop = may_drop > 0
                may_drop -= drop
            if drop:
                fate = "dropped" if doubler == "box" else "box_dropped"
                break
            taker = "member" if doubler == "box" else "box"
            owner = taker
            if profile.beavers and 2 * cube <= cap and draw(st.booleans()):
                cube, beavers = cube * 2, beavers + 1
                if profile.raccoons and 2 * cube <= cap and draw(st.booleans()):
                    cube, raccoons, owner = cube * 2, raccoons + 1, doubler
        rows.append(MemberEntry(p, cube, fate, beavers, raccoons))  # type: ignore[arg-type]
    return rows, ((group,) if group else ())


@st.composite
def games(draw: st.DrawFn, kind: str) -> tuple[Profile, Seating, GameEntry]:
    """A random valid game in a random profile of ``kind``, with its seating."""
    profile = draw(profiles(kind))
    players = [f"p{i}" for i in range(draw(st.integers(3, 8)))]
    seating = seating_from_order(players)
    team = seating.team(profile)
    a = 2 ** draw(st.integers(0, profile.automatic_doubles))
    groups: tuple[tuple[PlayerId, ...], ...] = ()
    if profile.kind == "classic":
        members, _ = _sim_classic(draw, team, a, profile.max_cube)
    else:
        members, groups = _sim_individual(draw, team, a, profile)
    takers = [m for m in members if m.fate == "took"]
    winner = draw(st.sampled_from(["box", "team"])) if takers else None
    result = draw(st.sampled_from(["single", "gammon", "backgammon"])) if takers else None
    acting = None
    if members[0].fate != "took" and takers and draw(st.booleans()):
        acting = takers[0].player
    game = GameEntry(
        box=seating.box,
        captain=seating.captain,
        members=tuple(members),
        winner=winner,  # type: ignore[arg-type]
        kind=result,  # type: ignore[arg-type]
        partner=seating.partner(profile),
        initial_cube=a,
        acting_captain=acting,
        initial_double_groups=groups,
    )
    return profile, seating, game


def _check_game(profile: Profile, seating: Seating, game: GameEntry) -> None:
    points = settle(game, profile)
    assert sum(points.values()) == 0
    assert set(points) == set(seating.seated)
    for m in game.members:
        bound = m.cube * 3
        assert 0 < abs(points[m.player]) <= bound
        if m.fate == "dropped":
            assert points[m.player] < 0
        elif m.fate == "box_dropped":
            assert points[m.player] > 0
        else:
            assert (points[m.player] > 0) == (game.winner == "team")
    if game.partner is not None:
        assert 0 <= abs(points[game.box]) - abs(points[game.partner]) <= 1
    assert GameEntry.from_dict(game.to_dict()) == game
    ledger = Ledger.new(profile, seating).apply(game)
    assert sum(ledger.totals_dict().values()) == 0
    assert ledger.seating.box == _reference_next_box(profile, seating, game, points)
    assert sorted(ledger.seating.seated) == sorted(seating.seated)


def _reference_next_box(
    profile: Profile, seating: Seating, game: GameEntry, points: dict[PlayerId, int]
) -> PlayerId:
    """Who has the box next, written from docs/rules.md's rotation variants."""
    net = points[game.box] + (points[game.partner] if game.partner is not None else 0)
    fate = game.member(game.captain).fate
    beat_captain = fate == "dropped" or (fate == "took" and game.winner == "box")
    stays = {
        "standard": beat_captain,
        "box_needs_net_profit": beat_captain and net > 0,
        "net_profit_decides": net > 0,
        "double_stand_up": beat_captain and net >= 0,
    }[profile.rotation]
    if stays:
        return seating.box
    both_stand_up = profile.rotation == "double_stand_up" and beat_captain
    if both_stand_up and len(seating.line) > 1:
        return seating.line[1]
    return seating.captain


@settings(max_examples=150, deadline=None)
@given(games("classic"))
def test_random_classic_games_are_valid_and_zero_sum(
    case: tuple[Profile, Seating, GameEntry],
) -> None:
    _check_game(*case)


@settings(max_examples=150, deadline=None)
@given(games("individual"))
def test_random_individual_games_are_valid_and_zero_sum(
    case: tuple[Profile, Seating, GameEntry],
) -> None:
    _check_game(*case)


# ============================================================================ transfers
def _brute_force_transfers(balances: list[int]) -> int:
    """Fewest transfers by exhaustive search: settle the first open balance against every
    later one of the opposite sign (the classic backtracking for debt simplification)."""
    debts = [b for b in balances if b]

    def search(i: int) -> int:
        while i < len(debts) and debts[i] == 0:
            i += 1
        if i == len(debts):
            return 0
        best = len(debts)
        for j in range(i + 1, len(debts)):
            if debts[j] * debts[i] < 0:
                debts[j] += debts[i]
                best = min(best, 1 + search(i + 1))
                debts[j] -= debts[i]
        return best

    return search(0)


def _check_transfers(balances: dict[PlayerId, int]) -> list[Any]:
    transfers = fewest_transfers(balances)
    left = dict(balances)
    for payer, payee, points in transfers:
        assert points > 0 and payer != payee
        assert balances[payer] < 0 < balances[payee]
        left[payer] += points
        left[payee] -= points
    assert all(v == 0 for v in left.values())
    return transfers


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-12, 12), min_size=1, max_size=6))
def test_fewest_transfers_matches_brute_force(values: list[int]) -> None:
    values = [*values, -sum(values)]  # up to 7 players, zero-sum
    balances: dict[PlayerId, int] = {f"p{i}": v for i, v in enumerate(values)}
    transfers = _check_transfers(balances)
    assert len(transfers) == _brute_force_transfers(values)
    groups = zero_sum_groups(balances)
    assert len(transfers) == sum(1 for v in values if v) - len(groups)


def test_fewest_transfers_examples() -> None:
    assert fewest_transfers({"a": 0, "b": 0}) == []
    assert fewest_transfers({"a": 5, "b": -5}) == [("b", "a", 5)]
    # Two pairs settle with two transfers, not three.
    balances: dict[PlayerId, int] = {"a": 10, "b": -7, "c": 7, "d": -10}
    assert fewest_transfers(balances) == [("d", "a", 10), ("b", "c", 7)]
    # The worked example's game alone: everyone pays the box.
    assert fewest_transfers({"X": 17, "A": -8, "B": -1, "C": -8}) == [
        ("A", "X", 8),
        ("B", "X", 1),
        ("C", "X", 8),
    ]
    with pytest.raises(ChouetteError) as err:
        fewest_transfers({"a": 1, "b": -2})
    assert err.value.code == "unbalanced"


def test_fewest_transfers_beyond_the_exact_limit_still_settles() -> None:
    rng = random.Random(7)
    values = [rng.randint(-30, 30) or 1 for _ in range(EXACT_LIMIT + 3)]
    values.append(-sum(values))
    _check_transfers(dict(enumerate(values)))


def test_twelve_players_exact_and_fast() -> None:
    rng = random.Random(12)
    values = [rng.randint(-20, 20) for _ in range(11)]
    values.append(-sum(values))
    balances: dict[PlayerId, int] = dict(enumerate(values))
    transfers = _check_transfers(balances)
    assert len(transfers) == sum(1 for v in values if v) - len(zero_sum_groups(balances))


def test_summary_with_money() -> None:
    stake = Stake(Decimal("0.50"), "EUR")
    summary = summarize({"X": 17, "A": -8, "B": -1, "C": -8}, stake)
    assert [(p.player, p.points, p.money) for p in summary.players] == [
        ("X", 17, Decimal("8.50")),
        ("B", -1, Decimal("-0.50")),
        ("A", -8, Decimal("-4.00")),
        ("C", -8, Decimal("-4.00")),
    ]
    assert [(t.payer, t.payee, t.points, t.money) for t in summary.transfers] == [
        ("A", "X", 8, Decimal("4.00")),
        ("B", "X", 1, Decimal("0.50")),
        ("C", "X", 8, Decimal("4.00")),
    ]
    assert Stake.from_dict(stake.to_dict()) == stake
    assert summarize({"a": 0}).transfers == ()
    for bad in [(Decimal("-1"), "EUR"), (Decimal("NaN"), "EUR"), (Decimal(1), ""), (1, "EUR")]:
        with pytest.raises(ChouetteError) as err:
            Stake(*bad)  # type: ignore[arg-type]
        assert err.value.code == "invalid_stake"


# ============================================================================ sessions
# Each scripted game: "<winner> <kind> | <one code per team member, captain first>", where
# a code is t (took), d (dropped the box's double) or x (the box dropped their double),
# then the cube, then "b" per beaver and "r" per raccoon. "- -" = nobody played on.
@pytest.mark.parametrize("kind", ["classic", "individual"])
def test_scripted_session_of_five_players_over_thirty_games(kind: str) -> None:
    profile = SESSION_PROFILES[kind]
    script = CLASSIC_SCRIPT if kind == "classic" else INDIVIDUAL_SCRIPT
    # Roll-off: Bob 6, Ann 5, Cy and Eve tie at 3 (re-roll 4 vs 1), Dee 2.
    seating = seating_from_rolls({"Ann": 5, "Bob": 6, "Cy": [3, 4], "Dee": 2, "Eve": [3, 1]})
    assert seating == Seating(box="Bob", line=("Ann", "Cy", "Eve", "Dee"))
    ledger = Ledger.new(profile, seating)
    # The reference state: box, line, out and totals kept by hand.
    box, line, out = "Bob", ["Ann", "Cy", "Eve", "Dee"], []
    totals: dict[PlayerId, int] = dict.fromkeys(["Bob", "Ann", "Cy", "Eve", "Dee"], 0)
    undone = False
    for number, script_line in enumerate(script, start=1):
        if number == 11:  # Dee sits out
            ledger = ledger.seat(SeatChange("sit_out", "Dee"))
            if box == "Dee":
                box = line.pop(0)
            else:
                line.remove("Dee")
            out.append("Dee")
        if number == 15:  # Dee comes back at the end of the line
            ledger = ledger.seat(SeatChange("come_back", "Dee"))
            out.remove("Dee")
            line.append("Dee")
        game = script_entry(script_line, box, line)
        expected, keeps = reference_game(script_line, box, line, profile)
        if number == 16 and not undone:
            # A wrong entry (winner flipped) is saved, then undone: totals and seating
            # come back exactly; then the right entry is saved.
            before = ledger
            wrong = replace(game, winner="box" if game.winner == "team" else "team")
            ledger = ledger.apply(wrong)
            assert ledger.totals != before.totals
            ledger = ledger.undo()
            assert ledger == before
            undone = True
        ledger = ledger.apply(game)
        row = ledger.rows[-1]
        assert row.number == number
        assert row.points_dict() == expected, f"game {number}"
        assert sum(row.points_dict().values()) == 0
        for p, v in expected.items():
            totals[p] += v
        if keeps:
            line.append(line.pop(0))
        else:
            new_box = line.pop(0)
            line.append(box)
            box = new_box
        assert ledger.totals_dict() == totals, f"totals after game {number}"
        assert sum(ledger.totals_dict().values()) == 0
        assert ledger.seating == Seating(box=box, line=tuple(line), out=tuple(out))
    assert len(ledger.rows) == 30
    assert ledger.totals_dict() == EXPECTED_FINAL[kind]
    # The ledger is recomputable from its events.
    assert Ledger.replay(profile, seating, ledger.events) == ledger
    # Undo the last game: totals and seating of game 29 come back.
    back = ledger.undo()
    assert back.totals == ledger.rows[-2].totals_after
    assert back.seating == ledger.rows[-2].seating_after
    summary = ledger.summary(Stake(Decimal("0.25"), "EUR"))
    assert sum(p.points for p in summary.players) == 0
    assert len(summary.transfers) <= 4


def test_undo_replays_later_seat_changes_and_refuses_an_empty_session() -> None:
    seating = seating_from_order(["a", "b", "c", "d"])
    ledger = Ledger.new(CLASSIC, seating)
    with pytest.raises(ChouetteError) as err:
        ledger.undo()
    assert err.value.code == "nothing_to_undo"
    game = entry("a", [("b", 1, "took"), ("c", 1, "took"), ("d", 1, "took")], "team", "single")
    ledger = ledger.apply(game).seat(SeatChange("sit_out", "c")).seat(SeatChange("join", "e"))
    assert ledger.seating == Seating(box="b", line=("d", "a", "e"), out=("c",))
    assert ledger.totals_dict() == {"a": -3, "b": 1, "c": 1, "d": 1, "e": 0}
    back = ledger.undo()
    assert back.seating == Seating(box="a", line=("b", "d", "e"), out=("c",))
    assert back.totals_dict() == {"a": 0, "b": 0, "c": 0, "d": 0, "e": 0}
    assert back.rows == ()
    # An entry that does not fit the seating is refused.
    with pytest.raises(ChouetteError) as err:
        ledger.apply(game)
    assert err.value.code == "entry_seating_mismatch"
    assert SeatChange.from_dict(SeatChange("join", "e").to_dict()) == SeatChange("join", "e")


def test_zero_sum_groups_cover_every_nonzero_player() -> None:
    """zero_sum_groups returns disjoint groups that cover every non-zero player."""
    balances: dict[PlayerId, int] = {"a": 3, "b": -3, "c": 2, "d": -1, "e": -1, "z": 0}
    groups = zero_sum_groups(balances)
    assert sorted(itertools.chain.from_iterable(groups)) == ["a", "b", "c", "d", "e"]
    assert all(sum(balances[p] for p in g) == 0 for g in groups)
    assert len(groups) == 2
