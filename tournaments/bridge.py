"""The bridge from the stored rows to the pure pairing package (:mod:`tournaments.pairing`),
like Tabbycat's ``draw/manager.py``: the pairing functions' inputs, read from a flight's
entries and matches, in one place for the services (writes), the selectors and the pages
(reads). No query here: the callers load the rows.

* :func:`bracket_results` and :func:`resolve` - a bracket's recorded results and its
  resolution (:func:`tournaments.pairing.resolve`: sides and states of every slot);
  :func:`results_to_reset` - the results a correction takes away; :func:`advanced` -
  whom the byes and walkovers put through.
* :func:`match_results` and :func:`standings` - the Swiss / round robin results and
  standings (:func:`tournaments.pairing.standings`, in the flight's tie-break order).
* :func:`round_plan` - the rounds each part of a flight has, named (which is the final).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from tournaments import bracketview, pairing
from tournaments.models import (
    BRACKET_FORMATS,
    BUILDER_OPTIONS,
    Entry,
    Flight,
    Format,
    TournamentMatch,
)


def bracket_results(matches: Iterable[TournamentMatch]) -> dict[str, pairing.Result]:
    """Slot key -> the result of every bracket match whose result stands."""
    return {
        m.slot_key: pairing.Result(m.winner, walkover=m.status == TournamentMatch.Status.WALKOVER)
        for m in matches
        if m.decided_at is not None and m.winner
    }


def resolve(
    flight: Flight,
    entries: Iterable[Entry],
    matches: Iterable[TournamentMatch],
    *,
    bracket: pairing.Bracket | None = None,
    results: Mapping[str, pairing.Result] | None = None,
) -> dict[str, pairing.ResolvedSlot]:
    """The flight's bracket resolved from its seeds, withdrawals and results.

    ``bracket``: the flight's bracket when the caller has it already (else read from
    ``flight.bracket``); ``results``: instead of the matches' (to see what a change
    would do)."""
    bracket = bracket or pairing.Bracket.from_dict(flight.bracket or {})
    seeds, withdrawn = _seeds(entries)
    matches = list(matches)
    if results is None:
        results = bracket_results(matches)
    return pairing.resolve(bracket, seeds, results, withdrawn, advanced=advanced(matches))


def results_to_reset(
    flight: Flight,
    entries: Iterable[Entry],
    matches: Iterable[TournamentMatch],
    *,
    changed: Mapping[str, pairing.Result],
    bracket: pairing.Bracket | None = None,
) -> tuple[str, ...]:
    """The slots whose results no longer stand when ``changed`` replaces the results of
    its slots (:func:`tournaments.pairing.results_to_reset`); ``bracket`` as for
    :func:`resolve`."""
    bracket = bracket or pairing.Bracket.from_dict(flight.bracket or {})
    seeds, withdrawn = _seeds(entries)
    matches = list(matches)
    return pairing.results_to_reset(
        bracket,
        seeds,
        bracket_results(matches),
        withdrawn,
        changed=changed,
        advanced=advanced(matches),
    )


def advanced(matches: Iterable[TournamentMatch]) -> dict[str, int]:
    """Slot key -> the entry each bye and withdrawal's walkover put through, as stored
    when it was decided (the ``advanced`` of :func:`tournaments.pairing.resolve`)."""
    out = {}
    for m in matches:
        if m.decided_at is None and m.status in (
            TournamentMatch.Status.BYE,
            TournamentMatch.Status.WALKOVER,
        ):
            entry = m.entry_a_id if m.winner == "a" else m.entry_b_id if m.winner == "b" else None
            if entry is not None:
                out[m.slot_key] = entry
    return out


def _seeds(entries: Iterable[Entry]) -> tuple[list[int], set[int]]:
    """The drawn entries by seed, and the withdrawn ones."""
    entries = list(entries)
    seeds = [e.pk for e in sorted(entries, key=lambda e: e.seed or 0) if e.seed is not None]
    return seeds, {e.pk for e in entries if e.status == Entry.Status.WITHDRAWN}


def match_results(matches: Iterable[TournamentMatch]) -> list[pairing.MatchResult]:
    """The Swiss / round robin results for :func:`tournaments.pairing.standings`: byes,
    and every result that stands (a walkover counts 0-0)."""
    out = []
    for m in matches:
        if m.status == TournamentMatch.Status.BYE and m.entry_a_id is not None:
            out.append(pairing.MatchResult(m.entry_a_id, None, m.entry_a_id))
        elif m.decided_at is not None and m.entry_a_id and m.entry_b_id and m.winner:
            out.append(
                pairing.MatchResult(
                    m.entry_a_id,
                    m.entry_b_id,
                    m.entry_a_id if m.winner == "a" else m.entry_b_id,
                    m.score_a or 0,
                    m.score_b or 0,
                )
            )
    return out


def tiebreak_order(flight: Flight) -> list[str]:
    """The flight's tie-break order: its ``tiebreaks`` option, else its format's default
    (round robin: head-to-head then point difference, as Buchholz cannot separate players
    who all met the same opponents, :data:`tournaments.pairing.ROUND_ROBIN_ORDER`)."""
    default = (
        pairing.ROUND_ROBIN_ORDER if flight.format == Format.ROUND_ROBIN else pairing.DEFAULT_ORDER
    )
    return list(flight.options.get("tiebreaks") or default)


def standings(
    flight: Flight, entries: Iterable[Entry], matches: Sequence[TournamentMatch]
) -> list[pairing.Standing]:
    """The Swiss / round robin standings of the drawn (seeded) entries, in the flight's
    tie-break order (:func:`tiebreak_order`)."""
    seeded = sorted((e for e in entries if e.seed is not None), key=lambda e: e.seed or 0)
    return pairing.standings(
        [e.pk for e in seeded],
        match_results(matches),
        order=tiebreak_order(flight),
    )


def round_plan(flight: Flight, entries: int) -> dict[str, list[bracketview.RoundName]]:
    """Part -> its rounds in order, named (:func:`tournaments.bracketview.round_names`).

    A drawn bracket's from its stored bracket; before the draw, from the bracket that
    ``entries`` (the entries so far, at least 2 counted) would get, which the draw may
    change. Swiss: the flight's round count; round robin: what ``entries`` players need.
    """
    if flight.format == Format.SWISS:
        total = int(flight.options.get("rounds") or 1)
        return {"": [bracketview.RoundName("", "round", r, total) for r in range(1, total + 1)]}
    players = max(entries, 2)
    if flight.format == Format.ROUND_ROBIN:
        total = players - 1 if players % 2 == 0 else players
        return {"": [bracketview.RoundName("", "round", r, total) for r in range(1, total + 1)]}
    if flight.bracket:
        bracket = pairing.Bracket.from_dict(flight.bracket)
    else:
        options = {
            k: flight.options[k] for k in BUILDER_OPTIONS[flight.format] if k in flight.options
        }
        bracket = pairing.build_bracket(BRACKET_FORMATS[flight.format], players, **options)
    return bracketview.round_names(bracket)
