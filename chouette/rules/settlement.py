"""One chouette game as entered at the table, its validation and its settlement (R13, R8, R9).

Terms:

* A :class:`GameEntry` records one game: the box, the **original** captain, the partner
  (if any), every team member's cube (:class:`MemberEntry`), the board's winner (``box``
  or ``team``) and the result kind (``single``, ``gammon``, ``backgammon``).
* The team plays **one board**, so every member still in the game at the end has the same
  board result against the box; members differ only in their cube and their fate.
* A member's **fate**:

  - ``took``: the member played to the end; their cube value is the stake, settled at
    1/2/``backgammon_value`` times the cube for single/gammon/backgammon (Jacoby per
    profile, per cube).
  - ``dropped``: the member dropped the box's double; ``cube`` is the value the box
    offered, the member pays the value before the double (``cube // 2``).
  - ``box_dropped``: the box dropped the member's double; ``cube`` is the value the member
    offered, the box pays the member ``cube // 2``.
  - ``settled``: mid-game the box offered the member a **settlement** and the member
    accepted it: ``settled`` is the agreed result in whole points (+: the box pays the
    member, -: the member pays the box), at most the member's cube times
    ``backgammon_value`` either way (:func:`settlement_bounds`); ``cube`` is the member's
    cube when they settled. The member leaves the game as a dropper does. A refused
    offer is no fate: the member plays on.

* ``initial_cube`` is the value every cube started at (1, or more after automatic doubles,
  R8); a cube still at ``initial_cube`` was never turned (Jacoby).
* ``beavers``/``raccoons`` on a member count the beavers and raccoons on that cube (any
  side); each beaver means a double and an immediate redouble, each raccoon one more.
* ``initial_double_groups`` (optional, ``individual`` only): the groups of members whose
  first double of the box came at the same turn; used to check ``box_must_take_half``.

* An **extra** (:class:`Extra`, club practice: an "extra cube") is a side bet between
  two players of the game on the board's result: the ``taker`` backs the team, the
  ``giver`` backs the box. It usually answers a cube action the giver disagrees with
  (a member who dropped the box's double gives an extra to one who took): the giver pays
  the taker ``price`` points up front (by custom 1 for an extra at 2), then the extra is
  settled like a cube of value ``stake`` on the board's result: the taker wins ``stake``
  times 1, 2 or ``backgammon_value`` for a single, gammon or backgammon of the team,
  and pays as much to the giver if the box wins. Jacoby never applies (an extra is
  given at a cube turn); ``stake`` is the extra's final value (after any redoubles).
  The taker is a team member (the box and the partner back the box's result); the giver
  is any other player of the game. A game whose board was not played to its end (no
  member took) has a result for its extras only where the entry says who gave the board
  up (:func:`extras_result`): every member dropped the box's doubles (the box won a
  single), or the box dropped the team's double in ``classic`` / every member's double
  in ``individual`` (the team won a single); otherwise an extra is refused
  (``extra_without_result``).

Settlement (:func:`settle`): each member settles with the box separately; the box side
gets minus the sum of the members; with a partner, the partner gets half the box side's
result rounded toward zero and the box the rest ("odd point to the box": the box takes
the larger share of a win and of a loss alike). Extras are then added between their two
players (personal bets: a box's extra is not shared with the partner). Every game sums
to zero (asserted).

Rotation (:func:`rotation_outcome`) goes by the **original** captain's result: a captain
who dropped lost, a captain whose double the box dropped won, a captain who settled won
if the settlement was positive (zero or less: the captain did not beat the box),
otherwise the board decides; the profile's rotation variant may also weigh the box's net
result for the game (:mod:`chouette.rules.profile`). Extras never count for rotation,
nor for any variant's net result. If the captain left the game, ``acting_captain`` may
name the member who moved the team's checkers for the rest of it (recorded, not used
for scoring).

Validation (:func:`validate_entry`, called by :func:`settle`) refuses impossible entries
with stable codes; the checks that depend only on the entry run in ``__post_init__``,
those that depend on the profile in :func:`validate_entry`. In ``classic`` (one team cube,
doubles alternate between box and team):

* every member who took has the same cube (``classic_cubes_differ``);
* a team double the box dropped was unanimous: then every member not dropped earlier is
  ``box_dropped`` at the same value (``classic_team_double_not_unanimous``);
* a member dropped a double the box offered before the end: at most the takers' cube, and
  below the value of a team double the box dropped (``dropped_beyond_offer``); since
  doubles alternate, all the box's offers are the initial cube times an odd power of two,
  or all times an even one (``classic_drops_inconsistent``);
* a member who settled leaves the team like a dropper: their cube (the team cube when
  they settled) is at most the takers' cube, and below a team double the box dropped
  (``settled_beyond_cube``).
"""

