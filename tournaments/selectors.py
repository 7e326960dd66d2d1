"""Reads of tournaments, shaped for pages and the API, with bounded query counts.

* :func:`visible_events`, :func:`event_visible` - drafts are their directors' only.
* :func:`flight_bracket` - everything a bracket / pairings page shows for a flight, in
  four queries whatever the field size; to someone who does not direct the event,
  without the unpublished rounds (:func:`hide_unpublished` for a bracket's drawing).
* :func:`flight_standings` - Swiss / round robin standings (:func:`pairing.standings`,
  the flight's ``tiebreaks`` option or the default order).
* :func:`flight_finishing_order` and :func:`flight_finishing_order_csv` - the places of
  every ranking (:func:`pairing.finishing_order` for brackets; the standings for Swiss
  and round robin, as ranking ``""``).
* :func:`flight_season_points` - season points per the flight's table (see
  :class:`~tournaments.models.Flight`).
* :func:`event_unfinished_matches` - the director's list of matches being played or
  waiting to be, with their online matches (and so their clocks).
* :func:`event_has_rated_results` - whether the event's ``rated`` can still change.
* :func:`event_desk` - the check-in desk of an event: every flight's entries and
  registrations, with the counts (two queries).
* :func:`player_placings` - a player's flights with their places, for the player page:
  one query however many (the places are stored on the entries by the services).
* :func:`with_player_counts`, :func:`flight_player_count` - how many players a flight
  has, the same way on every page (issue 29).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Case, Count, F, Q, QuerySet, When
from django.urls import reverse
from django.utils.translation import gettext as _

from games.ratings.sources import ResultLink, is_rated
from games.text.csvfile import Cell, csv_text
from games.text.fold import fold
from tournaments import bridge, pairing
from tournaments.models import (
    DEFAULT_SEASON_POINTS,
    HOLDS_PLACE,
    IN_FLIGHT,
    IN_LEDGER,
    OPEN,
    Entry,
    Event,
    Flight,
    FlightRound,
    TournamentMatch,
)


def visible_events(user: Any) -> QuerySet[Event]:
    """The events ``user`` may see: every published one (not a draft), and the drafts
    they direct (a superuser: all). Drafts are their directors' until published
    (:func:`tournaments.services.events.event_publish`, or the first draw)."""
    events = Event.objects.all()
    if user is not None and getattr(user, "is_superuser", False) and user.is_active:
        return events
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return events.exclude(status=Event.Status.DRAFT)
    return events.filter(~Q(status=Event.Status.DRAFT) | Q(directors=user)).distinct()


def event_visible(event: Event, user: Any) -> bool:
    """Whether ``user`` may see ``event`` (:func:`visible_events`); one query at most."""
    return event.status != Event.Status.DRAFT or event.is_director(user)


def published_rounds(flight: Flight) -> set[tuple[str, int]]:
    """The (part, round) of the flight's published rounds (one query)."""
    return {
        (part, number)
        for part, number in flight.rounds.filter(published_at__isnull=False).values_list(
            "part", "number"
        )
    }


@dataclass(frozen=True)
class BracketPage:
    """A flight with its entries, round settings and matches (entries and players
    loaded). ``parts``: part -> round number -> matches, top to bottom.

    ``hidden``: the rounds (part, number) not published, when the viewer is not a
    director: their matches are left out of ``matches`` and ``parts`` (they have no
    result: an unpublished round takes none), and :func:`hide_unpublished` blanks their
    slots in a bracket's resolution. ``is_director``: the viewer directs the event."""

    flight: Flight
    entries: list[Entry]
    rounds: dict[tuple[str, int], FlightRound]
    matches: list[TournamentMatch]
    parts: dict[str, dict[int, list[TournamentMatch]]] = field(default_factory=dict)
    hidden: frozenset[tuple[str, int]] = frozenset()
    is_director: bool = True

    @property
    def event(self) -> Event:
        return self.flight.event


#: ``flight_bracket(viewer=EVERYTHING)``: the whole flight (services, tests).
EVERYTHING = object()


