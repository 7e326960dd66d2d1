"""The fast path of the legal move generator: only the packed keys of the results (R4-R7).

:func:`fast_results` answers :func:`games.engine.movegen.legal_results` when no rule
option applies and no Acey-Deucey checker waits to enter (the full walk of
:mod:`games.engine.movegen` does the rest). It works on the additive key
(:func:`games.engine.position.position_key`): moving a checker or hitting is one integer
addition. Non-double plays are one set comprehension over precomputed single-die moves
plus a few corrections; doubles are enumerated as non-increasing sequences of source
points (each distinct multiset of moves exactly once, so no duplicates); bar entries are
special-cased, and turns in which bearing off is possible use a small key-only walk.
Per-position tables (the single-die moves of each die) are kept for the position asked
about last (``_LAST``), so asking for all 21 rolls of a position pays for them once.

The key arithmetic (the field units of the packed key) lives here; the full walk uses it
too. Checked against GNU Backgammon with the full walk
(``tests/games/engine/test_movegen_gnubg.py``).
"""

from __future__ import annotations

from itertools import compress
from typing import Final

from games.engine.position import (
    FIELD_BITS,
    MOVER_UNENTERED_FIELD,
    OPPONENT_FIELD0,
    Position,
    position_key,
)

# ----------------------------------------------------------------- key arithmetic
# Field units of the packed key: ``POINT_UNIT[p]`` for the mover's point number p (1..24
# points, 25 the bar), ``UNENTERED_UNIT`` for an Acey-Deucey checker not yet entered.
# ``_OPP[t]`` is the opponent's count on the mover's point t (the opponent's own index
# 24 - t); a hit moves that checker to the opponent's bar: the key changes by
# ``HIT_DELTA[t]``.
POINT_UNIT: Final = [0] + [1 << (FIELD_BITS * (p - 1)) for p in range(1, 26)]
UNENTERED_UNIT: Final = 1 << (FIELD_BITS * MOVER_UNENTERED_FIELD)
_OBAR: Final = 1 << (FIELD_BITS * (OPPONENT_FIELD0 + 24))
_OPP: Final = [0] + [1 << (FIELD_BITS * (OPPONENT_FIELD0 + 24 - t)) for t in range(1, 25)]
HIT_DELTA: Final = [0] + [_OBAR - _OPP[t] for t in range(1, 25)]

# Static key deltas of a plain move by die d from point p to p - d >= 1.
_MOVE: Final = [[0] * 26] + [
    [(POINT_UNIT[p - d] - POINT_UNIT[p]) if p - d >= 1 and p <= 24 else 0 for p in range(26)]
    for d in range(1, 7)
]
# _STEP[d][p][c]: key delta of moving a checker from point p by the die d onto a point
# holding c opposing checkers, the hit included; 0 when that is not a plain move: the
# target is blocked (c >= 2, R4) or off the board (bearing off is handled separately).
_STEP: Final = [
    [
        tuple(
            (mv[p] + HIT_DELTA[p - d] if c == 1 else mv[p]) if mv[p] and c < 2 else 0
            for c in range(16)
        )
        for p in range(26)
    ]
    for d, mv in enumerate(_MOVE)
]
# _ENTRY[d][c]: key delta of entering from the bar with the die d onto the point 25 - d
# holding c opposing checkers, the hit included; 0 when blocked (R5).
_ENTRY: Final = [(0,) * 16] + [
    tuple(
        (POINT_UNIT[25 - d] - POINT_UNIT[25] + (HIT_DELTA[25 - d] if c == 1 else 0)) if c < 2 else 0
        for c in range(16)
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
                    res.add(y - HIT_DELTA[t])
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
                    add(y - HIT_DELTA[t])
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
    mf = POINT_UNIT
    hit = HIT_DELTA
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
    mf = POINT_UNIT
    hit = HIT_DELTA
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


def fast_results(pos: Position, d1: int, d2: int) -> set[int]:
    """Packed keys of every legal result of ``d1``-``d2`` (valid dice) without rule
    options and without unentered checkers: :func:`games.engine.movegen.legal_results`'s
    fast path."""
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
