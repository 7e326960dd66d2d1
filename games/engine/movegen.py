"""Legal plays: every legal way to play a roll, one per distinct resulting position.

The rules (docs/rules.md):

* R4 a die moves one checker forward by its number; landing on a point with two or more
  opposing checkers is forbidden, also as an intermediate stop of a checker using both
  dice; landing on a single opposing checker (a *blot*) hits it to the bar. Option
  ``max_checkers_per_point``: no move may make a point hold more own checkers than that.
* R5 checkers on the bar enter first, one die each, on point ``25 - die``.
* R6 the play must use as many dice as possible (doubles: up to four); if only one die of
  a non-double can be used, the larger one when it can. Option ``min_pip_waste``: among
  the maximal plays only those wasting the fewest pips in bear-off.
* R7 bearing off needs all checkers home; a die larger than the highest occupied point
  bears off from that point; "home" is re-checked after every die, so a checker hit
  during bear-off must come back first.
* R3 Acey-Deucey: unentered checkers enter like bar checkers (from "25") but do not stop
  other checkers from moving; they do stop bearing off (they are not home).

Two generators share these rules:

* :func:`legal_plays` (the public one) walks every sequence of single-die moves and keeps
  one :class:`Play` (moves, hits, resulting :class:`~games.engine.position.Position`) per
  resulting position.
* :func:`legal_results` (the fast path) returns only the packed keys
  (:func:`games.engine.position.position_key`) of the resulting positions. Without the
  options and without Acey-Deucey checkers waiting, they are computed by
  :mod:`games.engine.movefast`'s arithmetic on the additive key; the options and
  Acey-Deucey use the full walk.

Both are checked against GNU Backgammon (``tests/games/engine/test_movegen_gnubg.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.engine.errors import EngineError
from games.engine.movefast import HIT_DELTA, POINT_UNIT, UNENTERED_UNIT, fast_results
from games.engine.position import Position, position_from_key, position_key


@dataclass(frozen=True, slots=True)
class Play:
    """One legal play (R4-R7).

    Attributes:
        moves: single-die moves ``(from_point, to_point)`` in the order played, in the
            mover's numbering: 25 is the bar (or, in Acey-Deucey, an unentered checker),
            0 is off.
        hits: the points (mover's numbering) where a blot was hit, in the order played.
            A point is hit at most once per turn: afterwards the mover holds it.
        result: the position after the play, the mover still on roll (not swapped).
        dice_used: how many dice the play uses (0-4). When a bear-off ends the game, the
            longest way to the final position is kept (gnubg does the same).
    """

    moves: tuple[tuple[int, int], ...]
    hits: tuple[int, ...]
    result: Position
    dice_used: int

    def hit_flags(self) -> tuple[bool, ...]:
        """For each move, whether it hit: the first move landing on a point in ``hits``."""
        pending = set(self.hits)
        flags = []
        for _, dest in self.moves:
            flags.append(dest in pending)
            pending.discard(dest)
        return tuple(flags)


def _check_dice(d1: int, d2: int) -> None:
    if type(d1) is not int or type(d2) is not int or not (0 < d1 < 7 and 0 < d2 < 7):
        raise EngineError("invalid_dice", f"dice must be integers 1-6, got {d1!r} {d2!r}")


def _check_limit(limit: int | None) -> None:
    if limit is not None and (type(limit) is not int or limit < 1):
        raise EngineError("invalid_options", f"max_checkers_per_point must be >= 1: {limit!r}")


# ------------------------------------------------------------------- the full walk


class _Record:
    """How a result was reached: dice used, whether the larger die was played (only
    meaningful for one-die plays), pips wasted in bear-off (R6 option), and the path."""

    __slots__ = ("depth", "hits", "large", "moves", "waste")

    def __init__(
        self,
        depth: int,
        large: bool,
        waste: int,
        moves: tuple[tuple[int, int], ...],
        hits: tuple[int, ...],
    ) -> None:
        self.depth = depth
        self.large = large
        self.waste = waste
        self.moves = moves
        self.hits = hits

    def better_than(self, other: _Record) -> bool:
        if self.depth != other.depth:
            return self.depth > other.depth
        if self.large != other.large:
            return self.large
        return self.waste < other.waste


#: Called by :func:`_walk` for every single-die move it makes: ``(key before, dice left
#: before the move, from point, to point, hit, key after)``; the first die left is the one
#: moved. Points are in the mover's numbering (25 the bar or unentered, 0 off).
StepVisitor = Callable[[int, tuple[int, ...], int, int, bool, int], None]


def _walk(
    pos: Position,
    d1: int,
    d2: int,
    limit: int | None,
    min_waste: bool,
    visit: StepVisitor | None = None,
) -> dict[int, _Record]:
    """Every legal play of ``d1``-``d2`` by walking the move sequences (R3-R7).

    Returns ``{result key: record}`` for exactly the legal results; the record's path is
    one way (the longest, then the least wasteful) to reach that result.

    With ``visit``, every order of the dice and of the checkers is walked (each
    intermediate position and dice left once) and every single-die move is reported to
    it; see :func:`walk_steps`.
    """
    m = [0, *pos.mover]  # m[p]: mover's checkers on point p (1..24), m[25] the bar
    opp = pos.opponent
    o = [0] + [opp[24 - t] for t in range(1, 25)] + [0]  # opponent checkers on mover's t
    unentered = pos.mover_unentered
    # Checkers not yet home (R7): on points 7..24, on the bar or unentered.
    outside = sum(m[7:26]) + unentered
    larger = max(d1, d2)
    results: dict[int, _Record] = {}
    path: list[tuple[int, int]] = []
    hits: list[int] = []
    seen: set[tuple[int, int, int, int]] = set()

    def step(seq: tuple[int, ...], i: int, key: int, top: int, waste: int, free: bool) -> None:
        nonlocal unentered, outside
        d = seq[i]
        depth = i + 1
        # R5: the bar first; unentered Acey-Deucey checkers come from "25" too.
        sources = (25,) if m[25] else range(top if unentered else min(top, 24), 0, -1)
        for p in sources:
            if p == 25:
                if not m[25] and not unentered:
                    continue
                t = 25 - d
            else:
                if not m[p]:
                    continue
                t = p - d
            w = 0
            if t >= 1:
                if o[t] >= 2:  # R4: blocked
                    continue
                if limit is not None and m[t] >= limit:  # R4 option
                    continue
            else:
                if outside:  # R7: all must be home
                    continue
                if t < 0:
                    # R7: a larger die bears off only from the highest occupied point.
                    if any(m[q] for q in range(p + 1, 7)):
                        continue
                    w = -t
                t = 0
            # apply
            from_bar = p == 25 and m[25] > 0
            if p == 25:
                if from_bar:
                    m[25] -= 1
                    k = key - POINT_UNIT[25]
                else:
                    unentered -= 1
                    k = key - UNENTERED_UNIT
            else:
                m[p] -= 1
                k = key - POINT_UNIT[p]
            hit = False
            if t:
                m[t] += 1
                k += POINT_UNIT[t]
                if o[t] == 1:
                    o[t] = 0
                    k += HIT_DELTA[t]
                    hit = True
                    hits.append(t)
            came_home = p >= 7 and t <= 6
            if came_home:
                outside -= 1
            path.append((p, t))
            if visit is not None:
                visit(key, seq[i:], p, t, hit, k)
            total_waste = waste + w
            flag = depth > 1 or d == larger
            new = _Record(depth, flag, total_waste, tuple(path), tuple(hits))
            old = results.get(k)
            if old is None or new.better_than(old):
                results[k] = new
            if depth < len(seq):
                if free:
                    # (the die left next tells the two orders of a non-double apart)
                    state = (k, depth, seq[depth], total_waste)
                    if state not in seen:
                        seen.add(state)
                        step(seq, depth, k, 25, total_waste, free)
                else:
                    step(seq, depth, k, p, total_waste, free)
            # undo
            path.pop()
            if came_home:
                outside += 1
            if t:
                m[t] -= 1
                if hit:
                    o[t] = 1
                    hits.pop()
            if p == 25:
                if from_bar:
                    m[25] += 1
                else:
                    unentered += 1
            else:
                m[p] += 1

    base = position_key(pos)
    if d1 == d2:
        # Doubles: moves of one number commute, so every result is reached by a sequence
        # whose source points never increase. With a per-point limit the order matters
        # (a point may be emptied first to make room), so then walk all orders.
        free = limit is not None or visit is not None
        step((d1,) * 4, 0, base, 25, 0, free)
    else:
        # Without the limit the second die's checker may start no higher than the first
        # one's: the other order of the dice covers the rest. With the limit (as for
        # doubles) or a visitor, every order: 8/2 may make room on 8 for 13/8.
        free = limit is not None or visit is not None
        step((d1, d2), 0, base, 25, 0, free)
        step((d2, d1), 0, base, 25, 0, free)
    if not results:
        return results
    most = max(r.depth for r in results.values())
    kept = {k: r for k, r in results.items() if r.depth == most}
    if most == 1 and d1 != d2 and any(r.large for r in kept.values()):
        kept = {k: r for k, r in kept.items() if r.large}  # R6: the larger die
    if min_waste:
        least = min(r.waste for r in kept.values())
        kept = {k: r for k, r in kept.items() if r.waste == least}  # R6 option
    return kept


def legal_results(
    pos: Position,
    d1: int,
    d2: int,
    *,
    max_checkers_per_point: int | None = None,
    min_pip_waste: bool = False,
) -> set[int]:
    """Packed keys of every legal resulting position (R3-R7); the fast path.

    Same rules and arguments as :func:`legal_plays`; convert a key with
    :func:`games.engine.position.position_from_key`. Empty when no move is possible.
    """
    if not (type(d1) is int is type(d2) and 0 < d1 < 7 and 0 < d2 < 7):
        _check_dice(d1, d2)  # raises
    if max_checkers_per_point is None and not min_pip_waste and not pos.mover_unentered:
        return fast_results(pos, d1, d2)
    _check_dice(d1, d2)
    _check_limit(max_checkers_per_point)
    return set(_walk(pos, d1, d2, max_checkers_per_point, min_pip_waste))


def walk_steps(
    pos: Position,
    d1: int,
    d2: int,
    visit: StepVisitor,
    *,
    max_checkers_per_point: int | None = None,
    min_pip_waste: bool = False,
) -> None:
    """Report to ``visit`` every single-die move of every way of playing ``d1``-``d2``.

    The moves are the generator's own (R4 landing and the per-point limit, R5 the bar
    first, R7 bearing off, R3 Acey-Deucey entering), made in every order of the dice and
    of the checkers; each intermediate position with the same dice left is expanded once.
    Which sequences are legal *plays* (R6: as many dice as possible, the larger die,
    least waste) is not filtered here: match the sequences against :func:`legal_plays`
    (:func:`games.engine.steps.play_steps` does).
    """
    _check_dice(d1, d2)
    _check_limit(max_checkers_per_point)
    _walk(pos, d1, d2, max_checkers_per_point, min_pip_waste, visit)


def legal_plays(
    pos: Position,
    d1: int,
    d2: int,
    *,
    max_checkers_per_point: int | None = None,
    min_pip_waste: bool = False,
) -> tuple[Play, ...]:
    """Every legal play of the roll ``d1``-``d2``, one per distinct resulting position.

    Doubles are four moves (R3). Returns ``()`` when no move is possible: the turn passes
    (R6). ``max_checkers_per_point`` (R4) and ``min_pip_waste`` (R6) are the rule options.
    Raises ``EngineError("invalid_dice")`` for dice outside 1-6.
    """
    _check_dice(d1, d2)
    _check_limit(max_checkers_per_point)
    found = _walk(pos, d1, d2, max_checkers_per_point, min_pip_waste)
    make: Callable[[int], Position] = position_from_key
    return tuple(Play(rec.moves, rec.hits, make(key), rec.depth) for key, rec in found.items())
