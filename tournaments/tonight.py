"""The director's night (issue 29, item 3): every match of an event that matters
tonight, for the director's phone view (:mod:`tournaments.pages.night`) and its API
(:mod:`tournaments.api.night`).

The rows come in three groups: the matches to enter now first (``open``: both players
known, no result, the round published, so a result would be taken; reported and
disputed ones among them, flagged), then the ones waiting for players (or for their
round to be published), then the ones done. Within the first two, by table (a match
without a table after those with one) or by name; the done ones in the order played.
Searching keeps the rows whose player's name contains the words, or whose table is the
number typed. Reads only: every result goes through
:func:`tournaments.services.results.result_enter`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games.text.fold import fold
from tournaments import bracketview, bridge
from tournaments.models import DONE, FORMAT_PARTS, OPEN, Flight, FlightRound, TournamentMatch

#: The orders the rows can be put in: by table (the default, as the room is laid out)
#: or by the first player's name.
SORTS = ("table", "name")
#: The groups, in the order they are shown.
GROUPS = ("open", "waiting", "done")


@dataclass(frozen=True)
class NightRow:
    """One match of the night. ``group``: ``open``, ``waiting`` or ``done``
    (:data:`GROUPS`); ``round_title``: the round's name when it has one ("Final"),
    else empty; ``name_a``/``name_b``: the players, empty while unknown."""

    match: TournamentMatch
    flight: Flight
    group: str
    round_title: str
    name_a: str
    name_b: str

    @property
    def disputed(self) -> bool:
        return self.match.status == TournamentMatch.Status.DISPUTED

    @property
    def reported(self) -> bool:
        return self.match.status == TournamentMatch.Status.REPORTED

    @property
    def flagged(self) -> bool:
        """A report waits for the director (reported or disputed)."""
        return self.disputed or self.reported


@dataclass(frozen=True)
class Night:
    """The night's rows by group (:data:`GROUPS`), the flights they come from (in the
    order created), the search and the order they were read with."""

    flights: list[Flight]
    open: list[NightRow]
    waiting: list[NightRow]
    done: list[NightRow]
    query: str = ""
    sort: str = "table"

    @property
    def rows(self) -> list[NightRow]:
        return [*self.open, *self.waiting, *self.done]


def _part_order(flight: Flight, part: str) -> int:
    """Where ``part`` comes among the flight's parts (main before consolation)."""
    parts = FORMAT_PARTS.get(flight.format, ())
    return parts.index(part) if part in parts else len(parts)


def _titles(flight: Flight) -> dict[tuple[str, int], str]:
    """The round names of a drawn flight ("Final", "Semi-final") by (part, round)."""
    names: dict[tuple[str, int], str] = {}
    for part, rounds in bridge.round_plan(flight, 0).items():
        for name in rounds:
            if name.code != "round":
                names[(part, name.number)] = _round_name(name)
    return names


def _round_name(name: bracketview.RoundName) -> str:
    # The page's own words for them (tournaments.pages.common.round_title), read here
    # without importing the pages.
    return {
        "final": _("Final"),
        "semi_final": _("Semi-final"),
        "quarter_final": _("Quarter-final"),
        "reset": _("Second final"),
    }.get(name.code, "")


def matches_query(row: NightRow, query: str) -> bool:
    """Whether ``row`` is found by ``query``: its table is the number typed, or one of
    its players' names contains every word of it (no case, no accents:
    :func:`games.text.fold.fold`, as the page's script folds them)."""
    query = query.strip()
    if not query:
        return True
    if query.isdigit():
        return row.match.table is not None and str(row.match.table) == query.lstrip("0")
    words = fold(query).split()
    return any(
        name and all(word in fold(name) for word in words) for name in (row.name_a, row.name_b)
    )


def _table_key(row: NightRow) -> tuple[Any, ...]:
    table = row.match.table
    return (
        table is None,
        table or 0,
        row.flight.pk,
        _part_order(row.flight, row.match.part),
        row.match.round,
        row.match.index,
    )


def _name_key(row: NightRow) -> tuple[Any, ...]:
    return (
        not row.name_a,
        row.name_a.casefold(),
        row.name_b.casefold(),
        row.flight.pk,
        row.match.round,
        row.match.index,
    )


def _done_key(row: NightRow) -> tuple[Any, ...]:
    decided = row.match.decided_at
    # Walkovers that follow from a withdrawal have no time: after the results.
    return (decided is None, -decided.timestamp() if decided else 0, -row.match.pk)


def event_night(*, event_id: int, query: str = "", sort: str = "table") -> Night:
    """The night of event ``event_id`` (:class:`Night`): its drawn flights' matches by
    group, searched by ``query`` and put in ``sort`` order (:data:`SORTS`; anything
    else is by table). Three queries and the flights' round names."""
    sort = sort if sort in SORTS else "table"
    flights = list(
        Flight.objects.filter(event_id=event_id)
        .exclude(status=Flight.Status.REGISTRATION)
        .order_by("id")
    )
    published = set(
        FlightRound.objects.filter(flight__in=flights, published_at__isnull=False).values_list(
            "flight_id", "part", "number"
        )
    )
    matches = (
        TournamentMatch.objects.filter(flight__in=flights)
        .exclude(status=TournamentMatch.Status.BYE)
        .select_related("entry_a__player", "entry_b__player")
        .order_by("flight_id", "part", "round", "index")
    )
    by_id = {f.pk: f for f in flights}
    titles = {f.pk: _titles(f) for f in flights}
    groups: dict[str, list[NightRow]] = {g: [] for g in GROUPS}
    for m in matches:
        flight = by_id[m.flight_id]
        m.flight = flight  # loaded already: no query per row
        if m.status in DONE:
            group = "done"
        elif (
            m.status in OPEN
            and m.entry_a_id
            and m.entry_b_id
            and (m.flight_id, m.part, m.round) in published
        ):
            group = "open"
        else:
            group = "waiting"
        row = NightRow(
            match=m,
            flight=flight,
            group=group,
            round_title=titles[flight.pk].get((m.part, m.round), ""),
            name_a=m.entry_a.player.name if m.entry_a_id else "",
            name_b=m.entry_b.player.name if m.entry_b_id else "",
        )
        if matches_query(row, query):
            groups[group].append(row)
    key = _name_key if sort == "name" else _table_key
    groups["open"].sort(key=key)
    groups["waiting"].sort(key=key)
    # The done ones: the latest result first (the one the director just entered).
    groups["done"].sort(key=_done_key)
    return Night(
        flights=flights,
        open=groups["open"],
        waiting=groups["waiting"],
        done=groups["done"],
        query=query.strip(),
        sort=sort,
    )
