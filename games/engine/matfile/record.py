"""A ``.mat`` match record as values: the games' actions, scores and results (R9-R11).

:class:`MatchRecord` is what :mod:`games.engine.matfile.write` writes and
:mod:`games.engine.matfile.read` reads (the format and its decisions are the package's
docstring, :mod:`games.engine.matfile`); :class:`MatError` is what both refuse with. The
replay helpers here are the ones both sides share: where a match starts
(:func:`first_match_state`), what follows a game (:func:`next_match`) and one logged
action applied with the legal play it chose (:func:`apply_checked`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from games.engine.actions import Action, apply_action
from games.engine.errors import EngineError
from games.engine.game import GameResult, GameState, apply_result, new_game
from games.engine.match import MatchState
from games.engine.movegen import Play
from games.engine.position import position_from_id, position_key
from games.engine.rules import RuleOptions


class MatError(EngineError):
    """A ``.mat`` file (or a record to export) that can't be used.

    ``game`` and ``move`` are the 1-based game and move numbers of the problem as the
    file numbers them (``None`` when not about one game or move line), ``player`` the
    column's player, ``cause`` the engine's own error code when it refused an action.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        game: int | None = None,
        move: int | None = None,
        player: int | None = None,
        cause: str | None = None,
    ) -> None:
        where = []
        if game is not None:
            where.append(f"game {game}")
        if move is not None:
            where.append(f"move {move}")
        prefix = ", ".join(where)
        if player is not None:
            prefix = f"{prefix} (player {player})" if prefix else f"player {player}"
        super().__init__(code, f"{prefix}: {message}" if prefix else message)
        self.detail = message
        self.game = game
        self.move = move
        self.player = player
        self.cause = cause


