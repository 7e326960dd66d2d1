"""Reads of the rating ledger for the player pages, the leaderboard and the match page, each
with a bounded number of queries (or a paginator's two), whatever the length of a
player's history."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from django.db.models import Case, Count, F, Q, QuerySet, Sum, When
from django.urls import reverse
from django.utils import timezone

from games.engine import rating as formula
from games.models import Match, Player, RatedResult
from games.ratings.sources import ResultLink, is_rated, result_links, result_will_be_rated
from games.text.fold import fold


@dataclass(frozen=True)
class Calculation:
    """One rated result from one player's side, with the FIBS calculation shown the way
    FIBS shows it, so it can be checked by hand: ``D`` the rating difference before the
    match, ``p_upset`` the underdog's chance, ``p`` the P of the formula (``1 - P_upset``
    after an upset), the player's own ``k``, and the rounded ``change``:
    ``4 * K * sqrt(N) * P``."""

    difference: Decimal
    p_upset: float
    p: float
    upset: bool
    k: float
    root: float
    change: Decimal
    rating_before: Decimal
    rating_after: Decimal
    experience_before: int
    experience_after: int


@dataclass(frozen=True)
class PlayerResult:
    """A ledger row seen by one of its players."""

    row: RatedResult
    player: Player
    opponent: Player
    won: bool
    calculation: Calculation | None  # None: not rated
    opponent_rating_before: Decimal | None
    link: str | None
    #: What it was played in, when another app owns the result (a tournament: the event
    #: and flight, with the event's page); ``None`` for a casual or club match.
    played_in: ResultLink | None = None

    @property
    def at(self) -> datetime:
        return self.row.at

    @property
    def length(self) -> int:
        return self.row.length


def _side(row: RatedResult, player_id: int, links: dict[str, ResultLink]) -> PlayerResult:
    first = row.player1_id == player_id
    player, opponent = (row.player1, row.player2) if first else (row.player2, row.player1)
    won = row.winner_id == player_id
    calculation = None
    opponent_before = row.rating2_before if first else row.rating1_before
    if row.rated and row.p_upset is not None:
        before = row.rating1_before if first else row.rating2_before
        assert before is not None and opponent_before is not None  # rated rows have them
        winner_before, loser_before = (
            (before, opponent_before) if won else (opponent_before, before)
        )
        upset = winner_before < loser_before
        calculation = Calculation(
            difference=abs(before - opponent_before),
            p_upset=row.p_upset,
            p=1.0 - row.p_upset if upset else row.p_upset,
            upset=upset,
            k=row.k1 if first else row.k2,  # type: ignore[arg-type]
            root=math.sqrt(row.length),
            change=row.change1 if first else row.change2,  # type: ignore[arg-type]
            rating_before=before,
            rating_after=row.rating1_after if first else row.rating2_after,  # type: ignore[arg-type]
            experience_before=row.experience1_before if first else row.experience2_before,  # type: ignore[arg-type]
            experience_after=row.experience1_after if first else row.experience2_after,  # type: ignore[arg-type]
        )
    owned = links.get(row.source_key)
    if row.match_id is not None:  # played online here: its match page has every game
        link: str | None = reverse("games:match", args=[row.match_id])
    else:
        link = owned.url if owned is not None else None
    return PlayerResult(row, player, opponent, won, calculation, opponent_before, link, owned)


def player_sides(rows: Sequence[RatedResult], player_id: int) -> list[PlayerResult]:
    """Rows (with ``player1``/``player2`` selected) as ``player_id`` sees them, linked to
    their pages and named by what they were played in (at most one query per app that
    owns some of them)."""
    links = result_links([r.source_key for r in rows])
    return [_side(r, player_id, links) for r in rows]


def _of_player(player_id: int) -> Q:
    return Q(player1_id=player_id) | Q(player2_id=player_id)


def player_results(*, player_id: int) -> QuerySet[RatedResult]:
    """The player's results, rated or not, newest first, ready for :func:`player_sides`."""
    return (
        RatedResult.objects.filter(_of_player(player_id))
        .select_related("player1", "player2")
        .order_by("-at", "-id")
    )


