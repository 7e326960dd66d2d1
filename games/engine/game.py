"""One game of backgammon as an immutable state machine (docs/rules.md R3, R6, R8-R12).

A :class:`GameState` never changes; every action is a method that validates it and
returns a new state, or raises :class:`~games.engine.errors.EngineError` with a stable
code. Dice come from the caller (the engine never draws random numbers), so a game is a
pure function of its actions and can be replayed and audited.

Players are ``0`` and ``1``. :attr:`GameState.position` is always seen from the player
whose turn it is (``GameState.turn``): ``position.mover`` are that player's checkers.
Before the opening roll it is seen from player 0.

The phases:

``opening``         nobody has rolled; :meth:`GameState.opening_roll` (R3).
``roll``            ``turn`` may double (R8) or must roll (:meth:`GameState.roll`).
``move``            dice rolled; ``turn`` must :meth:`GameState.play` one of
                    :meth:`GameState.legal_plays`. A roll with no legal play passes the
                    turn at once (R6), so this phase always has a play to make.
``choose_double``   Acey-Deucey (R3): the 1-2 was played in full; ``turn`` names a double.
``doubled``         ``turn`` doubled; the opponent must take, drop or (beavers) beaver.
``over``            :attr:`GameState.result` holds the winner and the points.

A resignation offer (R9 ``offer`` mode) freezes whichever phase the game is in until the
opponent accepts or declines it (:attr:`GameState.resignation`).

Error codes: ``game_over``, ``not_your_turn``, ``invalid_player``, ``invalid_dice``,
``opening_roll_required``, ``opening_roll_done``, ``must_roll_first``,
``already_rolled``, ``must_choose_double``, ``no_double_to_choose``, ``illegal_play``,
``double_pending``, ``no_double_pending``, ``cube_not_available``,
``crawford_no_double``, ``max_cube_reached``, ``beaver_not_allowed``,
``resignation_pending``, ``no_resignation_pending``, ``invalid_resignation``,
``match_over``, ``money_option_in_match``, ``invalid_options``, ``invalid_game_state``.

Decisions where docs/rules.md is silent:

* **Jacoby (R8)** "while the cube was never turned" is read as "while no double was
  accepted": a take or a beaver turns the cube, an automatic double (which nobody
  offered) does not.
* **Automatic doubles (R8)** leave the cube centred; they need money play, the cube
  below ``max_cube`` and fewer than ``automatic_doubles_limit`` so far in the game.
* **Beavers (R8)** multiply the cube by four at once, the beaverer owns it; there are no
  raccoons. Beavering needs ``4 * cube <= max_cube``.
* **Resignation** is possible at any time in the game for either player, except while a
  double waits for an answer (answer it first: a drop is the resignation of a single,
  ``double_pending``). Offers may be more generous than the position warrants.
  Resignations and drops are scored like bear-offs: ``cube x kind`` with Jacoby, and a
  resigned backgammon is worth ``backgammon_value``.
* **seed002 resignation (R9)** ends the game at once: a gammon (2 x cube, Jacoby applies)
  if the resigner has borne off none, else a single. Unentered Acey-Deucey checkers are
  not borne off.
* **Backgammon (R9)**: unentered Acey-Deucey checkers count like checkers on the bar.
* **Timeouts (R12)**: the clock is the app's (:mod:`games.engine.clock`); when it says a
  player's reserve is gone, :meth:`GameState.timeout` records that player as ``flagged``.
  From then on the game waits for the opponent's claim: every other action is refused
  (``out_of_time``), and :meth:`GameState.claim_timeout` (only by the flagged player's
  opponent, else ``no_timeout``) ends the game for the claimant: ``gammon`` = 2 x cube
  (a penalty: Jacoby does not reduce it); ``match`` = the loser forfeits the match (the
  result carries the points the claimant still needed and ``match_forfeit``); in money
  play ``match`` counts as a gammon.
* **Acey-Deucey (R3)**: a 1-2 (also as the opening roll, and again on the extra roll) is
  played as 1 and 2, then :meth:`GameState.choose_double`, then the double, then the same
  player rolls again. If a part can't be played in full, the rest and the extra roll are
  lost. The extra roll continues the same turn, so no double is allowed before it
  (``cube_not_available``).
* **The opening roll** needs no doubling decision: nobody may double before it
  (``opening_roll_required``). The starter plays the two opening dice, written higher
  first.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

from games.engine.errors import EngineError
from games.engine.match import MatchState
from games.engine.matchid import GameStateCode, MatchId, encode_match_id
from games.engine.movegen import Play, legal_plays
from games.engine.position import (
    BAR,
    CHECKERS,
    Position,
    position_from_id,
    position_id,
    start_position,
)
from games.engine.rules import RuleOptions

Phase = Literal["opening", "roll", "move", "choose_double", "doubled", "over"]
PHASES: tuple[str, ...] = ("opening", "roll", "move", "choose_double", "doubled", "over")
ResignKind = Literal["single", "gammon", "backgammon"]
ResultKind = Literal["single", "gammon", "backgammon", "match"]
EndReason = Literal["bear_off", "drop", "resign", "timeout"]
AceyDeuceyStage = Literal["one_two", "double"]

RESIGN_KINDS: tuple[ResignKind, ...] = ("single", "gammon", "backgammon")
_RESIGN_CODE: dict[str, int] = {"single": 1, "gammon": 2, "backgammon": 3}


@dataclass(frozen=True, slots=True)
class ResignationOffer:
    """A pending R9 ``offer`` resignation: ``player`` offers to lose ``kind`` x cube."""

    player: int
    kind: ResignKind


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended (R9).

    Attributes:
        winner: player 0 or 1.
        kind: ``single``, ``gammon`` or ``backgammon`` as it happened on the board (or as
            resigned); ``match`` only for a match lost on time (R12).
        cube: the cube value the game was played for (before a dropped double).
        multiplier: 1, 2 or ``backgammon_value``; 1 for gammons/backgammons under Jacoby.
        points: ``cube * multiplier`` (for ``match``: the points the winner still needed).
        reason: ``bear_off``, ``drop``, ``resign`` or ``timeout``.
        match_forfeit: the loser lost the match on time (R12 ``timeout_result="match"``).
    """

    winner: int
    kind: ResultKind
    cube: int
    multiplier: int
    points: int
    reason: EndReason
    match_forfeit: bool = False


