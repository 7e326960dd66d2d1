"""Reads of chouette, shaped for the pages and the API, in a fixed number of queries.

* :func:`scoreboard` - one session: the seating line with every player's role (box,
  partner, captain, team, sitting out), the running totals, the last game's cube per
  member (the cube of the game being entered is not known until it is entered), and the
  games newest first with each player's points; the players in the order they joined
  (the last games' columns). Five queries whatever the session's
  length (session, participants with players, events, lines; the replay is pure).
* :func:`game_lines` - a page of a session's games (the API's ``GET .../games/``): the
  events given, with their numbers and points, in two queries.
* :func:`extras_of` - a stored game's extras (side bets) with each one's points
  (pure: the entry and the profile; a member's settlement is in its member dict).
* :func:`player_names` - the names of a session's players (one query).
* :func:`session_proxies` - who answers for whom (issue 19: an absent member's cube
  decisions; the online play reads it, :func:`chouette.rules.game_proxies` says which
  of them answer in the next game). One query.
* :func:`player_sessions` - a player's totals per session, for player pages.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q, Sum

from chouette import rules
from chouette.models import ChouetteEvent, ChouetteLine, ChouetteParticipant, ChouetteSession
from chouette.stored import profile_of, stake_of
from games.models import Player

#: Games listed on the scoreboard by default (newest first).
LAST_GAMES = 10


@dataclass(frozen=True)
class Seat:
    """One player on the scoreboard."""

    player_id: int
    name: str
    role: str  # "box", "partner", "captain", "team", "out"
    position: int  # 0 = box, 1 = captain, ... (sitting out: after the seated)
    total: int
    last_cube: int | None = None
    last_fate: str | None = None
    last_points: int | None = None
    #: Who takes this player's cube decisions while they are away (issue 19).
    proxy_id: int | None = None
    proxy_name: str | None = None


@dataclass(frozen=True)
class GameLine:
    """One game of the history: its number, who played what, everyone's points."""

    event: ChouetteEvent
    number: int
    box: int
    captain: int
    partner: int | None
    winner: str | None
    kind: str | None
    members: list[dict[str, Any]]
    points: dict[int, int]
    #: The game's extras (side bets), each ``taker``, ``giver``, ``stake``, ``price`` and
    #: ``points``: what the taker won (+) from the giver or lost (-) to them.
    extras: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Scoreboard:
    session: ChouetteSession
    profile: rules.Profile
    stake: rules.Stake | None
    seating: rules.Seating
    seats: list[Seat]
    names: dict[int, str]
    totals: dict[int, int]
    games: list[GameLine]  # newest first
    game_count: int
    undone: list[ChouetteEvent] = field(default_factory=list)
    #: Every participant in the order they joined the session (the roll-off order
    #: first): the last games' columns keep it, whoever sits where now (issue 18).
    joined: tuple[int, ...] = ()
    #: The scorekeeper's hand changes (issue 27), newest first.
    changes: list[Change] = field(default_factory=list)

    @property
    def box(self) -> Seat:
        return self.seats[0]

    @property
    def captain(self) -> Seat:
        return self.seats[1]

    @property
    def team(self) -> list[Seat]:
        return [s for s in self.seats if s.role in ("captain", "team")]

    @property
    def partner(self) -> Seat | None:
        return next((s for s in self.seats if s.role == "partner"), None)

    @property
    def out(self) -> list[Seat]:
        return [s for s in self.seats if s.role == "out"]

    @property
    def last_game(self) -> GameLine | None:
        return self.games[0] if self.games else None


def extras_of(data: dict[str, Any], profile: rules.Profile) -> list[dict[str, Any]]:
    """A game's extras (its stored entry) with what each one settled: ``points``, what
    the taker won (+) from the giver or lost (-) to them."""
    if not data.get("extras"):
        return []
    entry = rules.GameEntry.from_dict(data)
    return [{**x.to_dict(), "points": rules.extra_points(x, entry, profile)} for x in entry.extras]


