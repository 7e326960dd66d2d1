"""Who sits where in a chouette: box, captain, the line, sitting out (docs/rules.md R13).

Terms:

* The **box** plays alone against the **team**. The **line** is the team in order: its
  first player is the **captain** (who moves the team's checkers), the others follow in
  the order in which they will become captain.
* The **partner** (``individual`` profile with ``box_partner``, at
  ``box_partner_min_players`` or more seated players, default 6) is the *last* player of
  the line. For that game they play on the box's side (no cube of their own) and share
  the box's result; the team is the line without them.
* **Sitting out** players keep their totals but are not seated.

R13 rotation (:func:`rotate`), after each game:

* ``"box"`` (the box keeps the box): the box stays, the captain goes to the end of the
  line, the next player becomes captain.
* ``"captain"`` (the captain takes the box): the captain becomes the box, the next player
  becomes captain and the old box goes to the end of the line.
* ``"both"`` (both stand up; the ``double_stand_up`` rotation variant only): the captain
  goes to the end of the line and the old box behind them; the next player takes the box
  and the one after becomes captain. With only box and captain seated there is nobody
  else to take the box, and the captain takes it (as ``"captain"``).

Which one happened is decided from the game by
:func:`chouette.rules.settlement.rotation_outcome` (original captain's result; a captain
who dropped lost, a captain whose double the box dropped won; the profile's rotation
variant may also ask for the box's net result: :mod:`chouette.rules.profile`).

**Splitting** (issue 19, :func:`split_plan`): a chouette of ``split_min_players`` or more
seated players (profile, default 8) may split into two. The players who move sit out of
this session (their totals stay in its ledger) and start the new one, seated in the
order they sat here (:func:`seating_from_order`: the first of them takes the box). By
default every second player of the line moves, from the captain: the box keeps the box,
the next player becomes its captain, the captain takes the new session's box, and both
halves are as even as can be (the new one gets the smaller half of an odd table). Each
half keeps at least three players (R13), and only seated players move.

Decisions where docs/rules.md is silent:

* **Roll-off ties.** :func:`seating_from_rolls` takes every player's rolls in order: the
  first number is the roll-off, further numbers are re-rolls, used only to break ties
  among the players tied so far. An unbroken tie is refused (``tied_rolls``, naming the
  players who must roll again), and so is a re-roll by a player who was not tied
  (``needless_reroll``). With seven or more players one die must tie, so ties are broken,
  never forbidden. :func:`seating_from_order` takes the order directly.
* **Partner rotation.** The partner is a *position* (the end of the line), not a separate
  seat, so rotation needs no rule of its own: after a box win the losing captain goes to
  the end and partners the box next game; after a captain win the old box goes to the
  end and partners the new box. This is the club habit "the last loser helps the box",
  it never takes the next captain off the team, and everybody still moves one place
  towards the captaincy each game. The previous partner rejoins the team one place from
  the end.
* **Sitting out.** A player who sits out leaves the line; when they come back they join at
  the **end** of the line, like a newcomer (common practice: nobody keeps a place in the
  queue while away). A box who sits out hands the box to the captain (as if the captain
  had won, but the old box leaves instead of joining the line); a captain who sits out is
  replaced by the next player. At least two players (box and captain) must stay seated
  (``too_few_players``); a session starts with at least three (R13).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from chouette.rules.common import (
    ChouetteError,
    PlayerId,
    as_tuple,
    check_distinct,
    check_keys,
    check_player,
    is_int,
    require_tuple,
)
from chouette.rules.profile import Profile

RotationOutcome = Literal["box", "captain", "both"]
"""``"box"``: the box keeps the box; ``"captain"``: the captain takes the box;
``"both"``: both stand up (the ``double_stand_up`` variant)."""
ROTATION_OUTCOMES: tuple[RotationOutcome, ...] = ("box", "captain", "both")
assert get_args(RotationOutcome) == ROTATION_OUTCOMES

#: R13: "three or more players" to start a chouette.
MIN_START_PLAYERS = 3
#: Box and captain: the fewest seated players a game can be played with.
MIN_SEATED_PLAYERS = 2


@dataclass(frozen=True, slots=True)
class Seating:
    """The seating between two games.

    Attributes:
        box: the player playing alone.
        line: the team in order, the captain first (the partner, if any, last).
        out: players sitting out, in the order they left.
    """

    box: PlayerId
    line: tuple[PlayerId, ...]
    out: tuple[PlayerId, ...] = ()

    def __post_init__(self) -> None:
        require_tuple(self.line, "line")
        require_tuple(self.out, "out")
        check_player(self.box, "box")
        for p in self.line + self.out:
            check_player(p)
        if not self.line:
            raise ChouetteError("too_few_players", "a seating needs a box and a captain")
        check_distinct(self.all_players, "the seating")

    @property
    def captain(self) -> PlayerId:
        """The first player of the line."""
        return self.line[0]

    @property
    def seated(self) -> tuple[PlayerId, ...]:
        """Box first, then the line."""
        return (self.box, *self.line)

    @property
    def all_players(self) -> tuple[PlayerId, ...]:
        """Seated players (box, line) then those sitting out."""
        return (self.box, *self.line, *self.out)

    def has_partner(self, profile: Profile) -> bool:
        """Whether the box has a partner this game (``individual`` with ``box_partner``
        and at least ``box_partner_min_players`` seated)."""
        return profile.box_partner and len(self.seated) >= profile.box_partner_min_players

    def partner(self, profile: Profile) -> PlayerId | None:
        """The box's partner this game: the last player of the line, or ``None``."""
        return self.line[-1] if self.has_partner(profile) else None

    def team(self, profile: Profile) -> tuple[PlayerId, ...]:
        """The players with a cube against the box: the line without the partner."""
        return self.line[:-1] if self.has_partner(profile) else self.line

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form; :meth:`from_dict` reads it back."""
        return {"box": self.box, "line": list(self.line), "out": list(self.out)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Seating:
        check_keys(data, ("box", "line", "out"), ("box", "line"), "seating")
        return cls(
            box=data["box"],
            line=as_tuple(data["line"], "line"),
            out=as_tuple(data.get("out", ()), "out"),
        )


def seating_from_order(players: Sequence[PlayerId]) -> Seating:
    """The seating for players already in roll-off order: box, captain, the rest."""
    players = tuple(players)
    for p in players:
        check_player(p)
    check_distinct(players, "the players")
    if len(players) < MIN_START_PLAYERS:
        raise ChouetteError("too_few_players", "a chouette needs three or more players (R13)")
    return Seating(box=players[0], line=players[1:])


def roll_off_order(rolls: Mapping[PlayerId, int | Sequence[int]]) -> tuple[PlayerId, ...]:
    """Order players by their roll-off (highest first), re-rolls breaking ties.

    ``rolls[p]`` is one die (``int``) or the sequence of p's rolls: the roll-off, then the
    re-rolls p made because of a tie (see the module docstring)."""
    entries: list[tuple[PlayerId, tuple[int, ...]]] = []
    for player, value in rolls.items():
        check_player(player)
        seq = (value,) if isinstance(value, int) else tuple(value)
        if not seq:
            raise ChouetteError("invalid_roll", f"{player!r} has no roll")
        for die in seq:
            if not is_int(die) or not 1 <= die <= 6:
                raise ChouetteError("invalid_roll", f"{player!r} rolled {die!r}: a die is 1..6")
        entries.append((player, seq))
    order: list[PlayerId] = []
    _order_group(entries, 0, order)
    return tuple(order)


def _order_group(
    group: list[tuple[PlayerId, tuple[int, ...]]], depth: int, out: list[PlayerId]
) -> None:
    """Append ``group`` (players tied on their first ``depth`` rolls) to ``out`` in order."""
    by_roll: dict[int, list[tuple[PlayerId, tuple[int, ...]]]] = {}
    for player, seq in group:
        if len(seq) <= depth:
            tied = [p for p, _ in group]
            raise ChouetteError(
                "tied_rolls", f"tie between {tied!r}: they roll again", players=tuple(tied)
            )
        by_roll.setdefault(seq[depth], []).append((player, seq))
    for roll in sorted(by_roll, reverse=True):
        sub = by_roll[roll]
        if len(sub) == 1:
            player, seq = sub[0]
            if len(seq) > depth + 1:
                raise ChouetteError(
                    "needless_reroll", f"{player!r} re-rolled without being tied", players=(player,)
                )
            out.append(player)
        else:
            _order_group(sub, depth + 1, out)


def seating_from_rolls(rolls: Mapping[PlayerId, int | Sequence[int]]) -> Seating:
    """R13 roll-off: highest = box, second = captain, the rest queue in roll order."""
    return seating_from_order(roll_off_order(rolls))


def join(seating: Seating, player: PlayerId) -> Seating:
    """A newcomer joins at the end of the line (``already_seated`` if known here)."""
    check_player(player)
    if player in seating.all_players:
        code = "sitting_out" if player in seating.out else "already_seated"
        raise ChouetteError(code, f"{player!r} is already in the session")
    return Seating(box=seating.box, line=(*seating.line, player), out=seating.out)


def sit_out(seating: Seating, player: PlayerId) -> Seating:
    """``player`` leaves their seat between games (see the module docstring)."""
    if player not in seating.seated:
        raise ChouetteError("not_seated", f"{player!r} is not seated")
    if len(seating.seated) <= MIN_SEATED_PLAYERS:
        raise ChouetteError("too_few_players", "box and captain must stay seated")
    out = (*seating.out, player)
    if player == seating.box:
        return Seating(box=seating.line[0], line=seating.line[1:], out=out)
    return Seating(box=seating.box, line=tuple(p for p in seating.line if p != player), out=out)


def come_back(seating: Seating, player: PlayerId) -> Seating:
    """A player sitting out comes back at the end of the line."""
    if player not in seating.out:
        raise ChouetteError("not_sitting_out", f"{player!r} is not sitting out")
    return Seating(
        box=seating.box,
        line=(*seating.line, player),
        out=tuple(p for p in seating.out if p != player),
    )


def reseat(seating: Seating, box: PlayerId, line: Sequence[PlayerId]) -> Seating:
    """The seating set by hand between games (the scorekeeper: issue 27): ``box`` and
    the ``line`` (captain first) hold exactly the players seated now, each once; those
    sitting out stay out. Refusals: ``invalid_player``, ``duplicate_player``,
    ``too_few_players`` (no captain), ``reseat_players_differ`` (a player added, left
    out, or sitting out)."""
    check_player(box, "box")
    line = tuple(line)
    for p in line:
        check_player(p)
    if not line:
        raise ChouetteError("too_few_players", "a seating needs a box and a captain")
    check_distinct((box, *line), "the new seating")
    if {box, *line} != set(seating.seated):
        raise ChouetteError(
            "reseat_players_differ",
            f"the new seating must hold the seated players {list(seating.seated)!r}",
        )
    return Seating(box=box, line=line, out=seating.out)


def seating_for_roles(
    seating: Seating, box: PlayerId, captain: PlayerId, partner: PlayerId | None = None
) -> Seating:
    """The seating with ``box``, ``captain`` (and the box's ``partner``, the end of the
    line) chosen by hand, the other seated players keeping their order in the line (the
    old box, if it leaves the box, after them, before the partner): what a game entry
    that names other roles than the seating's means (:func:`reseat` checks it)."""
    chosen = (box, captain) if partner is None else (box, captain, partner)
    rest = tuple(p for p in (*seating.line, seating.box) if p not in chosen)
    line = (captain, *rest) if partner is None else (captain, *rest, partner)
    return reseat(seating, box, line)


