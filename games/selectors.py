"""Reads for pages and the API, each with a bounded number of queries."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.db.models import Case, Count, F, Q, QuerySet, Sum, When
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import rating as formula
from games.engine.actions import Action, apply_action, new_game_from_dicts, replay, state_from_dict
from games.engine.clock import ClockState
from games.engine.errors import EngineError
from games.engine.game import GameState
from games.engine.met import match_winning_chance_for
from games.engine.notation import format_play
from games.engine.position import position_id

from . import clocks
from .errors import NotFound
from .models import Game, Match, Player, RatedResult
from .player_sections import result_links, result_will_be_rated
from .ratings import is_rated


def player_list(*, active_only: bool = True) -> QuerySet[Player]:
    players = Player.objects.all()
    if active_only:
        players = players.filter(is_active=True)
    return players.order_by("name")


def player_top_rated(*, limit: int = 10) -> list[Player]:
    return list(Player.objects.filter(is_active=True).order_by("-rating", "name")[:limit])


def player_get(*, player_id: int) -> Player:
    try:
        return Player.objects.get(pk=player_id)
    except Player.DoesNotExist:
        raise NotFound("player_not_found", _("There is no player with this id.")) from None


# ====================================================================== matches and games
def match_list(*, status: str | None = None, limit: int = 100) -> QuerySet[Match]:
    matches = Match.objects.select_related("player1", "player2", "winner")
    if status:
        matches = matches.filter(status=status)
    return matches.order_by("-created_at", "-id")[:limit]


def match_get(*, match_id: int) -> Match:
    try:
        return (
            Match.objects.select_related("player1", "player2", "winner")
            .prefetch_related("games")
            .get(pk=match_id)
        )
    except Match.DoesNotExist:
        raise NotFound("match_not_found", _("There is no match with this id.")) from None


def game_get(*, game_id: int) -> Game:
    try:
        return Game.objects.select_related(
            "match", "match__player1", "match__player2", "match__winner"
        ).get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound("game_not_found", _("There is no game with this id.")) from None


def match_current_game(*, match: Match) -> Game | None:
    return match.games.order_by("-number").first()


def legal_actions(state: GameState, index: int) -> list[dict[str, Any]]:
    """What player ``index`` may do now, decided by the engine itself: each candidate
    is tried on the immutable state and kept when the engine accepts it."""
    if state.is_over:
        return []
    if state.flagged is not None:  # R12: only the opponent's claim is left
        return [{"action": "claim_timeout"}] if index == 1 - state.flagged else []
    found: list[dict[str, Any]] = []
    if state.can_roll(index):  # asked without rolling: no plays generated
        found.append({"action": "roll"})
    # Only the probes that can succeed in this phase are tried (each costs an engine
    # call); the engine still decides each one.
    probes: list[tuple[str, Action]] = []
    if state.phase == "roll":
        probes.append(("double", Action("double", index, {})))
    elif state.phase == "doubled":
        probes += [(name, Action(name, index, {})) for name in ("take", "drop", "beaver")]
    if state.resignation is not None:
        probes += [
            (name, Action(name, index, {}))
            for name in ("accept_resignation", "decline_resignation")
        ]
    for name, probe in probes:
        if _accepted(state, probe):
            found.append({"action": name})
    if state.phase == "choose_double" and state.turn == index and state.resignation is None:
        found.append({"action": "choose_double", "values": [1, 2, 3, 4, 5, 6]})
    if state.phase == "move" and state.turn == index and state.resignation is None:
        plays = [
            {"play": format_play(p), "position_id": position_id(p.result)}
            for p in state.legal_plays()
        ]
        found.append({"action": "play", "plays": plays})
    if state.options.resign_mode == "seed002":
        if _accepted(state, Action("resign", index, {})):
            found.append({"action": "resign"})
    else:
        kinds = [
            kind
            for kind in ("single", "gammon", "backgammon")
            if _accepted(state, Action("resign", index, {"kind": kind}))
        ]
        if kinds:
            found.append({"action": "resign", "kinds": kinds})
    return found


def _accepted(state: GameState, action: Action) -> bool:
    try:
        apply_action(state, action)
    except EngineError:
        return False
    return True


def game_view(
    *, game: Game, viewer_index: int | None, state: GameState | None = None
) -> dict[str, Any]:
    """A game's state as a client needs it, for player ``viewer_index`` (or a
    spectator, ``None``): ids, dice, cube, turn, pips, score, Crawford, winning chances
    and the legal actions of the viewer. ``state`` is the game's engine state when the
    caller has it already."""
    if state is None:  # a service that just made the state passes it in
        state = state_from_dict(game.state)
    board0 = state.board_of(0)
    pips0, pips1 = board0.pip_count()
    chances: list[float] | None = None
    if not state.match.is_money and not state.match.is_over:
        chances = [
            round(match_winning_chance_for(state.match, 0), 5),
            round(match_winning_chance_for(state.match, 1), 5),
        ]
    result = state.result
    void = game.result_kind == Game.VOID  # a money session ended before this game
    return {
        "game": game.pk,
        "match": game.match_id,
        "number": game.number,
        "version": game.version,
        "position_id": game.position_id,
        "match_id": game.gnubg_match_id,
        "phase": "void" if void else state.phase,
        "turn": state.turn,
        "player_to_act": state.player_to_act,
        "dice": None if state.dice is None else list(state.dice),
        "cube": {"value": state.cube, "owner": state.cube_owner},
        "resignation": None
        if state.resignation is None
        else {"player": state.resignation.player, "kind": state.resignation.kind},
        "pips": [pips0, pips1],
        "borne_off": [board0.mover_off, board0.opponent_off],
        "board": [list(board0.mover), list(board0.opponent)],
        "score": list(state.match.score),
        "match_length": state.match.length,
        "crawford": state.match.crawford,
        "winning_chances": chances,
        "result": None
        if result is None
        else {
            "winner": result.winner,
            "kind": result.kind,
            "points": result.points,
            "reason": result.reason,
        },
        "flagged": state.flagged,  # R12: who ran out of time, waiting for the claim
        "clock": clock_view(game),
        "you": viewer_index,
        "legal_actions": [] if viewer_index is None or void else legal_actions(state, viewer_index),
    }


def clocked_games_live(*, at: datetime | None = None, limit: int = 200) -> list[dict[str, Any]]:
    """Every online game whose clock runs (or whose player ran out of time), with its
    clock at the server's time: the director's view of running clocks. Two queries."""
    at = at or clocks.now()
    games = (
        Game.objects.filter(clock__isnull=False, is_over=False)
        .exclude(result_kind=Game.VOID)
        .select_related("match__player1", "match__player2")
        .order_by("deadline_at", "pk")[:limit]
    )
    return [{"game": game, "clock": clock_view(game, at=at)} for game in games]


def clock_view(game: Game, *, at: datetime | None = None) -> dict[str, Any] | None:
    """The game's clock at the server's ``at`` (default: now), from the stored state, so
    every client shows the same times (R12)."""
    if game.clock is None:
        return None
    at = at or clocks.now()
    at_ms = clocks.to_ms(at)
    clock = ClockState.from_dict(game.clock)
    remaining = clock.remaining(at_ms)
    return {
        "server_time": at,
        "running": clock.running,
        "delay_ms": clock.settings.delay_ms,
        "delay_left_ms": None if remaining is None else remaining[0],
        "reserves_ms": list(clock.reserves_at(at_ms)),
        "deadline": game.deadline_at,
        "flagged": clock.flagged_player(at_ms),
    }


def game_replayed_state(*, game: Game) -> GameState:
    """The game's state rebuilt from its action log alone (R14): a new game from the
    match's rules and the score before this game, then every logged action through the
    engine. Equal to the stored snapshot unless something wrote around the services."""
    start = new_game_from_dicts(game.match.rules, game.state["match"])
    log = [Action(a.kind, a.player_index, a.data) for a in game.actions.order_by("seq")]  # type: ignore[arg-type]
    return replay(start, log)


# ====================================================================== ratings (issue 8)
# A player's side of the ledger: every read below is one query (or a paginator's two),
# whatever the length of the player's history, so the player page's query count does not
# grow with it (tests/games/test_player_pages.py asserts it for 2,000 matches).


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

    @property
    def at(self) -> datetime:
        return self.row.at

    @property
    def length(self) -> int:
        return self.row.length


def _side(row: RatedResult, player_id: int, links: dict[str, str]) -> PlayerResult:
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
    if row.match_id is not None:
        link: str | None = reverse("games:match", args=[row.match_id])
    else:
        link = links.get(row.source_key)
    return PlayerResult(row, player, opponent, won, calculation, opponent_before, link)


def player_sides(rows: Sequence[RatedResult], player_id: int) -> list[PlayerResult]:
    """Rows (with ``player1``/``player2`` selected) as ``player_id`` sees them, linked to
    their pages (at most one query per app that owns some of them)."""
    links = result_links([r.source_key for r in rows if r.match_id is None])
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
    """Active players whose name contains ``name`` (any case), by name. One query."""
    players = Player.objects.filter(is_active=True, name__icontains=name)
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
    players = Player.objects.filter(is_active=True, experience__gte=min_experience)
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
        needle = name.casefold()
        out = [row for row in out if needle in row.player.name.casefold()]
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
    rated). At most one query (the ledger row of a finished match)."""
    if match.is_money:
        return None
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