from __future__ import annotations

from collections.abc import Mapping
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
    is_power_of_two,
    require_tuple,
)
from chouette.rules.profile import Profile
from chouette.rules.seating import RotationOutcome, Seating, rotate

Fate = Literal["took", "dropped", "box_dropped", "settled"]
Winner = Literal["box", "team"]
ResultKind = Literal["single", "gammon", "backgammon"]

FATES: tuple[Fate, ...] = ("took", "dropped", "box_dropped", "settled")
#: Fates of a member who answered a double by dropping (theirs or the box's).
DROP_FATES: tuple[Fate, ...] = ("dropped", "box_dropped")
#: The most extras one game may carry (a sanity bound for typed and posted entries).
MAX_EXTRAS = 32
WINNERS: tuple[Winner, ...] = ("box", "team")
RESULT_KINDS: tuple[ResultKind, ...] = ("single", "gammon", "backgammon")
assert get_args(Fate) == FATES
assert get_args(Winner) == WINNERS
assert get_args(ResultKind) == RESULT_KINDS


def _log2(n: int) -> int:
    return n.bit_length() - 1


@dataclass(frozen=True, slots=True)
class MemberEntry:
    """One team member's cube in a game (see the module docstring).

    Attributes:
        player: the member.
        cube: the final value of the member's cube (for a drop: the value offered).
        fate: ``took``, ``dropped``, ``box_dropped`` or ``settled``.
        beavers: beavers on this cube (``individual`` with ``beavers``).
        raccoons: raccoons on this cube (``individual`` with ``raccoons``).
        settled: the points of an accepted settlement (only with the fate ``settled``:
            + the box pays the member, - the member pays the box).
    """

    player: PlayerId
    cube: int = 1
    fate: Fate = "took"
    beavers: int = 0
    raccoons: int = 0
    settled: int | None = None

    def __post_init__(self) -> None:
        check_player(self.player, "member")
        if not is_power_of_two(self.cube):
            raise ChouetteError(
                "invalid_cube", f"{self.player!r}: cube {self.cube!r} is not a power of two"
            )
        if self.fate not in FATES:
            raise ChouetteError("invalid_fate", f"{self.player!r}: unknown fate {self.fate!r}")
        for name in ("beavers", "raccoons"):
            value = getattr(self, name)
            if not is_int(value) or value < 0:
                raise ChouetteError("invalid_data", f"{name} must be a non-negative int")
        if self.raccoons > self.beavers:
            raise ChouetteError(
                "raccoon_without_beaver", f"{self.player!r}: a raccoon answers a beaver"
            )
        if self.fate == "settled":
            if not is_int(self.settled):
                raise ChouetteError(
                    "settlement_missing", f"{self.player!r} settled: give the points agreed"
                )
        elif self.settled is not None:
            raise ChouetteError(
                "settlement_without_fate",
                f"{self.player!r}: settlement points only for a member who settled",
            )

    @property
    def pre_double(self) -> int:
        """The stake before the double that was dropped."""
        return self.cube // 2

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "player": self.player,
            "cube": self.cube,
            "fate": self.fate,
            "beavers": self.beavers,
            "raccoons": self.raccoons,
        }
        if self.fate == "settled":  # only then: stored entries without it stay unchanged
            data["settled"] = self.settled
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MemberEntry:
        keys = ("player", "cube", "fate", "beavers", "raccoons", "settled")
        check_keys(data, keys, ("player",), "member")
        return cls(**dict(data))