def rotate(seating: Seating, outcome: RotationOutcome) -> Seating:
    """R13 rotation after a game (see the module docstring)."""
    captain, rest = seating.line[0], seating.line[1:]
    if outcome == "box":
        return Seating(box=seating.box, line=(*rest, captain), out=seating.out)
    if outcome == "captain" or (outcome == "both" and not rest):
        return Seating(box=captain, line=(*rest, seating.box), out=seating.out)
    if outcome == "both":
        return Seating(box=rest[0], line=(*rest[1:], captain, seating.box), out=seating.out)
    raise ChouetteError(
        "invalid_outcome", f"rotation outcome is 'box', 'captain' or 'both', not {outcome!r}"
    )


@dataclass(frozen=True, slots=True)
class SplitPlan:
    """What splitting a chouette in two does (:func:`split_plan`).

    Attributes:
        moved: the players who start the new session, in the order they sat here.
        staying: this session's seating after they sat out (they are last in ``out``).
        new: the new session's seating (:func:`seating_from_order` of ``moved``).
    """

    moved: tuple[PlayerId, ...]
    staying: Seating
    new: Seating


def default_movers(seating: Seating) -> tuple[PlayerId, ...]:
    """Every second player of the line, from the captain (module docstring)."""
    return seating.line[0::2]


