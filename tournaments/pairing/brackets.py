"""Knockout brackets as a graph of match slots: one shape for every elimination format.

Terms:

* A **slot** is one match of a bracket. Each of its two sides (``a`` and ``b``) is fed by
  a **source**: seed ``k`` of the draw, a bye, the winner of another slot, or the loser of
  another slot. A slot is named by a stable ``key`` (``"M2-3"`` = main part, round 2,
  match 3) that results are stored under.
* A **part** is a group of slots played as one bracket: ``main``, ``consolation``,
  ``last_chance``, and for double elimination ``winners``, ``losers`` and ``final``.
  Rounds and match indexes are 1-based and counted per part.
* A **ranking** is the set of parts whose players get one finishing order (see
  :func:`tournaments.pairing.resolve.finishing_order`): every part is its own ranking,
  except that double elimination ranks its three parts together as ``main``.

The bracket holds structure only. Who stands where follows from the seeding, the results
and the withdrawals (:func:`tournaments.pairing.resolve.resolve`); storing the bracket
(``to_dict``) plus those three is enough to rebuild every page.

Byes: the first round always has ``size / 2`` slots for a bracket size that is a power of
two (:mod:`tournaments.pairing.seeding`), fed by seeds ``1 .. size``; the seeds above the
number of entrants are byes, and the top seeds meet them. Keeping those numbers as seeds
(rather than writing "bye" into the bracket) lets a **late entry** take the next free
seed number, i.e. the bye of the lowest seed that had one, without rebuilding anything.

Formats (builders below; ``k`` = number of main rounds = log2(size)):

* ``single``: one ``main`` part.
* ``consolation``: main + a ``consolation`` part for the losers of main round 1, or
  with ``entry_rounds=2`` also of round 2 (they join once the round-1 losers are down
  to as many as they are). The main final's loser never drops: they are second of the
  main.
* ``progressive``: the losers of every main round up to ``last_entry_round`` (default
  ``k - 1``: the semi-finals) drop into the consolation: each round's losers enter
  against as many survivors ("feed-in" rounds alternate with rounds among the
  survivors, so the entries line up).
* ``last_chance``: the losers of main round 1 (``entry_rounds=2``: and round 2) play a
  separate ``last_chance`` part, built like the consolation: round-2 losers join in
  its second round, when they are free.
* ``consolation_last_chance`` (issue 29): main + consolation exactly as ``consolation``
  (``entry_rounds``), and a ``last_chance`` part for the consolation's early losers: the
  losers of consolation rounds ``1 .. last_chance_rounds`` (default 1; 2: the round-2
  losers join the last chance in its round 2, built like the consolation's feed-ins).
  Every loser's next place: a main loser of a round up to ``entry_rounds`` goes to the
  consolation, any later main loser is out; a consolation loser of a round up to
  ``last_chance_rounds`` goes to the last chance, any later one is out; a last chance
  loser is out. As each part takes only the losers of another, nobody plays in two
  parts at once (docs/rules.md, "Main, consolation and last chance").
* ``double``: ``winners`` bracket (the main draw), a ``losers`` bracket that the winners'
  losers drop into (round 1 losers play each other first, the losers of each later
  winners round enter against the survivors), and a ``final`` between the
  two bracket winners. ``bracket_reset`` (default **off**): if the losers' bracket winner
  wins the final, a second final (``F2``) is played, so that nobody is out after a single
  loss. Off by default because club events rarely have the time for it; with it off the
  winners' bracket winner can be out after one loss (the final).

Sizes: every part other than the main draw is sized to the entrants it gets. Only the
main round-1 matches without a bye have a loser, so those losers alone make the part's
first round (with the fewest byes, never two in one match; a part with fewer than two
entrants is not built). The losers of the round-1 matches that are byes stand in for the
part's byes, in the order late entries fill them, so that a late entrant's loser has a
place; once those are taken, :func:`~tournaments.pairing.resolve.late_entry_open` says
no. When round 1 leaves fewer losers than the next round brings, the round-1 losers meet
those droppers at once and the rest of the droppers have a bye. Brackets stored before
this sizing (a full-size part, with "bye v bye" boxes) still load and resolve.

Drop-in order: entries into feed-in rounds are mirrored (reversed, then half-swapped on
alternate rounds) so that a dropping player does not meet again at once the player they
beat or lost to; this postpones rematches, it does not forbid them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from tournaments.pairing.common import PairingError
from tournaments.pairing.seeding import bracket_line, bracket_size

SourceKind = Literal["seed", "bye", "winner", "loser"]
Format = Literal[
    "single", "consolation", "progressive", "last_chance", "consolation_last_chance", "double"
]
OptionValue: TypeAlias = int | bool | None

PARTS = ("main", "consolation", "last_chance", "winners", "losers", "final")


@dataclass(frozen=True, slots=True)
class Source:
    """What feeds one side of a slot.

    ``kind`` ``"seed"``: ``seed`` is the 1-based seed number; ``"winner"``/``"loser"``:
    ``slot`` is the key of the slot whose winner or loser comes here; ``"bye"``: nothing.
    Encoded as a short string for storage: ``"seed:3"``, ``"bye"``, ``"winner:M1-2"``.
    """

    kind: SourceKind
    seed: int = 0
    slot: str = ""

    @classmethod
    def of_seed(cls, seed: int) -> Source:
        return cls("seed", seed=seed)

    @classmethod
    def bye(cls) -> Source:
        return cls("bye")

    @classmethod
    def winner_of(cls, key: str) -> Source:
        return cls("winner", slot=key)

    @classmethod
    def loser_of(cls, key: str) -> Source:
        return cls("loser", slot=key)

    def encode(self) -> str:
        if self.kind == "seed":
            return f"seed:{self.seed}"
        if self.kind == "bye":
            return "bye"
        return f"{self.kind}:{self.slot}"

    @classmethod
    def decode(cls, text: str) -> Source:
        kind, _, ref = text.partition(":")
        if kind == "bye" and not ref:
            return cls.bye()
        if kind == "seed" and ref.isdigit() and int(ref) >= 1:
            return cls.of_seed(int(ref))
        if kind in ("winner", "loser") and ref:
            return cls(kind, slot=ref)  # type: ignore[arg-type]  # narrowed by the test
        raise PairingError("invalid_source", f"not a slot source: {text!r}")


@dataclass(frozen=True, slots=True)
class Slot:
    """One match of a bracket.

    Attributes:
        key: stable name, unique in the bracket (results are stored under it).
        part: one of :data:`PARTS`.
        round: 1-based round within the part (the ``final`` part continues the
            numbering of the ``losers`` part, so rounds order the eliminations).
        index: 1-based position of the match in its round, top to bottom.
        a, b: the sources of the two sides.
        reset_of: for a bracket-reset final only: the key of the first final; this slot is
            played only if that final was won by its side ``b`` (otherwise it is decided
            at once for side ``a``, with no loser).
    """

    key: str
    part: str
    round: int
    index: int
    a: Source
    b: Source
    reset_of: str = ""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "key": self.key,
            "part": self.part,
            "round": self.round,
            "index": self.index,
            "a": self.a.encode(),
            "b": self.b.encode(),
        }
        if self.reset_of:
            data["reset_of"] = self.reset_of
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Slot:
        """Read :meth:`to_dict`'s output. A slot stored before the part was called a part
        has it under ``"flight"``: migration 0004 of ``tournaments`` rewrites the stored
        brackets, and the migration before it (0003, which reads them with this code)
        still sees the old key."""
        return cls(
            key=str(data["key"]),
            part=str(data["part"] if "part" in data else data["flight"]),
            round=int(data["round"]),
            index=int(data["index"]),
            a=Source.decode(data["a"]),
            b=Source.decode(data["b"]),
            reset_of=str(data.get("reset_of", "")),
        )


@dataclass(frozen=True)
class Bracket:
    """A whole knockout draw: the slots in play order, and how it was built.

    Attributes:
        format: one of ``single``, ``consolation``, ``progressive``, ``last_chance``,
            ``consolation_last_chance``, ``double``.
        n_entrants: entrants at the draw (seeds above it are byes, see module docstring).
        size: the bracket size, a power of two.
        options: the builder's keyword options, JSON-friendly.
        slots: every slot, each after the slots it depends on (a valid play order).

    Invariants (checked on construction, so a stored bracket that was tampered with is
    refused): keys are unique; sources refer to earlier slots; each slot's winner and
    loser feed at most one side; seeds ``1 .. size`` each appear once.
    """

    format: Format
    n_entrants: int
    size: int
    options: Mapping[str, OptionValue]
    slots: tuple[Slot, ...]
    _by_key: dict[str, Slot] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_key: dict[str, Slot] = {}
        used: set[tuple[str, str]] = set()
        seeds: list[int] = []
        for slot in self.slots:
            if slot.key in by_key:
                raise PairingError("invalid_bracket", "duplicate slot key", slot=slot.key)
            if slot.part not in PARTS:
                raise PairingError("invalid_bracket", f"unknown part {slot.part!r}")
            for src in (slot.a, slot.b):
                if src.kind == "seed":
                    seeds.append(src.seed)
                elif src.kind in ("winner", "loser"):
                    if src.slot not in by_key:
                        raise PairingError(
                            "invalid_bracket",
                            f"source {src.encode()} is not earlier",
                            slot=slot.key,
                        )
                    if (src.kind, src.slot) in used:
                        raise PairingError(
                            "invalid_bracket", f"{src.encode()} used twice", slot=slot.key
                        )
                    used.add((src.kind, src.slot))
            if slot.reset_of and slot.reset_of not in by_key:
                raise PairingError("invalid_bracket", "reset of an unknown slot", slot=slot.key)
            by_key[slot.key] = slot
        if sorted(seeds) != list(range(1, self.size + 1)):
            raise PairingError("invalid_bracket", "seeds 1..size must each appear once")
        if not 2 <= self.n_entrants <= self.size:
            raise PairingError("invalid_bracket", "entrant count does not fit the size")
        object.__setattr__(self, "_by_key", by_key)

    def slot(self, key: str) -> Slot:
        """The slot named ``key`` (``PairingError("unknown_slot")`` if there is none)."""
        try:
            return self._by_key[key]
        except KeyError:
            raise PairingError("unknown_slot", "no such slot", slot=key) from None

    def __contains__(self, key: object) -> bool:
        return key in self._by_key

    @property
    def parts(self) -> tuple[str, ...]:
        """The parts that have slots, in play order."""
        return tuple(dict.fromkeys(s.part for s in self.slots))

    def rankings(self) -> dict[str, tuple[str, ...]]:
        """Ranking name -> the parts ranked together (see the module docstring)."""
        if self.format == "double":
            return {"main": ("winners", "losers", "final")}
        return {f: (f,) for f in self.parts}

    def round_slots(self, part: str, round_no: int) -> list[Slot]:
        """The slots of one round of one part, top to bottom."""
        return [s for s in self.slots if s.part == part and s.round == round_no]

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "n_entrants": self.n_entrants,
            "size": self.size,
            "options": dict(self.options),
            "slots": [s.to_dict() for s in self.slots],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Bracket:
        fmt = data["format"]
        if fmt not in BUILDERS:
            raise PairingError("invalid_bracket", f"unknown format {fmt!r}")
        return cls(
            format=fmt,
            n_entrants=int(data["n_entrants"]),
            size=int(data["size"]),
            options=dict(data.get("options", {})),
            slots=tuple(Slot.from_dict(s) for s in data["slots"]),
        )


# ---------------------------------------------------------------------------- building


class _Part:
    """Accumulates the slots of one part, numbering rounds and matches."""

    def __init__(self, prefix: str, part: str) -> None:
        self.prefix = prefix
        self.part = part
        self.round = 0
        self.slots: list[Slot] = []

    def add_round(self, pairs: list[tuple[Source, Source]]) -> list[str]:
        """Append one round of ``pairs``; return the new slot keys."""
        self.round += 1
        keys = []
        for i, (a, b) in enumerate(pairs, start=1):
            key = f"{self.prefix}{self.round}-{i}"
            self.slots.append(Slot(key, self.part, self.round, i, a, b))
            keys.append(key)
        return keys

    def knockout(self, sources: list[Source]) -> list[Source]:
        """Pair neighbours (1v2, 3v4, ...) for one round; return the winners' sources."""
        pairs = [(sources[i], sources[i + 1]) for i in range(0, len(sources), 2)]
        return [Source.winner_of(k) for k in self.add_round(pairs)]