@dataclass(frozen=True, slots=True)
class Extra:
    """A side bet of two players on the board's result (see the module docstring).

    Attributes:
        taker: backs the team's result (a team member).
        giver: backs the box's result (any other player of the game).
        stake: points per single game, the extra's final value (whole, positive).
        price: points the giver paid the taker up front (0 up to below the stake).
    """

    taker: PlayerId
    giver: PlayerId
    stake: int
    price: int = 0

    def __post_init__(self) -> None:
        check_player(self.taker, "extra taker")
        check_player(self.giver, "extra giver")
        if self.taker == self.giver:
            raise ChouetteError("extra_same_player", f"{self.taker!r} cannot bet against themself")
        if not is_int(self.stake) or self.stake < 1:
            raise ChouetteError("invalid_extra_stake", "an extra's stake is a whole point or more")
        if not is_int(self.price) or not 0 <= self.price < self.stake:
            raise ChouetteError(
                "invalid_extra_price", "an extra's price is 0 or more, below its stake"
            )

    def to_dict(self) -> dict[str, Any]:
        return {
            "taker": self.taker,
            "giver": self.giver,
            "stake": self.stake,
            "price": self.price,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Extra:
        check_keys(data, ("taker", "giver", "stake", "price"), ("taker", "giver", "stake"), "extra")
        return cls(**dict(data))


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One game as entered at the table (see the module docstring).

    Attributes:
        box: who played box.
        captain: the original captain (a member).
        members: every team member's cube, the captain included (partner excluded).
        winner: ``box`` or ``team`` on the board; ``None`` only if nobody took to the end.
        kind: ``single``, ``gammon`` or ``backgammon``; ``None`` with ``winner``.
        partner: the box's partner, if any.
        initial_cube: the value all cubes started at (automatic doubles, R8).
        acting_captain: who moved the team's checkers after the captain left, if known.
        initial_double_groups: members whose first doubles of the box came together.
        extras: side bets of two players on the board's result (:class:`Extra`).
    """

    box: PlayerId
    captain: PlayerId
    members: tuple[MemberEntry, ...]
    winner: Winner | None = None
    kind: ResultKind | None = None
    partner: PlayerId | None = None
    initial_cube: int = 1
    acting_captain: PlayerId | None = None
    initial_double_groups: tuple[tuple[PlayerId, ...], ...] = ()
    extras: tuple[Extra, ...] = ()

    def __post_init__(self) -> None:
        require_tuple(self.members, "members")
        require_tuple(self.initial_double_groups, "initial_double_groups")
        require_tuple(self.extras, "extras")
        for m in self.members:
            if not isinstance(m, MemberEntry):
                raise ChouetteError("invalid_data", "members must be MemberEntry values")
        for x in self.extras:
            if not isinstance(x, Extra):
                raise ChouetteError("invalid_data", "extras must be Extra values")
        check_player(self.box, "box")
        check_player(self.captain, "captain")
        if self.partner is not None:
            check_player(self.partner, "partner")
        players = (self.box, *([self.partner] if self.partner is not None else []), *self.players)
        check_distinct(players, "the game")
        if self.captain not in self.players:
            raise ChouetteError("captain_not_member", f"captain {self.captain!r} has no cube entry")
        if not is_power_of_two(self.initial_cube):
            raise ChouetteError("invalid_cube", "initial_cube must be a power of two")
        for m in self.members:
            if m.cube < self.initial_cube:
                raise ChouetteError(
                    "cube_below_initial",
                    f"{m.player!r}: cube {m.cube} is below the initial cube {self.initial_cube}",
                )
            if m.fate in DROP_FATES and m.cube < 2 * self.initial_cube:
                raise ChouetteError(
                    "drop_without_double", f"{m.player!r}: a drop needs a double (cube >= 2)"
                )
            turns_needed = 2 * m.beavers + m.raccoons
            if m.cube < self.initial_cube << turns_needed:
                raise ChouetteError(
                    "cube_too_small_for_beavers",
                    f"{m.player!r}: {m.beavers} beaver(s) and {m.raccoons} raccoon(s) "
                    f"need a cube of at least {self.initial_cube << turns_needed}",
                )
        if self.takers:
            if self.winner not in WINNERS:
                raise ChouetteError("missing_result", "members played on: name the winner")
            if self.kind not in RESULT_KINDS:
                raise ChouetteError("missing_result", "members played on: name the result kind")
        elif self.winner is not None or self.kind is not None:
            raise ChouetteError(
                "result_without_takers", "every cube was dropped: the board has no result"
            )
        if self.acting_captain is not None:
            captain = self.member(self.captain)
            acting = (
                self.member(self.acting_captain) if self.acting_captain in self.players else None
            )
            if captain.fate == "took" or acting is None or acting.fate != "took":
                raise ChouetteError(
                    "invalid_acting_captain",
                    "an acting captain is a member who played on after the captain left",
                )
        grouped: list[PlayerId] = []
        for group in self.initial_double_groups:
            require_tuple(group, "an initial double group")
            for p in group:
                if p not in self.players:
                    raise ChouetteError("invalid_double_group", f"{p!r} is not a member")
                if self.member(p).cube < 2 * self.initial_cube:
                    raise ChouetteError("invalid_double_group", f"{p!r}'s cube was never doubled")
            grouped.extend(group)
        check_distinct(grouped, "the initial double groups")
        self._check_extras()

    def _check_extras(self) -> None:
        if len(self.extras) > MAX_EXTRAS:
            raise ChouetteError("too_many_extras", f"at most {MAX_EXTRAS} extras in a game")
        in_game = {self.box, *self.players}
        if self.partner is not None:
            in_game.add(self.partner)
        for x in self.extras:
            for p in (x.taker, x.giver):
                if p not in in_game:
                    raise ChouetteError("extra_not_in_game", f"{p!r} does not play this game")
            if x.taker not in self.players:
                raise ChouetteError(
                    "extra_taker_not_member",
                    f"{x.taker!r} backs the team: a team member (the box's side backs the box)",
                )

    # ------------------------------------------------------------------ queries
    @property
    def players(self) -> tuple[PlayerId, ...]:
        """The members, in entry order."""
        return tuple(m.player for m in self.members)

    @property
    def takers(self) -> tuple[MemberEntry, ...]:
        """Members who played to the end of the board."""
        return tuple(m for m in self.members if m.fate == "took")

    def member(self, player: PlayerId) -> MemberEntry:
        for m in self.members:
            if m.player == player:
                return m
        raise ChouetteError("not_a_member", f"{player!r} has no cube in this game")

    @property
    def captain_won(self) -> bool:
        """The original captain's result against the box (R13 rotation)."""
        captain = self.member(self.captain)
        if captain.fate == "dropped":
            return False
        if captain.fate == "box_dropped":
            return True
        if captain.fate == "settled":
            # Decision (docs/rules.md R13): a positive settlement beat the box; even or
            # less did not, and the box stays.
            return (captain.settled or 0) > 0
        return self.winner == "team"

    # ------------------------------------------------------------------ storage
    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "box": self.box,
            "captain": self.captain,
            "partner": self.partner,
            "members": [m.to_dict() for m in self.members],
            "winner": self.winner,
            "kind": self.kind,
            "initial_cube": self.initial_cube,
            "acting_captain": self.acting_captain,
            "initial_double_groups": [list(g) for g in self.initial_double_groups],
        }
        if self.extras:  # only then: stored entries without extras stay unchanged
            data["extras"] = [x.to_dict() for x in self.extras]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameEntry:
        keys = (
            "box",
            "captain",
            "partner",
            "members",
            "winner",
            "kind",
            "initial_cube",
            "acting_captain",
            "initial_double_groups",
            "extras",
        )
        check_keys(data, keys, ("box", "captain", "members"), "game entry")
        members = tuple(MemberEntry.from_dict(m) for m in as_tuple(data["members"], "members"))
        groups = tuple(
            as_tuple(g, "an initial double group")
            for g in as_tuple(data.get("initial_double_groups", ()), "initial_double_groups")
        )
        return cls(
            box=data["box"],
            captain=data["captain"],
            members=members,
            winner=data.get("winner"),
            kind=data.get("kind"),
            partner=data.get("partner"),
            initial_cube=data.get("initial_cube", 1),
            acting_captain=data.get("acting_captain"),
            initial_double_groups=groups,
            extras=tuple(Extra.from_dict(x) for x in as_tuple(data.get("extras", ()), "extras")),
        )


