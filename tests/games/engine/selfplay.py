"""Seeded self-play: reachable positions for the differential test and the benchmark.

Two players choose uniformly among the legal results of each roll (R3-R7, our own
generator's fast path), from the ``standard`` and ``nackgammon`` starts (R2), until one of
them has borne off all 15 checkers (R9). Random play hits a lot, so the positions cover
contact, checkers on the bar, primes, races and bear-offs. Everything is a pure function
of the seed: the same seed gives the same corpus on every machine.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from games.engine.movegen import legal_results
from games.engine.position import Position, position_from_key, start_position

ALL_ROLLS: tuple[tuple[int, int], ...] = tuple(
    (d1, d2) for d1 in range(1, 7) for d2 in range(d1, 7)
)


def play_game(rng: random.Random, variant: str = "standard") -> Iterator[Position]:
    """Yield the position before every roll of one random game, then the final one.

    The opening roll is a non-double (R3). The last position yielded is the one after the
    winning play, with the loser on roll (``pos.opponent_off == 15``).
    """
    pos = start_position(variant)
    d1, d2 = rng.sample(range(1, 7), 2)
    while True:
        yield pos
        keys = sorted(legal_results(pos, d1, d2))
        if keys:
            after = position_from_key(rng.choice(keys))
            if after.mover_off == 15:
                yield after.swapped()
                return
            pos = after.swapped()
        else:
            pos = pos.swapped()
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)


def positions(count: int, seed: int = 20240611, keep: float = 0.35) -> list[Position]:
    """``count`` positions with a player on roll, from random games (every other game
    Nackgammon), each position kept with probability ``keep`` so that one corpus mixes
    many games. Finished positions are skipped."""
    rng = random.Random(seed)
    out: list[Position] = []
    game = 0
    while len(out) < count:
        variant = "nackgammon" if game % 2 else "standard"
        game += 1
        for pos in play_game(rng, variant):
            if pos.opponent_off == 15:
                break
            if rng.random() < keep:
                out.append(pos)
                if len(out) == count:
                    break
    return out


def make_position(
    mover: dict[int, int],
    opponent: dict[int, int] | None = None,
    *,
    mover_unentered: int = 0,
    opponent_unentered: int = 0,
) -> Position:
    """A position written the way a player reads the board (R1), for hand-made tests.

    ``mover`` maps the mover's points (1-24, 25 = bar) to checker counts. ``opponent``
    maps points *in the mover's numbering* (1-24) to the opponent's counts, and 25 to the
    opponent's bar. Checkers not listed are borne off.
    """
    me = [0] * 25
    for point, count in mover.items():
        me[point - 1] = count
    opp = [0] * 25
    for point, count in (opponent or {}).items():
        opp[24 if point == 25 else 24 - point] = count
    return Position(tuple(me), tuple(opp), mover_unentered, opponent_unentered)
