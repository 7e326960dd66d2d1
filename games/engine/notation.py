"""Move notation: the standard (GNU Backgammon) way of writing a play, produced and parsed.

Format (R1: points in the mover's own numbering, 24 down to 1; ``bar`` = 25, ``off`` = 0):

* one *chain* per checker: ``from/to``, e.g. ``13/10``; a checker using several dice is
  written as one chain, ``24/13`` for 6-5, and an intermediate point is shown only when a
  blot was hit there: ``24/21*/20`` (hit on 21) versus ``24/20`` (no hit on the way);
* ``*`` after a point where a blot was hit, once: at the first landing on it in writing
  order (``13/7* 8/7``; merged chains share the mark, ``8/4*(2)``), as gnubg writes it;
* identical chains are merged with a count: ``8/5(2) 6/3(2)``;
* chains are ordered by descending starting point (then descending end), as gnubg does.

:func:`format_play` writes this form. :func:`parse_play` reads it (also ``25``/``0`` for
bar/off, any case) and returns the legal :class:`~games.engine.movegen.Play` with the
same resulting position; the text may take another route to that position than the
play's own ``moves`` (``24/20`` for a 3-1 may go via 23 or 21; only the position counts).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise
from typing import Final

from games.engine.errors import EngineError
from games.engine.movegen import Play, legal_plays
from games.engine.position import Position, position_key

_TOKEN: Final = re.compile(r"^(?P<chain>[^()]+?)(?:\((?P<count>\d)\))?$")
_POINT: Final = re.compile(r"^(?P<point>bar|off|\d{1,2})(?P<hit>\*?)$")


def _name(point: int) -> str:
    if point == 25:
        return "bar"
    if point == 0:
        return "off"
    return str(point)


def format_play(play: Play) -> str:
    """The standard notation of ``play`` (see the module docstring); ``""`` for no moves."""
    hit_points = set(play.hits)
    moves = sorted(play.moves, key=lambda move: (-move[0], -move[1]))
    chains: list[list[int]] = []
    used = [False] * len(moves)
    for i, (src, dest) in enumerate(moves):
        if used[i]:
            continue
        chain = [src, dest]
        for j in range(i + 1, len(moves)):
            if not used[j] and moves[j][0] == chain[-1] and chain[-1] != 0:
                used[j] = True
                if chain[-1] in hit_points:
                    chain.append(moves[j][1])  # keep the point where the blot was hit
                else:
                    chain[-1] = moves[j][1]  # elide a point passed without hitting
        chains.append(chain)
    counted: list[tuple[list[int], int]] = []
    for chain in chains:
        for k, (seen, count) in enumerate(counted):
            if seen == chain:
                counted[k] = (seen, count + 1)
                break
        else:
            counted.append((chain, 1))
    parts = []
    for chain, count in counted:
        text = _name(chain[0])
        for point in chain[1:]:
            text += "/" + _name(point)
            if point in hit_points:
                text += "*"
                hit_points.discard(point)  # marked once, where the chains first land on it
        parts.append(f"{text}({count})" if count > 1 else text)
    return " ".join(parts)


def _parse(text: str) -> list[list[int]]:
    """Chains of points (one per checker) from the text; raises invalid_notation."""
    chains: list[list[int]] = []
    for token in text.lower().split():
        match = _TOKEN.match(token)
        if not match:
            raise EngineError("invalid_notation", f"cannot read {token!r}")
        count = int(match["count"] or 1)
        points = []
        for part in match["chain"].split("/"):
            pm = _POINT.match(part)
            if not pm:
                raise EngineError("invalid_notation", f"bad point {part!r} in {token!r}")
            name = pm["point"]
            point = 25 if name == "bar" else 0 if name == "off" else int(name)
            if point > 25:
                raise EngineError("invalid_notation", f"no point {point} in {token!r}")
            points.append(point)
        if len(points) < 2 or count < 1:
            raise EngineError("invalid_notation", f"a move needs from/to: {token!r}")
        if any(a <= b for a, b in pairwise(points)):
            raise EngineError("invalid_notation", f"checkers move from high to low: {token!r}")
        if 0 in points[:-1] or 25 in points[1:]:
            raise EngineError("invalid_notation", f"bar/off in the wrong place: {token!r}")
        chains.extend([points] * count)
    return chains


def play_moves(text: str) -> list[tuple[int, int]]:
    """Where each checker of a play written in ``text`` left from and went to, in the
    mover's numbering (25 the bar, 0 off), one pair per checker; raises invalid_notation."""
    return [(chain[0], chain[-1]) for chain in _parse(text)]


def _apply(pos: Position, chains: list[list[int]]) -> Position:
    """The position after moving the checkers along ``chains`` (landing on a blot hits it;
    an elided intermediate point is passed without landing). Raises illegal_play when a
    checker is missing or a point is blocked."""
    m = [0, *pos.mover]
    o = [0, *pos.opponent[23::-1], 0]
    opp_bar = pos.opponent[24]
    unentered = pos.mover_unentered
    for chain in chains:
        for src, dest in pairwise(chain):
            if src == 25 and not m[25] and unentered:
                unentered -= 1  # R3: an Acey-Deucey checker enters
            elif m[src]:
                m[src] -= 1
            else:
                raise EngineError("illegal_play", f"no checker on {_name(src)}")
            if dest:
                if o[dest] > 1:
                    raise EngineError("illegal_play", f"point {dest} is blocked (R4)")
                if o[dest] == 1:
                    o[dest] = 0
                    opp_bar += 1
                m[dest] += 1
    opponent = (*o[24:0:-1], opp_bar)
    return Position(tuple(m[1:]), opponent, unentered, pos.opponent_unentered)


def parse_play(
    pos: Position,
    text: str,
    d1: int,
    d2: int,
    *,
    max_checkers_per_point: int | None = None,
    min_pip_waste: bool = False,
    plays: Sequence[Play] | None = None,
) -> Play:
    """The legal play of ``d1``-``d2`` that ``text`` describes (R4-R7).

    Raises ``EngineError("invalid_notation")`` when the text cannot be read and
    ``EngineError("illegal_play")`` when it describes no legal play. An empty text is
    accepted only when no move is possible (R6); it returns a play without moves.
    ``plays``: the legal plays of this position and roll when the caller has them
    already (``GameState.legal_plays()``), so they are not generated a second time.
    """
    chains = _parse(text)
    if plays is None:
        plays = legal_plays(
            pos, d1, d2, max_checkers_per_point=max_checkers_per_point, min_pip_waste=min_pip_waste
        )
    if not chains:
        if plays:
            raise EngineError("illegal_play", "a move is possible, the roll must be played (R6)")
        return Play((), (), pos, 0)
    target = position_key(_apply(pos, chains))
    for play in plays:
        if position_key(play.result) == target:
            return play
    raise EngineError("illegal_play", f"{text!r} is not a legal play of {d1}-{d2}")
