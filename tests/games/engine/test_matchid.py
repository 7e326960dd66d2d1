"""gnubg Match ID encode/decode (R1), proven on gnubg's own strings."""

from __future__ import annotations

import base64

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.errors import EngineError
from games.engine.matchid import GameStateCode, MatchId, decode_match_id, encode_match_id


def test_r1_gnubg_example_7_point_match() -> None:
    """gnubg wrote ``QQn3ACAAIAAE``: 7-point match, 2-4, cube 2 owned by player 0,
    player 1 on roll with 6-5."""
    m = decode_match_id("QQn3ACAAIAAE")
    assert m == MatchId(
        cube=2,
        cube_owner=0,
        player_on_roll=1,
        crawford=False,
        game_state=GameStateCode.PLAYING,
        player_to_act=1,
        double_offered=False,
        resignation=0,
        dice=(6, 5),
        match_length=7,
        score=(2, 4),
        jacoby=False,
    )
    assert encode_match_id(m) == "QQn3ACAAIAAE"


def test_r1_gnubg_example_crawford_game() -> None:
    """gnubg wrote ``8ImuAAAAIAAE``: 5-point match, 0-4, Crawford game, player 1 on roll
    with 5-3 (cube centred)."""
    m = decode_match_id("8ImuAAAAIAAE")
    assert m == MatchId(
        cube=1,
        cube_owner=None,
        player_on_roll=1,
        crawford=True,
        player_to_act=1,
        dice=(5, 3),
        match_length=5,
        score=(0, 4),
    )
    assert encode_match_id(m) == "8ImuAAAAIAAE"


def test_r1_bit_66_is_jacoby_off() -> None:
    """The 12th character ``E`` = byte 8 = 0b100 = bit 66; gnubg sets it when Jacoby is
    not in use (``cIkOAAAAAAAE``) and clears it in money play with Jacoby
    (``cIkOAAAAAAAA``), both written by the gnubg PyPI package."""
    raw = base64.b64decode("8ImuAAAAIAAE")
    assert len(raw) == 9
    assert raw[8] == 0b100
    with_jacoby = decode_match_id("cIkOAAAAAAAA")
    without = decode_match_id("cIkOAAAAAAAE")
    assert with_jacoby.jacoby
    assert not without.jacoby
    assert with_jacoby.match_length == 0
    assert with_jacoby.dice == (5, 3)
    assert encode_match_id(with_jacoby) == "cIkOAAAAAAAA"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "QQn3ACAAIAA",  # 11 characters
        "QQn3ACAAIAAEA",
        "QQn3ACAAIAA=",
        "QQn3ACAAIA-E",
        "QQn3ACAAIAAI",  # bit 67 set
        "AAAAAAAAAAAg",  # bit 69 set
        "IAAAAAAAAAAA",  # owner 2
        "AAcAAAAAAAAA",  # game state 7
        "AIADAAAAAAAA",  # first die 7
    ],
)
def test_r1_invalid_match_ids(text: str) -> None:
    with pytest.raises(EngineError) as e:
        decode_match_id(text)
    assert e.value.code == "invalid_match_id"


def test_invalid_fields_refused() -> None:
    for kw in (
        {"cube": 3},
        {"cube": 2**16},
        {"cube_owner": 2},
        {"player_on_roll": 2},
        {"resignation": 4},
        {"dice": (7, 1)},
        {"match_length": 2**15},
        {"score": (0, -1)},
        {"game_state": 5},
    ):
        with pytest.raises(EngineError, match="invalid_match_id"):
            MatchId(**kw)


match_ids = st.builds(
    MatchId,
    cube=st.integers(0, 15).map(lambda k: 1 << k),
    cube_owner=st.sampled_from([None, 0, 1]),
    player_on_roll=st.integers(0, 1),
    crawford=st.booleans(),
    game_state=st.sampled_from(list(GameStateCode)),
    player_to_act=st.integers(0, 1),
    double_offered=st.booleans(),
    resignation=st.integers(0, 3),
    dice=st.tuples(st.integers(0, 6), st.integers(0, 6)),
    match_length=st.integers(0, 2**15 - 1),
    score=st.tuples(st.integers(0, 2**15 - 1), st.integers(0, 2**15 - 1)),
    jacoby=st.booleans(),
)


@given(match_ids)
def test_r1_property_fields_round_trip(m: MatchId) -> None:
    text = encode_match_id(m)
    assert len(text) == 12
    assert decode_match_id(text) == m
    assert encode_match_id(decode_match_id(text)) == text


@given(st.integers(0, 2**67 - 1))
def test_r1_property_every_accepted_string_round_trips(key: int) -> None:
    """Any 12-character ID that decodes encodes back to itself, character for character."""
    text = base64.b64encode(key.to_bytes(9, "little")).decode()
    codes: list[str] = []
    try:
        m = decode_match_id(text)
    except EngineError as e:
        codes.append(e.code)
    else:
        assert encode_match_id(m) == text
    assert codes in ([], ["invalid_match_id"])


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_r1_property_gnubg_oracle(data: st.DataObject) -> None:
    """Oracle: the PyPI ``gnubg`` package writes the same Match ID for the same fields
    (match lengths kept small, scores below the length: gnubg's cubeinfo needs its MET;
    gnubg stores no score in money play and writes the larger die first)."""
    import gnubg  # the oracle, a dev dependency

    money = data.draw(st.booleans())
    length = 0 if money else data.draw(st.integers(1, 25))
    score = (
        (0, 0)
        if money
        else (data.draw(st.integers(0, length - 1)), data.draw(st.integers(0, length - 1)))
    )
    crawford = False
    if not money and ((score[0] == length - 1) != (score[1] == length - 1)):
        crawford = data.draw(st.booleans())
    cube = 1 << data.draw(st.integers(0, 12))
    owner = data.draw(st.sampled_from([None, 0, 1]))
    move, turn = data.draw(st.integers(0, 1)), data.draw(st.integers(0, 1))
    state = data.draw(st.sampled_from(list(GameStateCode)))
    resigned, doubled = data.draw(st.integers(0, 3)), data.draw(st.booleans())
    dice = sorted((data.draw(st.integers(0, 6)), data.draw(st.integers(0, 6))), reverse=True)
    jacoby = data.draw(st.booleans())
    ci = gnubg.cubeinfo(cube, -1 if owner is None else owner, move, length, score, crawford, 0)
    ci["jacoby"] = int(jacoby)
    pi = gnubg.posinfo(turn, resigned, int(doubled), int(state), tuple(dice))
    expected = gnubg.matchid(ci, pi)
    mine = MatchId(
        cube=cube,
        cube_owner=owner,
        player_on_roll=move,
        crawford=crawford,
        game_state=state,
        player_to_act=turn,
        double_offered=doubled,
        resignation=resigned,
        dice=(dice[0], dice[1]),
        match_length=length,
        score=score,
        jacoby=jacoby,
    )
    assert encode_match_id(mine) == expected
    assert decode_match_id(expected) == mine
