"""Move notation (R1): the standard gnubg form, produced and parsed."""

from __future__ import annotations

import pytest

from games.engine.errors import EngineError
from games.engine.movegen import Play, legal_plays
from games.engine.notation import format_play, parse_play
from games.engine.position import Position, start_position
from tests.games.engine.selfplay import ALL_ROLLS, positions
from tests.games.engine.selfplay import make_position as mk


def _by_notation(pos: Position, d1: int, d2: int) -> dict[str, Play]:
    return {format_play(p): p for p in legal_plays(pos, d1, d2)}


def test_R1_examples_of_the_standard_form() -> None:
    """The forms named in the issue: ``24/18 13/10*``, ``bar/22``, ``6/off``, ``8/5(2)``,
    ``24/21*/20``."""
    # 24/18 13/10*: a blot on our 10.
    pos = mk({24: 2, 13: 5, 8: 3, 6: 5}, {10: 1, 1: 2, 12: 5, 17: 3, 19: 4})
    assert "24/18 13/10*" in _by_notation(pos, 6, 3)
    # bar/22
    pos = mk({25: 1, 13: 5, 8: 3, 6: 6}, {1: 2, 12: 5, 17: 3, 19: 5})
    assert "bar/22 13/7" in _by_notation(pos, 6, 3)
    # 6/off
    pos = mk({6: 2, 5: 3}, {20: 2})
    assert "6/off(2) 5/off(2)" in _by_notation(pos, 6, 6)
    assert "6/off 5/off" in _by_notation(pos, 6, 5)
    # 8/5(2): the classic 3-3 of the start.
    assert "8/5(2) 6/3(2)" in _by_notation(start_position(), 3, 3)
    # 24/21*/20 versus 24/20 (through 23): different positions.
    pos = mk({24: 2, 13: 5, 8: 3, 6: 5}, {21: 1, 1: 2, 12: 5, 17: 3, 19: 4})
    plays = _by_notation(pos, 3, 1)
    assert "24/21*/20" in plays
    assert "24/20" in plays
    assert plays["24/21*/20"].result != plays["24/20"].result
    assert plays["24/21*/20"].hits == (21,)
    assert plays["24/20"].hits == ()


def test_R1_one_chain_per_checker_and_gnubg_order() -> None:
    """A checker using both dice is one chain (24/13 for 6-5); chains are sorted by
    descending start, then end; equal chains merge with a count."""
    plays = _by_notation(start_position(), 6, 5)
    assert "24/13" in plays
    assert plays["24/13"].moves in (((24, 18), (18, 13)), ((24, 19), (19, 13)))
    assert "13/8 13/7" in plays  # gnubg: equal starts, the higher end first
    assert "13/3(2) 6/1(2)" not in _by_notation(start_position(), 5, 5)  # 1 is blocked
    assert "13/3(2)" in _by_notation(start_position(), 5, 5)


def test_R1_hit_marked_once_where_it_happens() -> None:
    """Two checkers on one blot: the mark goes to the first chain landing there."""
    pos = mk({13: 1, 11: 1, 6: 13}, {10: 1, 1: 2})
    assert "13/10* 11/10" in _by_notation(pos, 3, 1)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("24/18 13/10", "24/18 13/10"),
        ("13/10 24/18", "24/18 13/10"),  # any order
        ("24/18/15", "24/15"),
        ("BAR/22 13/7", None),
        ("25/22 13/7", None),
    ],
)
def test_R1_parse_accepts_variants(text: str, expected: str | None) -> None:
    if expected is None:
        pos = mk({25: 1, 13: 5, 8: 3, 6: 6}, {1: 2, 12: 5, 17: 3, 19: 5})
        play = parse_play(pos, text, 3, 6)
        assert format_play(play) == "bar/22 13/7"
        return
    roll = (6, 3)
    play = parse_play(start_position(), text, *roll)
    assert format_play(play) == expected


def test_R1_parse_counts_and_off() -> None:
    play = parse_play(start_position(), "8/5(2) 6/3(2)", 3, 3)
    assert play.dice_used == 4
    pos = mk({6: 2, 5: 3}, {20: 2})
    assert format_play(parse_play(pos, "6/off 5/off", 6, 5)) == "6/off 5/off"
    assert format_play(parse_play(pos, "6/0 5/0", 6, 5)) == "6/off 5/off"


def test_R1_parse_returns_the_legal_play_whatever_the_route() -> None:
    """``24/20`` for a 3-1 names the position; the play returned is the legal one."""
    play = parse_play(start_position(), "24/20", 3, 1)
    assert play.moves in (((24, 23), (23, 20)), ((24, 21), (21, 20)))


@pytest.mark.parametrize(
    "text",
    ["24-18", "24/", "/18", "24/18(x)", "18/24", "24/off/5", "26/20", "bar", "24/bar"],
)
def test_R1_parse_invalid_notation(text: str) -> None:
    with pytest.raises(EngineError) as err:
        parse_play(start_position(), text, 6, 5)
    assert err.value.code == "invalid_notation"


@pytest.mark.parametrize(
    "text",
    [
        "24/18",  # uses one die although both can be played (R6)
        "24/13 24/13",  # more than the dice
        "23/18 13/7",  # no checker on 23
        "13/7 13/8 8/2",  # three moves
        "6/1 6/0",  # bearing off with checkers outside (R7)
        "13/2 6/1",
    ],
)
def test_R1_parse_illegal_play(text: str) -> None:
    with pytest.raises(EngineError) as err:
        parse_play(start_position(), text, 6, 5)
    assert err.value.code == "illegal_play"


def test_R1_parse_blocked_point_is_illegal() -> None:
    with pytest.raises(EngineError) as err:
        parse_play(start_position(), "24/18/12", 6, 6)
    assert err.value.code == "illegal_play"


def test_R6_empty_text_only_when_no_move() -> None:
    closed = dict.fromkeys(range(19, 25), 2)
    pos = mk({25: 1, 6: 14}, closed)
    play = parse_play(pos, "", 6, 5)
    assert play.moves == ()
    assert play.result == pos
    assert play.dice_used == 0
    with pytest.raises(EngineError) as err:
        parse_play(start_position(), "", 6, 5)
    assert err.value.code == "illegal_play"


def test_R3_acey_deucey_entering_notation() -> None:
    pos = start_position("acey-deucey")
    assert format_play(parse_play(pos, "bar/24 bar/23", 2, 1)) == "bar/24 bar/23"
    assert format_play(parse_play(pos, "bar/22", 2, 1)) == "bar/22"


def test_R1_round_trip_on_self_play() -> None:
    """parse(format(play)) gives the same result position, for every play of every roll
    of 20 self-play positions (the property test adds arbitrary ones)."""
    count = 0
    for pos in positions(20, seed=12):
        for d1, d2 in ALL_ROLLS:
            for play in legal_plays(pos, d1, d2):
                assert parse_play(pos, format_play(play), d1, d2).result == play.result
                count += 1
    assert count > 1_000


def test_R1_format_matches_gnubg() -> None:
    """Our text is gnubg's own (``gnubg.movetupletostring``) for the same moves."""
    import gnubg  # the oracle, a dev dependency

    count = 0
    for pos in positions(60, seed=13):
        board = (pos.opponent, pos.mover)
        for d1, d2 in ALL_ROLLS:
            for play in legal_plays(pos, d1, d2):
                flat = tuple(x for move in play.moves for x in move)
                assert format_play(play) == gnubg.movetupletostring(flat, board)
                count += 1
    assert count > 2_000