def head_to_head_results(*, player_id: int, opponent_id: int) -> QuerySet[RatedResult]:
    """The two players' results against each other, newest first."""
    return player_results(player_id=player_id).filter(_of_player(opponent_id))


@dataclass(frozen=True)
class RecordLine:
    length: int
    won: int
    lost: int

    @property
    def played(self) -> int:
        return self.won + self.lost

    @property
    def percent(self) -> float:
        return 100.0 * self.won / self.played if self.played else 0.0


@dataclass(frozen=True)
class Record:
    """Matches won and lost, in all and by match length (shortest first)."""

    by_length: list[RecordLine]

    @property
    def won(self) -> int:
        return sum(line.won for line in self.by_length)

    @property
    def lost(self) -> int:
        return sum(line.lost for line in self.by_length)

    @property
    def played(self) -> int:
        return self.won + self.lost

    @property
    def percent(self) -> float:
        return 100.0 * self.won / self.played if self.played else 0.0


def player_record(*, player_id: int, opponent_id: int | None = None) -> Record:
    """The player's record from every result in the ledger (rated or not; money sessions
    and chouettes are never there), or only against ``opponent_id``. One query."""
    rows = RatedResult.objects.filter(_of_player(player_id))
    if opponent_id is not None:
        rows = rows.filter(_of_player(opponent_id))
    lines = (
        rows.values("length")
        .annotate(
            won=Count("id", filter=Q(winner_id=player_id)),
            lost=Count("id", filter=~Q(winner_id=player_id)),
        )
        .order_by("length")
    )
    return Record([RecordLine(r["length"], r["won"], r["lost"]) for r in lines])


def player_rating_history(*, player_id: int) -> list[tuple[datetime, Decimal]]:
    """(moment, rating after) of every rated result of the player, oldest first. One
    query, two columns per row."""
    rows = (
        RatedResult.objects.filter(_of_player(player_id), rated=True)
        .order_by("at", "id")
        .values_list("at", "player1_id", "rating1_after", "rating2_after")
    )
    return [(at, r1 if p1 == player_id else r2) for at, p1, r1, r2 in rows]


def player_opponents(*, player_id: int, limit: int = 40) -> list[Player]:
    """The ``limit`` players the player has the most results against, by name. One
    query."""
    most = (
        RatedResult.objects.filter(_of_player(player_id))
        .annotate(
            opponent=Case(When(player1_id=player_id, then=F("player2_id")), default=F("player1_id"))
        )
        .order_by()
        .values("opponent")
        .annotate(n=Count("id"))
        .order_by("-n", "opponent")
        .values("opponent")[:limit]
    )
    return list(Player.objects.filter(pk__in=most).order_by("name", "pk"))


def player_search(*, name: str, exclude_id: int | None = None, limit: int = 20) -> list[Player]:
    """Active players whose name contains ``name`` (any case, any accents:
    :meth:`Player.search`), by name. One query."""
    players = Player.search(name).filter(is_active=True)
    if exclude_id is not None:
        players = players.exclude(pk=exclude_id)
    return list(players.order_by("name", "pk")[:limit])


def player_rank(*, player: Player, min_experience: int) -> int | None:
    """The player's place on the leaderboard of all time (``None``: not listed). One
    query."""
    if not player.is_active or player.experience < min_experience:
        return None
    return (
        Player.objects.filter(
            is_active=True, experience__gte=min_experience, rating__gt=player.rating
        ).count()
        + 1
    )


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    player: Player
    played: int  # rated matches in the period
    won: int
    change: Decimal  # rating change in the period


PERIODS = ("all", "year", "365d", "90d", "30d")


def period_start(period: str, *, now: datetime | None = None) -> datetime | None:
    """The first moment of a leaderboard period (``None``: all time). ``year`` is the
    calendar year in the site's time zone."""
    now = now or timezone.now()
    if period == "year":
        local = timezone.localtime(now)
        return local.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
    days = {"365d": 365, "90d": 90, "30d": 30}.get(period)
    return None if days is None else now - timedelta(days=days)


