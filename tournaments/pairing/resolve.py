"""Who plays whom in a bracket, from the draw, the results and the withdrawals.

:func:`resolve` walks the slots of a :class:`~tournaments.pairing.brackets.Bracket` in
play order and works out, for every slot, the two sides and the state of the match:

``pending``
    a side is not known yet (an earlier slot is undecided).
``ready``
    two entrants are known and no result is recorded: the match can be played.
``played``
    a result is recorded.
``walkover``
    decided without play because an entrant withdrew (or a result recorded with
    ``walkover=True``): the other side advances, the withdrawn entrant is the loser.
``bye``
    one side (or both) is a bye: decided at once. The entrant, if any, advances; there
    is **no loser** (the loser is :data:`~tournaments.pairing.common.BYE`), so nobody drops
    into a consolation or losers' bracket from a bye; the bye drops instead, which gives
    a bye there.

Withdrawal rules (``withdrawn``): they apply only to slots without a recorded result (a
match played before the withdrawal stands). A withdrawn entrant loses every later match
by walkover; against a bye, or against another withdrawn entrant, nobody advances (the
winner and the loser are byes), except that a bye or walkover already decided keeps
the entrant it put through (``advanced``, stored by the caller: they may have played
on before withdrawing, and their later matches are theirs).

Late entry: a late entrant is appended to ``seeds`` and so takes seed number
``len(seeds)``, i.e. the bye of the lowest seed that had one; :func:`late_entry_open` says
whether that is still possible without changing a match already played (and, in a
format with a consolation or a losers' bracket, while that part has room for the late
entrant's loser).

Finishing order (:func:`finishing_order`), the convention: in each ranking (a part,
or the three parts of a double elimination together), an entrant's **exit** is the last
slot of the ranking they appeared in, if they did not win it. Entrants are placed by the
round of their exit, later rounds higher; those who exit in the same round **share** the
place, written as the first place number of the group (single elimination: 1, 2, 3-4,
5-8, ...). In double elimination the round is the losers' bracket round (the finals count
as the rounds after it; a withdrawal in winners' round ``r`` counts as losers' round
``2(r - 1)``, the round its loser would join). Entrants still playing share the place
right after the champion's (there is no champion yet while anyone is still playing).
Within a group entrants are listed in the order they first appear in the ranking.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from tournaments.pairing.brackets import Bracket, Slot, Source
from tournaments.pairing.common import (
    BYE,
    Bye,
    EntrantId,
    PairingError,
    Side,
    SideName,
    is_entrant,
)

Status = Literal["pending", "ready", "played", "walkover", "bye"]


@dataclass(frozen=True, slots=True)
class Result:
    """A recorded result of one slot: the winning side, and whether it was a walkover."""

    winner: SideName
    walkover: bool = False

    def __post_init__(self) -> None:
        if self.winner not in ("a", "b"):
            raise PairingError(
                "invalid_result", f"the winner is side 'a' or 'b', not {self.winner!r}"
            )

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "walkover": self.walkover}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Result:
        return cls(winner=data["winner"], walkover=bool(data.get("walkover", False)))


@dataclass(frozen=True, slots=True)
class ResolvedSlot:
    """One slot with its sides and state (see the module docstring for ``status``).

    ``winner_side`` is the side that advanced (``None`` while undecided, and when nobody
    advances: both sides byes or withdrawn).
    """

    slot: Slot
    a: Side
    b: Side
    status: Status
    winner_side: SideName | None = None

    @property
    def key(self) -> str:
        return self.slot.key

    @property
    def decided(self) -> bool:
        return self.status in ("played", "walkover", "bye")

    @property
    def ready(self) -> bool:
        return self.status == "ready"

    @property
    def winner(self) -> Side:
        """Who advances: an entrant, BYE (nobody), or ``None`` while undecided."""
        if not self.decided:
            return None
        if self.winner_side is None:
            return BYE
        return self.a if self.winner_side == "a" else self.b

    @property
    def loser(self) -> Side:
        """Who drops from a decided slot: an entrant, or BYE (nobody); ``None`` if undecided."""
        if not self.decided:
            return None
        if self.winner_side is None:
            return BYE
        loser = self.b if self.winner_side == "a" else self.a
        return loser if is_entrant(loser) else BYE

    def entrants(self) -> tuple[EntrantId, ...]:
        """The real entrants known on the two sides."""
        return tuple(s for s in (self.a, self.b) if is_entrant(s))  # type: ignore[misc]


def _as_result(value: Result | str, key: str) -> Result:
    if isinstance(value, Result):
        return value
    if value in ("a", "b"):
        return Result(winner=value)  # type: ignore[arg-type]  # narrowed by the test
    raise PairingError(
        "invalid_result", f"a result is 'a', 'b' or a Result, not {value!r}", slot=key
    )


def resolve(
    bracket: Bracket,
    seeds: Sequence[EntrantId | None],
    results: Mapping[str, Result | str] | None = None,
    withdrawn: Collection[EntrantId] = frozenset(),
    *,
    advanced: Mapping[str, EntrantId] | None = None,
) -> dict[str, ResolvedSlot]:
    """Every slot of ``bracket`` with its sides and state, in play order.

    ``seeds``: entrant ids by seed (index 0 = seed 1); a missing or ``None`` seed is a bye.
    ``results``: slot key -> :class:`Result` or just ``"a"``/``"b"``.
    ``advanced``: slot key -> the entrant who went through a bye or a walkover when it
    was decided, as the caller stored it (see "Withdrawal rules").
    Raises ``PairingError`` ``too_many_entrants``, ``duplicate_entrant``, ``unknown_slot``
    or ``result_not_expected`` (a result for a slot that is pending or has a bye).
    """
    return _walk(bracket, seeds, results or {}, withdrawn, advanced=advanced)


def results_to_reset(
    bracket: Bracket,
    seeds: Sequence[EntrantId | None],
    results: Mapping[str, Result | str],
    withdrawn: Collection[EntrantId] = frozenset(),
    *,
    changed: Mapping[str, Result | str],
    advanced: Mapping[str, EntrantId] | None = None,
) -> tuple[str, ...]:
    """The recorded results that no longer stand when the slots of ``changed`` get those
    results instead of theirs (a director's correction), in play order.

    A later result stands while its slot keeps the two sides it was played by. A slot
    that loses them (an entrant moved in or out, or a side no longer known because a
    result before it is reset) loses its result, and so in turn do the slots that hang on
    it. The slots are walked once in play order, so each slot's sides are seen with every
    reset before it applied: exactly the results that depend on the change, no more and
    no fewer. ``changed`` itself is never reset; each of its slots must have a result
    (``result_not_expected`` otherwise). Raises as :func:`resolve` does for the results
    before the change.
    """
    before = _walk(bracket, seeds, results, withdrawn, advanced=advanced)
    for key in changed:
        bracket.slot(key)  # unknown_slot
        if before[key].status not in ("played", "walkover"):
            raise PairingError("result_not_expected", "no match to correct here", slot=key)
    reset: list[str] = []

    def stands(slot: Slot, a: Side, b: Side) -> bool:
        if slot.key in changed:
            return True
        if (a, b) == (before[slot.key].a, before[slot.key].b):
            return True
        reset.append(slot.key)
        return False

    _walk(bracket, seeds, {**results, **changed}, withdrawn, advanced=advanced, stands=stands)
    return tuple(reset)


def _walk(
    bracket: Bracket,
    seeds: Sequence[EntrantId | None],
    results: Mapping[str, Result | str],
    withdrawn: Collection[EntrantId],
    *,
    advanced: Mapping[str, EntrantId] | None = None,
    stands: Callable[[Slot, Side, Side], bool] | None = None,
) -> dict[str, ResolvedSlot]:
    """:func:`resolve`'s walk. ``stands(slot, a, b)``, asked for each slot with a recorded
    result once its sides are known: whether the result still counts (``False``: the
    slot is resolved as if it had none). ``strict=False``: a result where none is
    expected is left out instead of refused."""
    if len(seeds) > bracket.size:
        raise PairingError("too_many_entrants", f"the bracket has {bracket.size} places")
    ids = [s for s in seeds if s is not None]
    if len(set(ids)) != len(ids):
        raise PairingError("duplicate_entrant", "an entrant holds two seeds")
    for key in results:
        bracket.slot(key)  # unknown_slot
    out: dict[str, ResolvedSlot] = {}
    advanced = advanced or {}

    def side_of(src: Source) -> Side:
        if src.kind == "seed":
            entrant = seeds[src.seed - 1] if src.seed <= len(seeds) else None
            return BYE if entrant is None else entrant
        if src.kind == "bye":
            return BYE
        earlier = out[src.slot]
        return earlier.winner if src.kind == "winner" else earlier.loser

    for slot in bracket.slots:
        a, b = side_of(slot.a), side_of(slot.b)
        if slot.reset_of:
            first = out[slot.reset_of]
            if not first.decided:
                a = b = None
            elif first.winner_side != "b":
                b = BYE  # the reset is not needed: its side a is the champion already
        recorded = results.get(slot.key)
        if recorded is not None and stands is not None and not stands(slot, a, b):
            recorded = None
        res: ResolvedSlot
        if a is None or b is None:
            res = ResolvedSlot(slot, a, b, "pending")
        elif isinstance(a, Bye) or isinstance(b, Bye):
            win: SideName | None = None
            went = advanced.get(slot.key)
            if is_entrant(a) and (a not in withdrawn or a == went):
                win = "a"
            elif is_entrant(b) and (b not in withdrawn or b == went):
                win = "b"
            res = ResolvedSlot(slot, a, b, "bye", win)
        elif recorded is not None:
            result = _as_result(recorded, slot.key)
            status: Status = "walkover" if result.walkover else "played"
            res = ResolvedSlot(slot, a, b, status, result.winner)
        elif a in withdrawn or b in withdrawn:
            if a in withdrawn and b in withdrawn:
                went = advanced.get(slot.key)
                both: SideName | None = "a" if a == went else "b" if b == went else None
                res = ResolvedSlot(slot, a, b, "walkover", both)
            else:
                res = ResolvedSlot(slot, a, b, "walkover", "b" if a in withdrawn else "a")
        else:
            res = ResolvedSlot(slot, a, b, "ready")
        if recorded is not None and res.status not in ("played", "walkover"):
            raise PairingError(
                "result_not_expected", f"a result for a slot that is {res.status}", slot=slot.key
            )
        out[slot.key] = res
    return out


def late_entry_open(
    bracket: Bracket,
    seeds: Sequence[EntrantId | None],
    results: Mapping[str, Result | str] | None,
    withdrawn: Collection[EntrantId] = frozenset(),
    *,
    entrant: EntrantId,
) -> bool:
    """Whether ``entrant`` can still join as seed ``len(seeds) + 1`` (taking a bye):
    there is a bye left, no slot with a recorded result would change its sides, and
    where the losers of main round 1 go on (a consolation, a losers' bracket), the loser
    of the late entrant's match has a place there too (each part is sized to its
    entrants at the draw, with room for as many late entries as its byes)."""
    if len(seeds) >= bracket.size or entrant in seeds:
        return False
    first = [s for s in bracket.slots if s.round == 1 and s.part in ("main", "winners")]
    fed = {src.slot for s in bracket.slots for src in (s.a, s.b) if src.kind == "loser"}
    late = next(s.key for s in first if len(seeds) + 1 in (s.a.seed, s.b.seed))
    if any(s.key in fed for s in first) and late not in fed:
        return False
    # One step further (main + consolation + last chance): the consolation match the late
    # entrant's loser joins must have a place in the last chance for its own loser.
    joined = next((s for s in bracket.slots if Source.loser_of(late) in (s.a, s.b)), None)
    if joined is not None:
        same_round = [s for s in bracket.slots if (s.part, s.round) == (joined.part, joined.round)]
        if any(s.key in fed for s in same_round) and joined.key not in fed:
            return False
    before = resolve(bracket, seeds, results, withdrawn)
    try:
        after = resolve(bracket, [*seeds, entrant], results, withdrawn)
    except PairingError:
        return False
    return all((before[k].a, before[k].b) == (after[k].a, after[k].b) for k in results or {})


@dataclass(frozen=True, slots=True)
class Place:
    """A group of entrants sharing a place.

    ``rank`` is the group's best place (``3`` for "3-4"), ``last`` its worst; ``final`` is
    ``False`` for the group still playing.
    """

    rank: int
    entrants: tuple[EntrantId, ...]
    final: bool = True

    @property
    def last(self) -> int:
        return self.rank + len(self.entrants) - 1

    @property
    def label(self) -> str:
        """``"1"``, ``"3-4"``."""
        return str(self.rank) if self.last == self.rank else f"{self.rank}-{self.last}"

    def to_dict(self) -> dict[str, Any]:
        return {"rank": self.rank, "entrants": list(self.entrants), "final": self.final}


def _stage(slot: Slot) -> int:
    """The round that orders exits (see "Finishing order" in the module docstring)."""
    if slot.part == "winners":
        return max(1, 2 * (slot.round - 1))
    return slot.round


def finishing_order(
    bracket: Bracket, resolved: Mapping[str, ResolvedSlot]
) -> dict[str, tuple[Place, ...]]:
    """Ranking name -> places, best first (convention in the module docstring)."""
    orders: dict[str, tuple[Place, ...]] = {}
    for name, parts in bracket.rankings().items():
        slots = [resolved[s.key] for s in bracket.slots if s.part in parts]
        if not slots:
            continue
        terminal = slots[-1]
        last_seen: dict[EntrantId, ResolvedSlot] = {}
        for rs in slots:
            for e in rs.entrants():
                last_seen[e] = rs  # dict keeps first-appearance order; value = last slot
        champion: list[EntrantId] = []
        alive: list[EntrantId] = []
        exits: dict[int, list[EntrantId]] = {}
        for e, rs in last_seen.items():
            if not rs.decided:
                alive.append(e)
            elif rs.winner == e:
                (champion if rs is terminal else alive).append(e)
            else:
                exits.setdefault(_stage(rs.slot), []).append(e)
        places: list[Place] = []
        rank = 1
        for group, final in [(champion, True), (alive, False)] + [
            (exits[st], True) for st in sorted(exits, reverse=True)
        ]:
            if group:
                places.append(Place(rank, tuple(group), final))
                rank += len(group)
        orders[name] = tuple(places)
    return orders
