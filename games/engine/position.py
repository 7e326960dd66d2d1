"""Positions: the checkers on the board, from the point of view of the player on roll.

Terms (docs/rules.md R1):

* **mover** is the player on roll; **opponent** the other one. Each side is a tuple of 25
  counts in GNU Backgammon's convention: index ``i`` (0..23) is that side's own point
  ``i + 1`` (its home board is points 1-6, it moves from 24 toward 1), index 24 is its
  bar. ``mover[i]`` and ``opponent[23 - i]`` are the same physical point.
* **borne off** checkers are not stored: ``15 - sum(side) - unentered``.
* **unentered** checkers exist only in Acey-Deucey (R2/R3): all 15 start off the board and
  enter like checkers on the bar, but unlike bar checkers they do not stop the player
  from moving checkers already entered.

The **Position ID** (R1) is gnubg's 14-character interchange format: 80 bits, for
``board[0]`` and then ``board[1]`` and for each of the 25 indices, ``n`` one-bits and a
zero-bit, packed little-endian and base64-encoded without padding. gnubg's code (not its
manual) puts the player *not* on roll first, so the key starts with :attr:`Position.opponent`.
The start position is ``4HPwATDgc/ABMA``. A Position ID cannot tell unentered checkers
from borne-off ones; Acey-Deucey positions with unentered checkers do not survive it.

The **packed key** (:func:`position_key`) is the engine's internal, hashable form used by
the fast move generator (:mod:`games.engine.movegen`): one Python int with a 5-bit field
per count, so that moving a checker or hitting a blot is a single integer addition. The
fifth bit of every field is always zero in a valid key; an impossible arithmetic result
(a count driven below zero) sets one and can never equal a valid key.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass, field
from typing import Final

from games.engine.errors import EngineError

#: Checkers per side (R1).
CHECKERS: Final = 15
#: Index of the bar in a side tuple (R1, gnubg's convention).
BAR: Final = 24

#: Bits per count in a packed key (see module docstring).
FIELD_BITS: Final = 5
_FIELD_MASK: Final = (1 << FIELD_BITS) - 1
#: Field numbers in the packed key: mover indices 0..24, mover unentered, opponent
#: indices 0..24, opponent unentered.
MOVER_UNENTERED_FIELD: Final = 25
OPPONENT_FIELD0: Final = 26
OPPONENT_UNENTERED_FIELD: Final = 51
#: Every guard bit (the top bit of each 5-bit field) of the packed key.
GUARD_BITS: Final = sum(1 << (FIELD_BITS * f + FIELD_BITS - 1) for f in range(52))
# Counts as base-32 digits (FIELD_BITS is 5): position_key parses them with int(..., 32).
_DIGITS: Final = bytes.maketrans(bytes(range(32)), b"0123456789abcdefghijklmnopqrstuv")

VARIANT_NAMES: Final = ("standard", "nackgammon", "acey-deucey")


@dataclass(frozen=True, slots=True)
class Position:
    """An immutable backgammon position seen from the player on roll (R1).

    Attributes:
        mover: 25 counts of the player on roll (index i = own point i + 1, 24 = bar).
        opponent: 25 counts of the other player, same convention from their side.
        mover_unentered: Acey-Deucey only (R3): the mover's checkers not yet entered.
        opponent_unentered: Acey-Deucey only (R3): the opponent's checkers not yet entered.

    Construction validates the counts and raises ``EngineError("invalid_position")``.
    A private slot caches the packed key; it takes no part in equality or hashing.
    """

    mover: tuple[int, ...]
    opponent: tuple[int, ...]
    mover_unentered: int = 0
    opponent_unentered: int = 0
    _key: int = field(default=-1, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        mover = tuple(self.mover)
        opponent = tuple(self.opponent)
        object.__setattr__(self, "mover", mover)
        object.__setattr__(self, "opponent", opponent)
        for name, side, unentered in (
            ("mover", mover, self.mover_unentered),
            ("opponent", opponent, self.opponent_unentered),
        ):
            if len(side) != 25:
                raise EngineError("invalid_position", f"{name} needs 25 counts, got {len(side)}")
            for count in (*side, unentered):
                if type(count) is not int or count < 0:
                    raise EngineError("invalid_position", f"{name} has a bad count {count!r}")
            if sum(side) + unentered > CHECKERS:
                raise EngineError("invalid_position", f"{name} has more than 15 checkers")
        for i in range(24):
            if mover[i] and opponent[23 - i]:
                raise EngineError(
                    "invalid_position", f"point {i + 1} (mover's numbering) is held by both"
                )

    @classmethod
    def _trusted(
        cls,
        mover: tuple[int, ...],
        opponent: tuple[int, ...],
        mover_unentered: int = 0,
        opponent_unentered: int = 0,
        key: int = -1,
    ) -> Position:
        """Build without validation: for results the engine itself derived from a valid one."""
        obj = object.__new__(cls)
        setattr_ = object.__setattr__
        setattr_(obj, "mover", mover)
        setattr_(obj, "opponent", opponent)
        setattr_(obj, "mover_unentered", mover_unentered)
        setattr_(obj, "opponent_unentered", opponent_unentered)
        setattr_(obj, "_key", key)
        return obj

    # ----------------------------------------------------------------- derived values

    @property
    def mover_off(self) -> int:
        """Checkers the mover has borne off (R7/R9)."""
        return CHECKERS - sum(self.mover) - self.mover_unentered

    @property
    def opponent_off(self) -> int:
        """Checkers the opponent has borne off (R7/R9)."""
        return CHECKERS - sum(self.opponent) - self.opponent_unentered

    def borne_off(self, side: int | str) -> int:
        """Borne-off checkers of ``side``: ``0``/``"mover"`` or ``1``/``"opponent"``."""
        if side in (0, "mover"):
            return self.mover_off
        if side in (1, "opponent"):
            return self.opponent_off
        raise EngineError("invalid_side", f"unknown side {side!r}")

    def swapped(self) -> Position:
        """The same position with the turn passed: the sides exchange roles (R3)."""
        return Position._trusted(
            self.opponent, self.mover, self.opponent_unentered, self.mover_unentered
        )

    def pip_count(self) -> tuple[int, int]:
        """Pips (mover, opponent): sum of point numbers; bar and unentered count 25 (R1)."""
        mover = sum(i * c for i, c in enumerate(self.mover, 1)) + 25 * self.mover_unentered
        opp = sum(i * c for i, c in enumerate(self.opponent, 1)) + 25 * self.opponent_unentered
        return mover, opp

    def is_race(self) -> bool:
        """True when no contact is left: every mover checker has passed every opponent one.

        The mover runs from 24 down to 1; an opponent checker on its own point ``q`` stands
        on the mover's point ``25 - q``. Checkers on the bar or unentered keep contact.
        """
        if self.mover[BAR] or self.opponent[BAR] or self.mover_unentered:
            return False
        if self.opponent_unentered:
            return False
        mover_back = max((i + 1 for i in range(24) if self.mover[i]), default=0)
        opp_back = max((q + 1 for q in range(24) if self.opponent[q]), default=0)
        # Opponent's rearmost checker on its point q is the mover's point 25 - q.
        return mover_back < 25 - opp_back if opp_back else True

    def is_over(self) -> bool:
        """True when a player has borne off all 15 checkers (R9)."""
        return self.mover_off == CHECKERS or self.opponent_off == CHECKERS

    def board(self) -> list[list[int]]:
        """gnubg's ``board[2][25]``: ``[opponent, mover]`` as lists (R1)."""
        return [list(self.opponent), list(self.mover)]

    def __str__(self) -> str:
        return position_id(self)