def flight_bracket(*, flight_id: int, viewer: Any = EVERYTHING) -> BracketPage:
    """Four queries: the flight and its event, the entries with their players, the
    round settings, the matches with both sides' entries and players; a fifth for a
    logged-in viewer who might direct the event.

    ``viewer`` (the request's user): who looks. Not a director of the event: a draft
    event's flight is not found (``Flight.DoesNotExist``), and the unpublished rounds
    are hidden (:class:`BracketPage`)."""
    flight = Flight.objects.select_related("event").get(pk=flight_id)
    director = viewer is EVERYTHING or flight.event.is_director(viewer)
    if not director and flight.event.status == Event.Status.DRAFT:
        raise Flight.DoesNotExist
    entries = list(
        flight.entries.filter(status__in=IN_FLIGHT).select_related("player").order_by("seed", "pk")
    )
    rounds = {(r.part, r.number): r for r in flight.rounds.all()}
    matches = list(
        flight.matches.select_related("entry_a__player", "entry_b__player").order_by("pk")
    )
    hidden: frozenset[tuple[str, int]] = frozenset()
    if not director:
        shown = {key for key, r in rounds.items() if r.published_at is not None}
        hidden = frozenset({(m.part, m.round) for m in matches} - shown)
        matches = [m for m in matches if (m.part, m.round) not in hidden]
    parts: dict[str, dict[int, list[TournamentMatch]]] = defaultdict(lambda: defaultdict(list))
    for m in matches:
        parts[m.part][m.round].append(m)
    for by_round in parts.values():
        for ms in by_round.values():
            ms.sort(key=lambda m: m.index)
    return BracketPage(
        flight=flight,
        entries=entries,
        rounds=rounds,
        matches=matches,
        parts={k: dict(v) for k, v in parts.items()},
        hidden=hidden,
        is_director=director,
    )


def hide_unpublished(
    resolved: Mapping[str, pairing.ResolvedSlot], hidden: Collection[tuple[str, int]]
) -> dict[str, pairing.ResolvedSlot]:
    """A bracket's resolution with the slots of the ``hidden`` rounds blanked (no
    players, pending): what the public's bracket and wall draw."""
    return {
        key: (
            pairing.ResolvedSlot(rs.slot, None, None, "pending")
            if (rs.slot.part, rs.slot.round) in hidden
            else rs
        )
        for key, rs in resolved.items()
    }


@dataclass(frozen=True)
class StandingRow:
    standing: pairing.Standing
    entry: Entry


def flight_standings(*, flight: Flight, public: bool = False) -> list[StandingRow]:
    """Swiss / round robin standings of the drawn entries (two queries; ``public``: of
    the published rounds only, a third)."""
    entries = list(flight.entries.filter(seed__isnull=False).select_related("player"))
    by_id = {e.pk: e for e in entries}
    rows = list(flight.matches.all())
    if public:
        shown = published_rounds(flight)
        rows = [m for m in rows if (m.part, m.round) in shown]
    table = bridge.standings(flight, entries, rows)
    return [StandingRow(s, by_id[int(s.player)]) for s in table]


@dataclass(frozen=True)
class PlaceRow:
    """A place shared by ``entries`` (``label`` ``"3-4"``); ``final`` is ``False`` for
    those still playing."""

    rank: int
    label: str
    entries: list[Entry]
    final: bool = True


def flight_finishing_order(*, flight: Flight) -> dict[str, list[PlaceRow]]:
    """Ranking name -> places, best first (see :mod:`tournaments.pairing.resolve`)."""
    if not flight.is_bracket:
        lines = flight_standings(flight=flight)
        by_id = {line.entry.pk: line.entry for line in lines}
        table = pairing.standings_places(
            [line.standing for line in lines], final=flight.status == Flight.Status.FINISHED
        )
        return {
            "": [
                PlaceRow(p.rank, p.label, [by_id[int(e)] for e in p.entrants], p.final)
                for p in table
            ]
        }
    if not flight.bracket:
        return {}
    entries = {e.pk: e for e in flight.entries.select_related("player")}
    rows = list(flight.matches.all())
    bracket = pairing.Bracket.from_dict(flight.bracket)
    resolved = bridge.resolve(flight, entries.values(), rows, bracket=bracket)
    return {
        name: [
            PlaceRow(p.rank, p.label, [entries[int(e)] for e in p.entrants], p.final) for p in order
        ]
        for name, order in pairing.finishing_order(bracket, resolved).items()
    }