def leaderboard(
    *, club: str = "", since: datetime | None = None, min_experience: int = 0, name: str = ""
) -> list[LeaderboardRow]:
    """Active players by rating, best first, with at least ``min_experience``; of one
    ``club`` when given; with ``since``, only those with a rated result since then, and
    their matches and rating change since then; ``name`` (a part of it, any case) keeps
    those found, at their places on the list without it. Two queries, whatever the
    ledger's size."""
    # The practice opponent (Player.bot) is never rated: not on the list.
    players = Player.objects.filter(is_active=True, experience__gte=min_experience, bot="")
    if club:
        players = players.filter(club=club)
    sides: dict[int, tuple[int, int, Decimal]] = {}
    rated = RatedResult.objects.filter(rated=True)
    if since is not None:
        rated = rated.filter(at__gte=since)
    # One query: both sides of every rated result in the period, summed per player.
    first = (
        rated.order_by()
        .values(pid=F("player1_id"))
        .annotate(
            n=Count("id"), w=Count("id", filter=Q(winner_id=F("player1_id"))), c=Sum("change1")
        )
    )
    second = (
        rated.order_by()
        .values(pid=F("player2_id"))
        .annotate(
            n=Count("id"), w=Count("id", filter=Q(winner_id=F("player2_id"))), c=Sum("change2")
        )
    )
    for row in first.union(second, all=True):
        n, w, c = sides.get(row["pid"], (0, 0, Decimal(0)))
        sides[row["pid"]] = (n + row["n"], w + row["w"], c + (row["c"] or Decimal(0)))
    if since is not None:
        players = players.filter(pk__in=list(sides))
    out: list[LeaderboardRow] = []
    for player in players.order_by("-rating", "name", "pk"):
        n, w, c = sides.get(player.pk, (0, 0, Decimal(0)))
        # Equal ratings share a place (1, 2, 2, 4).
        rank = out[-1].rank if out and out[-1].player.rating == player.rating else len(out) + 1
        out.append(LeaderboardRow(rank, player, n, w, c))
    if name:  # found players keep their place on the list without the name filter
        needle = fold(name.strip())  # any case, any accents (Player.search_name)
        out = [row for row in out if needle in row.player.search_name]
    return out


def leaderboard_clubs() -> list[str]:
    """The clubs players belong to, for the leaderboard's filter. One query."""
    return list(
        Player.objects.filter(is_active=True)
        .exclude(club="")
        .order_by("club")
        .values_list("club", flat=True)
        .distinct()
    )


def match_rating_result(*, match: Match) -> RatedResult | None:
    """The ledger row of a finished match: its own (a casual match) or the one of what it
    was played for (a tournament match). One query."""
    keys = [f"match:{match.pk}"] + ([match.played_for] if match.played_for else [])
    return (
        RatedResult.objects.filter(source_key__in=keys)
        .select_related("player1", "player2")
        .order_by("id")
        .first()
    )


@dataclass(frozen=True)
class MatchRating:
    """A match page's rating box: before the result, what each player stands to gain or
    lose (``preview``, from their ratings now; ``rated`` is ``None`` when it depends on an
    app that did not say); after it, each player's side of the ledger row (``sides``;
    none when the result is not rated)."""

    preview: formula.RatingPreview | None = None
    rated: bool | None = True
    sides: tuple[PlayerResult, PlayerResult] | None = None


def match_rating(*, match: Match) -> MatchRating | None:
    """What the match page shows of ratings (``None`` for a money session, which is never
    rated, and for a match called off, which is never played). At most one query (the
    ledger row of a finished match)."""
    if match.is_money or match.status == Match.Status.CANCELLED:
        return None
    if match.is_imported:
        return MatchRating(rated=False)  # never rated (rating_record_online)
    if match.status == Match.Status.FINISHED:
        row = match_rating_result(match=match)
        if row is None:
            return MatchRating(rated=False)
        if not row.rated:
            return MatchRating(rated=False)
        # The row is this match's own: no link to look up.
        sides = _side(row, row.player1_id, {}), _side(row, row.player2_id, {})
        return MatchRating(sides=sides)
    if match.played_for:
        rated = result_will_be_rated(match.played_for)
    else:
        rated = is_rated(RatedResult.Source.ONLINE)
    if rated is False:
        return MatchRating(rated=False)
    p1, p2 = match.player1, match.player2
    return MatchRating(
        preview=formula.preview(p1.rating, p1.experience, p2.rating, p2.experience, match.length),
        rated=rated,
    )
