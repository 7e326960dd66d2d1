"""PURE: one member's cube in an online chouette game (:mod:`chouette.online.table`), and
the decisions that wait on it (R8, R13).

* **Cube** (:class:`Cube`): one member's cube: its ``value``, its ``owner`` (``box``,
  ``member`` or ``None`` for centred), the member's ``fate`` (``in`` while the member is in
  the game, then ``dropped``, ``box_dropped`` as in :mod:`chouette.rules.settlement`), the
  beavers and raccoons on it, and a ``pending`` decision (:data:`PENDING_KINDS`). In
  ``classic`` the cubes of the members still in the game always agree: they are the one
  team cube, owned by the team (``member``) once the team took.
* **Pending decisions**: a cube action waits for answers; while any waits, nobody rolls.

  ======================  ========  ==========================================
  ``pending``             decider   answers
  ======================  ========  ==========================================
  ``consent``             member    ``yes`` / ``no`` (classic: a team double proposed)
  ``box_doubled``         member    ``take`` / ``drop`` / ``beaver``
  ``member_doubled``      box       ``take`` / ``drop`` / ``beaver``
  ``member_beavered``     box       ``raccoon`` / ``no_raccoon`` (the box doubled)
  ``box_beavered``        member    ``raccoon`` / ``no_raccoon`` (the member doubled)
  ``settlement_offered``  member    ``accept`` / ``refuse`` (the box's offer)
  ======================  ========  ==========================================

What an answer does to a cube is :meth:`Cube.answered`; the table checks first that the
answer is one the decision takes and that it is the decider's (:meth:`Table.answer
<chouette.online.table.Table.answer>`). A decision not answered within the session's time
window takes its default, :func:`default_answer`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal, get_args

from chouette.rules import PlayerId, Profile
from chouette.rules.settlement import Fate

Owner = Literal["box", "member"]
CubeFate = Literal["in", "dropped", "box_dropped", "settled"]
Pending = Literal[
    "consent",
    "box_doubled",
    "member_doubled",
    "member_beavered",
    "box_beavered",
    "settlement_offered",
]
Answer = Literal["yes", "no", "take", "drop", "beaver", "raccoon", "no_raccoon", "accept", "refuse"]
Side = Literal["box", "team"]

CUBE_FATES: tuple[CubeFate, ...] = ("in", "dropped", "box_dropped", "settled")
PENDING_KINDS: tuple[Pending, ...] = (
    "consent",
    "box_doubled",
    "member_doubled",
    "member_beavered",
    "box_beavered",
    "settlement_offered",
)
ANSWERS: tuple[Answer, ...] = (
    "yes",
    "no",
    "take",
    "drop",
    "beaver",
    "raccoon",
    "no_raccoon",
    "accept",
    "refuse",
)
assert get_args(CubeFate) == CUBE_FATES
assert get_args(Pending) == PENDING_KINDS
assert get_args(Answer) == ANSWERS

#: The answers each pending decision accepts.
ANSWERS_TO: Mapping[str, tuple[str, ...]] = {
    "consent": ("yes", "no"),
    "box_doubled": ("take", "drop", "beaver"),
    "member_doubled": ("take", "drop", "beaver"),
    "member_beavered": ("raccoon", "no_raccoon"),
    "box_beavered": ("raccoon", "no_raccoon"),
    "settlement_offered": ("accept", "refuse"),
}
#: A cube's fate online, as the game entry says it (one still in the game at the end took).
ENTRY_FATES: Mapping[CubeFate, Fate] = {
    "in": "took",
    "dropped": "dropped",
    "box_dropped": "box_dropped",
    "settled": "settled",
}
#: Decisions the box takes (the others: the member of the cube).
BOX_DECIDES: frozenset[str] = frozenset({"member_doubled", "member_beavered"})


def default_answer(kind: str, take_or_drop: str = "take") -> str:
    """The answer a decision of ``kind`` takes when its time window runs out: a consent
    ``no`` (the double needs every yes), a take-or-drop ``take_or_drop`` (the session's
    default), a raccoon ``no_raccoon``, a settlement ``refuse``. (A box who may not drop
    beyond half takes: :meth:`Table.apply_defaults`.)"""
    if kind == "consent":
        return "no"
    if kind == "settlement_offered":
        return "refuse"
    if kind in ("member_beavered", "box_beavered"):
        return "no_raccoon"
    return take_or_drop


@dataclass(frozen=True, slots=True)
class Cube:
    """One member's cube (see the module docstring)."""

    player: PlayerId
    value: int = 1
    owner: Owner | None = None
    fate: CubeFate = "in"
    beavers: int = 0
    raccoons: int = 0
    pending: Pending | None = None
    consented: bool = False
    #: The settlement the box offers (pending ``settlement_offered``), then the one accepted
    #: (fate ``settled``): points to the member (+: the box pays the member).
    settlement: int | None = None

    @property
    def is_in(self) -> bool:
        return self.fate == "in"

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "value": self.value,
            "owner": self.owner,
            "fate": self.fate,
            "beavers": self.beavers,
            "raccoons": self.raccoons,
            "pending": self.pending,
            "consented": self.consented,
            "settlement": self.settlement,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Cube:
        return cls(**dict(data))

    def answered(self, answer: str, profile: Profile) -> Cube:
        """This cube after ``answer`` to its pending decision (the caller has checked that
        the answer is one it takes): a settlement accepted or refused; a double taken,
        dropped or beavered (a raccoon decision then waits where the profile allows
        one); a raccoon given or not."""
        if self.pending == "settlement_offered":
            if answer == "accept":  # the member leaves the game with the points agreed
                return replace(self, fate="settled", pending=None, owner=None)
            return replace(self, pending=None, settlement=None)
        offered = self.value * 2
        doubler_owner: Owner = "box" if self.pending == "box_doubled" else "member"
        taker_owner: Owner = "member" if doubler_owner == "box" else "box"
        if self.pending in ("box_doubled", "member_doubled"):
            if answer == "take":
                return replace(self, value=offered, owner=taker_owner, pending=None)
            if answer == "drop":
                fate: CubeFate = "dropped" if self.pending == "box_doubled" else "box_dropped"
                return replace(self, value=offered, fate=fate, pending=None, owner=None)
            # beaver: take and redouble at once, keeping the cube
            raccoon_possible = profile.raccoons and self.value * 8 <= profile.max_cube
            nxt: Pending | None = None
            if raccoon_possible:
                nxt = "member_beavered" if self.pending == "box_doubled" else "box_beavered"
            return replace(
                self,
                value=self.value * 4,
                owner=taker_owner,
                beavers=self.beavers + 1,
                pending=nxt,
            )
        # a raccoon decision: the beavered side redoubles once more, or not
        if answer == "raccoon":
            owner: Owner = "box" if self.pending == "member_beavered" else "member"
            return replace(
                self, value=self.value * 2, owner=owner, raccoons=self.raccoons + 1, pending=None
            )
        return replace(self, pending=None)


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision waiting for an answer: who decides, on whose cube, and what."""

    decider: PlayerId
    member: PlayerId
    kind: Pending
    answers: tuple[str, ...]
