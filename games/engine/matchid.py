"""GNU Backgammon Match ID: encode and decode, exact round-trip (R1).

A Match ID is 12 base64 characters holding 9 bytes = 72 bits, little-endian (bit ``k``
is bit ``k % 8`` of byte ``k // 8``); each field is stored least significant bit first:

======  =====  =====================================================================
bits    width  field
======  =====  =====================================================================
0-3     4      log2 of the cube value
4-5     2      cube owner: 0, 1, or 3 = centred
6       1      player on roll (gnubg ``fMove``)
7       1      Crawford game
8-10    3      game state: 0 none, 1 playing, 2 over, 3 resigned, 4 dropped
11      1      player who must act now (gnubg ``fTurn``: differs from the player on
               roll while a double or a resignation waits for an answer)
12      1      a double is offered
13-14   2      resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
15-17   3      first die (0 = not rolled; gnubg writes the larger die first)
18-20   3      second die
21-35   15     match length (0 = money)
36-50   15     score of player 0
51-65   15     score of player 1
66      1      Jacoby rule **not** in use (gnubg writes ``!fJacoby``: set in match play
               and in money play without Jacoby)
67-71   5      unused, always 0
======  =====  =====================================================================

The last field explains gnubg's own examples: their 12th character ``E`` is byte 8 =
``0b100``, i.e. bit 66. It was checked against the PyPI ``gnubg`` package, whose
``matchid(cubeinfo, posinfo)`` writes ``cIkOAAAAAAAA`` for a money game with Jacoby and
``cIkOAAAAAAAE`` without.

Decoding refuses anything that would not encode back to the same string (unused bits
set, an owner of 2, a game state above 4, a die of 7, bad characters or length), so
``encode(decode(s)) == s`` for every accepted ``s`` and ``decode(encode(m)) == m`` for
every valid :class:`MatchId`.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from enum import IntEnum

from games.engine.errors import EngineError

MATCH_ID_LENGTH = 12
_FIELD_MAX_15 = 2**15 - 1
_BASE64_RE = re.compile(r"[A-Za-z0-9+/]{12}")


class GameStateCode(IntEnum):
    """gnubg's ``gamestate`` (bits 8-10)."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


def _bad(message: str) -> EngineError:
    return EngineError("invalid_match_id", message)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class MatchId:
    """The fields of a gnubg Match ID (see the module docstring for the bit layout).

    Attributes:
        cube: cube value, a power of two from 1 to 2**15.
        cube_owner: 0, 1 or ``None`` (centred).
        player_on_roll: gnubg ``fMove``.
        crawford: this game is the Crawford game (R11).
        game_state: :class:`GameStateCode`.
        player_to_act: gnubg ``fTurn``: the player who must act now.
        double_offered: a double waits for take/drop.
        resignation: 0 none, 1 single, 2 gammon, 3 backgammon offered.
        dice: the dice as written (0, 0 = not rolled); each 0..6.
        match_length: 0 = money, up to 32767.
        score: scores of player 0 and player 1, each up to 32767.
        jacoby: the Jacoby rule is in use (bit 66 holds the negation).
    """

    cube: int = 1
    cube_owner: int | None = None
    player_on_roll: int = 0
    crawford: bool = False
    game_state: GameStateCode = GameStateCode.PLAYING
    player_to_act: int = 0
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        cube = self.cube
        if not _is_int(cube) or cube < 1 or cube & (cube - 1) or cube > 2**15:
            raise _bad(f"cube {cube!r} is not a power of two from 1 to 32768")
        if self.cube_owner not in (None, 0, 1) or isinstance(self.cube_owner, bool):
            raise _bad(f"cube owner {self.cube_owner!r} is not 0, 1 or None")
        for name in ("player_on_roll", "player_to_act"):
            value = getattr(self, name)
            if value not in (0, 1) or isinstance(value, bool):
                raise _bad(f"{name} must be 0 or 1")
        for name in ("crawford", "double_offered", "jacoby"):
            if not isinstance(getattr(self, name), bool):
                raise _bad(f"{name} must be a bool")
        try:
            object.__setattr__(self, "game_state", GameStateCode(self.game_state))
        except ValueError:
            raise _bad(f"game state {self.game_state!r} is not 0..4") from None
        if not _is_int(self.resignation) or not 0 <= self.resignation <= 3:
            raise _bad("resignation must be 0..3")
        if len(self.dice) != 2 or not all(_is_int(d) and 0 <= d <= 6 for d in self.dice):
            raise _bad(f"dice {self.dice!r} must be two values 0..6")
        if not _is_int(self.match_length) or not 0 <= self.match_length <= _FIELD_MAX_15:
            raise _bad("match length must be 0..32767")
        if len(self.score) != 2 or not all(
            _is_int(s) and 0 <= s <= _FIELD_MAX_15 for s in self.score
        ):
            raise _bad("scores must be 0..32767")


def _fields(m: MatchId) -> list[tuple[int, int]]:
    """(value, width) in bit order."""
    return [
        (m.cube.bit_length() - 1, 4),
        (3 if m.cube_owner is None else m.cube_owner, 2),
        (m.player_on_roll, 1),
        (int(m.crawford), 1),
        (int(m.game_state), 3),
        (m.player_to_act, 1),
        (int(m.double_offered), 1),
        (m.resignation, 2),
        (m.dice[0], 3),
        (m.dice[1], 3),
        (m.match_length, 15),
        (m.score[0], 15),
        (m.score[1], 15),
        (int(not m.jacoby), 1),
    ]


def encode_match_id(m: MatchId) -> str:
    """The 12-character gnubg Match ID of ``m``."""
    key = 0
    shift = 0
    for value, width in _fields(m):
        key |= value << shift
        shift += width
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")


def decode_match_id(text: str) -> MatchId:
    """Parse a 12-character gnubg Match ID; ``invalid_match_id`` if malformed."""
    if not isinstance(text, str) or not _BASE64_RE.fullmatch(text):
        raise _bad(f"{text!r} is not 12 base64 characters")
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):  # pragma: no cover - the regex already checks
        raise _bad(f"{text!r} is not base64") from None
    key = int.from_bytes(raw, "little")
    if key >> 67:
        raise _bad("unused bits 67-71 are set")

    def take(shift: int, width: int) -> int:
        return (key >> shift) & ((1 << width) - 1)

    owner = take(4, 2)
    if owner == 2:
        raise _bad("cube owner 2 does not exist")
    state = take(8, 3)
    if state > 4:
        raise _bad(f"game state {state} does not exist")
    return MatchId(
        cube=1 << take(0, 4),
        cube_owner=None if owner == 3 else owner,
        player_on_roll=take(6, 1),
        crawford=bool(take(7, 1)),
        game_state=GameStateCode(state),
        player_to_act=take(11, 1),
        double_offered=bool(take(12, 1)),
        resignation=take(13, 2),
        dice=(take(15, 3), take(18, 3)),
        match_length=take(21, 15),
        score=(take(36, 15), take(51, 15)),
        jacoby=not take(66, 1),
    )
