"""Differential test against GNU Backgammon's move generator (R4-R7).

Positions come from seeded self-play (``tests/games/engine/selfplay.py``: random legal plays
from the ``standard`` and ``nackgammon`` starts until the game ends), so they include
contact, hits, checkers on the bar, primes, races and bear-offs, hits during bear-off and
re-entry. For every position we ask for all 21 rolls and compare the *set of resulting
positions* (never notation: many orders give one position, gnubg prints one of them):

* ours, fast path: :func:`games.engine.movegen.legal_results` (packed keys),
* ours, full walk: :func:`games.engine.movegen.legal_plays` (``Play.result``),
* gnubg: ``gnubg_nn.moves(board, d1, d2)`` (position keys, converted to ours).

The default run checks ``DEFAULT_ITEMS`` (position, roll) items (at least 20,000) with 0
mismatches allowed. A larger run is one command away::

    ENGINE_DIFF_ITEMS=500000 pytest tests/games/engine/test_movegen_gnubg.py -p no:django -q

(``ENGINE_DIFF_SEED`` picks another corpus). The ``slow`` test runs 210,000 more items
from another seed: ``python -m pytest tests/games/engine -p no:django -m slow``.
"""

from __future__ import annotations

import os
from collections import Counter

import gnubg_nn  # the oracle, a dev dependency
import pytest

from games.engine.movegen import legal_plays, legal_results
from games.engine.position import (
    Position,
    position_from_id,
    position_id,
    position_key,
    position_key_bytes,
)
from tests.games.engine.selfplay import ALL_ROLLS, positions

DEFAULT_ITEMS = 21_000
DEFAULT_SEED = 3

_LETTERS = str.maketrans("0123456789abcdef", "ABCDEFGHIJKLMNOP")


def gnubg_key(pos: Position) -> str:
    """gnubg's 20-letter position key: the Position ID's 10 bytes, a nibble per letter."""
    return position_key_bytes(pos).hex().translate(_LETTERS)


def _compare(corpus: list[Position]) -> tuple[int, list[str]]:
    """Items checked and a description of every mismatch.

    The walk's results are compared with gnubg's keys; the fast path's packed keys with
    the walk's (the same keys, as ``Play.result`` caches its packed key)."""
    mismatches: list[str] = []
    items = 0
    for pos in corpus:
        board = (pos.opponent, pos.mover)
        for d1, d2 in ALL_ROLLS:
            items += 1
            theirs = gnubg_nn.moves(board, d1, d2)
            plays = legal_plays(pos, d1, d2)
            walked = {gnubg_key(play.result) for play in plays}
            if walked != set(theirs) or len(plays) != len(theirs):
                mismatches.append(f"walk {position_id(pos)} {d1}-{d2}: {walked ^ set(theirs)}")
            fast = legal_results(pos, d1, d2)
            if fast != {position_key(play.result) for play in plays}:
                mismatches.append(f"fast {position_id(pos)} {d1}-{d2}")
    return items, mismatches


def _describe(corpus: list[Position]) -> Counter[str]:
    kinds: Counter[str] = Counter()
    for pos in corpus:
        if pos.mover[24]:
            kinds["mover on the bar"] += 1
        if pos.is_race():
            kinds["race"] += 1
        if sum(pos.mover[6:]) == 0:
            kinds["all home (bearing off)"] += 1
        if pos.mover_off:
            kinds["some borne off"] += 1
        if any(pos.opponent[23 - i] == 1 for i in range(6)) and sum(pos.mover[6:]) == 0:
            kinds["bear-off with a blot in our home"] += 1
    return kinds


def test_R4_R7_differential_against_gnubg() -> None:
    """0 mismatches on at least 20,000 (position, roll) items (R4-R7)."""
    total = int(os.environ.get("ENGINE_DIFF_ITEMS", DEFAULT_ITEMS))
    seed = int(os.environ.get("ENGINE_DIFF_SEED", DEFAULT_SEED))
    count = max(1, -(-total // len(ALL_ROLLS)))
    corpus = positions(count, seed=seed)
    # The two starts themselves, and positions typed as gnubg Position IDs.
    corpus += [position_from_id("4HPwATDgc/ABMA"), position_from_id("sGfwATDgc/ABMA")]
    corpus += [position_from_id(position_id(p)) for p in positions(5, seed=seed + 1)]
    kinds = _describe(corpus)
    items, mismatches = _compare(corpus)
    print(f"\ndifferential: {items} items, {len(mismatches)} mismatches; corpus: {dict(kinds)}")
    assert items >= min(total, 20_000)
    assert not mismatches, mismatches[:20]
    # The corpus really covers the hard parts.
    assert kinds["mover on the bar"] >= 50
    assert kinds["race"] >= 50
    assert kinds["all home (bearing off)"] >= 50
    assert kinds["bear-off with a blot in our home"] >= 1


@pytest.mark.slow
def test_R4_R7_differential_against_gnubg_large() -> None:
    """210,000 more items from another seed, fast path and walk (run with ``-m slow``;
    the default run deselects ``slow`` tests in pyproject's addopts)."""
    corpus = positions(10_000, seed=1_000_003)
    items, mismatches = _compare(corpus)
    print(f"\ndifferential (slow): {items} items, {len(mismatches)} mismatches")
    assert items == 210_000
    assert not mismatches, mismatches[:20]


def test_R1_gnubg_key_matches_gnubg() -> None:
    """Our conversion to gnubg's key agrees with gnubg's own (so the comparison is fair)."""
    for pos in positions(200, seed=11):
        assert gnubg_key(pos) == gnubg_nn.key_of_board([list(pos.opponent), list(pos.mover)])
        assert position_key(pos) == position_key(position_from_id(position_id(pos)))