def flight_finishing_order_csv(*, flight: Flight, part_title: Callable[[str], str] = str) -> str:
    """The finishing order as a CSV file for people (the director's download, opened in
    a spreadsheet), one line per player: place, player id, name, club, country and the
    part in words (``part_title``: the pages' words for it; the flight's name for Swiss).
    Headers and words in the active language; a UTF-8 byte-order mark first, so that
    Excel reads the accents. Programs read :func:`flight_finishing_order_data_csv`."""
    rows: list[list[Cell]] = [
        [_("Place"), _("Player id"), _("Name"), _("Club"), _("Country"), _("Part")]
    ]
    # Swiss has no part: the flight's name stands for it.
    rows.extend(
        _finishing_rows(
            flight=flight, part=lambda ranking: part_title(ranking) if ranking else flight.name
        )
    )
    # Names are typed by people: csv_text keeps a name like "=HYPERLINK(...)" text.
    return csv_text(rows, bom=True)


#: The columns of the finishing order's CSV for programs (the API's ``?as=csv``): stable
#: names, the same in every language, as the JSON answer's.
DATA_CSV_COLUMNS = ("place", "player_id", "name", "club", "country", "ranking")


def flight_finishing_order_data_csv(*, flight: Flight) -> str:
    """The finishing order as CSV for programs (federation submissions by script): the
    columns :data:`DATA_CSV_COLUMNS` and the ranking's code (``main``, ``consolation``,
    ``last_chance``; empty for Swiss), whatever the reader's language, and no
    byte-order mark. Text cells are kept from reading as formulas, as in every CSV."""
    rows: list[list[Cell]] = [list(DATA_CSV_COLUMNS)]
    rows.extend(_finishing_rows(flight=flight, part=lambda ranking: ranking))
    return csv_text(rows)


def _finishing_rows(*, flight: Flight, part: Callable[[str], str]) -> list[list[Cell]]:
    """The finishing order's lines of both CSV files: place, player id, name, club,
    country, and ``part(ranking)`` for the part it was decided in."""
    return [
        [
            place.label,
            entry.player_id,
            entry.player.name,
            entry.player.club,
            entry.player.country,
            part(ranking),
        ]
        for ranking, places in flight_finishing_order(flight=flight).items()
        for place in places
        for entry in place.entries
    ]


def flight_season_points(*, flight: Flight) -> list[tuple[Entry, int]]:
    """Season points per entry, best first: ``per_win[part]`` for each match won
    (a walkover counts, a bye does not; ``"*"`` covers parts not listed) plus
    ``per_place[ranking][place - 1]`` for a final place."""
    table: dict[str, Any] = {**DEFAULT_SEASON_POINTS, **flight.options.get("season_points", {})}
    per_win: dict[str, int] = table.get("per_win", {})
    per_place: dict[str, list[int]] = table.get("per_place", {})
    entries = {
        e.pk: e for e in flight.entries.filter(status__in=IN_FLIGHT).select_related("player")
    }
    points = dict.fromkeys(entries, 0)
    for m in flight.matches.filter(decided_at__isnull=False).exclude(winner=""):
        winner = m.entry_a_id if m.winner == "a" else m.entry_b_id
        if winner is not None:
            points[winner] += per_win.get(m.part, per_win.get("*", 0))
    if per_place:
        for ranking, places in flight_finishing_order(flight=flight).items():
            scale = per_place.get(ranking, [])
            for place in places:
                if place.final and place.rank <= len(scale):
                    for entry in place.entries:
                        points[entry.pk] += scale[place.rank - 1]
    ranked = sorted(entries.values(), key=lambda e: (-points[e.pk], e.seed or 0, e.pk))
    return [(e, points[e.pk]) for e in ranked]


def event_unfinished_matches(*, event_id: int) -> QuerySet[TournamentMatch]:
    """Matches of the event with both players known and no result yet (ready or
    reported), with their flight, players and online match (for running clocks)."""
    return (
        TournamentMatch.objects.filter(flight__event_id=event_id, status__in=OPEN)
        .select_related("flight", "entry_a__player", "entry_b__player", "online_match")
        .order_by("table", "flight_id", "round", "index")
    )


def event_has_rated_results(*, event_id: int) -> bool:
    """Whether results of the event are in the rating ledger (then its ``rated`` no
    longer changes: :func:`tournaments.services.events.event_update`). One query."""
    return TournamentMatch.objects.filter(IN_LEDGER, flight__event_id=event_id).exists()