def split_plan(
    seating: Seating, profile: Profile, move: Sequence[PlayerId] | None = None
) -> SplitPlan:
    """Split a chouette in two (module docstring): ``move`` the players who start the new
    session (``None``: :func:`default_movers`).

    Refusals: fewer than ``profile.split_min_players`` seated (``split_too_few_players``),
    a player to move who is not seated (``split_not_seated``), a player named twice
    (``duplicate_player``), a half with fewer than three players
    (``split_side_too_small``)."""
    seated = seating.seated
    if len(seated) < profile.split_min_players:
        raise ChouetteError(
            "split_too_few_players",
            f"{len(seated)} seated: a chouette splits from {profile.split_min_players}",
        )
    chosen = default_movers(seating) if move is None else tuple(move)
    for p in chosen:
        check_player(p)
    check_distinct(chosen, "the players to move")
    strangers = [p for p in chosen if p not in seated]
    if strangers:
        raise ChouetteError(
            "split_not_seated",
            f"{strangers!r} are not seated: only seated players move",
            players=tuple(strangers),
        )
    if min(len(chosen), len(seated) - len(chosen)) < MIN_START_PLAYERS:
        raise ChouetteError(
            "split_side_too_small",
            f"{len(chosen)} move, {len(seated) - len(chosen)} stay: each half needs three",
        )
    moved = tuple(p for p in seated if p in chosen)
    staying = seating
    for p in moved:
        staying = sit_out(staying, p)
    return SplitPlan(moved=moved, staying=staying, new=seating_from_order(moved))