def _game_line(
    event: ChouetteEvent, number: int, points: dict[int, int], profile: rules.Profile
) -> GameLine:
    data = event.data
    return GameLine(
        event=event,
        number=number,
        box=data["box"],
        captain=data["captain"],
        partner=data.get("partner"),
        winner=data.get("winner"),
        kind=data.get("kind"),
        members=data["members"],
        points=points,
        extras=extras_of(data, profile),
    )


def player_names(session: ChouetteSession) -> dict[int, str]:
    """Every participant's name by player id (one query)."""
    return dict(
        ChouetteParticipant.objects.filter(session=session).values_list("player_id", "player__name")
    )


def session_proxies(session: ChouetteSession) -> dict[int, int]:
    """Player id -> their proxy's player id, for every participant who named one (one
    query). A proxy may answer that member's cube decisions (online play), except in a
    game where the proxy is on the box's side (:func:`chouette.rules.game_proxies`)."""
    return dict(
        ChouetteParticipant.objects.filter(session=session, proxy__isnull=False).values_list(
            "player_id", "proxy_id"
        )
    )


def counted_games(session: ChouetteSession) -> Any:
    """The session's games that count (not undone), newest first (a queryset to page)."""
    return ChouetteEvent.objects.filter(
        session=session, kind=ChouetteEvent.Kind.GAME, undone=False
    ).order_by("-place", "-seq")


def game_lines(
    events: list[ChouetteEvent], *, first_number: int, profile: rules.Profile
) -> list[GameLine]:
    """A page of :func:`counted_games` (newest first) as game lines: the first is game
    ``first_number``, each next one less; every player's points (one query); the
    session's ``profile`` settles the extras."""
    points: dict[int, dict[int, int]] = defaultdict(dict)
    for event_id, player, value in ChouetteLine.objects.filter(
        event_id__in=[e.pk for e in events]
    ).values_list("event_id", "player_id", "points"):
        points[event_id][player] = value
    return [
        _game_line(event, first_number - i, points[event.pk], profile)
        for i, event in enumerate(events)
    ]


def event_line(event: ChouetteEvent, profile: rules.Profile | None = None) -> GameLine:
    """One game (undone or not) as a game line: its number among the games that count
    (an undone game: the number it had), every player's points (two queries; a third for
    the session's profile when not given)."""
    number = ChouetteEvent.objects.filter(
        session_id=event.session_id,
        kind=ChouetteEvent.Kind.GAME,
        undone=False,
        place__lt=event.place,
    ).count()
    points = dict(event.lines.values_list("player_id", "points"))
    return _game_line(event, number + 1, points, profile or profile_of(event.session))


def scoreboard(*, session_id: int, last: int | None = LAST_GAMES) -> Scoreboard:
    """The scoreboard of a session (``ChouetteSession.DoesNotExist`` if unknown).

    ``last``: how many games to list (``None``: all)."""
    session = ChouetteSession.objects.get(pk=session_id)
    profile = profile_of(session)
    seating = rules.Seating.from_dict(session.seating)
    participants = list(
        ChouetteParticipant.objects.filter(session=session).select_related("player", "proxy")
    )
    names = {p.player_id: p.player.name for p in participants}
    proxies = {p.player_id: p.proxy for p in participants if p.proxy is not None}
    events = list(
        ChouetteEvent.objects.filter(session=session)
        .select_related("created_by", "undone_by")
        .order_by("place", "seq")
    )
    games = [e for e in events if e.kind == ChouetteEvent.Kind.GAME]
    points: dict[int, dict[int, int]] = defaultdict(dict)
    for line in ChouetteLine.objects.filter(session=session).values_list(
        "event_id", "player_id", "points"
    ):
        points[line[0]][line[1]] = line[2]
    totals = dict.fromkeys((p.player_id for p in participants), 0)
    counted: list[GameLine] = []
    undone: list[ChouetteEvent] = []
    for event in games:
        if event.undone:
            undone.append(event)
            continue
        for player, value in points[event.pk].items():
            totals[player] = totals.get(player, 0) + value
        counted.append(_game_line(event, len(counted) + 1, points[event.pk], profile))
    last_game = counted[-1] if counted else None
    cubes = {m["player"]: m for m in last_game.members} if last_game else {}

    partner = seating.partner(profile)
    seats: list[Seat] = []

    def seat(player: int, role: str, position: int) -> None:
        member = cubes.get(player)
        seats.append(
            Seat(
                player_id=player,
                name=names.get(player, str(player)),
                role=role,
                position=position,
                total=totals.get(player, 0),
                last_cube=member["cube"] if member else None,
                last_fate=member["fate"] if member else None,
                last_points=last_game.points.get(player) if last_game else None,
                proxy_id=proxies[player].pk if player in proxies else None,
                proxy_name=proxies[player].name if player in proxies else None,
            )
        )

    seat(int(seating.box), "box", 0)
    for i, player in enumerate(seating.line, start=1):
        role = "captain" if i == 1 else "partner" if player == partner else "team"
        seat(int(player), role, i)
    for i, player in enumerate(seating.out, start=len(seating.seated)):
        seat(int(player), "out", i)
    listed = list(reversed(counted))
    return Scoreboard(
        session=session,
        profile=profile,
        stake=stake_of(session),
        seating=seating,
        seats=seats,
        names=names,
        totals=totals,
        games=listed if last is None else listed[:last],
        game_count=len(counted),
        undone=undone,
        joined=tuple(p.player_id for p in sorted(participants, key=lambda p: p.order)),
        changes=_changes(events, names),
    )