@dataclass(frozen=True)
class Placing:
    """A player's entry in a flight, for their page. ``status``:

    * ``"registered"`` - the flight is not drawn yet;
    * ``"playing"`` - drawn, and the player is still in the running;
    * ``"placed"`` - out of the running or the flight is over: ``place_label`` (and
      ``side_part``/``side_place_label`` for a consolation or last chance) is final;
    * ``"withdrawn"`` - withdrawn (a withdrawal after the draw still has its place).
    """

    entry: Entry
    status: str

    @property
    def flight(self) -> Flight:
        return self.entry.flight

    @property
    def event(self) -> Event:
        return self.entry.flight.event

    @property
    def date(self) -> Any:
        return self.entry.flight.event.starts_on

    @property
    def place(self) -> int | None:
        return self.entry.place

    @property
    def place_label(self) -> str:
        return self.entry.place_label

    @property
    def side_part(self) -> str:
        return self.entry.side_part

    @property
    def side_place_label(self) -> str:
        return self.entry.side_place_label


def _placing_status(entry: Entry) -> str:
    if entry.status == Entry.Status.WITHDRAWN:
        return "withdrawn"
    if entry.place is not None:
        return "placed"
    if entry.flight.status == Flight.Status.REGISTRATION:
        return "registered"
    return "playing"


def player_placings(*, player_id: int) -> list[Placing]:
    """The player's flights (not the registrations still to confirm, waiting or
    refused), the latest event first, with event, flight, date, place and
    status (:class:`Placing`): one query, whatever the number of flights (the places are
    stored on the entries; the flights' draws are not read)."""
    entries = (
        Entry.objects.filter(player_id=player_id, status__in=IN_FLIGHT)
        .exclude(flight__event__status=Event.Status.DRAFT)
        .select_related("flight__event")
        .defer("flight__bracket", "flight__options")
        .order_by("-flight__event__starts_on", "-flight__event_id", "flight_id")
    )
    return [Placing(entry, _placing_status(entry)) for entry in entries]


@dataclass(frozen=True)
class DeskFlight:
    """One flight at the desk: its entries (active, to confirm; then the waitlist in
    order) and the counts of the players who hold a place."""

    flight: Flight
    entries: list[Entry]
    waitlist: list[Entry]
    places: int
    checked_in: int
    paid: int


def event_desk(*, event_id: int, query: str = "") -> list[DeskFlight]:
    """The desk of an event, flight by flight (two queries): every entry that holds a
    place or waits for one, by name (``query``: the names containing it), and the
    counts "checked in 9 of 11, paid 8" of the whole flight whatever the query."""
    flights = list(Flight.objects.filter(event_id=event_id).order_by("id"))
    rows = list(
        Entry.objects.filter(flight__event_id=event_id)
        .exclude(status=Entry.Status.REFUSED)
        .select_related("player")
        .order_by("player__name", "pk")
    )
    words = fold(query.strip())
    out = []
    for flight in flights:
        mine = [e for e in rows if e.flight_id == flight.pk]
        held = [e for e in mine if e.status in HOLDS_PLACE]
        shown = [e for e in mine if not words or words in fold(e.player.name)]
        out.append(
            DeskFlight(
                flight=flight,
                entries=[e for e in shown if e.status in (*HOLDS_PLACE, Entry.Status.WITHDRAWN)],
                waitlist=sorted(
                    (e for e in shown if e.status == Entry.Status.WAITLISTED),
                    key=lambda e: (e.created_at, e.pk),
                ),
                places=len(held),
                checked_in=sum(1 for e in held if e.checked_in_at is not None),
                paid=sum(1 for e in mine if e.paid_at is not None),
            )
        )
    return out


def flight_waitlist(*, flight: Flight) -> list[Entry]:
    """The flight's registrations to confirm and its waitlist, in registration order
    (one query)."""
    return list(
        flight.entries.filter(status__in=(Entry.Status.PENDING, Entry.Status.WAITLISTED))
        .select_related("player")
        .order_by("created_at", "pk")
    )


__all__ = [
    "EVERYTHING",
    "BracketPage",
    "DeskFlight",
    "PlaceRow",
    "Placing",
    "StandingRow",
    "event_desk",
    "event_disputes",
    "event_has_rated_results",
    "event_unfinished_matches",
    "event_visible",
    "flight_bracket",
    "flight_finishing_order",
    "flight_finishing_order_csv",
    "flight_season_points",
    "flight_standings",
    "flight_waitlist",
    "hide_unpublished",
    "player_placings",
    "published_rounds",
    "visible_events",
]


