"""Storing gnubg's analysis of a match: its per-player figures and its decisions, each
decision tied to the logged action (``GameAction.seq``) it judges.

gnubg numbers a match's games as its ``.mat`` export writes them: our games in order,
less the unplayed last game of a money session (``Game.VOID``), so the n-th analysed
game is the n-th such game. Within a game gnubg's records follow our log: a move is a
roll and the play after it (no play when nothing was legal), a no-double is judged
before the roll that follows it, a double, take and drop are our actions of those kinds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.analysis.driver import GnubgAnalysis
from games.engine.actions import state_from_dict
from games.models import (
    DecisionAnalysis,
    Game,
    GameAction,
    Match,
    MatchAnalysis,
    PlayerAnalysis,
)

_ROLLS = ("opening_roll", "roll")


class MappingFailure(Exception):
    """gnubg's records do not follow our log (a bug on one side: never guessed over)."""

    retry = False

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.code, self.detail = "decision_mismatch", detail


@dataclass(frozen=True)
class _Action:
    seq: int
    kind: str
    player: int | None
    data: dict[str, Any]


def _find(actions: list[_Action], start: int, kinds: tuple[str, ...], player: int) -> int:
    """The index of the next action of ``kinds`` from ``start`` (a roll of ``player``,
    or the opening roll; a cube action of ``player``)."""
    for i in range(start, len(actions)):
        action = actions[i]
        if action.kind in kinds and (action.player is None or action.player == player):
            return i
    raise MappingFailure(f"no {'/'.join(kinds)} of player {player} after action {start}")


def _same_dice(action: _Action, dice: str) -> bool:
    ours = sorted(int(d) for d in action.data.get("dice", ()))
    return not dice or ours == sorted(int(d) for d in dice)


def decisions_map(
    game_number: int, actions: list[_Action], decisions: list[dict[str, Any]]
) -> list[DecisionAnalysis]:
    """One game's decisions as rows (no ``analysis`` yet), each with its action's seq."""
    rows: list[DecisionAnalysis] = []
    at = 0
    for decision in decisions:
        kind, player = decision["kind"], decision["player"]
        if kind == "other":
            continue
        action_name = decision["action"]
        if kind == "move":
            roll = _find(actions, at, _ROLLS, player)
            if not _same_dice(actions[roll], decision.get("dice", "")):
                raise MappingFailure(
                    f"game {game_number}: gnubg's roll {decision.get('dice')} is not "
                    f"action {actions[roll].seq}'s"
                )
            after = roll + 1
            if (
                after < len(actions)
                and actions[after].kind == "play"
                and actions[after].player == player
            ):
                seq, at = actions[after].seq, after + 1
            else:
                seq, at = actions[roll].seq, roll + 1
        elif action_name == "no_double":
            seq = actions[_find(actions, at, ("roll",), player)].seq
        else:
            kinds = ("take", "beaver") if action_name == "take" else (action_name,)
            found = _find(actions, at, kinds, player)
            seq, at = actions[found].seq, found + 1
        rows.append(
            DecisionAnalysis(
                game_number=game_number,
                action_seq=seq,
                ordinal=len(rows) + 1,
                player_index=player,
                kind=DecisionAnalysis.Kind.MOVE if kind == "move" else DecisionAnalysis.Kind.CUBE,
                dice=decision.get("dice", "")[:2],
                played=str(decision.get("played", ""))[:80],
                best=str(decision.get("best", ""))[:80],
                equity_lost=float(decision.get("equity_lost", 0.0)),
                mark=decision.get("mark", ""),
                luck=decision.get("luck"),
                luck_mark=decision.get("luck_mark", ""),
                forced=bool(decision.get("forced", False)),
            )
        )
    return rows


def _analysed_games(match: Match) -> list[tuple[int, list[_Action]]]:
    games = list(match.games.exclude(result_kind=Game.VOID).order_by("number"))
    by_game: dict[int, list[_Action]] = {game.pk: [] for game in games}
    rows = GameAction.objects.filter(game__in=games).order_by("game_id", "seq")
    for game_id, seq, kind, player, data in rows.values_list(
        "game_id", "seq", "kind", "player_index", "data"
    ):
        by_game[game_id].append(_Action(seq, kind, player, data or {}))
    return [(game.number, by_game[game.pk]) for game in games]


def match_played_out(match: Match) -> bool:
    """Finished by play: not a money session, not lost on time (a forfeit of the match)."""
    if match.status != Match.Status.FINISHED or match.is_money:
        return False
    last = match.games.exclude(result_kind=Game.VOID).order_by("-number").first()
    if last is None:
        return False
    result = state_from_dict(last.state).result
    return result is not None and not result.match_forfeit


def analysis_store(*, analysis_id: int, token: str, result: GnubgAnalysis) -> bool:
    """Store ``result`` as the job's figures, replacing older ones, if the job is still
    this run's (``token``): one transaction with ``status = done``. ``False``: it was
    not ours any more, nothing stored."""
    analysis = MatchAnalysis.objects.select_related("match").get(pk=analysis_id)
    match = analysis.match
    ours = _analysed_games(match)
    if len(ours) != len(result.games):
        raise MappingFailure(f"gnubg read {len(result.games)} games, we hold {len(ours)}")
    decisions: list[DecisionAnalysis] = []
    for (number, actions), gnubg_game in zip(ours, result.games, strict=True):
        decisions.extend(decisions_map(number, actions, gnubg_game))
    played_out = match_played_out(match)
    played_at = match.finished_at or match.imported_at or timezone.now()
    with transaction.atomic():
        locked = (
            MatchAnalysis.objects.select_for_update()
            .filter(pk=analysis_id, run_token=token, status=MatchAnalysis.Status.RUNNING)
            .first()
        )
        if locked is None:
            return False
        PlayerAnalysis.objects.filter(analysis=locked).delete()
        DecisionAnalysis.objects.filter(analysis=locked).delete()
        players = (match.player1_id, match.player2_id)
        PlayerAnalysis.objects.bulk_create(
            PlayerAnalysis(
                analysis=locked,
                match=match,
                player_id=players[index],
                index=index,
                unforced_moves=figures.unforced_moves,
                close_cube_decisions=figures.close_cube_decisions,
                chequer_error_emg=figures.chequer_error_emg,
                cube_error_emg=figures.cube_error_emg,
                error_total_emg=figures.error_total_emg,
                error_rate_memg=figures.error_rate_memg,
                pr=figures.pr,
                snowie_error_rate=figures.snowie_error_rate,
                luck_total_emg=figures.luck_total_emg,
                luck_rate_memg=figures.luck_rate_memg,
                luck_adjusted_result=figures.luck_adjusted_result,
                rating_words=figures.rating_words,
                luck_words=figures.luck_words,
                counts=played_out
                and figures.unforced_moves + figures.close_cube_decisions
                >= settings.ANALYSIS_MIN_DECISIONS,
                played_at=played_at,
            )
            for index, figures in enumerate(result.players)
        )
        for row in decisions:
            row.analysis = locked
        DecisionAnalysis.objects.bulk_create(decisions, batch_size=500)
        MatchAnalysis.objects.filter(pk=analysis_id).update(
            status=MatchAnalysis.Status.DONE,
            progress=100,
            run_token="",
            failure_code="",
            failure_reason="",
            gnubg_version=result.version[:60],
            finished_at=timezone.now(),
            version=F("version") + 1,
        )
    return True