@dataclass(frozen=True)
class Change:
    """A hand change of the scorekeeper's (issue 27), for the history: a seating set by
    hand (``before``/``after``: box first, then the line), or a game corrected
    (``game``: its number)."""

    event: ChouetteEvent
    kind: str  # "seating" or "edit"
    by: str
    before: list[str] = field(default_factory=list)
    after: list[str] = field(default_factory=list)
    game: int | None = None


def _changes(events: list[ChouetteEvent], names: dict[int, str]) -> list[Change]:
    """The seatings set by hand and the games corrected, newest first (``events`` in
    replay order)."""

    def who(event: ChouetteEvent) -> str:
        return event.created_by.get_username() if event.created_by else ""

    def order(data: dict[str, Any]) -> list[str]:
        return [names.get(p, str(p)) for p in (data["box"], *data["line"])]

    out: list[Change] = []
    number = 0
    for event in events:
        if event.kind == ChouetteEvent.Kind.GAME and not event.undone:
            number += 1
            if event.corrects_id is not None:
                out.append(Change(event=event, kind="edit", by=who(event), game=number))
        elif event.kind == ChouetteEvent.Kind.SEAT_CHANGE and event.data.get("action") == "set":
            before = event.data.get("before")
            out.append(
                Change(
                    event=event,
                    kind="seating",
                    by=who(event),
                    before=order(before) if before else [],
                    after=order(event.data),
                )
            )
    return sorted(out, key=lambda c: c.event.seq, reverse=True)


@dataclass(frozen=True)
class PlayerSessionTotal:
    session: ChouetteSession
    points: int
    games: int

    @property
    def money(self) -> Any:
        stake = self.session.stake_per_point
        return None if stake is None else stake * self.points


def player_sessions(*, player_id: int) -> list[PlayerSessionTotal]:
    """A player's net points and games played in every session they took part in,
    newest session first (two queries)."""
    sessions = list(
        ChouetteSession.objects.filter(participants__player_id=player_id).order_by(
            "-started_at", "-id"
        )
    )
    rows = (
        ChouetteLine.objects.filter(player_id=player_id, event__undone=False)
        .values("session_id")
        .annotate(points=Sum("points"), games=Count("id", filter=Q(event__undone=False)))
    )
    by_session = {r["session_id"]: r for r in rows}
    return [
        PlayerSessionTotal(
            session=s,
            points=int((by_session.get(s.pk) or {}).get("points") or 0),
            games=int((by_session.get(s.pk) or {}).get("games") or 0),
        )
        for s in sessions
    ]


def player_chouette_totals(player: Player) -> dict[str, Any]:
    """The player page's chouette section (``games.players.sections``): ``rows`` per
    session, the ``net`` points and whether any session had a stake. Two queries."""
    rows = player_sessions(player_id=player.pk)
    return {
        "rows": rows,
        "net": sum(r.points for r in rows),
        # The money column only when some session had a stake (a phone's width).
        "has_money": any(r.money is not None for r in rows),
    }