# ------------------------------------------------------------------------ variants


def start_position(variant: str = "standard") -> Position:
    """The starting position of a variant (R2), with either player on roll.

    ``standard``: 24:2, 13:5, 8:3, 6:5. ``nackgammon``: 24:2, 23:2, 13:4, 8:3, 6:4.
    ``acey-deucey``: all 15 checkers unentered. ``custom`` starts come from a Position ID
    (:func:`position_from_id`).
    """
    layouts = {
        "standard": {24: 2, 13: 5, 8: 3, 6: 5},
        "nackgammon": {24: 2, 23: 2, 13: 4, 8: 3, 6: 4},
    }
    if variant == "acey-deucey":
        empty = (0,) * 25
        return Position(empty, empty, CHECKERS, CHECKERS)
    if variant not in layouts:
        raise EngineError("unknown_variant", f"no start position for variant {variant!r}")
    side = [0] * 25
    for point, count in layouts[variant].items():
        side[point - 1] = count
    return Position(tuple(side), tuple(side))


# --------------------------------------------------------------------- Position ID


def position_key_bytes(pos: Position) -> bytes:
    """The 80-bit key behind a Position ID (R1), as gnubg packs it: for the opponent's
    then the mover's 25 counts, ``n`` one bits then a zero, little-endian, 10 bytes."""
    bits = 0
    shift = 0
    for side in (pos.opponent, pos.mover):
        for count in side:
            bits |= ((1 << count) - 1) << shift
            shift += count + 1
    return bits.to_bytes(10, "little")