def result_links(source_keys: Sequence[str]) -> dict[str, ResultLink]:
    """The flight page (at the match's row) of each ``tmatch:<id>`` ledger key, for the
    player page's results (``games.players.sections``), named by its event and flight
    with the event's page. One query for all of them. A draft event's matches have no
    link (only its directors see it)."""
    ids = {
        int(k.partition(":")[2]): k
        for k in source_keys
        if k.partition(":")[2].isascii() and k.partition(":")[2].isdigit()
    }
    rows = (
        TournamentMatch.objects.filter(pk__in=list(ids))
        .exclude(flight__event__status=Event.Status.DRAFT)
        .values_list(
            "pk", "flight_id", "flight__name", "flight__event__slug", "flight__event__name"
        )
    )
    return {
        ids[pk]: ResultLink(
            url=reverse("tournaments:flight", args=[slug, flight_id]) + f"#match-{pk}",
            title=f"{event} · {flight}",
            title_url=reverse("tournaments:event", args=[slug]),
        )
        for pk, flight_id, flight, slug, event in rows
    }


def result_will_be_rated(source_key: str) -> bool:
    """Whether the result of the tournament match ``tmatch:<id>`` will count for the
    ratings: its event is rated and so are tournament results (one query)."""
    _prefix, _sep, raw = source_key.partition(":")
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 18:
        return False
    rated = (
        TournamentMatch.objects.filter(pk=int(raw))
        .values_list("flight__event__rated", flat=True)
        .first()
    )
    return bool(rated) and is_rated("tournament")


def event_disputes(*, event_id: int) -> list[TournamentMatch]:
    """The event's disputed matches (issue 29: the two players' reports differ), for the
    director's desk: with their flight and players, by flight and play order (one
    query)."""
    return list(
        TournamentMatch.objects.filter(
            flight__event_id=event_id, status=TournamentMatch.Status.DISPUTED
        )
        .select_related("flight", "entry_a__player", "entry_b__player")
        .order_by("flight_id", "round", "index")
    )


# ---------------------------------------------------------------------- counts (issue 29)
#: The registrations not (yet) in a flight: to confirm, on the waitlist.
WAITING = (Entry.Status.PENDING, Entry.Status.WAITLISTED)


def with_player_counts(flights: QuerySet[Flight]) -> QuerySet[Flight]:
    """The flights with their counts, in the same query: ``drawn_count`` the players in
    the draw (a seed: those withdrawn after the draw still are, a late entry too; those
    withdrawn before it are not), ``active_count`` the active entries, ``waiting_count``
    the registrations to confirm or on the waitlist, and ``entry_count`` what a page
    says a flight has: its drawn players once drawn, its active entries before."""
    return flights.annotate(
        drawn_count=Count("entries", distinct=True, filter=Q(entries__seed__isnull=False)),
        active_count=Count("entries", distinct=True, filter=Q(entries__status=Entry.Status.ACTIVE)),
        waiting_count=Count("entries", distinct=True, filter=Q(entries__status__in=WAITING)),
    ).annotate(
        entry_count=Case(
            When(status=Flight.Status.REGISTRATION, then=F("active_count")),
            default=F("drawn_count"),
        )
    )


@dataclass(frozen=True)
class PlayerCount:
    """What a flight's page says of its size: ``players`` (drawn, once ``drawn``; the
    active entries before the draw) and ``waiting`` (registrations to confirm or on the
    waitlist, before the draw)."""

    players: int
    drawn: bool
    waiting: int = 0


def flight_player_count(flight: Flight, entries: Sequence[Entry]) -> PlayerCount:
    """The count of :func:`with_player_counts` from a flight's loaded ``entries`` (all
    of them, or its :data:`~tournaments.models.IN_FLIGHT` ones; ``waiting`` then needs
    the registrations: one query before the draw, none after)."""
    if flight.status != Flight.Status.REGISTRATION:
        return PlayerCount(sum(1 for e in entries if e.seed is not None), drawn=True)
    return PlayerCount(
        sum(1 for e in entries if e.status == Entry.Status.ACTIVE),
        drawn=False,
        waiting=flight.entries.filter(status__in=WAITING).count(),
    )
