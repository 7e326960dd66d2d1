"""Reads of match play for pages and the API, each with a bounded number of queries."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.utils.translation import gettext as _

from games import wallclock
from games.engine.actions import Action, apply_action, new_game_from_dicts, state_from_dict
from games.engine.clock import ClockState
from games.engine.errors import EngineError
from games.engine.game import GameState
from games.engine.met import match_winning_chance_for
from games.engine.notation import format_play
from games.engine.position import position_id
from games.errors import NotFound
from games.models import Game, GameAction, Match, MatchInvitation, Player
from games.play.clock import clock_reading


# ====================================================================== matches and games
def match_list(*, status: str | None = None, limit: int = 100) -> QuerySet[Match]:
    matches = Match.objects.select_related("player1", "player2", "winner")
    if status:
        matches = matches.filter(status=status)
    return matches.order_by("-created_at", "-id")[:limit]


def match_get(*, match_id: int) -> Match:
    try:
        return (
            Match.objects.select_related(
                "player1",
                "player2",
                "winner",
                "imported_by",
                "imported_by__player",
                "invitation__inviter",
                "invitation__invitee",
            )
            .prefetch_related("games")
            .get(pk=match_id)
        )
    except Match.DoesNotExist:
        raise NotFound("match_not_found", _("There is no match with this id.")) from None


def invitation_list(
    *, player: Player, status: str | None = None, limit: int = 100
) -> list[MatchInvitation]:
    """The invitations ``player`` sent or received, newest first (``status``: only those),
    with their matches and both players: one query."""
    found = _invitations().filter(Q(inviter=player) | Q(invitee=player))
    if status:
        found = found.filter(status=status)
    return list(found.order_by("-created_at", "-id")[:limit])


def _invitations() -> QuerySet[MatchInvitation]:
    """Invitations with their match, both players and ``current_game_id`` (the match's
    latest game, ``None`` before it starts), in the one query."""
    latest = Game.objects.filter(match=OuterRef("match")).order_by("-number").values("pk")[:1]
    return MatchInvitation.objects.select_related("match", "inviter", "invitee").annotate(
        current_game_id=Subquery(latest)
    )


def invitation_get(*, invitation_id: int) -> MatchInvitation:
    try:
        return _invitations().get(pk=invitation_id)
    except MatchInvitation.DoesNotExist:
        raise NotFound("invitation_not_found", _("There is no invitation with this id.")) from None


def match_invitation(*, match: Match) -> MatchInvitation | None:
    """The invitation to ``match`` (``None``: a match nobody was invited to, such as a
    tournament's): one query."""
    return MatchInvitation.objects.filter(match=match).select_related("inviter", "invitee").first()


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
    at = at or wallclock.now()
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
    at = at or wallclock.now()
    clock = ClockState.from_dict(game.clock)
    return {
        "server_time": at,
        "running": clock.running,
        **clock_reading(clock, wallclock.to_ms(at)),
        "deadline": game.deadline_at,
    }


def game_replay_start(*, game: Game) -> GameState:
    """The state every replay of ``game`` starts from: a new game from the match's rules
    and the score before this game (R14)."""
    return new_game_from_dicts(game.match.rules, game.state["match"])


def game_log_states(
    *, game: Game, rows: Iterable[GameAction] | None = None
) -> list[tuple[GameAction, GameState]]:
    """Each row of the game's action log (``rows``, else read in one query) with the
    engine state after it, rebuilt from the log alone through the engine: the one replay
    that ``manage.py audit_games`` and the replay page (``games/play/replay.py``) share."""
    state = game_replay_start(game=game)
    found: list[tuple[GameAction, GameState]] = []
    for row in game.actions.order_by("seq") if rows is None else rows:
        state = apply_action(state, Action(row.kind, row.player_index, row.data))  # type: ignore[arg-type]
        found.append((row, state))
    return found


def game_replayed_state(*, game: Game) -> GameState:
    """The game's state rebuilt from its action log alone (R14): a new game from the
    match's rules and the score before this game, then every logged action through the
    engine. Equal to the stored snapshot unless something wrote around the services."""
    states = game_log_states(game=game)
    return states[-1][1] if states else game_replay_start(game=game)


# ====================================================================== ratings (issue 8)
# A player's side of the ledger: every read below is one query (or a paginator's two),
# whatever the length of the player's history, so the player page's query count does not
# grow with it (tests/games/players/test_player_pages.py asserts it for 2,000 matches).
