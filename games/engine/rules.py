"""Rule options: every choice ``docs/rules.md`` leaves to the players, with its default.

A :class:`RuleOptions` value is attached to a game (and to a match) and is never changed
during it. It is validated when constructed: an impossible combination raises
``EngineError("invalid_options", ...)``.

Decisions where docs/rules.md is silent (documented here because the app relies on them):

* **Money options in match play (R10).** ``jacoby``, ``automatic_doubles`` and
  ``beavers`` do not apply in match play. The engine *rejects* them rather than silently
  ignoring them: :func:`games.engine.match.MatchState.check_options` (called when a match
  game starts) raises ``EngineError("money_option_in_match", ...)``. A club whose house
  options include them derives match options explicitly with :meth:`RuleOptions.for_match`.
* **max_checkers_per_point (R4)** accepts ``None`` (no limit) or 3..15. Three is the
  smallest limit with which all 15 checkers fit in the six home points for bearing off;
  the game additionally refuses a start position that already breaks the limit (the
  standard start needs 5, Nackgammon 4).
* **max_cube (R8)** is a power of two between 1 and 2**15 (the Match ID stores log2 of
  the cube in four bits). ``1`` means nobody may ever double.
* **automatic_doubles_limit (R8)** counts automatic doubles per game (000: "one per game
  by agreement", hence the default 1).
* **acey_deucey_cube (R3)** may only be set for the ``acey-deucey`` variant, where the
  cube is off unless the players enable it; for other variants the cube is always on.
* **custom** starts need ``start_position_id`` (a gnubg Position ID, R1/R2); the other
  variants must not have one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal, get_args

from games.engine.errors import EngineError

Variant = Literal["standard", "nackgammon", "acey-deucey", "custom"]
ResignMode = Literal["offer", "seed002"]
TimeoutResult = Literal["gammon", "match"]

VARIANTS: tuple[Variant, ...] = ("standard", "nackgammon", "acey-deucey", "custom")
RESIGN_MODES: tuple[ResignMode, ...] = ("offer", "seed002")
TIMEOUT_RESULTS: tuple[TimeoutResult, ...] = ("gammon", "match")
assert get_args(Variant) == VARIANTS
assert get_args(ResignMode) == RESIGN_MODES
assert get_args(TimeoutResult) == TIMEOUT_RESULTS

#: Largest cube a gnubg Match ID can hold (log2 in four bits).
CUBE_LIMIT = 2**15


def _invalid(message: str) -> EngineError:
    return EngineError("invalid_options", message)


def _is_power_of_two(n: int) -> bool:
    return n >= 1 and n & (n - 1) == 0


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """The rule options of one game or match (docs/rules.md R2-R12).

    Attributes:
        variant: starting layout (R2): ``standard``, ``nackgammon``, ``acey-deucey`` or
            ``custom`` (then ``start_position_id`` gives the layout).
        start_position_id: gnubg Position ID of a ``custom`` start, read with player 0 as
            the side "on roll" (``Position.mover``).
        max_checkers_per_point: R4, ``None`` = no limit; seed 004 recommends 5.
        min_pip_waste: R6, seed 002's house rule for bearing off.
        max_cube: R8, highest cube value (default 64).
        jacoby: R8, money only: gammons/backgammons count single while no double was
            accepted.
        automatic_doubles: R8, money only: a tied opening roll doubles the centred cube.
        automatic_doubles_limit: R8, at most this many automatic doubles per game.
        beavers: R8, money only: the taker may immediately redouble and keep the cube.
        backgammon_value: R9, multiplier of a backgammon: 3 (default), 2 or 1.
        resign_mode: R9, ``offer`` (default) or ``seed002``.
        timeout_result: R12, what a claimed timeout costs: ``gammon`` or the ``match``.
        acey_deucey_cube: R3, enable the cube in Acey-Deucey (off by default).
    """

    variant: Variant = "standard"
    start_position_id: str | None = None
    max_checkers_per_point: int | None = None
    min_pip_waste: bool = False
    max_cube: int = 64
    jacoby: bool = False
    automatic_doubles: bool = False
    automatic_doubles_limit: int = 1
    beavers: bool = False
    backgammon_value: int = 3
    resign_mode: ResignMode = "offer"
    timeout_result: TimeoutResult = "gammon"
    acey_deucey_cube: bool = False

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise _invalid(f"unknown variant {self.variant!r} (R2)")
        if self.variant == "custom":
            if not self.start_position_id:
                raise _invalid("a custom variant needs start_position_id (R2)")
        elif self.start_position_id is not None:
            raise _invalid("start_position_id is only used with the custom variant (R2)")
        for name in ("min_pip_waste", "jacoby", "automatic_doubles", "beavers"):
            if not isinstance(getattr(self, name), bool):
                raise _invalid(f"{name} must be a bool")
        if not isinstance(self.acey_deucey_cube, bool):
            raise _invalid("acey_deucey_cube must be a bool")
        mcp = self.max_checkers_per_point
        if mcp is not None and (
            isinstance(mcp, bool) or not isinstance(mcp, int) or not 3 <= mcp <= 15
        ):
            raise _invalid("max_checkers_per_point must be None or 3..15 (R4)")
        if (
            isinstance(self.max_cube, bool)
            or not isinstance(self.max_cube, int)
            or not _is_power_of_two(self.max_cube)
            or self.max_cube > CUBE_LIMIT
        ):
            raise _invalid(f"max_cube must be a power of two from 1 to {CUBE_LIMIT} (R8)")
        if (
            isinstance(self.automatic_doubles_limit, bool)
            or not isinstance(self.automatic_doubles_limit, int)
            or self.automatic_doubles_limit < 1
        ):
            raise _invalid("automatic_doubles_limit must be a positive integer (R8)")
        if self.backgammon_value not in (1, 2, 3) or isinstance(self.backgammon_value, bool):
            raise _invalid("backgammon_value must be 1, 2 or 3 (R9)")
        if self.resign_mode not in RESIGN_MODES:
            raise _invalid(f"resign_mode must be one of {RESIGN_MODES} (R9)")
        if self.timeout_result not in TIMEOUT_RESULTS:
            raise _invalid(f"timeout_result must be one of {TIMEOUT_RESULTS} (R12)")
        if self.acey_deucey_cube and self.variant != "acey-deucey":
            raise _invalid("acey_deucey_cube only applies to the acey-deucey variant (R3)")
        if not self.cube_enabled and (self.automatic_doubles or self.beavers or self.jacoby):
            raise _invalid("jacoby, beavers and automatic doubles need the cube (R3, R8)")

    @property
    def cube_enabled(self) -> bool:
        """Whether the doubling cube is in play at all (R3: off in Acey-Deucey unless
        enabled; R8: ``max_cube == 1`` leaves it centred at 1 for ever)."""
        if self.variant == "acey-deucey":
            return self.acey_deucey_cube
        return True

    @property
    def has_money_options(self) -> bool:
        """True when an option that R10 excludes from match play is on."""
        return self.jacoby or self.automatic_doubles or self.beavers

    def for_match(self) -> RuleOptions:
        """These options with the money-only ones (R10: Jacoby, automatic doubles,
        beavers) switched off, for use in a match."""
        return replace(self, jacoby=False, automatic_doubles=False, beavers=False)
