"""PURE: one chouette game played online, the box against the team on one board (R13, R8).

No Django, no database, no clock, no randomness: the caller passes the dice and the
actor, and gets a new immutable :class:`Table` or a :class:`~chouette.rules.ChouetteError`
with a stable ``code``. The checker play is the rules engine's
(:class:`games.engine.game.GameState`, the box as engine player 0, the team as player 1),
so every rule of movement, the opening roll and the bear-off is the one the two-player
matches use. The engine's own single cube is never used: a chouette has a cube per team
member, kept here. When the game ends, :meth:`Table.entry` is the
:class:`~chouette.rules.GameEntry` a scorekeeper would have typed, and the same
settlement and ledger code settles it (so the online game and the typed game can't
disagree).

Terms:

* **Member**: a team player with a cube against the box (the partner, if any, plays on
  the box's side and has none). ``members`` are in team order, the captain first.
* **Cube** and **pending decisions**: one member's cube and the decisions that wait on it
  (:mod:`chouette.online.cubes`); while any waits, nobody rolls.
* **Mover**: who moves the checkers: the box on its turn; on the team's turn the
  **acting captain**, the first member of the line still in the game and not away (the
  captain while the captain is in and at the table).
* **Away** (``away``): the players who named a proxy (the club rule of
  :mod:`chouette.rules.proxies`: a player who named a proxy has left the table). The
  caller sets it (:meth:`Table.with_away`) from the session's proxies before every step.
  An away member keeps their seat and cube, and their proxy answers their cube decisions,
  but they are never made the mover: the next member in the line still in the game and
  at the table moves for the team. When nobody at the table may move for the side on roll
  (the box away, or every member still in the game away), :attr:`Table.unmanned` names
  that side and :attr:`Table.mover` is ``None``: the caller's move clock, or its away
  window, then decides (:meth:`Table.forfeit`).
* **Settlement** (:meth:`Table.offer_settlement`, club rule): before a roll the box offers
  a member in the game whole points to leave it (+: the box pays the member), at most the
  member's cube times the backgammon value either way
  (:func:`chouette.rules.settlement_bounds`); accepted, the member's fate is ``settled``.
* **Extras** (:meth:`Table.offer_extra`, club rule): any two players of the game bet on
  the board beside the cubes (:class:`chouette.rules.Extra`: the taker backs the team and
  is a member, the giver backs the box); the other player accepts or refuses. An offer
  stops nobody's turn and lapses when the game ends; an extra on a game nobody played to
  the end, where the drops don't say who gave the board up, is void.

Cube actions (before the mover rolls, on the doubler's turn, R8):

* ``classic``: on the team's turn any member still in proposes the team double
  (:meth:`Table.propose_double`, the proposer consents at once); every other member in the
  game must consent, each on their own (:meth:`Table.consent`); one ``no`` withdraws the
  proposal for this turn. When all consent the box answers once for the whole team: a take
  turns every cube, a drop gives every member ``box_dropped`` and ends the game. On the
  box's turn the box doubles the team (:meth:`Table.box_double`): every member answers
  alone; droppers leave the game (and watch), takers play on at the doubled cube.
* ``individual``: on the team's turn each member whose cube is centred or their own
  doubles the box alone (:meth:`Table.member_double`); the box answers each. On its turn
  the box doubles any members whose cubes it may turn (centred or its own), one or more
  at once; each answers alone. Beavers (a take and an immediate redouble, keeping the
  cube: value x 4) and raccoons (the beavered side redoubles once more: x 8) where the
  profile enables them. **At least half** (``box_must_take_half``): of the members' first
  doubles made in one team turn, the box may drop at most half (a lone one may be
  dropped); the box is refused a drop beyond that.
* **Automatic doubles** (R8, the profile's ``automatic_doubles``): every tie of the
  opening roll doubles every cube, up to the limit; such a cube is not turned (Jacoby).

The game ends when the board ends (the engine's bear-off, or a flag on a move clock:
R12 counts it as a **gammon** for the other side, at once, no claim), or when no member
is left in it (everybody dropped or was dropped: no board result, ``winner`` ``None``).

Decisions where docs/rules.md is silent:

* Any member still in may propose a team double, not only the captain: R13 makes the
  double unanimous, so who proposes it is immaterial. A refused proposal may not be made
  again in the same turn (it would only repeat the question).
* A cube decision not answered within the session's time window takes its **default**
  (:meth:`Table.apply_defaults`): a consent is ``no`` (the double needs every yes), a
  take-or-drop is the session's default (``take`` unless the session says ``drop``), a
  raccoon is ``no_raccoon``. A box who would have to drop beyond half takes.
* A flag ends the game as a gammon (R12 in money play) settled per cube as any gammon
  (Jacoby per cube applies: a cube never turned scores a single).
* A side nobody at the table may move for (:attr:`Table.unmanned`) forfeits the game
  when the caller's away window runs out (:meth:`Table.forfeit`): as a flag, a gammon for
  the other side. The default answer of every decision kind is :func:`default_answer`,
  the one :meth:`Table.apply_defaults` applies (a page states it under the countdown).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from chouette.online.cubes import (
    ANSWERS_TO,
    BOX_DECIDES,
    ENTRY_FATES,
    Cube,
    Decision,
    default_answer,
)
from chouette.rules import (
    ChouetteError,
    Extra,
    GameEntry,
    MemberEntry,
    PlayerId,
    Profile,
    settlement_bounds,
    validate_entry,
)
from chouette.rules.settlement import MAX_EXTRAS
from games.engine import actions as engine_actions
from games.engine.errors import EngineError
from games.engine.game import GameState, new_game
from games.engine.match import MatchState
from games.engine.rules import RuleOptions

#: Engine players: the box is 0, the team 1.
BOX, TEAM = 0, 1


def _refuse(code: str, message: str) -> ChouetteError:
    return ChouetteError(code, message)


@dataclass(frozen=True, slots=True)
class Table:
    """One online chouette game (see the module docstring).

    Attributes:
        profile: the session's rule profile.
        box: the box; ``partner``: the box's partner or ``None``.
        captain: the original captain (``members[0]``).
        members: the team in line order, the captain first.
        board: the engine's game (checkers, dice, turn; its own cube unused).
        cubes: one per member, in ``members`` order.
        initial_cube: every cube's value at the start (automatic doubles, R8).
        turn_doubles: members who made their first double in the current team turn.
        double_groups: those groups of earlier team turns (``box_must_take_half``).
        refused_turn: a team double was refused in the current turn (classic).
        flagged: ``box`` or ``team`` when a move clock ran out (R12) or the side
            forfeited (nobody at the table to move for it), else ``None``.
        away: the players away from the table (see the module docstring).
    """

    profile: Profile
    box: PlayerId
    members: tuple[PlayerId, ...]
    board: GameState
    cubes: tuple[Cube, ...]
    partner: PlayerId | None = None
    initial_cube: int = 1
    turn_doubles: tuple[PlayerId, ...] = ()
    double_groups: tuple[tuple[PlayerId, ...], ...] = ()
    refused_turn: bool = False
    flagged: Literal["box", "team"] | None = None
    extras: tuple[Extra, ...] = ()
    #: Extras offered and not answered yet, with who offered each (the other answers).
    extra_offers: tuple[tuple[PlayerId, Extra], ...] = ()
    #: Players away from the table (they named a proxy): never the mover.
    away: tuple[PlayerId, ...] = ()

    # ================================================================== queries
    @property
    def captain(self) -> PlayerId:
        return self.members[0]

    @property
    def classic(self) -> bool:
        return self.profile.kind == "classic"

    def cube_of(self, player: PlayerId) -> Cube:
        for c in self.cubes:
            if c.player == player:
                return c
        raise _refuse("not_a_member", f"{player!r} has no cube in this game")

    @property
    def in_members(self) -> tuple[PlayerId, ...]:
        return tuple(c.player for c in self.cubes if c.is_in)

    @property
    def present_members(self) -> tuple[PlayerId, ...]:
        """The members still in the game and at the table (not away)."""
        return tuple(p for p in self.in_members if p not in self.away)

    @property
    def acting_captain(self) -> PlayerId | None:
        """Who moves the team's checkers: the first member still in the game and at the
        table (when every one of them is away: the first still in, for the record only;
        nobody moves then, :attr:`unmanned`)."""
        members = self.present_members or self.in_members
        return members[0] if members else None

    def with_away(self, away: Sequence[PlayerId]) -> Table:
        """The table with these players away (the session's proxies; see the module
        docstring); only the game's players count."""
        mine = tuple(p for p in self.players if p in set(away))
        return self if mine == self.away else replace(self, away=mine)

    @property
    def is_over(self) -> bool:
        return self.board.is_over or self.flagged is not None or not self.in_members

    @property
    def decisions(self) -> tuple[Decision, ...]:
        """Every decision waiting for an answer, in team order."""
        found = []
        for c in self.cubes:
            if c.pending is None or (c.pending == "consent" and c.consented):
                continue
            decider = self.box if c.pending in BOX_DECIDES else c.player
            found.append(Decision(decider, c.player, c.pending, self._answers(c)))
        return tuple(found)

    def _answers(self, cube: Cube) -> tuple[str, ...]:
        options = ANSWERS_TO[cube.pending or "consent"]
        if "beaver" in options and not self._may_beaver(cube):
            options = tuple(a for a in options if a != "beaver")
        return options

    @property
    def waiting(self) -> bool:
        """A cube decision waits: no roll until it is answered."""
        return any(c.pending is not None for c in self.cubes)

    @property
    def side_to_move(self) -> Literal["box", "team"] | None:
        """The side that must roll or move now (``None``: a decision waits, or over); its
        move clock runs, whether or not anybody at the table may move for it."""
        if self.is_over or self.waiting or self.board.phase in ("opening", "over"):
            return None
        return "box" if self.board.turn == BOX else "team"

    @property
    def mover(self) -> PlayerId | None:
        """Who rolls and moves now (``None`` when nobody may: a decision waits, over, or
        nobody at the table may move for the side on roll: :attr:`unmanned`)."""
        side = self.side_to_move
        if side is None:
            return None
        if side == "box":
            return None if self.box in self.away else self.box
        return self.present_members[0] if self.present_members else None

    @property
    def unmanned(self) -> Literal["box", "team"] | None:
        """The side on roll when nobody at the table may move for it (the box away, or
        every member still in the game away), else ``None``."""
        side = self.side_to_move
        return side if side is not None and self.mover is None else None

    @property
    def side_on_roll(self) -> Literal["box", "team"]:
        return "box" if self.board.turn == BOX else "team"

    def _before_roll(self, side: int) -> bool:
        b = self.board
        return (
            not self.is_over
            and b.phase == "roll"
            and b.turn == side
            and not b.bonus_roll
            and b.resignation is None
        )

    def box_may_double(self, member: PlayerId) -> bool:
        """Whether the box may double ``member``'s cube now."""
        c = self.cube_of(member)
        return (
            self._before_roll(BOX)
            and not self.waiting
            and c.is_in
            and c.owner != "member"
            and c.value * 2 <= self.profile.max_cube
        )

    def member_may_double(self, member: PlayerId) -> bool:
        """Whether ``member`` may double (individual) or propose the team double (classic)."""
        try:
            c = self.cube_of(member)
        except ChouetteError:
            return False
        if not (self._before_roll(TEAM) and c.is_in and c.owner != "box"):
            return False
        if c.value * 2 > self.profile.max_cube:
            return False
        if self.classic:
            return not self.waiting and not self.refused_turn
        return c.pending is None

    def _may_beaver(self, cube: Cube) -> bool:
        return (
            self.profile.beavers
            and cube.pending in ("box_doubled", "member_doubled")
            and cube.value * 4 <= self.profile.max_cube
        )

    def actions_for(self, player: PlayerId) -> dict[str, Any]:
        """What ``player`` may do now, for a page or a client: ``roll``, ``play`` (the
        legal plays), ``choose_double``, ``double`` (own cube, individual), ``propose``
        (the team double, classic), ``box_double`` (the members the box may double),
        ``decisions`` (those ``player`` answers), ``offer_settlement`` (the box: member ->
        the settlements it may offer), ``offer_extra`` (with whom) and ``extra_offers``
        (``(index, offered by, extra)`` that ``player`` answers)."""
        found: dict[str, Any] = {}
        if self.is_over:
            return found
        if player == self.mover:
            phase = self.board.phase
            if phase == "roll":
                found["roll"] = True
            elif phase == "move":
                found["play"] = self.board.legal_plays()
            elif phase == "choose_double":
                found["choose_double"] = True
        if player == self.box:
            targets = tuple(p for p in self.in_members if self.box_may_double(p))
            if targets:
                found["box_double"] = targets
        elif self.member_may_double(player):
            found["propose" if self.classic else "double"] = True
        mine = tuple(d for d in self.decisions if d.decider == player)
        if mine:
            found["decisions"] = mine
        if player == self.box:
            ranges = {}
            for p in self.in_members:
                bounds = self.settlement_range(p)
                if bounds is not None:
                    ranges[p] = bounds
            if ranges:
                found["offer_settlement"] = ranges
        if player in self.players:
            found["offer_extra"] = tuple(p for p in self.players if p != player)
            to_answer = tuple(
                (i, by, x)
                for i, (by, x) in enumerate(self.extra_offers)
                if player == (x.giver if by == x.taker else x.taker)
            )
            if to_answer:
                found["extra_offers"] = to_answer
        return found

    # ================================================================== the board
    def opening_roll(self, box_die: int, team_die: int) -> Table:
        """R3: the box rolls one die, the team another; a tie rolls again, doubling every
        cube while automatic doubles are due (R8, the profile's limit)."""
        board = self._engine(lambda b: b.opening_roll(box_die, team_die))
        table = replace(self, board=board)
        if box_die == team_die and self._automatic_double_due():
            table = replace(
                table,
                initial_cube=self.initial_cube * 2,
                cubes=tuple(replace(c, value=c.value * 2) for c in self.cubes),
            )
        return table

    def _automatic_double_due(self) -> bool:
        return self.initial_cube * 2 <= self.profile.max_initial_cube

    def may_roll(self, actor: PlayerId) -> bool:
        """Whether :meth:`roll` by ``actor`` would be accepted now (asked before the
        server draws the dice, so a refused roll uses none)."""
        return not self.is_over and actor == self.mover and self.board.phase == "roll"

    def roll(self, actor: PlayerId, die1: int, die2: int) -> Table:
        """The mover rolls (dice from the caller); the team's roll closes its doubling
        window for the turn."""
        self._check_mover(actor)
        board = self._engine(lambda b: b.roll(b.turn, die1, die2))
        table = replace(self, board=board)
        if self.board.turn == TEAM:
            table = table._close_team_turn()
        return table

    def play(self, actor: PlayerId, position_id: str) -> Table:
        """The mover plays the rolled dice: ``position_id`` is the Position ID after the
        play, one of the engine's legal plays (R4-R7)."""
        self._check_mover(actor)
        board = self._engine(lambda b: b.play(b.turn, position_id))
        return replace(self, board=board)

    def choose_double(self, actor: PlayerId, value: int) -> Table:
        """Acey-Deucey (R3): the mover names the double after a 1-2."""
        self._check_mover(actor)
        board = self._engine(lambda b: b.choose_double(b.turn, value))
        return replace(self, board=board)

    def flag(self, side: Literal["box", "team"]) -> Table:
        """R12: ``side``'s move clock ran out: the game ends at once, a gammon for the
        other side."""
        if self.is_over:
            raise _refuse("game_over", "the game is over")
        if side not in ("box", "team"):
            raise _refuse("invalid_data", f"unknown side {side!r}")
        return replace(self, flagged=side)

    def forfeit(self, side: Literal["box", "team"]) -> Table:
        """Nobody at the table moved for ``side`` within the caller's away window: the side
        forfeits, as on a flag (a gammon for the other side)."""
        if self.unmanned != side:
            raise _refuse("not_unmanned", f"somebody at the table may move for the {side}")
        return self.flag(side)

    def _check_mover(self, actor: PlayerId) -> None:
        if self.is_over:
            raise _refuse("game_over", "the game is over")
        if self.waiting:
            raise _refuse("decision_pending", "a cube decision waits for an answer")
        if actor != self.mover:
            raise _refuse("not_your_turn", f"{self.mover!r} moves now, not {actor!r}")

    def _engine(self, step: Callable[[GameState], GameState]) -> GameState:
        try:
            return step(self.board)
        except EngineError as exc:
            raise ChouetteError(exc.code, exc.message) from None

    def _close_team_turn(self) -> Table:
        groups = self.double_groups + ((self.turn_doubles,) if self.turn_doubles else ())
        return replace(self, turn_doubles=(), double_groups=groups, refused_turn=False)

    # ================================================================== cubes: team side
    def propose_double(self, actor: PlayerId) -> Table:
        """Classic: ``actor``, a member still in, proposes the team double (and consents)."""
        if not self.classic:
            raise _refuse("not_classic", "with own cubes each member doubles alone")
        if not self.member_may_double(actor):
            raise _refuse("cube_not_available", self._why_no_team_double(actor))
        cubes = tuple(
            replace(c, pending="consent", consented=c.player == actor) if c.is_in else c
            for c in self.cubes
        )
        return replace(self, cubes=cubes)._after_consent()

    def _why_no_team_double(self, actor: PlayerId) -> str:
        if actor not in self.in_members:
            return f"{actor!r} is not in the game"
        if self.refused_turn:
            return "the team refused this double in this turn"
        return "the team may double only before its roll, owning or with the cube centred"

    def consent(self, actor: PlayerId, answer: str) -> Table:
        """Classic: a member answers a proposed team double: ``yes`` or ``no``."""
        c = self.cube_of(actor)
        if c.pending != "consent":
            raise _refuse("no_decision_pending", f"no team double waits for {actor!r}")
        if c.consented:
            raise _refuse("already_answered", f"{actor!r} has already consented")
        if answer == "no":
            cubes = tuple(replace(x, pending=None, consented=False) for x in self.cubes)
            return replace(self, cubes=cubes, refused_turn=True)
        if answer != "yes":
            raise _refuse("invalid_answer", f"answer yes or no, not {answer!r}")
        cubes = tuple(replace(x, consented=True) if x.player == actor else x for x in self.cubes)
        return replace(self, cubes=cubes)._after_consent()

    def _after_consent(self) -> Table:
        waiting = [c for c in self.cubes if c.pending == "consent"]
        if waiting and all(c.consented for c in waiting):
            cubes = tuple(
                replace(c, pending="member_doubled", consented=False)
                if c.pending == "consent"
                else c
                for c in self.cubes
            )
            return replace(self, cubes=cubes)
        return self

    def member_double(self, actor: PlayerId) -> Table:
        """Individual: ``actor`` doubles the box with their own cube."""
        if self.classic:
            raise _refuse("not_individual", "one team cube: propose the team double")
        if not self.member_may_double(actor):
            raise _refuse(
                "cube_not_available",
                "a member doubles before the team's roll, owning or with the cube centred",
            )
        c = self.cube_of(actor)
        first = c.value == self.initial_cube and c.owner is None
        table = self._set(actor, pending="member_doubled")
        if first:
            table = replace(table, turn_doubles=(*self.turn_doubles, actor))
        return table

    # ================================================================== cubes: box side
    def box_double(self, members: Sequence[PlayerId] | None = None) -> Table:
        """The box doubles: in ``classic`` the team cube (every member in answers); in
        ``individual`` the cubes of ``members`` (default: every cube it may turn)."""
        if self.classic:
            if members is not None and set(members) != set(self.in_members):
                raise _refuse("classic_one_cube", "one team cube: the box doubles every member")
            targets = self.in_members
        elif members is None:
            targets = tuple(p for p in self.in_members if self.box_may_double(p))
        else:
            targets = tuple(members)
            if len(set(targets)) != len(targets):
                raise _refuse("duplicate_player", "a member is named twice")
        if not targets or not all(self.box_may_double(p) for p in targets):
            raise _refuse(
                "cube_not_available",
                "the box doubles before its roll, owning or with the cube centred",
            )
        table = self
        for p in targets:
            table = table._set(p, pending="box_doubled")
        return table

    # ================================================================== answers
    def answer(self, actor: PlayerId, member: PlayerId, answer: str) -> Table:
        """``actor`` answers the decision on ``member``'s cube (see the module docstring).
        In classic the box's answer to the team double is given for every member at once."""
        c = self.cube_of(member)
        if c.pending is None or c.pending == "consent":
            raise _refuse("no_decision_pending", f"no cube decision waits on {member!r}")
        decider = self.box if c.pending in BOX_DECIDES else c.player
        if actor != decider:
            raise _refuse("not_your_decision", f"{decider!r} answers this, not {actor!r}")
        if answer not in self._answers(c):
            raise _refuse("invalid_answer", f"{answer!r} does not answer {c.pending}")
        if self.classic and c.pending == "member_doubled":
            table = self
            for p in [x.player for x in self.cubes if x.pending == "member_doubled"]:
                table = table._resolve(p, answer)
            return table
        if c.pending == "member_doubled" and answer == "drop":
            self._check_half(member)
        return self._resolve(member, answer)

    def _check_half(self, member: PlayerId) -> None:
        """``box_must_take_half``: the box may drop at most half of one team turn's
        first doubles (a lone double may be dropped)."""
        if not self.profile.box_must_take_half or member not in self.turn_doubles:
            return
        group = self.turn_doubles
        dropped = sum(
            1
            for p in group
            if self.cube_of(p).fate == "box_dropped"
            and self.cube_of(p).value == 2 * self.initial_cube
        )
        if len(group) > 1 and dropped + 1 > len(group) // 2:
            raise _refuse(
                "box_must_take_half",
                f"of {len(group)} first doubles made together the box may drop {len(group) // 2}",
            )

    def _resolve(self, member: PlayerId, answer: str) -> Table:
        after = self.cube_of(member).answered(answer, self.profile)
        return replace(self, cubes=tuple(after if c.player == member else c for c in self.cubes))

    def _set(self, member: PlayerId, **changes: Any) -> Table:
        cubes = tuple(replace(c, **changes) if c.player == member else c for c in self.cubes)
        return replace(self, cubes=cubes)

    # ================================================================== settlements
    def settlement_range(self, member: PlayerId) -> tuple[int, int] | None:
        """The settlements the box may offer ``member`` now (``None``: none now)."""
        c = self.cube_of(member)
        if self.is_over or self.waiting or not c.is_in or self.board.phase != "roll":
            return None
        return settlement_bounds(c.value, self.profile)

    def offer_settlement(self, actor: PlayerId, member: PlayerId, points: int) -> Table:
        """The box offers ``member`` to leave the game with ``points`` (+: the box pays the
        member), between turns (before a roll), at most the member's cube times the
        backgammon value either way; the member accepts or refuses."""
        if self.is_over:
            raise _refuse("game_over", "the game is over")
        if actor != self.box:
            raise _refuse("not_your_decision", "only the box offers a settlement")
        if self.waiting:
            raise _refuse("decision_pending", "a cube decision waits for an answer")
        c = self.cube_of(member)
        if not c.is_in:
            raise _refuse("not_in_game", f"{member!r} is out of this game")
        if self.board.phase != "roll":
            raise _refuse("settlement_not_now", "a settlement is offered before a roll")
        if isinstance(points, bool) or not isinstance(points, int):
            raise _refuse("invalid_settlement", "a settlement is whole points")
        low, high = settlement_bounds(c.value, self.profile)
        if not low <= points <= high:
            raise _refuse(
                "settlement_out_of_bounds", f"on a cube of {c.value}: from {low} to {high}"
            )
        return self._set(member, pending="settlement_offered", settlement=points)

    # ================================================================== extras
    @property
    def players(self) -> tuple[PlayerId, ...]:
        """Everybody in this game: the box, the partner, the members."""
        partner = () if self.partner is None else (self.partner,)
        return (self.box, *partner, *self.members)

    def offer_extra(
        self, actor: PlayerId, other: PlayerId, *, backs: str, stake: int, price: int = 0
    ) -> Table:
        """``actor`` offers ``other`` an extra (a side bet on the board, R13 club rule):
        ``backs`` says which side ``actor`` backs (``team``: the actor is the taker, a
        member; ``box``: the giver); ``other`` accepts or refuses it. Offers wait beside
        the game and stop nobody's turn."""
        if self.is_over:
            raise _refuse("game_over", "the game is over")
        if actor not in self.players or other not in self.players:
            raise _refuse("extra_not_in_game", "an extra is between two players of the game")
        if backs not in ("team", "box"):
            raise _refuse("invalid_extra_side", "back the team or the box")
        taker, giver = (actor, other) if backs == "team" else (other, actor)
        extra = Extra(taker=taker, giver=giver, stake=stake, price=price)
        if taker not in self.members:
            raise _refuse("extra_taker_not_member", "the team's backer is a team member")
        if stake > self.profile.max_cube:
            raise _refuse("extra_stake_above_max", f"at most {self.profile.max_cube}")
        if len(self.extras) + len(self.extra_offers) >= MAX_EXTRAS:
            raise _refuse("too_many_extras", f"at most {MAX_EXTRAS} extras in a game")
        return replace(self, extra_offers=(*self.extra_offers, (actor, extra)))

    def answer_extra(self, actor: PlayerId, index: int, accept: bool) -> Table:
        """The other player of offer ``index`` accepts (it counts) or refuses it."""
        if self.is_over:
            raise _refuse("game_over", "the game is over")
        if isinstance(index, bool) or not isinstance(index, int):
            raise _refuse("no_extra_offer", "no such extra offer")
        if not 0 <= index < len(self.extra_offers):
            raise _refuse("no_extra_offer", "no such extra offer")
        by, extra = self.extra_offers[index]
        other = extra.giver if by == extra.taker else extra.taker
        if actor != other:
            raise _refuse("not_your_decision", f"{other!r} answers this extra")
        rest = self.extra_offers[:index] + self.extra_offers[index + 1 :]
        extras = (*self.extras, extra) if accept else self.extras
        return replace(self, extra_offers=rest, extras=extras)

    # ================================================================== time window
    def apply_defaults(self, take_or_drop: Literal["take", "drop"] = "take") -> Table:
        """Every waiting decision takes its default (:func:`default_answer`): a consent
        ``no``, a take-or-drop ``take_or_drop`` (the box takes where it may not drop), a
        raccoon ``no_raccoon``, a settlement ``refuse``."""
        return self.defaults_applied(take_or_drop)[0]

    def defaults_applied(
        self, take_or_drop: Literal["take", "drop"] = "take"
    ) -> tuple[Table, tuple[tuple[PlayerId, PlayerId, str, str], ...]]:
        """:meth:`apply_defaults`, with what it decided: ``(decider, member, kind,
        answer)`` for each answer given (in classic the box's one answer to the team
        double is one row; a consent ``no`` withdraws the whole proposal: one row)."""
        if take_or_drop not in ("take", "drop"):
            raise _refuse("invalid_answer", "the default is take or drop")
        table = self
        given: list[tuple[PlayerId, PlayerId, str, str]] = []
        for _ in range(4 * len(self.cubes) + 1):  # each pass answers at least one
            decisions = table.decisions
            if not decisions:
                return table, tuple(given)
            d = decisions[0]
            answer = default_answer(d.kind, take_or_drop)
            if d.kind == "consent":
                table = table.consent(d.decider, answer)
            else:
                try:
                    table = table.answer(d.decider, d.member, answer)
                except ChouetteError as exc:
                    if exc.code != "box_must_take_half":
                        raise
                    answer = "take"
                    table = table.answer(d.decider, d.member, answer)
            given.append((d.decider, d.member, d.kind, answer))
        return table, tuple(given)  # pragma: no cover - every pass answers one

    # ================================================================== the end
    def entry(self) -> GameEntry:
        """The finished game as the scorekeeper would type it (R13), for the ledger."""
        if not self.is_over:
            raise _refuse("game_not_over", "the game is still being played")
        winner: Literal["box", "team"] | None = None
        kind: Literal["single", "gammon", "backgammon"] | None = None
        if self.in_members:
            if self.flagged is not None:
                winner = "team" if self.flagged == "box" else "box"
                kind = "gammon"
            else:
                result = self.board.result
                assert result is not None
                winner = "box" if result.winner == BOX else "team"
                kind = result.kind if result.kind != "match" else "gammon"
        members = tuple(
            MemberEntry(
                player=c.player,
                cube=c.value,
                fate=ENTRY_FATES[c.fate],
                beavers=c.beavers,
                raccoons=c.raccoons,
                settled=c.settlement if c.fate == "settled" else None,
            )
            for c in self.cubes
        )
        acting = self.acting_captain
        captain_out = not self.cube_of(self.captain).is_in
        groups = self.double_groups + ((self.turn_doubles,) if self.turn_doubles else ())
        entry = GameEntry(
            box=self.box,
            captain=self.captain,
            members=members,
            winner=winner,
            kind=kind,
            partner=self.partner,
            initial_cube=self.initial_cube,
            acting_captain=acting if captain_out and acting is not None else None,
            initial_double_groups=() if self.classic else groups,
            extras=self.extras,
        )
        if self.extras:
            try:
                validate_entry(entry, self.profile)
            except ChouetteError as exc:
                if exc.code != "extra_without_result":
                    raise
                # Nobody played to the end and the drops don't say who gave the board
                # up: an extra has nothing to be settled on, so it is void.
                entry = replace(entry, extras=())
        return entry

    # ================================================================== storage
    def to_dict(self) -> dict[str, Any]:
        return {
            "profile": self.profile.to_dict(),
            "box": self.box,
            "partner": self.partner,
            "members": list(self.members),
            "board": engine_actions.state_to_dict(self.board),
            "cubes": [c.to_dict() for c in self.cubes],
            "initial_cube": self.initial_cube,
            "turn_doubles": list(self.turn_doubles),
            "double_groups": [list(g) for g in self.double_groups],
            "refused_turn": self.refused_turn,
            "flagged": self.flagged,
            "extras": [x.to_dict() for x in self.extras],
            "extra_offers": [[by, x.to_dict()] for by, x in self.extra_offers],
            "away": list(self.away),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Table:
        return cls(
            profile=Profile.from_dict(data["profile"]),
            box=data["box"],
            partner=data["partner"],
            members=tuple(data["members"]),
            board=engine_actions.state_from_dict(data["board"]),
            cubes=tuple(Cube.from_dict(c) for c in data["cubes"]),
            initial_cube=data["initial_cube"],
            turn_doubles=tuple(data["turn_doubles"]),
            double_groups=tuple(tuple(g) for g in data["double_groups"]),
            refused_turn=data["refused_turn"],
            flagged=data["flagged"],
            extras=tuple(Extra.from_dict(x) for x in data.get("extras", ())),
            extra_offers=tuple((by, Extra.from_dict(x)) for by, x in data.get("extra_offers", ())),
            away=tuple(data.get("away", ())),
        )


def table_new(
    *,
    profile: Profile,
    box: PlayerId,
    members: Sequence[PlayerId],
    partner: PlayerId | None = None,
    options: RuleOptions | None = None,
) -> Table:
    """A new game before the opening roll: every cube centred at 1."""
    if not members:
        raise _refuse("too_few_players", "a chouette game needs a box and a team")
    board = new_game(options or RuleOptions(), MatchState.money())
    return Table(
        profile=profile,
        box=box,
        members=tuple(members),
        partner=partner,
        board=board,
        cubes=tuple(Cube(player=p) for p in members),
    )
