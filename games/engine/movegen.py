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
  options and without Acey-Deucey checkers waiting, it works on the additive key: moving
  a checker or hitting is one integer addition. Non-double plays are one set
  comprehension over precomputed single-die moves plus a few corrections; doubles are
  enumerated as non-increasing sequences of source points (each distinct multiset of
  moves exactly once, so no duplicates); bar entries are special-cased, and turns in which
  bearing off is possible use a small key-only walk. Per-position tables (the single-die
  moves of each die) are kept for the position asked about last, so asking for all 21
  rolls of a position pays for them once. The options and Acey-Deucey use the full walk.

Both are checked against GNU Backgammon (``tests/games/engine/test_movegen_gnubg.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import compress
from typing import Final

from games.engine.errors import EngineError
from games.engine.position import (
    FIELD_BITS,
    MOVER_UNENTERED_FIELD,
    OPPONENT_FIELD0,
    Position,
    position_from_key,
    position_key,
)

# ----------------------------------------------------------------- key arithmetic
# Field units of the packed key, indexed by the mover's point number: 1..24 points,
# 25 the bar. ``_OPP[t]`` is the opponent's count on the mover's point t (the opponent's
# own index 24 - t); a hit moves that checker to the opponent's bar.
_MF: Final = [0] + [1 << (FIELD_BITS * (p - 1)) for p in range(1, 26)]
_UNENTERED: Final = 1 << (FIELD_BITS * MOVER_UNENTERED_FIELD)
_OBAR: Final = 1 << (FIELD_BITS * (OPPONENT_FIELD0 + 24))
_OPP: Final = [0] + [1 << (FIELD_BITS * (OPPONENT_FIELD0 + 24 - t)) for t in range(1, 25)]
_HIT: Final = [0] + [_OBAR - _OPP[t] for t in range(1, 25)]


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
                    k = key - _MF[25]
                else:
                    unentered -= 1
                    k = key - _UNENTERED
            else:
                m[p] -= 1
                k = key - _MF[p]
            hit = False
            if t:
                m[t] += 1
                k += _MF[t]
                if o[t] == 1:
                    o[t] = 0
                    k += _HIT[t]
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


# ------------------------------------------------------------------- the fast path

# Static key deltas of a plain move by die d from point p to p - d >= 1.
_MOVE: Final = [[0] * 26] + [
    [(_MF[p - d] - _MF[p]) if p - d >= 1 and p <= 24 else 0 for p in range(26)] for d in range(1, 7)
]
# _STEP[d][p][c]: key delta of moving a checker from point p by the die d onto a point
# holding c opposing checkers, the hit included; 0 when that is not a plain move: the
# target is blocked (c >= 2, R4) or off the board (bearing off is handled separately).
_STEP: Final = [
    [
        tuple(
            (mv[p] + _HIT[p - d] if c == 1 else mv[p]) if mv[p] and c < 2 else 0 for c in range(16)
        )
        for p in range(26)
    ]
    for d, mv in enumerate(_MOVE)
]
# _ENTRY[d][c]: key delta of entering from the bar with the die d onto the point 25 - d
# holding c opposing checkers, the hit included; 0 when blocked (R5).
_ENTRY: Final = [(0,) * 16] + [
    tuple(
        (_MF[25 - d] - _MF[25] + (_HIT[25 - d] if c == 1 else 0)) if c < 2 else 0 for c in range(16)
    )
    for d in range(1, 7)
]
_POINTS_DOWN: Final = range(24, 0, -1)
_ZERO: Final = (0,)


class _Prep:
    """What the fast path needs to know about a position (cached for the last one, ``_LAST``).

    ``m[p]``/``o[p]``: the mover's/opponent's checkers on the mover's point p (``m[25]``
    the bar; ``o`` has no index 25); ``outside``: the mover's checkers not home (R7);
    ``occ``: occupied points, descending; ``tables[d]``: the die table of die d, built on
    first use: ``{p: key delta}`` for every occupied point ``p`` whose checker can make a
    plain move by d (hit included), descending.
    """

    __slots__ = ("base", "m", "o", "occ", "outside", "tables")

    def __init__(self, pos: Position) -> None:
        mover = pos.mover
        self.base = position_key(pos)
        self.m = _ZERO + mover
        self.o = _ZERO + pos.opponent[23::-1]
        self.occ = list(compress(_POINTS_DOWN, mover[23::-1]))
        self.outside = sum(mover[6:])
        self.tables: list[dict[int, int] | None] = [None, None, None, None, None, None, None]

    def table(self, d: int) -> dict[int, int]:
        step = _STEP[d]
        o = self.o
        table = {p: y for p in self.occ if (y := step[p][o[p - d]])}
        self.tables[d] = table
        return table


# The tables of the position asked about last. Asking for several rolls of one position
# in a row (an analysis, a bot, the differential test) builds them once; a single slot
# keeps no memory alive and gives the garbage collector nothing to walk. The tuple is
# replaced as a whole; a _Prep only gains die tables (the same ones whichever thread
# builds them) and the generators copy the counts they change, so threads may share it.
_LAST: tuple[Position | None, _Prep | None] = (None, None)


def _prepare(pos: Position) -> _Prep:
    global _LAST
    prep = _Prep(pos)
    _LAST = (pos, prep)
    return prep


def _fast_nondouble(prep: _Prep, a: int, b: int) -> set[int]:
    """Two different dice, ``a > b``; no bear-off possible this turn (R4-R6).

    The two-dice results are the sums of one ``a`` move and one ``b`` move of checkers
    standing there at the start (one set comprehension), plus the same checker moving on
    from a point it has just reached, minus a checker leaving a point twice; a blot reached
    by both moves is hit only once. (A sum that moves two checkers from a point holding
    one, or hits one blot twice, drives a count below zero: it is an invalid key, equal to
    no valid result, so discarding it never loses one.)
    """
    base = prep.base
    m = prep.m
    o = prep.o
    bar = m[25]
    if bar > 1:
        # R5: the bar first, one die per checker; nothing else moves.
        enta = _ENTRY[a][o[25 - a]]
        entb = _ENTRY[b][o[25 - b]]
        if enta and entb:
            return {base + enta + entb}
        if enta:
            return {base + enta}
        return {base + entb} if entb else set()
    stepa = _STEP[a]
    stepb = _STEP[b]
    tables = prep.tables
    if bar:
        # R5: enter with one die, then play the other with any checker.
        enta = _ENTRY[a][o[25 - a]]
        entb = _ENTRY[b][o[25 - b]]
        res: set[int] = set()
        if enta:
            db = tables[b]
            if db is None:
                db = prep.table(b)
            k = base + enta
            res = {k + y for y in db.values()}
            t = 25 - a
            if o[t]:  # the entry hit: a b move landing there hits no more
                q = t + b
                if q in db:
                    y = k + db[q]
                    res.discard(y)
                    res.add(y - _HIT[t])
            if not m[t]:  # the entered checker moves on
                y = stepb[t][o[t - b]]
                if y:
                    res.add(k + y)
        if entb:
            da = tables[a]
            if da is None:
                da = prep.table(a)
            k = base + entb
            res.update([k + y for y in da.values()])
            t = 25 - b
            if not m[t]:
                y = stepa[t][o[t - a]]
                if y:
                    res.add(k + y)
            # (no a move lands on 25 - b: it would come from beyond the bar)
        if res:
            return res
        if enta:
            return {base + enta}
        return {base + entb} if entb else set()

    da = tables[a]
    if da is None:
        da = prep.table(a)
    db = tables[b]
    if db is None:
        db = prep.table(b)
    xa = [base + x for x in da.values()]
    yb = db.values()
    res = {x + y for x in xa for y in yb}
    add = res.add
    discard = res.discard
    for p, x in da.items():
        t = p - a
        if not m[t]:
            y = stepb[t][o[t - b]]
            if y:
                add(base + x + y)  # the same checker moves on: a, then b
            if o[t]:  # a blot, also reached by a b move from t + b: one hit only
                q = t + b
                if q in db:
                    y = base + x + db[q]
                    discard(y)
                    add(y - _HIT[t])
        if m[p] == 1 and p in db:
            discard(base + x + db[p])  # one checker cannot leave twice
    for q, y in db.items():
        t = q - b
        if not m[t]:
            x = stepa[t][o[t - a]]
            if x:
                add(base + x + y)  # b, then a
    if res:
        return res
    if xa:
        return set(xa)  # R6: only one die can be played: the larger one
    return {base + y for y in yb}


def _bear_nondouble(prep: _Prep, a: int, b: int) -> set[int]:
    """Two different dice, ``a > b``, when bearing off may happen this turn (R6, R7).

    No bar checker; at most one checker outside the home board. Walks both orders; after
    the first die the highest occupied point and "all home" are re-evaluated.
    """
    base = prep.base
    m = list(prep.m)  # changed and restored below
    o = prep.o
    occ = prep.occ
    outside = prep.outside
    hi = occ[0] if occ else 0
    second = occ[1] if len(occ) > 1 else 0
    mf = _MF
    hit = _HIT
    two: set[int] = set()
    ones_a: set[int] = set()
    ones_b: set[int] = set()
    for x, y, ones in ((a, b, ones_a), (b, a, ones_b)):
        mvx = _MOVE[x]
        mvy = _MOVE[y]
        for p in occ:
            t = p - x
            if t > 0:
                ot = o[t]
                if ot > 1:
                    continue
                k1 = base + mvx[p] + hit[t] if ot else base + mvx[p]
            elif outside or (t < 0 and p != hi):
                continue  # R7
            else:
                k1 = base - mf[p]
                t = 0
            ones.add(k1)
            m[p] -= 1
            m[t] += 1
            out2 = outside - 1 if p > 6 and t < 7 else outside
            hi2 = hi if m[hi] else max(second, t)
            taken = t if t and o[t] == 1 else 0
            for q in occ:
                if not m[q]:
                    continue
                u = q - y
                if u > 0:
                    ou = o[u]
                    if ou > 1:
                        continue
                    two.add(k1 + mvy[q] + hit[u] if ou and u != taken else k1 + mvy[q])
                elif not out2 and (u == 0 or q == hi2):
                    two.add(k1 - mf[q])
            if t and m[t] == 1:  # the checker just moved, on a point that was empty
                u = t - y
                if u > 0:
                    ou = o[u]
                    if ou < 2:
                        two.add(k1 + mvy[t] + hit[u] if ou else k1 + mvy[t])
                elif not out2 and (u == 0 or t == hi2):
                    two.add(k1 - mf[t])
            m[p] += 1
            m[t] -= 1
    if two:
        return two
    return ones_a or ones_b  # R6: the larger die when only one can be played


def _bear_double(prep: _Prep, d: int) -> set[int]:
    """Doubles when bearing off may happen this turn (R6, R7); no bar checker.

    Walks non-increasing sequences of source points (see :func:`_double_moves`) and keeps
    the results of the longest ones.
    """
    m = list(prep.m)
    o = list(prep.o)
    mf = _MF
    hit = _HIT
    mv = _MOVE[d]
    found: list[set[int]] = [set(), set(), set(), set(), set()]

    def step(depth: int, top: int, key: int, outside: int) -> None:
        level = found[depth]
        for p in range(top, 0, -1):
            c = m[p]
            if not c:
                continue
            t = p - d
            ot = 0
            if t > 0:
                ot = o[t]
                if ot > 1:
                    continue
                k = key + mv[p]
                if ot:
                    k += hit[t]
                    o[t] = 0
            elif outside or (t < 0 and any(m[p + 1 : 7])):
                continue  # R7
            else:
                k = key - mf[p]
                t = 0
            level.add(k)
            if depth < 4:
                m[p] = c - 1
                m[t] += 1
                step(depth + 1, p, k, outside - 1 if p > 6 and t < 7 else outside)
                m[p] = c
                m[t] -= 1
            if ot:
                o[t] = 1

    if prep.occ:
        step(1, prep.occ[0], prep.base, prep.outside)
    for level in reversed(found):
        if level:
            return level
    return set()


def _double_moves(
    step: list[tuple[int, ...]],
    o: tuple[int, ...],
    dd: list[int],
    d: int,
    k0: int,
    cnt: list[int],
    sources: list[int],
    r: int,
) -> set[int]:
    """Keys after ``r`` (1-4) moves of the die ``d`` from the key ``k0`` (R4, R6).

    ``cnt`` holds the mover's counts by point (modified and restored); ``sources`` the
    occupied points with a legal move, descending; ``dd[p]`` the key delta of the first
    move from a source ``p``, hit included (filled in here for the "new" points below,
    from ``step``, the die's row of :data:`_STEP`, and ``o``, the opponent's counts).
    No bar checker and no bear-off may be involved. Moves of one number commute, so
    every result is reached by exactly one non-increasing sequence of source points, and
    distinct sequences give distinct positions: no duplicates are produced. A point's
    first move may hit (``dd``); later moves from it land on a point already taken
    (:data:`_MOVE`, ``nn``). At each step the choices are:
    the same point again (if a checker is left), an occupied point lower down (surely
    still occupied: only higher points lost checkers), or a point that was empty and has
    received a checker this turn. Returns an empty set when ``r`` moves are impossible.
    """
    if r == 1:
        return {k0 + dd[p] for p in sources}
    nn = _MOVE[d]
    # Points that are empty now but can receive a checker and move it on ("new" points).
    new = set()
    for p in sources:
        t = p - d
        for _ in range(r - 1):
            if t <= d:
                break
            y = step[t][o[t - d]]
            if not y:
                break
            if not cnt[t]:
                dd[t] = y
                new.add(t)
            t -= d
    cands = sorted([*sources, *new], reverse=True)
    n = len(cands)
    below: list[list[tuple[int, int, int]]] = [[]] * n  # occupied points below cands[i]
    belowy: list[list[int]] = [[]] * n  # their key deltas
    acc: list[tuple[int, int, int]] = []
    accy: list[int] = []
    idx = [0] * 26
    for i in range(n - 1, -1, -1):
        p = cands[i]
        idx[p] = i
        below[i] = acc
        belowy[i] = accy
        if cnt[p]:
            acc = [(p, dd[p], i), *acc]
            accy = [dd[p], *accy]
    isnew = [False] * 26
    for t in new:
        isnew[t] = True
    res: set[int] = set()
    app = res.add
    update = res.update
    # r == 4: the keys after three moves, by the index of the third move's point
    later: list[list[int]] = [[] for _ in cands] if r == 4 else []
    for p1 in sources:
        i1 = idx[p1]
        k1 = k0 + dd[p1]
        t1 = p1 - d
        cnt[p1] -= 1
        cnt[t1] += 1
        opts2 = below[i1]
        if cnt[p1]:
            opts2 = [(p1, nn[p1], i1), *opts2]
        if isnew[t1]:
            opts2 = [*opts2, (t1, dd[t1], idx[t1])]
        if r == 2:
            for _, y2, _ in opts2:
                app(k1 + y2)
        else:
            for p2, y2, i2 in opts2:
                k2 = k1 + y2
                t2 = p2 - d
                cnt[p2] -= 1
                cnt[t2] += 1
                opts3 = below[i2]
                if cnt[p2]:
                    opts3 = [(p2, nn[p2], i2), *opts3]
                if t1 < p2 and isnew[t1]:
                    opts3 = [*opts3, (t1, dd[t1], idx[t1])]
                if isnew[t2] and t2 != t1:
                    opts3 = [*opts3, (t2, dd[t2], idx[t2])]
                if r == 3:
                    for _, y3, _ in opts3:
                        app(k2 + y3)
                elif new:
                    for p3, y3, i3 in opts3:
                        k3 = k2 + y3
                        if cnt[p3] > 1:
                            app(k3 + nn[p3])
                        later[i3].append(k3)
                        t3 = p3 - d
                        if isnew[t3]:
                            app(k3 + dd[t3])
                        if t2 < p3 and t2 != t3 and isnew[t2]:
                            app(k3 + dd[t2])
                        if t1 < p3 and t1 != t3 and t1 != t2 and isnew[t1]:
                            app(k3 + dd[t1])
                else:
                    for p3, y3, i3 in opts3:
                        k3 = k2 + y3
                        if cnt[p3] > 1:
                            app(k3 + nn[p3])
                        later[i3].append(k3)
                cnt[p2] += 1
                cnt[t2] -= 1
        cnt[p1] += 1
        cnt[t1] -= 1
    if r == 4:
        # The fourth move from an occupied point below the third one, in bulk.
        for ks, ys in zip(later, belowy, strict=True):
            if ks and ys:
                update([k + y for k in ks for y in ys])
    return res


def _fast_double(prep: _Prep, d: int) -> set[int]:
    """Doubles when no bear-off is possible this turn (R4-R6): bar entries, then moves.

    When fewer than four moves are possible, the longest sequences count (R6): the
    checkers entered, then as many moves as can be made.
    """
    base = prep.base
    m = prep.m
    o = prep.o
    bar = m[25]
    if bar:
        te = 25 - d
        ent = _ENTRY[d][o[te]]
        if not ent:
            return set()  # R5: cannot enter, the turn is lost
        entn = _ENTRY[d][0]
        if bar >= 4:
            return {base + ent + 3 * entn}
    step = _STEP[d]
    table = prep.tables[d]
    if table is None:
        table = prep.table(d)
    sources = list(table)
    dd = [0] * 25  # the first move's key delta from a source or a "new" point
    for p, y in table.items():
        dd[p] = y
    cnt = list(m)
    if bar:
        k0 = base + ent + (bar - 1) * entn
        cnt[te] += bar
        cnt[25] = 0
        if not m[te]:
            y = step[te][o[te - d]]
            if y:
                dd[te] = y
                sources = sorted([*sources, te], reverse=True)
    else:
        k0 = base
    if not sources:
        return {k0} if bar else set()
    for moves in range(4 - bar, 0, -1):
        res = _double_moves(step, o, dd, d, k0, cnt, sources, moves)
        if res:
            return res
    return {k0}  # unreachable: a source always has one move


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
        last = _LAST
        prep = last[1] if last[0] is pos and last[1] is not None else _prepare(pos)
        if d1 != d2:
            if d1 < d2:
                d1, d2 = d2, d1
            if prep.m[25] or prep.outside > 1:
                return _fast_nondouble(prep, d1, d2)
            return _bear_nondouble(prep, d1, d2)
        if prep.m[25] or prep.outside > 3:
            return _fast_double(prep, d1)
        return _bear_double(prep, d1)
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
