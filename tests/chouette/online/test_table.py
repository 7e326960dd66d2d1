"""The pure online chouette table (chouette.online.table, R13, R8): scripted games and
random play, every finished game settled by the same code as a game typed in."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chouette import rules
from chouette.online.cubes import PENDING_KINDS, default_answer
from chouette.online.table import BOX, TEAM, Table, table_new
from chouette.rules import ChouetteError, Profile, settle
from chouette.rules.seating import seating_from_order
from chouette.rules.settlement import next_seating

CLASSIC = Profile()
INDIVIDUAL = Profile(kind="individual", jacoby=True, beavers=True, raccoons=True)


def started(profile: Profile = CLASSIC, members=("c", "m1", "m2")) -> Table:
    table = table_new(profile=profile, box="B", members=members)
    # the team (player 1) wins the opening roll 2-6 and plays 6-2 at once
    table = table.opening_roll(2, 6)
    assert table.board.turn == TEAM and table.board.phase == "move"
    return table


def play_first(table: Table) -> Table:
    """The mover plays the first legal play."""
    from games.engine.position import position_id

    plays = table.board.legal_plays()
    return table.play(table.mover, position_id(plays[0].result))


def to_box_turn(table: Table) -> Table:
    while not (table.board.turn == BOX and table.board.phase == "roll"):
        table = play_first(table) if table.board.phase == "move" else table.roll(table.mover, 3, 1)
    return table


def to_team_turn(table: Table) -> Table:
    while not (table.board.turn == TEAM and table.board.phase == "roll"):
        table = play_first(table) if table.board.phase == "move" else table.roll(table.mover, 4, 2)
    return table


def test_classic_box_double_one_drops_the_others_take_and_the_acting_captain_moves():
    table = to_box_turn(started())
    table = table.box_double()
    assert {d.decider for d in table.decisions} == {"c", "m1", "m2"}
    with pytest.raises(ChouetteError) as exc:
        table.roll("B", 1, 2)
    assert exc.value.code == "decision_pending"
    table = table.answer("c", "c", "drop")
    table = table.answer("m1", "m1", "take")
    with pytest.raises(ChouetteError) as exc:
        table.answer("m1", "m2", "take")  # nobody answers for another
    assert exc.value.code == "not_your_decision"
    table = table.answer("m2", "m2", "take")
    assert table.in_members == ("m1", "m2")
    assert table.cube_of("m1").value == 2 and table.cube_of("m1").owner == "member"
    assert table.cube_of("c").fate == "dropped"
    table = to_team_turn(table.roll("B", 5, 3) if table.board.phase == "roll" else table)
    assert table.mover == "m1"  # the acting captain
    with pytest.raises(ChouetteError):
        table.roll("c", 1, 2)


def test_classic_team_double_needs_every_consent_and_one_no_withdraws_it():
    table = to_team_turn(to_box_turn(started()))
    table = table.propose_double("m1")
    assert {d.decider for d in table.decisions} == {"c", "m2"}
    with pytest.raises(ChouetteError):
        table.roll("c", 1, 2)
    refused = table.consent("c", "yes").consent("m2", "no")
    assert not refused.waiting and refused.refused_turn
    with pytest.raises(ChouetteError) as exc:
        refused.propose_double("c")
    assert exc.value.code == "cube_not_available"
    table = table.consent("c", "yes")
    assert [d.decider for d in table.decisions] == ["m2"]
    table = table.consent("m2", "yes")
    assert [d.decider for d in table.decisions] == ["B", "B", "B"]
    taken = table.answer("B", "c", "take")
    assert {c.value for c in taken.cubes} == {2} and {c.owner for c in taken.cubes} == {"box"}
    dropped = table.answer("B", "m2", "drop")
    assert dropped.is_over
    entry = dropped.entry()
    assert settle(entry, CLASSIC) == {"B": -3, "c": 1, "m1": 1, "m2": 1}


def test_individual_cubes_beaver_raccoon_and_at_least_half():
    profile = Profile(kind="individual", beavers=True, raccoons=True, box_must_take_half=True)
    table = to_team_turn(to_box_turn(started(profile, ("c", "m1", "m2", "m3"))))
    for m in ("c", "m1", "m2"):
        table = table.member_double(m)
    table = table.answer("B", "c", "drop")
    with pytest.raises(ChouetteError) as exc:
        table.answer("B", "m1", "drop")
    assert exc.value.code == "box_must_take_half"
    table = table.answer("B", "m1", "beaver")
    assert table.cube_of("m1").value == 4 and table.cube_of("m1").owner == "box"
    table = table.answer("m1", "m1", "raccoon")
    assert table.cube_of("m1").value == 8 and table.cube_of("m1").owner == "member"
    table = table.answer("B", "m2", "take")
    assert table.acting_captain == "m1"
    table = table.roll("m1", 3, 1)
    table = to_box_turn(table)
    # the box may double m3 (centred) and m2's cube it owns, not m1's
    assert table.actions_for("B")["box_double"] == ("m2", "m3")
    table = table.box_double(["m3"])
    table = table.answer("m3", "m3", "drop")
    entry = table.entry() if table.is_over else None
    assert entry is None
    assert table.cube_of("m3").fate == "dropped"


def test_defaults_after_the_time_window():
    table = to_team_turn(to_box_turn(started()))
    table = table.propose_double("c").apply_defaults("drop")
    assert not table.waiting and table.refused_turn
    table = to_box_turn(table.roll("c", 2, 1))
    table = table.box_double().answer("m1", "m1", "take").apply_defaults("drop")
    assert table.in_members == ("m1",)
    assert table.cube_of("c").fate == "dropped" and table.cube_of("m2").fate == "dropped"


def test_automatic_doubles_on_opening_ties():
    profile = Profile(automatic_doubles=2)
    table = table_new(profile=profile, box="B", members=("c", "m"))
    table = table.opening_roll(3, 3).opening_roll(4, 4).opening_roll(5, 5).opening_roll(6, 1)
    assert table.initial_cube == 4 and {c.value for c in table.cubes} == {4}
    assert table.board.turn == BOX


def test_flag_is_a_gammon_for_the_other_side():
    table = started().flag("box")
    entry = table.entry()
    assert entry.winner == "team" and entry.kind == "gammon"
    assert settle(entry, CLASSIC)["B"] == -6


def _random_action(table: Table, rnd: random.Random) -> Table:
    from games.engine.position import position_id

    deciders = list(table.decisions)
    if deciders and rnd.random() < 0.9:
        d = rnd.choice(deciders)
        answer = rnd.choice(d.answers)
        try:
            if d.kind == "consent":
                return table.consent(d.decider, answer)
            return table.answer(d.decider, d.member, answer)
        except ChouetteError as exc:
            if exc.code != "box_must_take_half":
                raise
            return table.answer(d.decider, d.member, "take")
    if deciders:
        return table.apply_defaults(rnd.choice(["take", "drop"]))
    players = list(table.players)
    rnd.shuffle(players)
    for p in players:
        acts = table.actions_for(p)
        if "extra_offers" in acts and rnd.random() < 0.5:
            index = acts["extra_offers"][0][0]
            return table.answer_extra(p, index, rnd.random() < 0.6)
        if "offer_extra" in acts and rnd.random() < 0.02:
            other = rnd.choice(acts["offer_extra"])
            backs = "team" if p in table.members else "box"
            try:
                return table.offer_extra(
                    p, other, backs=backs, stake=rnd.choice([1, 2, 4]), price=rnd.choice([0, 0, 1])
                )
            except ChouetteError as exc:
                if exc.code not in ("extra_taker_not_member", "invalid_extra_price"):
                    raise
        if "offer_settlement" in acts and rnd.random() < 0.03:
            member, (low, high) = rnd.choice(sorted(acts["offer_settlement"].items()))
            return table.offer_settlement(p, member, rnd.randint(low, high))
        if "box_double" in acts and rnd.random() < 0.15:
            targets = list(acts["box_double"])
            if table.classic:
                return table.box_double()
            return table.box_double(rnd.sample(targets, rnd.randint(1, len(targets))))
        if "propose" in acts and rnd.random() < 0.1:
            return table.propose_double(p)
        if "double" in acts and rnd.random() < 0.1:
            return table.member_double(p)
    mover = table.mover
    acts = table.actions_for(mover)
    if "roll" in acts:
        return table.roll(mover, rnd.randint(1, 6), rnd.randint(1, 6))
    if "play" in acts:
        return table.play(mover, position_id(rnd.choice(acts["play"]).result))
    if "choose_double" in acts:  # pragma: no cover - standard variant only
        return table.choose_double(mover, rnd.randint(1, 6))
    raise AssertionError(f"nobody can act: {table}")


PROFILES = [
    CLASSIC,
    Profile(jacoby=True, automatic_doubles=1, max_cube=16),
    INDIVIDUAL,
    Profile(kind="individual", box_must_take_half=True, automatic_doubles=1),
    Profile(kind="individual", box_partner=True, box_partner_min_players=4, beavers=True),
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), which=st.integers(0, len(PROFILES) - 1))
def test_random_games_end_in_an_entry_the_settlement_accepts(seed, which):
    profile = PROFILES[which]
    rnd = random.Random(seed)
    players = ["B", "c", "m1", "m2", "m3"][: rnd.randint(3, 5)]
    seating = seating_from_order(players)
    table = table_new(
        profile=profile,
        box=seating.box,
        members=seating.team(profile),
        partner=seating.partner(profile),
    )
    while table.board.phase == "opening":
        table = table.opening_roll(rnd.randint(1, 6), rnd.randint(1, 6))
    steps = 0
    while not table.is_over and steps < 3000:
        table = _random_action(table, rnd)
        assert Table.from_dict(table.to_dict()) == table
        steps += 1
    if not table.is_over:
        table = table.flag(rnd.choice(["box", "team"]))
    entry = table.entry()
    points = settle(entry, profile)
    assert sum(points.values()) == 0
    assert rules.GameEntry.from_dict(entry.to_dict()) == entry
    next_seating(seating, entry, profile)  # the entry fits the seating


def test_a_settlement_offered_by_the_box_and_accepted_takes_the_member_out():
    table = to_box_turn(started())
    with pytest.raises(ChouetteError) as exc:
        table.offer_settlement("B", "m1", 4)  # a cube of 1: at most 3 either way
    assert exc.value.code == "settlement_out_of_bounds"
    with pytest.raises(ChouetteError) as exc:
        table.offer_settlement("c", "m1", 1)
    assert exc.value.code == "not_your_decision"
    offered = table.offer_settlement("B", "m1", -1)
    assert [(d.decider, d.kind, d.answers) for d in offered.decisions] == [
        ("m1", "settlement_offered", ("accept", "refuse"))
    ]
    refused = offered.answer("m1", "m1", "refuse")
    assert refused.cube_of("m1").is_in and refused.cube_of("m1").settlement is None
    settled = offered.answer("m1", "m1", "accept")
    assert settled.in_members == ("c", "m2")
    assert offered.apply_defaults().cube_of("m1").is_in  # unanswered: refused
    done = settled.flag("team")
    entry = done.entry()
    assert entry.member("m1").fate == "settled" and entry.member("m1").settled == -1
    assert settle(entry, CLASSIC) == {"B": 5, "c": -2, "m1": -1, "m2": -2}


def test_extras_offered_and_accepted_count_refused_ones_do_not():
    table = started()
    table = table.offer_extra("m1", "B", backs="team", stake=2, price=1)
    table = table.offer_extra("m2", "c", backs="box", stake=1)
    with pytest.raises(ChouetteError) as exc:
        table.answer_extra("m2", 0, True)
    assert exc.value.code == "not_your_decision"
    with pytest.raises(ChouetteError) as exc:
        table.offer_extra("B", "c", backs="team", stake=1)
    assert exc.value.code == "extra_taker_not_member"
    assert table.actions_for("B")["extra_offers"][0][0] == 0
    table = table.answer_extra("B", 0, True).answer_extra("c", 0, False)
    assert len(table.extras) == 1 and not table.extra_offers
    entry = table.flag("box").entry()  # the team wins a gammon
    points = settle(entry, CLASSIC)
    # the cubes: each member +2; the extra: m1 gets the price 1, then 2 x 2 for the gammon
    assert points["m1"] == 2 + 1 + 4 and points["B"] == -6 - 5
    assert Table.from_dict(table.to_dict()) == table


# ====================================================================== away members (issue 27)
def test_an_away_member_is_never_the_mover_the_next_one_at_the_table_moves():
    # c (captain) drops the box's double, m1 is away (named a proxy): m2 moves for the team.
    table = to_box_turn(started(members=("c", "m1", "m2", "m3"))).with_away(["m1"])
    table = table.box_double()
    for member, answer in (("c", "drop"), ("m1", "take"), ("m2", "take"), ("m3", "take")):
        table = table.answer(member, member, answer)  # m1's proxy answers as m1
    table = to_team_turn(table.roll("B", 5, 3))
    assert table.mover == "m2" and table.acting_captain == "m2"
    assert "roll" not in table.actions_for("m1") and table.actions_for("m2")["roll"]
    with pytest.raises(ChouetteError) as exc:
        table.roll("m1", 1, 2)
    assert exc.value.code == "not_your_turn"
    # m1 back at the table: m1 moves again (first of the line still in).
    assert table.with_away([]).mover == "m1"
    # stored and read back
    assert Table.from_dict(table.to_dict()) == table


def test_an_away_captain_keeps_the_seat_and_cube_the_next_member_moves():
    table = started(members=("c", "m1", "m2")).with_away(["c", "X"])  # X: not in the game
    assert table.away == ("c",)
    assert table.captain == "c" and table.mover == "m1"
    table = play_first(table)
    table = to_team_turn(table)
    assert table.mover == "m1"
    table = to_box_turn(table)
    table = table.box_double()
    assert {d.decider for d in table.decisions} == {"c", "m1", "m2"}  # c's proxy answers


def test_nobody_at_the_table_for_a_side_leaves_it_unmanned_and_it_forfeits():
    table = started(members=("c", "m1")).with_away(["c", "m1"])
    assert table.side_to_move == "team" and table.mover is None and table.unmanned == "team"
    assert table.actions_for("c") == {} or "play" not in table.actions_for("c")
    with pytest.raises(ChouetteError) as exc:
        table.forfeit("box")
    assert exc.value.code == "not_unmanned"
    over = table.forfeit("team")
    assert over.is_over
    entry = over.entry()
    assert (entry.winner, entry.kind) == ("box", "gammon")
    # The box away: the box's side is unmanned on its turn.
    box_away = to_box_turn(started()).with_away(["B"])
    assert box_away.unmanned == "box" and box_away.mover is None
    assert box_away.forfeit("box").entry().winner == "team"
    # Nobody unmanned while a decision waits (its own window runs) or someone present.
    assert to_box_turn(started()).box_double().with_away(["B"]).unmanned is None
    assert started(members=("c", "m1")).with_away(["c"]).unmanned is None


def _waiting(kind: str) -> tuple[Table, str]:
    """A table with one decision of ``kind`` waiting, and the session default to use."""
    beavers = Profile(kind="individual", beavers=True, raccoons=True)
    if kind == "consent":
        return to_team_turn(to_box_turn(started())).propose_double("c"), "take"
    if kind == "box_doubled":
        return to_box_turn(started()).box_double(), "drop"
    if kind == "member_doubled":
        return to_team_turn(to_box_turn(started())).propose_double("c").consent(
            "m1", "yes"
        ).consent("m2", "yes"), "drop"
    if kind == "member_beavered":
        table = to_box_turn(started(beavers)).box_double(["m1"])
        return table.answer("m1", "m1", "beaver"), "take"
    if kind == "box_beavered":
        table = to_team_turn(to_box_turn(started(beavers))).member_double("m1")
        return table.answer("B", "m1", "beaver"), "take"
    table = to_box_turn(started())
    return table.offer_settlement("B", "m1", -1), "take"


@pytest.mark.parametrize("kind", PENDING_KINDS)
def test_each_decision_kind_takes_the_default_that_is_stated(kind):
    """What a countdown states (default_answer) is what the window's end applies."""
    table, default = _waiting(kind)
    assert kind in {d.kind for d in table.decisions}
    after, given = table.defaults_applied(default)
    assert after == table.apply_defaults(default) and not after.waiting
    assert given
    for _decider, _member, k, answer in given:
        assert answer == default_answer(k, default)
    assert {g[2] for g in given} >= {kind}
    if kind == "member_doubled":  # classic: the box answers the team's double once
        assert len(given) == 1 and after.in_members == ()


def test_a_box_who_may_not_drop_beyond_half_takes_by_default_and_says_so():
    profile = Profile(kind="individual", box_must_take_half=True)
    table = to_team_turn(to_box_turn(started(profile, ("c", "m1"))))
    table = table.member_double("c").member_double("m1")
    _, given = table.defaults_applied("drop")
    assert [g[3] for g in given] == ["drop", "take"]