def position_id(pos: Position) -> str:
    """gnubg Position ID of ``pos`` (R1): 14 characters, opponent's counts first.

    Unentered Acey-Deucey checkers are not representable and read back as borne off.
    """
    return base64.b64encode(position_key_bytes(pos)).decode("ascii")[:14]


def position_from_id(pid: str) -> Position:
    """Decode a gnubg Position ID; the second half of the key is the player on roll (R1).

    Raises ``EngineError("invalid_position_id")`` for anything that is not the canonical
    ID of a legal position.
    """
    if not isinstance(pid, str) or len(pid) != 14:
        raise EngineError("invalid_position_id", f"a Position ID has 14 characters: {pid!r}")
    try:
        raw = base64.b64decode(pid + "==", validate=True)
    except (binascii.Error, ValueError) as exc:
        raise EngineError("invalid_position_id", f"not base64: {pid!r}") from exc
    bits = int.from_bytes(raw, "little")
    sides: list[tuple[int, ...]] = []
    pos_bit = 0
    for _ in range(2):
        counts = []
        for _ in range(25):
            n = 0
            while pos_bit < 80 and (bits >> pos_bit) & 1:
                n += 1
                pos_bit += 1
            if pos_bit >= 80:
                raise EngineError("invalid_position_id", f"truncated Position ID {pid!r}")
            pos_bit += 1
            counts.append(n)
        sides.append(tuple(counts))
    try:
        result = Position(sides[1], sides[0])
    except EngineError as exc:
        raise EngineError("invalid_position_id", f"{pid!r}: {exc.message}") from exc
    if position_id(result) != pid:
        raise EngineError("invalid_position_id", f"non-canonical Position ID {pid!r}")
    return result


# ---------------------------------------------------------------------- packed key


def position_key(pos: Position) -> int:
    """The packed key of ``pos`` (see module docstring); cached on the position."""
    key = pos._key
    if key < 0:
        # A 5-bit field is one base-32 digit: the key is the number whose digits are the
        # 52 counts, the last field (opponent unentered) the most significant.
        digits = (
            bytes((pos.opponent_unentered,))
            + bytes(pos.opponent)[::-1]
            + bytes((pos.mover_unentered,))
            + bytes(pos.mover)[::-1]
        )
        key = int(digits.translate(_DIGITS), 32)
        object.__setattr__(pos, "_key", key)
    return key


def position_from_key(key: int) -> Position:
    """Inverse of :func:`position_key` (no validation: keys come from the engine)."""
    fields = [(key >> (FIELD_BITS * f)) & _FIELD_MASK for f in range(52)]
    return Position._trusted(tuple(fields[0:25]), tuple(fields[26:51]), fields[25], fields[51], key)
