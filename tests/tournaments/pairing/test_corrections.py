"""Corrections in a bracket (issue 17, defect 1): which later results a changed result
takes away (:func:`tournaments.pairing.results_to_reset`).

For every format, every field size 2..17 (byes included), with and without withdrawals,
every played slot of a finished bracket is given the other winner, and the reset set is
checked against its definition, which fixes it uniquely: every result kept is still
played by the same two sides (no fewer), every result reset has lost its sides (no
more); the bracket then resolves, and plays out to one champion per ranking again.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.tournaments.pairing.test_brackets import FORMATS, check_finished_bracket, play_out
from tournaments.pairing import (
    EntrantId,
    PairingError,
    Result,
    build_bracket,
    build_single_elimination,
    resolve,
    results_to_reset,
)
from tournaments.pairing.common import is_entrant


def _flip(result: Result) -> Result:
    return Result("b" if result.winner == "a" else "a", walkover=result.walkover)


def _check_every_correction(fmt: str, options: dict[str, Any], n: int, withdraw: int) -> int:
    bracket = build_bracket(fmt, n, **options)
    rng = random.Random(f"{fmt}{options}{n}{withdraw}")
    seeds: list[EntrantId | None] = [f"e{i}" for i in range(1, n + 1)]
    withdrawn = set(rng.sample([s for s in seeds if s is not None], min(withdraw, n - 1)))
    results, before = play_out(bracket, seeds, rng, withdrawn)
    checked = 0
    for key, old in results.items():
        changed = {key: _flip(old)}
        reset = results_to_reset(bracket, seeds, results, withdrawn, changed=changed)
        assert key not in reset and len(set(reset)) == len(reset)
        assert set(reset) <= set(results)
        kept = {k: v for k, v in results.items() if k not in reset} | changed
        after = resolve(bracket, seeds, kept, withdrawn)  # no result_not_expected
        for k in kept:  # no fewer: what is kept is played by the same sides
            assert (after[k].a, after[k].b) == (before[k].a, before[k].b), (key, k)
        for k in reset:  # no more: what is reset has lost its sides
            assert (after[k].a, after[k].b) != (before[k].a, before[k].b), (key, k)
        # In play order.
        order = [s.key for s in bracket.slots]
        assert list(reset) == sorted(reset, key=order.index)
        # And the bracket plays out again.
        for _ in range(len(bracket.slots) + 1):
            resolved = resolve(bracket, seeds, kept, withdrawn)
            ready = [r for r in resolved.values() if r.ready]
            if not ready:
                break
            for r in ready:
                kept[r.key] = Result(rng.choice("ab"))
        check_finished_bracket(bracket, seeds, resolved, withdrawn)
        checked += 1
    return checked


@pytest.mark.parametrize("withdraw", [0, 2])
@pytest.mark.parametrize(("fmt", "options"), FORMATS, ids=lambda x: str(x))
def test_every_correction_resets_exactly_what_depends_on_it(
    fmt: str, options: dict[str, Any], withdraw: int
) -> None:
    assert sum(_check_every_correction(fmt, options, n, withdraw) for n in range(2, 18)) > 0


def test_eleven_players_a_first_round_correction_after_the_final() -> None:
    """The reported case: M1-2 (seed 8 v 9) corrected after the final. M2-1 (seed 1 v the
    winner) changes players; M3-1 and the final hang on M2-1's winner."""
    bracket = build_single_elimination(11)
    seeds: list[EntrantId | None] = list(range(1, 12))
    results = {k: Result("a") for k in ("M1-2", "M1-6", "M1-8")}
    results |= {k: Result("a") for k in ("M2-1", "M2-2", "M2-3", "M2-4", "M3-1", "M3-2")}
    results["M4-1"] = Result("a")
    assert resolve(bracket, seeds, results)["M4-1"].winner == 1
    reset = results_to_reset(bracket, seeds, results, changed={"M1-2": Result("b")})
    assert reset == ("M2-1", "M3-1", "M4-1")
    # A quarter-final: the semi-final's players change, the final's side with them.
    reset = results_to_reset(bracket, seeds, results, changed={"M2-2": Result("b")})
    assert reset == ("M3-1", "M4-1")
    # Nothing after it: nothing to reset.
    assert results_to_reset(bracket, seeds, results, changed={"M4-1": Result("b")}) == ()


def test_only_a_result_can_be_corrected() -> None:
    bracket = build_single_elimination(5)
    seeds: list[EntrantId | None] = list(range(1, 6))
    with pytest.raises(PairingError) as bye:
        results_to_reset(bracket, seeds, {}, changed={"M1-1": Result("a")})
    assert bye.value.code == "result_not_expected"
    with pytest.raises(PairingError) as unknown:
        results_to_reset(bracket, seeds, {}, changed={"M9-9": Result("a")})
    assert unknown.value.code == "unknown_slot"


@pytest.mark.parametrize(("fmt", "options"), FORMATS, ids=lambda x: str(x))
def test_withdrawals_after_playing_on_keep_the_results(fmt: str, options: dict[str, Any]) -> None:
    """An entrant who took a bye (or a walkover) and played on, then withdrew: the
    results stand (the bye was given again to nobody, so the match after it had a
    recorded result against a bye: ``result_not_expected``, a 500 on withdrawal)."""
    for n in range(3, 18):
        bracket = build_bracket(fmt, n, **options)
        rng = random.Random(f"{fmt}{options}{n}")
        seeds: list[EntrantId | None] = list(range(1, n + 1))
        results: dict[str, Result] = {}
        withdrawn: set[EntrantId] = set()
        advanced: dict[str, EntrantId] = {}
        for _ in range(len(bracket.slots) + 1):
            resolved = resolve(bracket, seeds, results, withdrawn, advanced=advanced)
            # What the caller stores: whom each bye and walkover put through.
            advanced = {
                k: r.winner  # type: ignore[misc]
                for k, r in resolved.items()
                if r.status in ("bye", "walkover") and k not in results and is_entrant(r.winner)
            }
            ready = [r for r in resolved.values() if r.ready]
            if not ready:
                break
            for r in ready:
                results[r.key] = Result(rng.choice("ab"))
            # Someone who has played withdraws now and then.
            played = {e for k in results for e in resolved[k].entrants()} - withdrawn
            if played and rng.random() < 0.5:
                withdrawn.add(rng.choice(sorted(played, key=str)))
        check_finished_bracket(bracket, seeds, resolved, withdrawn)
