"""Benchmark: legal-play generation, ours (pure Python) against GNU Backgammon's C code.

Run from the repository root: ``python bench/engine.py`` (not a test). The corpus is fixed:
1,000 positions from seeded self-play (``tests/games/engine/selfplay.py``) x all 21 rolls =
21,000 items. For each item we time

* ours: :func:`games.engine.movegen.legal_results` (packed result keys, the fast path),
* gnubg: ``gnubg_nn.moves(board, d1, d2)`` (position keys only),

on the same items, best of ``--repeat`` runs each, with the garbage collector paused
while timing (as :mod:`timeit` does), so neither side pays for collecting the other's
objects. Ours is timed two ways:

* shared ("ours"): the caches are cleared before every run, and the items of one position
  follow each other, so each run pays for a position's packed key and tables once and
  its 21 rolls share them (``movefast._LAST``, a one-slot cache);
* cold ("ours-cold"): the packed key and the tables are cleared before every item, as
  when a server asks for one roll of a position it has not seen: nothing is shared.

Each figure is printed with its ratio to gnubg. The last two lines are ``ratio_cold
<cold/gnubg>`` and ``ratio <shared/gnubg>``; the issue's goal is a ratio of at least 0.33
(the shared one meets it; the cold one is close to it but below it).
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gnubg_nn

from games.engine import movefast
from games.engine.movegen import legal_results
from games.engine.position import Position
from tests.games.engine.selfplay import ALL_ROLLS, positions


def _reset(corpus: list[Position]) -> None:
    """Forget every cache: the packed keys on the positions and the generator's tables."""
    for pos in corpus:
        object.__setattr__(pos, "_key", -1)
    movefast._LAST = (None, None)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=20240611)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)

    corpus = positions(args.positions, seed=args.seed)
    items = [(pos, d1, d2) for pos in corpus for d1, d2 in ALL_ROLLS]
    boards = [((pos.opponent, pos.mover), d1, d2) for pos, d1, d2 in items]
    n = len(items)
    moves = gnubg_nn.moves

    best_gnubg = float("inf")
    best_ours = float("inf")
    best_gc = float("inf")
    best_cold = float("inf")
    for _ in range(args.repeat):
        gc.collect()
        gc.disable()
        t0 = time.perf_counter()
        for board, d1, d2 in boards:
            moves(board, d1, d2)
        best_gnubg = min(best_gnubg, time.perf_counter() - t0)

        _reset(corpus)
        t0 = time.perf_counter()
        for pos, d1, d2 in items:
            legal_results(pos, d1, d2)
        best_ours = min(best_ours, time.perf_counter() - t0)

        t0 = time.perf_counter()
        for pos, d1, d2 in items:
            object.__setattr__(pos, "_key", -1)
            movefast._LAST = (None, None)
            legal_results(pos, d1, d2)
        best_cold = min(best_cold, time.perf_counter() - t0)
        gc.enable()

        _reset(corpus)
        t0 = time.perf_counter()
        for pos, d1, d2 in items:
            legal_results(pos, d1, d2)
        best_gc = min(best_gc, time.perf_counter() - t0)

    ratio = best_gnubg / best_ours
    ratio_cold = best_gnubg / best_cold
    print(f"items {n} ({len(corpus)} positions x {len(ALL_ROLLS)} rolls), best of {args.repeat}")
    print(f"gnubg {n / best_gnubg:,.0f} items/s")
    print(
        f"ours {n / best_ours:,.0f} items/s, {ratio:.3f} of gnubg (a position's rolls share tables)"
    )
    print(f"ours-gc {n / best_gc:,.0f} items/s (garbage collector running; info only)")
    print(f"ours-cold {n / best_cold:,.0f} items/s, {ratio_cold:.3f} of gnubg (nothing shared)")
    print(f"ratio_cold {ratio_cold:.3f}")
    print(f"ratio {ratio:.3f}")


if __name__ == "__main__":
    main()
