"""Rule profiles of a chouette session (docs/rules.md R13, R8, R9).

A :class:`Profile` is chosen when a session starts and never changes during it. It is
validated when constructed; every impossible combination raises
``ChouetteError("invalid_profile", ...)`` or a more specific code.

Terms:

* ``classic`` (seed 000, the default): **one team cube**. A team double of the box must
  be unanimous (every member still in the game doubles, so the box takes or drops them
  all at once); when the box doubles, each member takes or drops alone: droppers pay the
  stake before the double and leave the game, takers play on at the doubled stake.
* ``individual`` (common club practice): **every member has an own cube**. Each member
  may double the box alone, the box answers each cube separately, and the box may double
  members one at a time.
* **Rotation variant** (who has the box next; the box's **net** is its result for the
  game, the partner's share included; :func:`chouette.rules.settlement.rotation_outcome`):

  - ``standard`` (R13, the default): the box stays if it beat the captain.
  - ``box_needs_net_profit``: the box stays only if it beat the captain *and* its net is
    positive; otherwise the captain takes the box as if the captain had won.
  - ``net_profit_decides`` (the individual-cube chouette as the Cavendish Club of
    Philadelphia played it, 1980: "the man in the box must show a profit in order to
    stay"): the box stays if its net is positive, whatever happened against the
    captain; otherwise the captain takes the box.
  - ``double_stand_up`` (the Los Angeles chouette rules): the box stays if it beat the
    captain and its net is not a loss (breaking even is enough). If the captain beat the
    box, the captain takes the box (R13). If the box beat the captain but lost on the
    game, **both stand up**: the captain goes to the end of the line, the old box behind
    them, and the next player takes the box (:func:`chouette.rules.seating.rotate`,
    outcome ``"both"``).

* ``split_min_players``: from this many seated players the table may split the chouette
  into two (:func:`chouette.rules.seating.split_plan`; default 8, at least 6 so that each
  half has three).

Options (R8 money-play options, applied per cube):

* ``jacoby``: a cube that was never turned (its value is still the game's initial cube)
  scores gammons and backgammons as singles. Per cube: in ``individual`` a member whose
  own cube was turned scores a gammon while a neighbour with an unturned cube scores a
  single. An automatic double is not a turn (nobody offered it).
* ``beavers`` / ``raccoons`` (``individual`` only): the taker of a double may redouble at
  once and keep the cube (beaver); the beavered side may then redouble at once again
  (raccoon). Raccoons need beavers.
* ``automatic_doubles``: the most automatic doubles per game (0 = off); the game's
  initial cube is then at most ``2 ** automatic_doubles``. One opening roll serves every
  board position, so all cubes of a game start at the same value.
* ``box_must_take_half`` (``individual`` only): of the members' initial doubles offered to
  the box at the same turn, the box must take at least half (drop at most ``n // 2``).
* ``box_partner`` (``individual`` only): with ``box_partner_min_players`` or more players
  seated (default 6), a partner sits on the box's side and the two split the box's result,
  the odd point to the box.
* ``backgammon_value`` (R9): 3 (default), 2 or 1.
* ``max_cube`` (R8): the highest cube value, a power of two >= 2 (default 64).

Decision where docs/rules.md is silent: options that only make sense with own cubes
(beavers, raccoons, box_must_take_half, box_partner) are *refused* in ``classic``
(``option_needs_individual``) rather than ignored, so a stored profile never claims a rule
that is not applied. Jacoby and automatic doubles apply to the one team cube.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal, get_args

from chouette.rules.common import ChouetteError, check_keys, is_int, is_power_of_two

ProfileKind = Literal["classic", "individual"]
RotationVariant = Literal[
    "standard", "box_needs_net_profit", "net_profit_decides", "double_stand_up"
]

PROFILE_KINDS: tuple[ProfileKind, ...] = ("classic", "individual")
ROTATION_VARIANTS: tuple[RotationVariant, ...] = (
    "standard",
    "box_needs_net_profit",
    "net_profit_decides",
    "double_stand_up",
)
assert get_args(ProfileKind) == PROFILE_KINDS
assert get_args(RotationVariant) == ROTATION_VARIANTS

#: R13 (with the issue): the box partner joins at six players unless the profile says more.
DEFAULT_PARTNER_MIN_PLAYERS = 6
#: Issue 19: a chouette of eight seated players may split into two (the Los Angeles
#: rules split a seven-handed game when an eighth player joins).
DEFAULT_SPLIT_MIN_PLAYERS = 8
#: Each half of a split keeps at least three players (R13's minimum), so six at least.
LOWEST_SPLIT_MIN_PLAYERS = 6


def _invalid(message: str) -> ChouetteError:
    return ChouetteError("invalid_profile", message)


@dataclass(frozen=True, slots=True)
class Profile:
    """The rules a chouette session is played by (see the module docstring).

    Attributes:
        kind: ``classic`` (default) or ``individual``.
        rotation: one of :data:`ROTATION_VARIANTS` (default ``standard``).
        jacoby: gammons count only on a turned cube (per cube).
        beavers: ``individual`` only.
        raccoons: ``individual`` only; needs ``beavers``.
        automatic_doubles: at most this many automatic doubles per game (0 = off).
        box_must_take_half: ``individual`` only.
        box_partner: ``individual`` only.
        box_partner_min_players: players seated (box, partner and team) from which the
            box has a partner; at least 4 (box, partner, captain and one more member).
        backgammon_value: 3, 2 or 1 (R9).
        max_cube: highest cube value (R8).
        split_min_players: seated players from which the chouette may split in two.
    """

    kind: ProfileKind = "classic"
    rotation: RotationVariant = "standard"
    jacoby: bool = False
    beavers: bool = False
    raccoons: bool = False
    automatic_doubles: int = 0
    box_must_take_half: bool = False
    box_partner: bool = False
    box_partner_min_players: int = DEFAULT_PARTNER_MIN_PLAYERS
    backgammon_value: int = 3
    max_cube: int = 64
    split_min_players: int = DEFAULT_SPLIT_MIN_PLAYERS

    def __post_init__(self) -> None:
        if self.kind not in PROFILE_KINDS:
            raise ChouetteError("invalid_profile_kind", f"unknown profile {self.kind!r}")
        if self.rotation not in ROTATION_VARIANTS:
            raise ChouetteError("invalid_rotation", f"unknown rotation variant {self.rotation!r}")
        for name in ("jacoby", "beavers", "raccoons", "box_must_take_half", "box_partner"):
            if not isinstance(getattr(self, name), bool):
                raise _invalid(f"{name} must be a bool")
        if not is_power_of_two(self.max_cube) or self.max_cube < 2:
            raise _invalid("max_cube must be a power of two, at least 2 (R8)")
        if not is_int(self.automatic_doubles) or self.automatic_doubles < 0:
            raise _invalid("automatic_doubles must be a non-negative int")
        if 2**self.automatic_doubles > self.max_cube:
            raise _invalid("automatic doubles would pass max_cube")
        if self.backgammon_value not in (1, 2, 3) or not is_int(self.backgammon_value):
            raise _invalid("backgammon_value must be 3, 2 or 1 (R9)")
        if not is_int(self.box_partner_min_players) or self.box_partner_min_players < 4:
            raise _invalid("box_partner_min_players must be an int of at least 4")
        if not is_int(self.split_min_players) or self.split_min_players < LOWEST_SPLIT_MIN_PLAYERS:
            raise _invalid(
                f"split_min_players must be an int of at least {LOWEST_SPLIT_MIN_PLAYERS}"
            )
        if self.raccoons and not self.beavers:
            raise ChouetteError("raccoons_need_beavers", "a raccoon answers a beaver")
        if self.kind == "classic":
            own_cube_options = [
                name
                for name in ("beavers", "raccoons", "box_must_take_half", "box_partner")
                if getattr(self, name)
            ]
            if own_cube_options:
                raise ChouetteError(
                    "option_needs_individual",
                    f"{', '.join(own_cube_options)}: only with individual cubes",
                )

    @property
    def max_initial_cube(self) -> int:
        """The highest initial cube a game can have (``2 ** automatic_doubles``)."""
        return int(2**self.automatic_doubles)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form; :meth:`from_dict` reads it back."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Profile:
        """Read :meth:`to_dict` output; missing keys take their defaults."""
        names = [f.name for f in fields(cls)]
        check_keys(data, names, (), "profile")
        return cls(**dict(data))


CLASSIC = Profile()
"""The seed's rules with no options (the default profile)."""