# ---------------------------------------------------------------------- validation
def validate_entry(entry: GameEntry, profile: Profile) -> None:
    """Refuse an entry the profile makes impossible (see the module docstring)."""
    a = entry.initial_cube
    if a > profile.max_initial_cube:
        no_autos = profile.automatic_doubles == 0
        code = "automatic_double_not_allowed" if no_autos else "initial_cube_above_limit"
        raise ChouetteError(code, f"initial cube {a}: at most {profile.max_initial_cube} here (R8)")
    for m in entry.members:
        if m.cube > profile.max_cube:
            raise ChouetteError(
                "cube_above_max", f"{m.player!r}: cube {m.cube} is above {profile.max_cube}"
            )
        if m.beavers and not profile.beavers:
            raise ChouetteError("beaver_not_allowed", "this profile has no beavers")
        if m.raccoons and not profile.raccoons:
            raise ChouetteError("raccoon_not_allowed", "this profile has no raccoons")
        if m.fate == "settled":
            low, high = settlement_bounds(m.cube, profile)
            assert m.settled is not None  # MemberEntry checks it
            if not low <= m.settled <= high:
                raise ChouetteError(
                    "settlement_out_of_bounds",
                    f"{m.player!r} settled for {m.settled}: on a cube of {m.cube} a "
                    f"settlement is from {low} to {high}",
                )
    for x in entry.extras:
        if x.stake > profile.max_cube:
            raise ChouetteError(
                "extra_stake_above_max", f"an extra at {x.stake} is above {profile.max_cube}"
            )
    if entry.extras:
        extras_result(entry, profile)  # refuses an extra with no result to ride on
    _validate_partner(entry, profile)
    if profile.kind == "classic":
        _validate_classic(entry)
    elif profile.box_must_take_half:
        # Only doubles offered together are "simultaneous": a lone double may be dropped.
        for group in (g for g in entry.initial_double_groups if len(g) > 1):
            dropped = [
                p
                for p in group
                if entry.member(p).fate == "box_dropped" and entry.member(p).cube == 2 * a
            ]
            if len(dropped) > len(group) // 2:
                raise ChouetteError(
                    "box_must_take_half",
                    f"the box dropped {len(dropped)} of {len(group)} simultaneous initial "
                    "doubles: it must take at least half",
                )