@lru_cache(maxsize=256)
def _legal_plays_cached(
    position: Position, d1: int, d2: int, max_per_point: int | None, min_pip_waste: bool
) -> tuple[Play, ...]:
    """:func:`~games.engine.movegen.legal_plays`, remembered for the last few (position,
    roll, options). A game asks for the same roll's plays several times (to show them,
    to check the one chosen, to decide an automatic pass); the answer is a pure
    function of these immutable arguments, so sharing it is safe."""
    return legal_plays(
        position, d1, d2, max_checkers_per_point=max_per_point, min_pip_waste=min_pip_waste
    )


def _check_player(player: int) -> None:
    if player not in (0, 1) or isinstance(player, bool):
        raise EngineError("invalid_player", f"player must be 0 or 1, not {player!r}")


def _check_die(value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise EngineError("invalid_dice", f"a die shows 1..6, not {value!r}")


def _invalid_state(message: str) -> EngineError:
    return EngineError("invalid_game_state", message)


@dataclass(frozen=True, slots=True)
class GameState:
    """The complete, immutable state of one game (see the module docstring).

    Attributes:
        options: the rule options (R2-R12).
        match: the match this game belongs to (money play: ``MatchState.money()``); the
            score is the score *before* this game.
        position: the checkers, seen from ``turn``.
        turn: the player on roll (0 before the opening roll).
        phase: see the module docstring.
        dice: the dice to play in phase ``move`` (else ``None``).
        cube: the cube value; ``cube_owner`` 0, 1 or ``None`` (centred).
        cube_turned: a double was accepted in this game (Jacoby, R8).
        automatic_doubles: automatic doubles made in this game (R8).
        resignation: a pending R9 ``offer``.
        acey_deucey_stage: R3: ``one_two`` while the 1-2 is played, ``double`` while the
            chosen double is played.
        bonus_roll: R3: ``turn`` is about to take the Acey-Deucey extra roll.
        result: how the game ended (phase ``over``).
        flagged: the player whose time ran out (R12), waiting for the opponent's claim.
    """

    options: RuleOptions
    match: MatchState
    position: Position
    turn: int = 0
    phase: Phase = "opening"
    dice: tuple[int, int] | None = None
    cube: int = 1
    cube_owner: int | None = None
    cube_turned: bool = False
    automatic_doubles: int = 0
    resignation: ResignationOffer | None = None
    acey_deucey_stage: AceyDeuceyStage | None = None
    bonus_roll: bool = False
    result: GameResult | None = None
    flagged: int | None = None

    def __post_init__(self) -> None:
        if self.phase not in PHASES:
            raise _invalid_state(f"unknown phase {self.phase!r}")
        if self.turn not in (0, 1):
            raise _invalid_state("turn must be 0 or 1")
        if (self.phase == "move") != (self.dice is not None):
            raise _invalid_state("dice are set exactly in phase 'move'")
        if (self.phase == "over") != (self.result is not None):
            raise _invalid_state("a result exists exactly in phase 'over'")
        c = self.cube
        if c < 1 or c & (c - 1) or c > self.options.max_cube:
            raise _invalid_state(f"cube {c} is not a power of two up to max_cube")
        if self.cube_owner not in (None, 0, 1):
            raise _invalid_state("cube owner must be 0, 1 or None")
        if self.flagged not in (None, 0, 1):
            raise _invalid_state("flagged must be 0, 1 or None")
        if self.match.crawford and (c != 1 or self.cube_owner is not None):
            raise _invalid_state("no cube in the Crawford game (R11)")
        if self.resignation is not None and self.phase in ("doubled", "over"):
            raise _invalid_state("a resignation can't be pending in this phase")

    # ================================================================== queries
    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def opponent(self) -> int:
        """The player not on roll."""
        return 1 - self.turn

    def board_of(self, player: int) -> Position:
        """The position seen from ``player`` (``mover`` = that player's checkers)."""
        _check_player(player)
        return self.position if player == self.turn else self.position.swapped()

    def borne_off(self, player: int) -> int:
        """Checkers ``player`` has borne off (R7)."""
        return self.board_of(player).mover_off

    def legal_plays(self) -> tuple[Play, ...]:
        """The legal plays for the dice to play (phase ``move``), R4-R7."""
        if self.dice is None:
            return ()
        return self._plays_for(self.dice)

    def _plays_for(self, dice: tuple[int, int]) -> tuple[Play, ...]:
        return _legal_plays_cached(
            self.position,
            dice[0],
            dice[1],
            self.options.max_checkers_per_point,
            self.options.min_pip_waste,
        )

    @property
    def player_to_act(self) -> int | None:
        """Who must act now: the answerer of a pending double or resignation, else the
        player on roll; ``None`` before the opening roll and after the game."""
        if self.phase in ("opening", "over"):
            return None
        if self.resignation is not None:
            return 1 - self.resignation.player
        if self.phase == "doubled":
            return 1 - self.turn
        return self.turn

    def can_roll(self, player: int) -> bool:
        """Whether :meth:`roll` by ``player`` would be accepted now (answered without
        rolling, so without generating any plays)."""
        try:
            self._check_mover(player)
        except EngineError:
            return False
        return self.phase == "roll"

    def can_double(self, player: int) -> bool:
        """Whether :meth:`double` by ``player`` would be accepted now."""
        try:
            self._check_double(player)
        except EngineError:
            return False
        return True

    # ================================================================== opening (R3)
    def opening_roll(self, die0: int, die1: int) -> GameState:
        """R3: player 0 rolls ``die0``, player 1 rolls ``die1``. The higher starts and
        plays both dice; a tie re-rolls, doubling the centred cube when automatic doubles
        are on (R8, money only, up to the limit and ``max_cube``)."""
        self._check_not_over()
        self._check_no_resignation()
        if self.phase != "opening":
            raise EngineError("opening_roll_done", "the opening roll was already decided")
        _check_die(die0)
        _check_die(die1)
        if die0 == die1:
            if self._automatic_double_due():
                return replace(
                    self, cube=self.cube * 2, automatic_doubles=self.automatic_doubles + 1
                )
            return self
        starter = 0 if die0 > die1 else 1
        position = self.position if starter == 0 else self.position.swapped()
        high, low = max(die0, die1), min(die0, die1)
        state = replace(self, position=position, turn=starter)
        return state._after_roll((high, low))

    def _automatic_double_due(self) -> bool:
        o = self.options
        return (
            o.automatic_doubles
            and self.match.is_money
            and o.cube_enabled
            and self.cube_owner is None
            and self.automatic_doubles < o.automatic_doubles_limit
            and self.cube * 2 <= o.max_cube
        )

    # ================================================================== roll and play
    def roll(self, player: int, die1: int, die2: int) -> GameState:
        """``player`` rolls ``die1``/``die2`` (values given by the caller). With no legal
        play the turn passes at once (R6)."""
        self._check_mover(player)
        if self.phase == "move":
            raise EngineError("already_rolled", "the dice are already rolled: play them")
        _check_die(die1)
        _check_die(die2)
        return replace(self, bonus_roll=False)._after_roll((die1, die2))

    def _after_roll(self, dice: tuple[int, int]) -> GameState:
        """Enter phase ``move`` with ``dice``, or pass the turn when nothing can move."""
        stage: AceyDeuceyStage | None = None
        if self.options.variant == "acey-deucey" and sorted(dice) == [1, 2]:
            stage = "one_two"
        state = replace(self, phase="move", dice=dice, acey_deucey_stage=stage)
        if not state.legal_plays():
            return state._pass_turn()
        return state

    def _pass_turn(self) -> GameState:
        return replace(
            self,
            position=self.position.swapped(),
            turn=1 - self.turn,
            phase="roll",
            dice=None,
            acey_deucey_stage=None,
            bonus_roll=False,
        )

    def play(self, player: int, choice: Play | Position | str) -> GameState:
        """``player`` plays the rolled dice (R4-R7).

        ``choice`` is a :class:`~games.engine.movegen.Play`, the resulting
        :class:`~games.engine.position.Position` (mover still on roll) or its Position
        ID; it must be one of :meth:`legal_plays` (``illegal_play``). Bearing off the last
        checker ends the game (R9)."""
        self._check_mover(player)
        if self.phase == "roll":
            raise EngineError("must_roll_first", "roll the dice before playing")
        chosen = self._find_play(choice)
        after = chosen.result
        if after.mover_off == CHECKERS:
            return replace(
                self,
                position=after,
                phase="over",
                dice=None,
                acey_deucey_stage=None,
                bonus_roll=False,
                result=self._bear_off_result(after),
            )
        state = replace(self, position=after)
        if self.acey_deucey_stage == "one_two":
            if chosen.dice_used == 2:
                return replace(state, phase="choose_double", dice=None)
            return state._pass_turn()
        if self.acey_deucey_stage == "double":
            if chosen.dice_used == 4:
                return replace(
                    state, phase="roll", dice=None, acey_deucey_stage=None, bonus_roll=True
                )
            return state._pass_turn()
        return state._pass_turn()

    def _find_play(self, choice: Play | Position | str) -> Play:
        plays = self.legal_plays()
        if isinstance(choice, str):
            # Position IDs are canonical; one can't tell unentered Acey-Deucey checkers
            # from borne-off ones, but two results of one roll never differ only so
            # (bearing off needs every checker entered and home, R7).
            for legal in plays:
                if position_id(legal.result) == choice:
                    return legal
        else:
            if isinstance(choice, Play):
                target = choice.result
            elif isinstance(choice, Position):
                target = choice
            else:
                raise EngineError("illegal_play", f"cannot play {choice!r}")
            for legal in plays:
                if legal.result == target:
                    return legal
        raise EngineError("illegal_play", "that play is not legal with these dice (R4-R7)")

    def choose_double(self, player: int, value: int) -> GameState:
        """Acey-Deucey (R3): after playing the 1-2 in full, ``player`` names the double
        ``value`` to play four times. If it can't move at all the turn passes."""
        self._check_not_over()
        self._check_no_resignation()
        _check_player(player)
        if self.phase != "choose_double":
            raise EngineError("no_double_to_choose", "no Acey-Deucey double to choose (R3)")
        if player != self.turn:
            raise EngineError("not_your_turn", f"it is player {self.turn}'s turn")
        _check_die(value)
        state = replace(self, phase="move", dice=(value, value), acey_deucey_stage="double")
        if not state.legal_plays():
            return state._pass_turn()
        return state

    def _bear_off_result(self, after: Position) -> GameResult:
        """R9: the mover of ``after`` has borne off all 15."""
        loser = after.opponent
        if after.opponent_off > 0:
            kind: ResignKind = "single"
        elif loser[BAR] or after.opponent_unentered or any(loser[18:24]):
            kind = "backgammon"
        else:
            kind = "gammon"
        return self._result(self.turn, kind, "bear_off")

    def _multiplier(self, kind: ResignKind) -> int:
        """R9 value of ``kind``; R8 Jacoby: gammons count single while no double was
        accepted (money play only)."""
        if kind == "single":
            return 1
        if self.options.jacoby and self.match.is_money and not self.cube_turned:
            return 1
        return 2 if kind == "gammon" else self.options.backgammon_value

    def _result(self, winner: int, kind: ResignKind, reason: EndReason) -> GameResult:
        multiplier = self._multiplier(kind)
        return GameResult(
            winner=winner,
            kind=kind,
            cube=self.cube,
            multiplier=multiplier,
            points=self.cube * multiplier,
            reason=reason,
        )

    def _end(self, result: GameResult) -> GameState:
        return replace(
            self,
            phase="over",
            dice=None,
            resignation=None,
            acey_deucey_stage=None,
            bonus_roll=False,
            result=result,
        )

    # ================================================================== cube (R8, R11)
    def _check_double(self, player: int) -> None:
        self._check_not_over()
        self._check_no_resignation()
        _check_player(player)
        self._check_started()
        if self.phase == "doubled":
            raise EngineError("double_pending", "a double is already offered")
        if player != self.turn:
            raise EngineError("not_your_turn", "only the player on roll may double (R8)")
        if self.phase in ("move", "choose_double"):
            raise EngineError("already_rolled", "a double is offered before rolling (R8)")
        if not self.options.cube_enabled:
            raise EngineError("cube_not_available", "the cube is not in use (R3)")
        if self.bonus_roll:
            raise EngineError(
                "cube_not_available", "the Acey-Deucey extra roll continues the turn (R3)"
            )
        if self.match.crawford:
            raise EngineError("crawford_no_double", "no doubling in the Crawford game (R11)")
        if self.cube_owner is not None and self.cube_owner != player:
            raise EngineError("cube_not_available", "the opponent owns the cube (R8)")
        if self.cube * 2 > self.options.max_cube:
            raise EngineError("max_cube_reached", f"the cube can't pass {self.options.max_cube}")

    def double(self, player: int) -> GameState:
        """R8: ``player`` (on roll, before rolling, owning the cube or with it centred)
        offers to double the stakes; also allowed after a turn in which they couldn't
        move. Refused in the Crawford game (R11)."""
        self._check_double(player)
        return replace(self, phase="doubled")

    def _check_answer(self, player: int) -> None:
        self._check_not_over()
        self._check_no_resignation()
        _check_player(player)
        if self.phase != "doubled":
            raise EngineError("no_double_pending", "no double has been offered")
        if player != 1 - self.turn:
            raise EngineError("not_your_turn", "the doubled player answers the double")

    def take(self, player: int) -> GameState:
        """R8: the doubled player takes: the cube doubles and they own it."""
        self._check_answer(player)
        return replace(self, phase="roll", cube=self.cube * 2, cube_owner=player, cube_turned=True)

    def beaver(self, player: int) -> GameState:
        """R8 ``beavers`` (money only): take and immediately redouble, keeping the cube
        (cube x 4, owned by the beaverer)."""
        self._check_answer(player)
        if not (self.options.beavers and self.match.is_money):
            raise EngineError("beaver_not_allowed", "beavers are off (R8, money only R10)")
        if self.cube * 4 > self.options.max_cube:
            raise EngineError("max_cube_reached", f"the cube can't pass {self.options.max_cube}")
        return replace(self, phase="roll", cube=self.cube * 4, cube_owner=player, cube_turned=True)

    def drop(self, player: int) -> GameState:
        """R8: the doubled player drops: the doubler wins the value before the double."""
        self._check_answer(player)
        return self._end(self._result(self.turn, "single", "drop"))

    # ================================================================== resignation (R9)
    def resign(self, player: int, kind: ResignKind | None = None) -> GameState:
        """R9. ``offer`` mode: ``player`` offers to lose ``kind`` (single, gammon or
        backgammon) x cube and the opponent answers. ``seed002`` mode (``kind`` omitted):
        the game ends at once, a gammon if ``player`` has borne off none, else a single."""
        self._check_not_over()
        _check_player(player)
        if self.resignation is not None:
            raise EngineError("resignation_pending", "a resignation is already offered")
        if self.phase == "doubled":
            raise EngineError("double_pending", "answer the double first")
        if self.options.resign_mode == "seed002":
            if kind is not None:
                raise EngineError(
                    "invalid_resignation", "seed002 resignations have no kind to choose (R9)"
                )
            lost: ResignKind = "gammon" if self.borne_off(player) == 0 else "single"
            return self._end(self._result(1 - player, lost, "resign"))
        if kind not in RESIGN_KINDS:
            raise EngineError(
                "invalid_resignation", "offer a single, gammon or backgammon (R9 offer mode)"
            )
        return replace(self, resignation=ResignationOffer(player, kind))

    def _check_resignation_answer(self, player: int) -> ResignationOffer:
        self._check_not_over()
        _check_player(player)
        offer = self.resignation
        if offer is None:
            raise EngineError("no_resignation_pending", "no resignation has been offered")
        if player == offer.player:
            raise EngineError("not_your_turn", "the opponent answers a resignation")
        return offer

    def accept_resignation(self, player: int) -> GameState:
        """R9 ``offer``: the opponent accepts: the game ends with the offered kind."""
        offer = self._check_resignation_answer(player)
        return self._end(self._result(player, offer.kind, "resign"))

    def decline_resignation(self, player: int) -> GameState:
        """R9 ``offer``: the opponent declines: play continues where it stood."""
        self._check_resignation_answer(player)
        return replace(self, resignation=None)

    # ================================================================== timeout (R12)
    def timeout(self, player: int) -> GameState:
        """R12: ``player``'s reserve ran out (the app's clock says so). The game now
        waits for the opponent's :meth:`claim_timeout`."""
        self._check_not_over()
        _check_player(player)
        if self.flagged is not None:
            raise EngineError("out_of_time", f"player {self.flagged} is already out of time")
        return replace(self, flagged=player)

    def claim_timeout(self, claimant: int) -> GameState:
        """R12: the opponent's reserve ran out and ``claimant`` claims the win; scored
        per ``timeout_result``."""
        self._check_not_over()
        _check_player(claimant)
        if self.flagged != 1 - claimant:
            raise EngineError("no_timeout", "the opponent has not run out of time")
        if self.options.timeout_result == "match" and not self.match.is_money:
            result = GameResult(
                winner=claimant,
                kind="match",
                cube=self.cube,
                multiplier=1,
                points=self.match.away(claimant),
                reason="timeout",
                match_forfeit=True,
            )
        else:
            result = GameResult(
                winner=claimant,
                kind="gammon",
                cube=self.cube,
                multiplier=2,
                points=2 * self.cube,
                reason="timeout",
            )
        return self._end(result)

    # ================================================================== helpers
    def _check_mover(self, player: int) -> None:
        """The checks shared by rolling and playing: a live, started game, no pending
        double or resignation, ``player``'s turn and no Acey-Deucey double to name."""
        self._check_not_over()
        self._check_no_resignation()
        _check_player(player)
        self._check_started()
        if self.phase == "doubled":
            raise EngineError("double_pending", "the double must be answered first")
        if player != self.turn:
            raise EngineError("not_your_turn", f"it is player {self.turn}'s turn")
        if self.phase == "choose_double":
            raise EngineError("must_choose_double", "name the Acey-Deucey double (R3)")

    def _check_not_over(self) -> None:
        if self.phase == "over":
            raise EngineError("game_over", "the game is over")

    def _check_no_resignation(self) -> None:
        if self.resignation is not None:
            raise EngineError("resignation_pending", "a resignation waits for an answer")

    def _check_started(self) -> None:
        if self.phase == "opening":
            raise EngineError("opening_roll_required", "the opening roll comes first (R3)")

    # ================================================================== interchange
    def match_id(self) -> str:
        """The gnubg Match ID of this state (R1). Money play stores no score (as gnubg);
        the opening phase is gnubg's "no game" state."""
        if self.phase == "opening":
            state = GameStateCode.NONE
        elif self.result is None:
            state = GameStateCode.PLAYING
        elif self.result.reason == "drop":
            state = GameStateCode.DROPPED
        elif self.result.reason == "resign":
            state = GameStateCode.RESIGNED
        else:
            state = GameStateCode.OVER
        dice = (0, 0) if self.dice is None else (max(self.dice), min(self.dice))
        resignation = 0 if self.resignation is None else _RESIGN_CODE[self.resignation.kind]
        to_act = self.player_to_act
        money = self.match.is_money
        return encode_match_id(
            MatchId(
                cube=self.cube,
                cube_owner=self.cube_owner,
                player_on_roll=self.turn,
                crawford=self.match.crawford,
                game_state=state,
                player_to_act=self.turn if to_act is None else to_act,
                double_offered=self.phase == "doubled",
                resignation=resignation,
                dice=dice,
                match_length=self.match.length,
                score=(0, 0) if money else self.match.score,
                jacoby=money and self.options.jacoby,
            )
        )


# ====================================================================== constructors
def new_game(
    options: RuleOptions | None = None,
    match: MatchState | None = None,
    *,
    start: Position | None = None,
) -> GameState:
    """A new game before the opening roll (R2, R3).

    ``start`` overrides the variant's start position (seen from player 0); a ``custom``
    variant reads ``options.start_position_id`` with player 0 as the side on roll.
    Refuses money-only options in a match (``money_option_in_match``, R10), a finished
    match (``match_over``) and a start that breaks ``max_checkers_per_point``.
    """
    options = RuleOptions() if options is None else options
    match = MatchState.money() if match is None else match
    match.check_options(options)
    if match.is_over:
        raise EngineError("match_over", "the match is already over (R10)")
    if start is None:
        if options.variant == "custom":
            assert options.start_position_id is not None  # RuleOptions guarantees it
            start = position_from_id(options.start_position_id)
        else:
            start = start_position(options.variant)
    limit = options.max_checkers_per_point
    if limit is not None and max(max(start.mover[:24]), max(start.opponent[:24])) > limit:
        raise EngineError(
            "invalid_options", f"the start position has more than {limit} on a point (R4)"
        )
    if start.is_over():
        raise EngineError("invalid_options", "the start position has a player with no checkers")
    return GameState(options=options, match=match, position=start)


def apply_result(match: MatchState, result: GameResult) -> MatchState:
    """The match after a game ended with ``result`` (R10, R11, R12)."""
    if result.match_forfeit:
        return match.record_forfeit(result.winner)
    return match.record_game(result.winner, result.points)