def _check_n(n_entrants: int) -> int:
    return bracket_size(n_entrants)  # refuses n < 2 with a PairingError


def _main_draw(part: _Part, size: int) -> list[list[str]]:
    """A standard seeded single-elimination draw of ``size``; the keys of every round."""
    line = bracket_line(size)
    pairs = [(Source.of_seed(line[i]), Source.of_seed(line[i + 1])) for i in range(0, size, 2)]
    rounds = [part.add_round(pairs)]
    while len(rounds[-1]) > 1:
        winners = [Source.winner_of(k) for k in rounds[-1]]
        rounds.append(
            part.add_round([(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)])
        )
    return rounds


def _mirror(sources: list[Source], feed_no: int) -> list[Source]:
    """Order of the droppers in feed round ``feed_no`` (0-based): reversed on even
    feeds, halves swapped on odd ones (see "Drop-in order" in the module docstring)."""
    if feed_no % 2 == 0:
        return sources[::-1]
    half = len(sources) // 2
    return sources[half:] + sources[:half]


def _feed_in(
    part: _Part, first: list[Source], feeds: list[list[Source]], spare: list[Source]
) -> Source:
    """Build a feed-in part sized to its entrants; return the source of its winner.

    ``first`` (the real losers of main round 1, any number >= 1) play down to as many
    as the first list of ``feeds`` has; each list of ``feeds`` (droppers, a power of two)
    enters in turn, one dropper against each survivor; then the survivors play down to
    one. Where the counts do not line up a real side meets a bye (the fewest byes, placed
    as in a seeded bracket, top first), never a bye another bye. ``spare``: the losers of
    the main round-1 matches that are byes now, in the order late entries take them
    (:mod:`tournaments.pairing.seeding`); they stand in for the byes of the part's first
    round, so that a late entrant's loser has a place too.
    """
    spare = list(spare)

    def bye() -> Source:
        return spare.pop(0) if spare else Source.bye()

    def add_round(pairs: Sequence[tuple[Source, Source | None]]) -> list[Source]:
        keys = part.add_round([(x, bye() if y is None else y) for x, y in pairs])
        spare.clear()  # only round-1 losers stand in for byes, and only where they play
        return [Source.winner_of(k) for k in keys]

    def reduce(sources: list[Source], target: int) -> list[Source]:
        while len(sources) > target:
            half = max(target, bracket_size(len(sources)) // 2)
            pairs: list[tuple[Source, Source | None]]
            if len(sources) == 2 * half:  # no bye: neighbours meet (1v2, 3v4, ...)
                pairs = [(sources[i], sources[i + 1]) for i in range(0, len(sources), 2)]
            else:  # the byes to the top, as in a seeded bracket; never two in a match
                line = bracket_line(2 * half)
                pairs = [
                    (
                        sources[line[i] - 1],
                        sources[line[i + 1] - 1] if line[i + 1] <= len(sources) else None,
                    )
                    for i in range(0, 2 * half, 2)
                ]
            sources = add_round(pairs)
        return sources

    survivors = list(first)
    for j, feed in enumerate(feeds):
        survivors = reduce(survivors, len(feed))
        droppers = _mirror(feed, j)
        # More droppers than survivors (few round-1 losers): the last droppers have a bye.
        missing = len(droppers) - len(survivors)
        survivors = add_round(
            list(zip(survivors, droppers, strict=False)) + [(d, None) for d in droppers[-missing:]]
            if missing > 0
            else list(zip(survivors, droppers, strict=True))
        )
    return reduce(survivors, 1)[0]


def _spare(size: int, n_entrants: int, first_round: list[str]) -> tuple[list[str], list[str]]:
    """The main round-1 slots whose loser is real (both seeds entrants), in order, and
    those that are byes, in the order late entries fill them (seed ``n + 1`` first)."""
    line = bracket_line(size)
    real = [k for i, k in enumerate(first_round) if max(line[2 * i], line[2 * i + 1]) <= n_entrants]
    by_late = sorted(
        (max(line[2 * i], line[2 * i + 1]), k) for i, k in enumerate(first_round) if k not in real
    )
    return real, [k for _, k in by_late]


def _losers(keys: list[str]) -> list[Source]:
    return [Source.loser_of(k) for k in keys]


def build_single_elimination(n_entrants: int) -> Bracket:
    """Single elimination for ``n_entrants`` (byes to the top seeds)."""
    size = _check_n(n_entrants)
    main = _Part("M", "main")
    _main_draw(main, size)
    return Bracket("single", n_entrants, size, {}, tuple(main.slots))


def _last_entry(requested: int, main_rounds: int) -> int:
    """Clamp an entry round to the main rounds before the final (the final's loser is
    second of the main and never drops)."""
    return max(0, min(requested, main_rounds - 1))


def build_progressive_consolation(
    n_entrants: int, *, last_entry_round: int | None = None
) -> Bracket:
    """Main + a consolation fed by the losers of main rounds ``1 .. last_entry_round``.

    Default ``last_entry_round``: the main semi-finals (``k - 1``). Losers of main round
    ``r >= 2`` enter consolation round ``2(r - 1)``. A 2-player event has no consolation.
    """
    if last_entry_round is not None and (
        isinstance(last_entry_round, bool)
        or not isinstance(last_entry_round, int)
        or last_entry_round < 1
    ):
        raise PairingError("invalid_option", "last_entry_round must be an integer >= 1")
    size = _check_n(n_entrants)
    main = _Part("M", "main")
    rounds = _main_draw(main, size)
    requested = len(rounds) - 1 if last_entry_round is None else last_entry_round
    last = _last_entry(requested, len(rounds))
    slots = list(main.slots)
    real, spare = _spare(size, n_entrants, rounds[0])
    if last >= 1 and len(real) + sum(len(rounds[r]) for r in range(1, last)) >= 2:
        cons = _Part("C", "consolation")
        feeds = [_losers(rounds[r]) for r in range(1, last)]
        _feed_in(cons, _losers(real), feeds, _losers(spare))
        slots += cons.slots
    return Bracket(
        "progressive", n_entrants, size, {"last_entry_round": last_entry_round}, tuple(slots)
    )


def build_consolation(n_entrants: int, *, entry_rounds: int = 1) -> Bracket:
    """Main + consolation for the losers of main round 1 (``entry_rounds=2``: rounds 1
    and 2; round-2 losers enter consolation round 2). Structure as in
    :func:`build_progressive_consolation`, stopped after ``entry_rounds``."""
    if entry_rounds not in (1, 2):
        raise PairingError("invalid_option", "entry_rounds must be 1 or 2")
    inner = build_progressive_consolation(n_entrants, last_entry_round=entry_rounds)
    return Bracket(
        "consolation", n_entrants, inner.size, {"entry_rounds": entry_rounds}, inner.slots
    )


def build_last_chance(n_entrants: int, *, entry_rounds: int = 1) -> Bracket:
    """Main + a separate single-elimination ``last_chance`` part for the losers of main
    round 1 (``entry_rounds=2``: and of round 2, who get a bye in its round 1)."""
    if entry_rounds not in (1, 2):
        raise PairingError("invalid_option", "entry_rounds must be 1 or 2")
    size = _check_n(n_entrants)
    main = _Part("M", "main")
    rounds = _main_draw(main, size)
    slots = list(main.slots)
    entries = _last_entry(entry_rounds, len(rounds))
    real, spare = _spare(size, n_entrants, rounds[0])
    if entries >= 1 and len(real) + sum(len(rounds[r]) for r in range(1, entries)) >= 2:
        lc = _Part("LC", "last_chance")
        feeds = [_losers(rounds[r]) for r in range(1, entries)]
        _feed_in(lc, _losers(real), feeds, _losers(spare))
        slots += lc.slots
    return Bracket("last_chance", n_entrants, size, {"entry_rounds": entry_rounds}, tuple(slots))


def _check_one_or_two(name: str, value: object) -> None:
    if isinstance(value, bool) or value not in (1, 2):
        raise PairingError("invalid_option", f"{name} must be 1 or 2")


def _consolation_losers(
    cons: list[Slot], round_no: int, main_spare: list[str]
) -> tuple[list[str], list[str]]:
    """The consolation slots of round ``round_no`` whose loser is real, in order, and
    those whose loser is real only once a late entrant takes a main round-1 bye (a side is
    the loser of a main bye slot), in the order late entries fill them. A slot with a
    side that is a bye has no loser, ever: it feeds nothing."""
    real: list[str] = []
    late: list[tuple[int, str]] = []
    for slot in cons:
        if slot.round != round_no:
            continue
        sides = (slot.a, slot.b)
        if any(src.kind == "bye" for src in sides):
            continue
        spare_at = [
            main_spare.index(src.slot)
            for src in sides
            if src.kind == "loser" and src.slot in main_spare
        ]
        if spare_at:
            late.append((min(spare_at), slot.key))
        else:
            real.append(slot.key)
    return real, [k for _, k in sorted(late)]


def build_consolation_last_chance(
    n_entrants: int, *, entry_rounds: int = 1, last_chance_rounds: int = 1
) -> Bracket:
    """Main + consolation (as :func:`build_consolation`, ``entry_rounds``) + a
    ``last_chance`` part for the losers of consolation rounds ``1 .. last_chance_rounds``
    (2: the consolation's round-2 losers enter the last chance's round 2, against as
    many survivors). Each part is sized to its entrants; a part with fewer than two
    entrants is not built. The consolation's round-1 slots that wait for a late entrant
    (a main round-1 bye's loser) stand in for the last chance's byes, as the main's do
    for the consolation's (module docstring, "Sizes")."""
    _check_one_or_two("entry_rounds", entry_rounds)
    _check_one_or_two("last_chance_rounds", last_chance_rounds)
    inner = build_consolation(n_entrants, entry_rounds=entry_rounds)
    size = inner.size
    slots = list(inner.slots)
    cons = [s for s in slots if s.part == "consolation"]
    cons_rounds = max((s.round for s in cons), default=0)
    # The consolation's final has a winner and a runner-up: its loser never drops.
    feeding = min(last_chance_rounds, cons_rounds - 1)
    if feeding >= 1:
        main_first = [s.key for s in slots if s.part == "main" and s.round == 1]
        _, main_spare = _spare(size, n_entrants, main_first)
        first, spare = _consolation_losers(cons, 1, main_spare)
        feeds = [_consolation_losers(cons, r, main_spare)[0] for r in range(2, feeding + 1)]
        if len(first) + sum(len(f) for f in feeds) >= 2:
            lc = _Part("LC", "last_chance")
            _feed_in(lc, _losers(first), [_losers(f) for f in feeds], _losers(spare))
            slots += lc.slots
    return Bracket(
        "consolation_last_chance",
        n_entrants,
        size,
        {"entry_rounds": entry_rounds, "last_chance_rounds": last_chance_rounds},
        tuple(slots),
    )


def build_double_elimination(n_entrants: int, *, bracket_reset: bool = False) -> Bracket:
    """Double elimination: winners' and losers' brackets and a final (``F1``; with
    ``bracket_reset`` also ``F2``, played only if the losers' bracket winner won ``F1``)."""
    size = _check_n(n_entrants)
    wb = _Part("W", "winners")
    rounds = _main_draw(wb, size)
    lb = _Part("L", "losers")
    real, spare = _spare(size, n_entrants, rounds[0])
    lb_winner = _feed_in(lb, _losers(real), [_losers(r) for r in rounds[1:]], _losers(spare))
    # The final's rounds continue the losers' numbering, so that "eliminated in a later
    # round" means "placed higher" across the whole double-elimination ranking.
    f1 = Slot("F1", "final", lb.round + 1, 1, Source.winner_of(rounds[-1][0]), lb_winner)
    slots = [*wb.slots, *lb.slots, f1]
    if bracket_reset:
        slots.append(
            Slot(
                "F2",
                "final",
                f1.round + 1,
                1,
                Source.winner_of("F1"),
                Source.loser_of("F1"),
                reset_of="F1",
            )
        )
    return Bracket("double", n_entrants, size, {"bracket_reset": bracket_reset}, tuple(slots))


BUILDERS: dict[str, Callable[..., Bracket]] = {
    "single": build_single_elimination,
    "consolation": build_consolation,
    "progressive": build_progressive_consolation,
    "last_chance": build_last_chance,
    "consolation_last_chance": build_consolation_last_chance,
    "double": build_double_elimination,
}


def build_bracket(format: str, n_entrants: int, **options: Any) -> Bracket:
    """Build any format by name (the Django side stores ``format`` and ``options``)."""
    try:
        builder = BUILDERS[format]
    except KeyError:
        raise PairingError("invalid_format", f"unknown bracket format {format!r}") from None
    try:
        return builder(n_entrants, **{k: v for k, v in options.items() if v is not None})
    except TypeError as exc:
        raise PairingError("invalid_option", str(exc)) from None