@dataclass(frozen=True, slots=True)
class MatGame:
    """One game of a match record.

    Attributes:
        score: the match score (player 0, player 1) at the start of the game.
        actions: the game's engine actions, from the opening roll on.
        winner: player 0 or 1, ``None`` while the game is unfinished.
        points: what the winner scored (``0`` while unfinished).
        final: the engine state after the last action, as the import's replay reached
            it (``None`` in a record built otherwise): whoever stores the game needs
            not replay it a second time.
    """

    score: tuple[int, int]
    actions: tuple[Action, ...]
    winner: int | None = None
    points: int = 0
    final: GameState | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "score", (int(self.score[0]), int(self.score[1])))
        object.__setattr__(self, "actions", tuple(self.actions))


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A match (or money session) as a ``.mat`` file holds it.

    Attributes:
        players: the names of player 0 (left column) and player 1 (right column).
        length: the match length; ``0`` = a money session.
        games: the games in order.
        options: the rule options the games were played with (see the package docstring
            for the ones the format can carry).
        event, site, round, transcriber: the ``; [Event "..."]`` style header fields.
        date: ``; [EventDate "YYYY.MM.DD"]``.
        comment: free text, written as ``;`` comment lines.
    """

    players: tuple[str, str]
    length: int
    games: tuple[MatGame, ...]
    options: RuleOptions = field(default_factory=RuleOptions)
    event: str | None = None
    site: str | None = None
    round: str | None = None
    date: dt.date | None = None
    transcriber: str | None = None
    comment: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", (str(self.players[0]), str(self.players[1])))
        object.__setattr__(self, "games", tuple(self.games))

    @property
    def final_score(self) -> tuple[int, int]:
        """The score after the last finished game (raw: a gammon may pass the length)."""
        if not self.games:
            return (0, 0)
        last = self.games[-1]
        score = list(last.score)
        if last.winner is not None:
            score[last.winner] += last.points
        return (score[0], score[1])


def build_record(
    players: tuple[str, str],
    length: int,
    logs: Iterable[Sequence[Action]],
    *,
    options: RuleOptions | None = None,
    start_score: tuple[int, int] = (0, 0),
    event: str | None = None,
    site: str | None = None,
    round: str | None = None,
    date: dt.date | None = None,
    transcriber: str | None = None,
    comment: str | None = None,
) -> MatchRecord:
    """A :class:`MatchRecord` from the games' action logs: the scores, winners and points
    come from replaying them (R9-R11), the first game starting at ``start_score``.
    Raises :class:`MatError` (``mat_invalid``) when a log breaks a rule, or a game follows
    an unfinished game or the end of the match."""
    opts = RuleOptions() if options is None else options
    match: MatchState | None = first_match_state(length, start_score, game=1)
    games: list[MatGame] = []
    for number, log in enumerate(logs, 1):
        if match is None:
            raise MatError(
                "mat_invalid",
                "a game follows an unfinished game or the end of the match",
                game=number,
            )
        state = _replay_log(opts, match, log, number)
        result = state.result
        games.append(
            MatGame(
                score=match.score,
                actions=tuple(log),
                winner=None if result is None else result.winner,
                points=0 if result is None else result.points,
            )
        )
        match = next_match(match, result, number)
    return MatchRecord(
        players=players,
        length=length,
        games=tuple(games),
        options=opts,
        event=event,
        site=site,
        round=round,
        date=date,
        transcriber=transcriber,
        comment=comment,
    )


# ====================================================================== replay helpers
def _crawford_start(length: int, score: tuple[int, int]) -> bool:
    """gnubg's reading of a first game at a score: Crawford when exactly one player is at
    ``length - 1`` (R11)."""
    return length > 1 and ((score[0] == length - 1) != (score[1] == length - 1))


def first_match_state(length: int, score: tuple[int, int], *, game: int = 1) -> MatchState:
    """The match state at the start of a record's first game: a score with exactly one
    player 1-away starts with the Crawford game (R11), as gnubg reads it."""
    try:
        match = MatchState(length=length, score=score, crawford=_crawford_start(length, score))
    except EngineError as exc:
        raise MatError("mat_invalid", exc.message, game=game, cause=exc.code) from None
    if match.is_over:
        raise MatError("mat_invalid", f"the score {score} is already past the match", game=game)
    return match


def next_match(match: MatchState, result: GameResult | None, number: int) -> MatchState | None:
    """The match after game ``number``; ``None`` when nothing may follow (an unfinished
    game, or the match is over)."""
    if result is None:
        return None
    try:
        after = apply_result(match, result)
    except EngineError as exc:
        raise MatError("mat_invalid", exc.message, game=number, cause=exc.code) from None
    return None if after.is_over else after


def _replay_log(
    options: RuleOptions, match: MatchState, log: Iterable[Action], number: int
) -> GameState:
    try:
        state = new_game(options, match)
    except EngineError as exc:
        raise MatError("mat_invalid", exc.message, game=number, cause=exc.code) from None
    for index, action in enumerate(log, 1):
        state, _ = apply_checked(state, action, index=index, game=number)
    return state


def apply_checked(
    state: GameState, action: Action, *, index: int, game: int
) -> tuple[GameState, Play | None]:
    """:func:`_apply_logged`, a refusal reported as ``mat_invalid`` for action ``index``
    of game ``game`` of a record being exported."""
    try:
        return _apply_logged(state, action)
    except EngineError as exc:
        raise MatError(
            "mat_invalid",
            f"action {index} ({action.kind}) is refused: {exc.message}",
            game=game,
            player=action.player,
            cause=exc.code,
        ) from None


def _apply_logged(state: GameState, action: Action) -> tuple[GameState, Play | None]:
    """``apply_action``, and for a play also the legal :class:`Play` it chose. A play is
    looked up by its result's packed key and given to ``GameState.play`` as a Play (the
    same check as ``apply_action``, without a Position ID per legal play); anything not
    found goes through ``apply_action``, which raises the engine's error."""
    pid = action.data.get("position_id")
    if action.kind == "play" and state.phase == "move" and isinstance(pid, str):
        try:
            target = position_key(position_from_id(pid))
        except EngineError:
            target = -1
        for play in state.legal_plays():
            if position_key(play.result) == target:
                return state.play(_player_of(action), play), play
    return apply_action(state, action), None


def _player_of(action: Action) -> int:
    if action.player not in (0, 1) or isinstance(action.player, bool):
        raise EngineError("invalid_player", f"{action.kind} needs player 0 or 1")
    return action.player