def _validate_partner(entry: GameEntry, profile: Profile) -> None:
    seated = 1 + len(entry.members) + (entry.partner is not None)
    if entry.partner is not None and not profile.box_partner:
        raise ChouetteError("partner_not_allowed", "this profile has no box partner")
    if profile.box_partner:
        if entry.partner is None and seated >= profile.box_partner_min_players:
            raise ChouetteError(
                "partner_missing",
                f"{seated} players: the box has a partner from {profile.box_partner_min_players}",
            )
        if entry.partner is not None and seated < profile.box_partner_min_players:
            raise ChouetteError(
                "partner_too_few_players",
                f"{seated} players: a partner only from {profile.box_partner_min_players}",
            )


def _validate_classic(entry: GameEntry) -> None:
    if entry.initial_double_groups:
        raise ChouetteError(
            "option_needs_individual", "initial double groups exist only with own cubes"
        )
    a = entry.initial_cube
    took = {m.cube for m in entry.members if m.fate == "took"}
    box_dropped = {m.cube for m in entry.members if m.fate == "box_dropped"}
    dropped = {m.cube for m in entry.members if m.fate == "dropped"}
    if len(took) > 1:
        raise ChouetteError(
            "classic_cubes_differ", f"one team cube: members who took have cubes {sorted(took)}"
        )
    if box_dropped and (took or len(box_dropped) > 1):
        raise ChouetteError(
            "classic_team_double_not_unanimous",
            "a team double is unanimous: the box drops every remaining member or none",
        )
    # The highest value the box can have offered: the final team cube, or half a team
    # double the box dropped.
    ceiling = max(took) if took else (max(box_dropped) // 2 if box_dropped else None)
    if ceiling is not None:
        for d in dropped:
            if d > ceiling:
                raise ChouetteError(
                    "dropped_beyond_offer",
                    f"a member dropped a double to {d}, but the team cube never passed {ceiling}",
                )
        # A member who settled left the team like a dropper, at the team cube of then.
        for m in entry.members:
            if m.fate == "settled" and m.cube > ceiling:
                raise ChouetteError(
                    "settled_beyond_cube",
                    f"{m.player!r} settled on a cube of {m.cube}, but the team cube never "
                    f"passed {ceiling}",
                )
    parities = {(_log2(d) - _log2(a)) % 2 for d in dropped}
    if box_dropped:
        # The box dropped a team offer: the box's own offers have the other parity.
        parities.add((_log2(max(box_dropped)) - _log2(a) + 1) % 2)
    if len(parities) > 1:
        raise ChouetteError(
            "classic_drops_inconsistent",
            "with one team cube the box's doubles alternate with the team's: these drops "
            "cannot all answer doubles by the box",
        )


# ---------------------------------------------------------------------- settlement
def settlement_bounds(cube: int, profile: Profile) -> tuple[int, int]:
    """The lowest and highest settlement a member may accept on a cube of ``cube``: what
    they could lose or win at most, ``cube`` times the backgammon value (R9), either way.

    Called by the table entry's validation and by online play to check an offer."""
    if not is_power_of_two(cube):
        raise ChouetteError("invalid_cube", f"cube {cube!r} is not a power of two")
    most = cube * profile.backgammon_value
    return -most, most


def _multiplier(kind: ResultKind | None, profile: Profile) -> int:
    if kind == "gammon":
        return 2
    if kind == "backgammon":
        return profile.backgammon_value
    return 1


def member_points(member: MemberEntry, entry: GameEntry, profile: Profile) -> int:
    """What ``member`` wins (+) or loses (-) against the box in this game (their cube;
    extras not included: :func:`extra_points`)."""
    if member.fate == "dropped":
        return -member.pre_double
    if member.fate == "box_dropped":
        return member.pre_double
    if member.fate == "settled":
        assert member.settled is not None
        return member.settled
    if entry.kind == "single" or (profile.jacoby and member.cube == entry.initial_cube):
        multiplier = 1  # Jacoby: per cube, a cube never turned scores singles
    elif entry.kind == "gammon":
        multiplier = 2
    else:
        multiplier = profile.backgammon_value
    points = member.cube * multiplier
    return points if entry.winner == "team" else -points


def extras_result(entry: GameEntry, profile: Profile) -> tuple[Winner, ResultKind]:
    """The board result the game's extras are settled on: the board's, or, when no member
    played to the end, a single won by the side the other gave the board up to (module
    docstring); ``extra_without_result`` when the entry does not say which."""
    if entry.winner is not None and entry.kind is not None:
        return entry.winner, entry.kind
    fates = {m.fate for m in entry.members}
    if fates == {"dropped"}:
        return "box", "single"
    if fates == {"box_dropped"} or (profile.kind == "classic" and "box_dropped" in fates):
        # classic: the box's drop of the team's (unanimous) double ended the game.
        return "team", "single"
    raise ChouetteError(
        "extra_without_result",
        "nobody played the board to its end and the entry does not say who gave it up: "
        "an extra has no result to be settled on",
    )


def extra_points(extra: Extra, entry: GameEntry, profile: Profile) -> int:
    """What the extra's ``taker`` wins (+) from its ``giver`` or loses (-) to them: the
    price, then the stake on the board's result (gammons count, Jacoby never)."""
    winner, kind = extras_result(entry, profile)
    on_board = extra.stake * _multiplier(kind, profile)
    return extra.price + (on_board if winner == "team" else -on_board)


def split_box_share(total: int) -> tuple[int, int]:
    """(box, partner) shares of the box side's ``total``: the odd point to the box."""
    partner = abs(total) // 2 * (1 if total >= 0 else -1)
    return total - partner, partner


def settle(entry: GameEntry, profile: Profile) -> dict[PlayerId, int]:
    """Points of every player for the game: box (and partner), then the members.

    Validates the entry against the profile first (:func:`validate_entry`)."""
    validate_entry(entry, profile)
    members = {m.player: member_points(m, entry, profile) for m in entry.members}
    box_side = -sum(members.values())
    result: dict[PlayerId, int] = {}
    if entry.partner is None:
        result[entry.box] = box_side
    else:
        result[entry.box], result[entry.partner] = split_box_share(box_side)
    result.update(members)
    for x in entry.extras:  # personal bets, after the partner's split
        won = extra_points(x, entry, profile)
        result[x.taker] += won
        result[x.giver] -= won
    assert sum(result.values()) == 0, "a chouette game sums to zero (R13)"
    return result


def box_side_result(entry: GameEntry, profile: Profile) -> int:
    """The box's result for the game with the partner's share (minus the members' sum;
    extras are side bets and do not count)."""
    return -sum(member_points(m, entry, profile) for m in entry.members)


def rotation_outcome(entry: GameEntry, profile: Profile) -> RotationOutcome:
    """Who has the box next game, by the profile's rotation variant
    (:mod:`chouette.rules.profile`; the rotations: :mod:`chouette.rules.seating`). The
    box's net is :func:`box_side_result` (the partner's share included)."""
    validate_entry(entry, profile)
    beat_captain = not entry.captain_won
    if profile.rotation == "standard":
        return "box" if beat_captain else "captain"
    net = box_side_result(entry, profile)
    if profile.rotation == "box_needs_net_profit":
        return "box" if beat_captain and net > 0 else "captain"
    if profile.rotation == "net_profit_decides":
        return "box" if net > 0 else "captain"
    assert profile.rotation == "double_stand_up", profile.rotation
    if not beat_captain:
        return "captain"
    return "box" if net >= 0 else "both"


def check_entry_seating(entry: GameEntry, seating: Seating, profile: Profile) -> None:
    """Refuse an entry whose roles are not the seating's (``entry_seating_mismatch``)."""
    problems = []
    if entry.box != seating.box:
        problems.append(f"box is {seating.box!r}")
    if entry.captain != seating.captain:
        problems.append(f"captain is {seating.captain!r}")
    if entry.partner != seating.partner(profile):
        problems.append(f"partner is {seating.partner(profile)!r}")
    if set(entry.players) != set(seating.team(profile)):
        problems.append(f"team is {list(seating.team(profile))!r}")
    if problems:
        raise ChouetteError("entry_seating_mismatch", "; ".join(problems))


def next_seating(seating: Seating, entry: GameEntry, profile: Profile) -> Seating:
    """The seating after ``entry`` was played from ``seating`` (checked, then rotated)."""
    check_entry_seating(entry, seating, profile)
    return rotate(seating, rotation_outcome(entry, profile))
