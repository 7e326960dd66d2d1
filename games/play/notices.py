"""When match play tells players something (issue 5): the game services and the clock
call these after their writes; :func:`games.notifications.services.notify` does the rest (one row
per recipient, kind and subject, so a repeated call sends nothing twice).

A move costs nothing here unless the next player chose to hear of their turn: their
choices come with the game row the service read (``games.play.gamestore.game_for_action``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.engine.actions import Action
from games.engine.game import GameState
from games.models import Game, Match, Player

if TYPE_CHECKING:
    from games.notifications.services import Notice


def _players(match: Match) -> tuple[Player, Player]:
    """The match's players, loaded once per match object (a flag tells both players;
    a finished match, both again)."""
    if not (Match.player1.is_cached(match) and Match.player2.is_cached(match)):
        found = Player.objects.in_bulk((match.player1_id, match.player2_id))
        match.player1, match.player2 = found[match.player1_id], found[match.player2_id]
    return match.player1, match.player2


def _notice(match: Match, index: int, kind: str, subject: str, context: dict[str, Any]) -> Notice:
    from games.notifications.services import Notice

    players = _players(match)
    context = {"match_id": match.pk, "opponent": players[1 - index].name, **context}
    return Notice(recipient=players[index], kind=kind, subject=subject, context=context)


def _notify(match: Match, index: int, kind: str, subject: str, context: dict[str, Any]) -> None:
    from games.notifications.services import notify_all

    notify_all([_notice(match, index, kind, subject, context)])


def _wants(match: Match, index: int, kind: str) -> bool:
    """Whether player ``index`` gets ``kind`` on any channel: their own choice, else the
    kind's default."""
    from games.notifications.services import notification_kind

    loaded = getattr(match, "notification_channels", None)
    if loaded is not None:
        choices = loaded[index]
    else:
        player_id = (match.player1_id, match.player2_id)[index]
        rows = Player.objects.filter(pk=player_id)
        choices = rows.values_list("notification_channels", flat=True).first()
    chosen = (choices or {}).get(kind) if isinstance(choices, dict) else None
    if isinstance(chosen, list):
        return bool(chosen)
    return bool(notification_kind(kind).default_channels)


def after_action(*, game: Game, action: Action, state: GameState, next_game: Game | None) -> None:
    """Tell the players what an action means for them."""
    match = game.match
    if action.kind == "double" and action.player is not None:
        _notify(
            match,
            1 - action.player,
            "double_offered",
            f"game:{game.pk}:v{game.version}",
            {"cube": state.cube * 2},
        )
    if state.result is not None:
        match_over(match=match)
        return
    mover = state.player_to_act
    if mover is not None and mover != action.player and _wants(match, mover, "your_turn"):
        _notify(match, mover, "your_turn", f"game:{game.pk}:v{game.version}", {})


def match_over(*, match: Match) -> None:
    """A finished match is announced to both players."""
    from games.notifications.services import notify_all

    match = Match.objects.select_related("player1__user", "player2__user", "winner").get(
        pk=match.pk
    )
    if match.status != Match.Status.FINISHED:
        return
    context = {
        "winner": None if match.winner is None else match.winner.name,
        "score": [match.score1, match.score2],
    }
    subject = f"match:{match.pk}"
    notify_all([_notice(match, i, "match_finished", subject, context) for i in (0, 1)])


def time_low(*, game: Game, player_index: int, remaining_ms: int) -> None:
    _notify(
        game.match,
        player_index,
        "time_low",
        f"game:{game.pk}:v{game.version}",
        {"remaining_ms": remaining_ms},
    )


def lost_on_time(*, game: Game, player_index: int, claim_needed: bool) -> None:
    """The flagged player is told; when a claim is needed, so is the opponent."""
    from games.notifications.services import notify_all

    subject = f"game:{game.pk}"
    notices = [_notice(game.match, player_index, "lost_on_time", subject, {})]
    if claim_needed:
        notices.append(_notice(game.match, 1 - player_index, "win_claimable", subject, {}))
    notify_all(notices)
