"""Each part sized to its entrants (issue 17, defect 8: 11 players with "losers of
round 1" had an 8-slot consolation for 3 players, its first round all byes, with a "bye
vs bye" box).

For every format and n = 2..33: no slot is drawn between two byes, or between two
places that can only be byes; the side part (consolation, last chance, losers' bracket)
is as small as its entrants allow; late entries into the byes still find their place
while the part has room, and are refused after that.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.pairing.test_brackets import FORMATS
from tournaments.pairing import (
    BYE,
    Bracket,
    EntrantId,
    bracket_size,
    build_bracket,
    build_consolation,
    late_entry_open,
    resolve,
)

SIDE = {"double": "losers", "last_chance": "last_chance"}


def _side(bracket: Bracket) -> str:
    return SIDE.get(bracket.format, "consolation")


def _always_a(bracket: Bracket, seeds: list[EntrantId | None]) -> dict[str, Any]:
    results: dict[str, Any] = {}
    for _ in range(len(bracket.slots) + 1):
        ready = [r for r in resolve(bracket, seeds, results).values() if r.ready]
        if not ready:
            break
        results |= {r.key: "a" for r in ready}
    return resolve(bracket, seeds, results)


@pytest.mark.parametrize("n", range(2, 34))
@pytest.mark.parametrize(("fmt", "options"), FORMATS, ids=lambda x: str(x))
def test_no_bye_meets_a_bye_and_each_part_fits(fmt: str, options: dict[str, Any], n: int) -> None:
    bracket = build_bracket(fmt, n, **options)
    for slot in bracket.slots:
        assert not (slot.a.kind == slot.b.kind == "bye"), slot
    size = bracket.size
    real_round_1 = n - size // 2  # main round-1 matches without a bye
    # Played out with every late entry the bracket takes, and with none: no slot is
    # ever two byes.
    seeds: list[EntrantId | None] = list(range(1, n + 1))
    while True:
        resolved = _always_a(bracket, seeds)
        for r in resolved.values():
            assert not (r.a is BYE and r.b is BYE), (len(seeds), r.key)
        if not late_entry_open(bracket, seeds, {}, entrant=len(seeds) + 1):
            break
        seeds.append(len(seeds) + 1)
    late_room = len(seeds) - n
    side = [s for s in bracket.slots if s.part == _side(bracket)]
    main_rounds = size.bit_length() - 1
    if fmt == "single":
        assert late_room == size - n
        return
    entry = options.get("entry_rounds") or options.get("last_entry_round") or main_rounds - 1
    entry = main_rounds if fmt == "double" else min(int(entry), main_rounds - 1)
    droppers = real_round_1 + sum(size >> r for r in range(2, entry + 1))
    if droppers < 2 and fmt != "double":
        assert side == [] and late_room == size - n  # nobody to play with: no part
        return
    if fmt == "double" and size == 2:
        return  # the loser of the one match goes straight to the final
    # Round-1 losers alone: a bracket of the next power of two, room for its byes.
    if entry == 1 or real_round_1 >= size // 4 or (fmt == "double" and main_rounds == 1):
        first = bracket_size(real_round_1) if real_round_1 >= 2 else 1
        room = first - real_round_1
    else:  # few round-1 losers meet the round-2 droppers at once
        room = size // 4 - real_round_1
    assert late_room == room, (len(side), late_room, room)
    if entry == 1:
        assert len(side) == bracket_size(real_round_1) - 1
    # Every match of the part is needed: at most one bye per match, and a bye only
    # where the counts do not line up (no more byes than real round-1 matches missing).
    byes = sum(1 for s in side if "bye" in (s.a.kind, s.b.kind))
    assert byes <= size // 2 - real_round_1


def test_eleven_players_losers_of_round_one() -> None:
    """The reported case: 3 round-1 losers play a 4-slot consolation (one bye, which a
    late entrant's loser would take), not an 8-slot one with a "bye vs bye" box."""
    bracket = build_consolation(11, entry_rounds=1)
    side = [(s.key, s.a.encode(), s.b.encode()) for s in bracket.slots if s.part == "consolation"]
    assert side == [
        ("C1-1", "loser:M1-2", "loser:M1-4"),  # M1-4: seed 5's bye, where seed 12 goes
        ("C1-2", "loser:M1-6", "loser:M1-8"),
        ("C2-1", "winner:C1-1", "winner:C1-2"),
    ]
    seeds: list[EntrantId | None] = list(range(1, 12))
    assert late_entry_open(bracket, seeds, {}, entrant=12)
    assert not late_entry_open(bracket, [*seeds, 12], {}, entrant=13)  # no place left
