"""Positions (R1, R2): start positions, pip counts, validation, gnubg Position IDs."""

from __future__ import annotations

import base64

import pytest

from games.engine.errors import EngineError
from games.engine.position import (
    Position,
    position_from_id,
    position_from_key,
    position_id,
    position_key,
    start_position,
)
from tests.games.engine.selfplay import make_position as mk
from tests.games.engine.selfplay import positions

STANDARD = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


def test_R2_standard_start() -> None:
    pos = start_position("standard")
    assert pos.mover == STANDARD
    assert pos.opponent == STANDARD
    assert pos.pip_count() == (167, 167)
    assert pos.mover_off == pos.opponent_off == 0
    assert not pos.is_race()
    assert start_position() == pos


def test_R2_nackgammon_start() -> None:
    """24:2, 23:2, 13:4, 8:3, 6:4 for both players."""
    pos = start_position("nackgammon")
    expected = {24: 2, 23: 2, 13: 4, 8: 3, 6: 4}
    assert {i + 1: c for i, c in enumerate(pos.mover) if c} == expected
    assert pos.opponent == pos.mover
    assert pos.pip_count() == (194, 194)


def test_R2_R3_acey_deucey_start() -> None:
    """All 15 checkers unentered; they count 25 pips each and are not borne off."""
    pos = start_position("acey-deucey")
    assert sum(pos.mover) == sum(pos.opponent) == 0
    assert pos.mover_unentered == pos.opponent_unentered == 15
    assert pos.mover_off == pos.opponent_off == 0
    assert pos.pip_count() == (375, 375)
    assert not pos.is_race()


def test_R2_unknown_variant() -> None:
    with pytest.raises(EngineError) as err:
        start_position("tavla")
    assert err.value.code == "unknown_variant"


def test_R1_pip_count_bar_counts_25() -> None:
    pos = mk({25: 1, 6: 2}, {25: 2, 1: 1})
    # mover: 25 + 12; opponent: bar 2 x 25, and its checker on our 1 is its own 24.
    assert pos.pip_count() == (37, 74)


def test_R1_swapped_and_borne_off() -> None:
    pos = mk({6: 3}, {1: 2, 25: 1})
    assert pos.mover_off == 12
    assert pos.opponent_off == 12
    assert pos.borne_off(0) == pos.borne_off("mover") == 12
    assert pos.borne_off("opponent") == 12
    swapped = pos.swapped()
    assert swapped.mover == pos.opponent
    assert swapped.opponent == pos.mover
    assert swapped.swapped() == pos
    with pytest.raises(EngineError):
        pos.borne_off("nobody")


def test_R1_is_race() -> None:
    assert mk({6: 5, 5: 5}, {20: 5}).is_race()  # their checkers are behind ours
    assert not mk({6: 5, 5: 5}, {3: 1}).is_race()  # one of theirs still in our home
    assert not mk({25: 1, 6: 5}, {20: 5}).is_race()
    assert not mk({6: 5}, {20: 5, 25: 1}).is_race()
    assert mk({}, {}).is_race()


@pytest.mark.parametrize(
    ("mover", "opponent", "unentered"),
    [
        ((0,) * 24, STANDARD, 0),  # 24 counts
        ((0,) * 24 + (-1,), STANDARD, 0),  # negative
        ((0,) * 23 + (16, 0), STANDARD, 0),  # 16 checkers
        ((0,) * 23 + (10, 0), STANDARD, 6),  # 16 with the unentered
        ((0,) * 25, STANDARD, -1),  # negative unentered
    ],
)
def test_R1_invalid_positions(
    mover: tuple[int, ...], opponent: tuple[int, ...], unentered: int
) -> None:
    with pytest.raises(EngineError) as err:
        Position(mover, opponent, unentered)
    assert err.value.code == "invalid_position"


def test_R1_point_held_by_both_is_invalid() -> None:
    """``mover[i]`` and ``opponent[23 - i]`` are the same point: both may not hold it."""
    mover = [0] * 25
    opponent = [0] * 25
    mover[5] = 1  # mover's 6 point
    opponent[18] = 1  # the opponent's 19 point = the mover's 6 point
    with pytest.raises(EngineError) as err:
        Position(tuple(mover), tuple(opponent))
    assert err.value.code == "invalid_position"


def test_R1_position_id_of_start_and_after_a_move() -> None:
    """gnubg's own IDs: the start, and after 8/5 6/5 with the other player on roll."""
    assert position_id(start_position()) == "4HPwATDgc/ABMA"
    after = position_from_id("sGfwATDgc/ABMA")
    assert after.mover == STANDARD  # O on roll, still at the start
    assert {i + 1: c for i, c in enumerate(after.opponent) if c} == {
        24: 2,
        13: 5,
        8: 2,
        6: 4,
        5: 2,
    }
    assert position_id(after) == "sGfwATDgc/ABMA"


def test_R1_position_id_agrees_with_gnubg() -> None:
    """Encode and decode against gnubg_nn on self-play positions (key = board[0] first,
    the player not on roll)."""
    import gnubg_nn  # the oracle, a dev dependency

    for pos in positions(300, seed=99):
        pid = position_id(pos)
        board = [list(pos.opponent), list(pos.mover)]
        assert pid == gnubg_nn.position_id(board)
        theirs = gnubg_nn.board_from_position_id(pid)
        assert (tuple(theirs[1]), tuple(theirs[0])) == (pos.mover, pos.opponent)
        assert position_from_id(pid) == pos


@pytest.mark.parametrize(
    "pid",
    [
        "",
        "4HPwATDgc/ABM",  # 13 characters
        "4HPwATDgc/ABMAA",  # 15
        "4HPwATDgc/AB!A",  # not base64
        "//////////////",  # more than 15 checkers
        "4HPwATDgc/ABMB",  # non-canonical padding bits
    ],
)
def test_R1_invalid_position_ids(pid: str) -> None:
    with pytest.raises(EngineError) as err:
        position_from_id(pid)
    assert err.value.code == "invalid_position_id"


def test_R1_empty_board_id_is_valid() -> None:
    """All checkers borne off on both sides is a legal (if odd) position."""
    pos = position_from_id("AAAAAAAAAAAAAA")
    assert pos.mover_off == pos.opponent_off == 15


def test_R1_position_id_with_point_held_by_both_is_invalid() -> None:
    """An ID whose two halves put checkers on the same point is refused."""
    mover = [0] * 25
    opponent = [0] * 25
    mover[5] = 1
    opponent[18] = 1
    bits = 0
    shift = 0
    for side in (opponent, mover):
        for count in side:
            bits |= ((1 << count) - 1) << shift
            shift += count + 1
    pid = base64.b64encode(bits.to_bytes(10, "little")).decode()[:14]
    with pytest.raises(EngineError) as err:
        position_from_id(pid)
    assert err.value.code == "invalid_position_id"


def test_R1_packed_key_round_trip() -> None:
    for pos in [*positions(100, seed=4), start_position("acey-deucey")]:
        key = position_key(pos)
        back = position_from_key(key)
        assert back == pos
        assert position_key(back) == key
