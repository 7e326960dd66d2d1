"""The Jellyfish / GNU Backgammon ``.mat`` match file: export and validated import (R1).

A ``.mat`` file is the plain-text match record that GNU Backgammon (``import mat``),
eXtreme Gammon and most other backgammon programs read and write. This module turns a
:class:`MatchRecord` (players, match length, each game's engine :class:`Action` log) into
that text (:func:`export_mat`) and back (:func:`import_mat`). It is pure: text in, text
out, no files.

The layout, as gnubg 1.07 writes and reads it (checked by running Debian's gnubg)::

    ; [Event "Club night"]                      optional ``; [Key "value"]`` header lines
    ; [EventDate "2026.11.29"]

     5 point match                              0 = a money session

     Game 1
     Alice : 0                      Bob : 0     the score at the start of the game
      1) 31: 8/5 6/5                 62: 24/18 13/11
      2) 64: 13/7* 13/9              66:        a roll with no legal move: no moves
      3)  Doubles => 2                Takes
      4) 64: 24/18 18/14             ...
          Wins 1 point                          in the winner's column

Decisions (each checked against gnubg, see ``tests/games/engine/test_matfile_gnubg.py``):

* **Columns are players**: player 0 is the left column and the first name, player 1 the
  right column. A line holds one action of each; the actions of a game alternate between
  the players (roll-and-play, double, take/drop, beaver), so when player 1 starts the
  first line has an empty left column, as gnubg writes it.
* **The opening roll** (R3) is written as the starter's first roll, larger die first; tied
  opening rolls are not written (the format has no place for them). On import the
  starter is the column of the first roll, and the dice become the engine's
  ``opening_roll`` action (``[player 0's die, player 1's die]``).
* **Moves** are written like gnubg: one ``from/to`` per die in the order played, ``25``
  for the bar, ``0`` for off and ``*`` on a hit (``25/21* 21/15``). On import any
  notation :func:`~games.engine.notation.parse_play` reads is accepted (``bar/21``,
  ``6/off``, ``8/5(2)``, ``24/18/13``, consolidated ``11/4``) and matched to the legal
  plays **by the resulting position**, never by the string.
* **A roll with no legal move** is the roll with nothing after it (``65:``). A roll with
  no moves written although a play exists is accepted only when the game then ends by
  resignation (the roller resigned after rolling) or the play is forced (gnubg's rule).
* **Cube**: ``Doubles => 2`` (the new cube value), ``Takes``, ``Drops``; in money play a
  beaver is ``Beavers => 4`` (gnubg reads it as a redouble and an implied take).
  The Crawford game needs no mark: like gnubg, the import applies the Crawford rule (R11)
  in every match, and the engine refuses a double in the Crawford game.
* **The end of a game** is ``Wins N point(s)`` in the winner's column, after a bear-off,
  a drop or an accepted resignation. A resignation is not written otherwise: a ``Wins``
  line while the game is still being played *is* the resignation (of the other player,
  single/gammon/backgammon by ``N`` = cube x 1/2/3, gnubg's reading). Declined
  resignations leave no trace. A timeout claimed for a gammon (R12) is written as the
  ``Wins`` line it scores and reads back as a resigned gammon; a match lost on time has
  no representation (``mat_unsupported``; for an analysis, ``forfeit_unfinished`` writes
  its last game without an end).
* **Money sessions** are ``0 point match`` (gnubg writes and reads that); Jacoby and
  beavers are written as ``; [Jacoby "On"]`` / ``; [Beaver "On"]`` (XG's header lines;
  our import reads them, gnubg ignores them and scores with its own ``set jacoby``).
  Automatic doubles can't be written (``mat_unsupported`` when one happened).
* **Variants**: ``standard`` and ``nackgammon`` (``; [Variation "NackGammon"]``).
  Acey-Deucey, custom starts and the rule options that change which plays are legal or
  what a game scores (``max_checkers_per_point``, ``min_pip_waste``,
  ``backgammon_value`` other than 3) are refused (``mat_unsupported``): gnubg would
  read such a file with other rules.
* An **unfinished last game** (a live match) is exported without a ``Wins`` line and
  imported with ``winner=None`` (a roll waiting for a forced play reads back played).

What gnubg 1.07 does with such files (found by running it; the export works around the
first two):

* It misreads a ``Wins`` line that follows a line of 15 characters or fewer (it starts a
  phantom game): a line with only the left column keeps gnubg's padding to column 33.
* It reads a roll written without moves as the forced play when there is exactly one
  (even one that ends the game). So a roll followed by a resignation instead of its
  forced play is left out of the export; on import such a roll *is* the forced play.
* It refuses a file whose **last** game has no roll at all (resigned before the opening
  roll): "No game in progress". The same game followed by another one is read. We
  still write it (the file is right, and our import reads it).
* It does read the 1-away leader's post-Crawford double (its own players never make it,
  "dead cube"; the rules allow it, R11), and doubles at double match point.

Import validates everything by replaying it through the engine (R3-R11): each action is
applied to the :class:`~games.engine.game.GameState` of its game (``new_game`` with the
:class:`~games.engine.match.MatchState` at that point of the match), each game's header
score must equal the score the replay reached, and each ``Wins`` line must name the
winner and points the replay produced. The first problem raises :class:`MatError`.

Error codes (``MatError.code``; ``game``/``move``/``player`` say where, 1-based game and
move numbers as in the file; ``cause`` is the engine's code when it refused an action):

``mat_invalid``          the text is not a readable .mat file, or (export) the record is
                         inconsistent with its own actions.
``mat_illegal_action``   an action the rules refuse (an illegal play, a double in the
                         Crawford game, a take without a double, ...).
``mat_result_mismatch``  a ``Wins`` line or a game's header score disagrees with the replay.
``mat_unsupported``      something the format (or gnubg) cannot express.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from games.engine.actions import Action, apply_action
from games.engine.errors import EngineError
from games.engine.game import GameResult, GameState, ResignKind, apply_result, new_game
from games.engine.match import MatchState
from games.engine.movegen import Play
from games.engine.notation import format_play, parse_play
from games.engine.position import position_from_id, position_id, position_key
from games.engine.rules import RuleOptions


# ====================================================================== data types
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
        options: the rule options the games were played with (see the module docstring
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
        match = _next_match(match, result, number)
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


# ====================================================================== shared helpers
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


def _next_match(match: MatchState, result: GameResult | None, number: int) -> MatchState | None:
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
        state, _ = _apply_checked(state, action, index=index, game=number)
    return state


def _apply_checked(
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


def _dice_text(d1: int, d2: int) -> str:
    return f"{d1}-{d2}"


def _points_text(points: int) -> str:
    return f"Wins {points} point{'' if points == 1 else 's'}"


# ====================================================================== export
_LEFT_WIDTH: Final = 27  # gnubg: "%3d) %-27s " then the right column (at column 33)
_RIGHT_WINS: Final = " " * 34  # gnubg puts the right column's "Wins" at column 34
_LEFT_WINS: Final = " " * 6
_NAME_WIDTH: Final = 31  # gnubg: " %-31s%s" for "name : score"
_MAX_NAME: Final = 31  # gnubg keeps MAX_NAME_LEN - 1 characters


def _check_exportable(options: RuleOptions) -> None:
    if options.variant not in ("standard", "nackgammon"):
        raise MatError("mat_unsupported", f"the {options.variant} variant has no .mat form")
    if options.max_checkers_per_point is not None or options.min_pip_waste:
        raise MatError(
            "mat_unsupported",
            "max_checkers_per_point and min_pip_waste change the legal plays (R4, R6): "
            "gnubg would read the file with the standard rules",
        )
    if options.backgammon_value != 3:
        raise MatError(
            "mat_unsupported", "gnubg scores a backgammon 3 (R9 backgammon_value must be 3)"
        )


def _clean(text: str) -> str:
    """One line of header text: no line breaks or double quotes."""
    return " ".join(text.replace('"', "'").split())


def _mat_name(name: str, player: int) -> str:
    """A name gnubg reads back: one line, no colon (the score separator), 31 characters."""
    cleaned = " ".join(name.replace(":", ".").split())[:_MAX_NAME].strip()
    return cleaned or f"Player {player}"


def _steps(play: Play) -> str:
    """gnubg's plain notation: one ``from/to`` per die in the order played, hits marked."""
    return " ".join(
        f"{src}/{dest}{'*' if hit else ''}"
        for (src, dest), hit in zip(play.moves, play.hit_flags(), strict=True)
    )


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


def _game_lines(
    options: RuleOptions,
    match: MatchState,
    game: MatGame,
    number: int,
    *,
    forfeit_unfinished: bool = False,
) -> tuple[list[str], GameResult | None]:
    """The move lines of one game and its result (checked against ``game``)."""
    cells: list[tuple[int, str]] = []  # (player, text) in the order of the actions
    pending: int | None = None  # index in cells of a roll whose play is to come
    pending_state: GameState | None = None  # the state after that roll
    try:
        state = new_game(options, match)
    except EngineError as exc:
        raise MatError("mat_invalid", exc.message, game=number, cause=exc.code) from None
    for index, action in enumerate(game.actions, 1):
        before = state
        state, play = _apply_checked(state, action, index=index, game=number)
        kind = action.kind
        player = action.player
        if kind == "opening_roll":
            if state.phase == "opening":
                if state.cube != before.cube:
                    raise MatError(
                        "mat_unsupported",
                        "an automatic double (R8) can't be written in a .mat file",
                        game=number,
                    )
                continue  # a tie: re-rolled, not written
            dice = action.data["dice"]
            cells.append((state.turn, f"{max(dice)}{min(dice)}:"))
            pending = len(cells) - 1 if state.phase == "move" else None
            pending_state = state
        elif kind == "roll":
            assert player is not None
            d1, d2 = action.data["dice"]
            cells.append((player, f"{d1}{d2}:"))
            moving = state.phase == "move" and state.turn == player
            pending = len(cells) - 1 if moving else None
            pending_state = state
        elif kind == "play":
            assert pending is not None and play is not None
            owner, text = cells[pending]
            cells[pending] = (owner, f"{text} {_steps(play)}")
            pending = None
        elif kind == "double":
            assert player is not None
            cells.append((player, f" Doubles => {before.cube * 2}"))
        elif kind == "take":
            assert player is not None
            cells.append((player, " Takes"))
        elif kind == "beaver":
            assert player is not None
            cells.append((player, f" Beavers => {state.cube}"))
        elif kind == "drop":
            assert player is not None
            cells.append((player, " Drops"))
        elif kind in ("resign", "accept_resignation", "decline_resignation", "timeout"):
            pass  # an accepted resignation is the "Wins" line; a declined one leaves no trace
        elif kind == "claim_timeout":
            if state.result is not None and state.result.match_forfeit and not forfeit_unfinished:
                raise MatError(
                    "mat_unsupported",
                    "a match lost on time (R12) can't be written in a .mat file",
                    game=number,
                )
        else:
            raise MatError(
                "mat_unsupported", f"a {kind} action has no .mat form", game=number, player=player
            )
    result = state.result
    if (
        pending is not None
        and result is not None
        and pending_state is not None
        and (len(pending_state.legal_plays()) == 1 or (forfeit_unfinished and result.match_forfeit))
    ):
        # Rolled, then resigned (or lost on time) instead of playing a forced play: gnubg
        # reads a roll written without its play as that forced play, which could even
        # end the game, so the roll (which changed nothing) is left out.
        del cells[pending]
    winner = None if result is None else result.winner
    points = 0 if result is None else result.points
    if (winner, points) != (game.winner, game.points):
        raise MatError(
            "mat_invalid",
            f"the record says winner {game.winner} with {game.points} points, "
            f"the actions give winner {winner} with {points}",
            game=number,
        )
    # Lay the cells out in two columns, an empty cell where a player's turn was skipped.
    column: list[str] = []
    for owner, text in cells:
        if len(column) % 2 != owner:
            column.append("")
        column.append(text)
    lines = []
    for i in range(0, len(column), 2):
        left = column[i]
        head = f"{i // 2 + 1:3d}) "
        if i + 1 < len(column):
            # At least two spaces before the right column: gnubg finds a right column
            # without a roll (a cube action) by the first double space after column 15.
            cell = left.ljust(_LEFT_WIDTH) + " " if len(left) < _LEFT_WIDTH else left + "  "
            lines.append((head + cell + column[i + 1]).rstrip())
        else:
            # A line with only the left column keeps gnubg's padding: gnubg 1.07 misreads
            # the "Wins" line after a line of 15 characters or fewer (checked).
            lines.append(f"{head}{left:<{_LEFT_WIDTH}} ")
    if result is not None and not (forfeit_unfinished and result.match_forfeit):
        pad = _LEFT_WINS if result.winner == 0 else _RIGHT_WINS
        lines.append(pad + _points_text(result.points))
    return lines, result


def export_mat(record: MatchRecord, *, forfeit_unfinished: bool = False) -> str:
    """The ``.mat`` text of ``record`` (see the module docstring for the layout).

    ``forfeit_unfinished``: write a match lost on time (R12), which the format cannot
    hold, with its last game left unfinished (no ``Wins`` line): every move played is
    there, for an analysis; the file does not say who won the match.

    Every game is replayed to write it, so a record whose actions break a rule, whose
    scores don't follow from its games or whose winners/points disagree with its actions
    raises :class:`MatError` (``mat_invalid``); what the format cannot hold raises
    ``mat_unsupported``.
    """
    options = record.options
    _check_exportable(options)
    length = record.length
    if isinstance(length, bool) or not isinstance(length, int) or length < 0:
        raise MatError("mat_invalid", f"bad match length {length!r}")
    money = length == 0
    out: list[str] = []
    for key, value in (
        ("Site", record.site),
        ("Event", record.event),
        ("Round", record.round),
    ):
        if value:
            out.append(f'; [{key} "{_clean(value)}"]')
    if record.date is not None:
        out.append(f'; [EventDate "{record.date:%Y.%m.%d}"]')
    if options.variant == "nackgammon":
        out.append('; [Variation "NackGammon"]')
    if money:
        out.append(f'; [Jacoby "{"On" if options.jacoby else "Off"}"]')
        out.append(f'; [Beaver "{"On" if options.beavers else "Off"}"]')
    if record.transcriber:
        out.append(f'; [Transcriber "{_clean(record.transcriber)}"]')
    if record.comment:
        out.append("")
        out.extend(f"; {line}".rstrip() for line in record.comment.splitlines())
    out.append("")
    out.append(f" {length} point match")
    out.append("")
    names = (_mat_name(record.players[0], 0), _mat_name(record.players[1], 1))
    match: MatchState | None = None
    for number, game in enumerate(record.games, 1):
        if number == 1:
            match = first_match_state(length, game.score, game=1)
        if match is None:
            raise MatError(
                "mat_invalid",
                "a game follows an unfinished game or the end of the match",
                game=number,
            )
        if game.score != match.score:
            raise MatError(
                "mat_invalid",
                f"the record's score {game.score} is not the score the games reached {match.score}",
                game=number,
            )
        lines, result = _game_lines(
            options, match, game, number, forfeit_unfinished=forfeit_unfinished
        )
        left = f"{names[0]} : {game.score[0]}"
        left = left.ljust(_NAME_WIDTH) if len(left) < _NAME_WIDTH else left + " "
        out.append(f" Game {number}")
        out.append(f" {left}{names[1]} : {game.score[1]}")
        out.extend(lines)
        out.append("")
        match = _next_match(match, result, number)
    return "\n".join(out) + "\n"


# ====================================================================== import
_HEADER: Final = re.compile(r'^\[\s*(?P<key>[A-Za-z][\w ]*?)\s+"(?P<value>.*)"\s*\]\s*$')
_LENGTH: Final = re.compile(r"^\s*(?P<length>\d{1,9})\s+point\s+match\b", re.IGNORECASE)
_GAME: Final = re.compile(r"^\s*Game\s+(?P<number>\d+)\s*$", re.IGNORECASE)
_NAMES: Final = re.compile(
    r"^\s*(?P<n0>[^:]*?)\s*:\s*(?P<s0>\d+)\s+(?P<n1>[^:]*?)\s*:\s*(?P<s1>\d+)\s*$"
)
_NUMBERED: Final = re.compile(r"^\s*(?P<number>\d+)\)")
_ITEM: Final = re.compile(
    r"(?<![\w/*])(?:[1-6][1-6]:|(?:doubles?|beavers?|raccoons?|takes?|drops?|wins?|resigns?)\b)",
    re.IGNORECASE,
)
_ROLL: Final = re.compile(r"^(?P<d1>[1-6])(?P<d2>[1-6]):(?P<moves>.*)$", re.DOTALL)
_CUBE: Final = re.compile(
    r"^(?P<word>doubles?|beavers?|raccoons?)(?:\s*=>\s*(?P<value>\d+))?$", re.IGNORECASE
)
_WINS: Final = re.compile(
    r"^wins?\s+(?P<points>\d+)\s+points?(?:\s+and\s+the\s+match)?\s*\.?$", re.IGNORECASE
)
_RATING: Final = re.compile(r"^(?P<name>.*?)\s*,\s*\d[\d.]*$")  # GamesGrid "name,1500"
_RIGHT_COLUMN: Final = 33  # where gnubg writes the right column
_LEFT_COLUMN: Final = 6


@dataclass(slots=True)
class _Item:
    """One entry of a move line: a roll (with its moves), a cube action or a result."""

    text: str
    player: int
    move: int | None


@dataclass(slots=True)
class _GameText:
    number: int
    header: str | None = None
    items: list[_Item] = field(default_factory=list)


def _is_wins(text: str) -> bool:
    return text[:3].lower() == "win"


def _items(line: str, move: int | None, right_column: int) -> tuple[list[_Item], int]:
    """The items of one line with their players (columns), and the right column's
    position learnt from a line with two columns (other writers use other widths)."""
    numbered = _NUMBERED.match(line)
    start = numbered.end() if numbered else 0
    found = [m.start() for m in _ITEM.finditer(line, start)]
    if not found:
        if line[start:].strip():
            raise MatError("mat_invalid", f"cannot read the line {line.strip()!r}")
        return [], right_column
    if line[start : found[0]].strip():
        raise MatError("mat_invalid", f"cannot read the line {line.strip()!r}")
    pieces = [
        (pos, line[pos:end].strip())
        for pos, end in zip(found, [*found[1:], len(line)], strict=True)
    ]
    turns = [pos for pos, text in pieces if not _is_wins(text)]
    if len(turns) > 2:
        raise MatError("mat_invalid", f"more than two columns in {line.strip()!r}")
    if len(turns) == 2:
        right_column = turns[1]
    threshold = (_LEFT_COLUMN + right_column) // 2
    items = []
    for pos, text in pieces:
        if len(turns) == 2 and pos in turns:
            player = turns.index(pos)  # a line with both columns: left, then right
        else:
            player = 1 if pos >= threshold else 0
        items.append(_Item(text, player, move))
    return items, right_column


def _split_games(lines: list[str]) -> tuple[int, dict[str, str], list[str], list[_GameText]]:
    """The match length, header fields, comment lines and the games' texts."""
    header: dict[str, str] = {}
    comments: list[str] = []
    length: int | None = None
    index = 0
    while index < len(lines):
        line = lines[index].strip()
        index += 1
        if not line:
            continue
        if line[0] in ";#":
            body = line[1:].strip()
            if not body:
                continue
            m = _HEADER.match(body)
            if m:
                header[m["key"].strip()] = m["value"]
            else:
                comments.append(body)
            continue
        m = _LENGTH.match(line)
        if m:
            length = int(m["length"])
            break
        # gnubg skips anything else before the "N point match" line; so do we.
    if length is None:
        raise MatError("mat_invalid", "not a .mat file: no 'N point match' line")
    games: list[_GameText] = []
    right_column = _RIGHT_COLUMN
    move: int | None = None
    for line_no in range(index, len(lines)):
        line = lines[line_no].expandtabs(8).rstrip()
        if not line.strip() or line.lstrip()[0] in ";#":
            continue
        m = _GAME.match(line)
        if m:
            number = int(m["number"])
            expected = len(games) + 1
            if number != expected:
                raise MatError(
                    "mat_invalid", f"found 'Game {number}' where game {expected} should start"
                )
            games.append(_GameText(number))
            move = None
            continue
        if not games:
            raise MatError(
                "mat_invalid", f"line {line_no + 1}: expected 'Game 1', found {line.strip()!r}"
            )
        game = games[-1]
        if game.header is None:
            game.header = line
            continue
        numbered = _NUMBERED.match(line)
        if numbered:
            move = int(numbered["number"])
        try:
            items, right_column = _items(line, move, right_column)
        except MatError as exc:
            raise MatError(exc.code, exc.detail, game=game.number, move=move) from None
        game.items.extend(items)
    return length, header, comments, games


def _parse_header(game: _GameText) -> tuple[str, str, tuple[int, int]]:
    m = _NAMES.match(game.header or "")
    if not m:
        raise MatError(
            "mat_invalid",
            f"expected 'name : score   name : score', found {(game.header or '').strip()!r}",
            game=game.number,
        )

    def name(raw: str) -> str:
        rated = _RATING.match(raw)
        return " ".join((rated["name"] if rated else raw).split())

    return name(m["n0"]), name(m["n1"]), (int(m["s0"]), int(m["s1"]))


def _options_from_header(header: Mapping[str, str], length: int) -> RuleOptions:
    """The rules a file declares: its variation and, for money play, Jacoby and beavers."""
    variation = header.get("Variation", "Backgammon").strip().lower()
    if not variation.startswith(("backgammon", "nackgammon")):
        raise MatError("mat_unsupported", f"the variation {header['Variation']!r} is not played")
    money = length == 0
    return RuleOptions(
        variant="nackgammon" if variation.startswith("nackgammon") else "standard",
        jacoby=money and header.get("Jacoby", "").strip().lower() == "on",
        # Beavers only allow something: on in money play unless the file says "Off".
        beavers=money and header.get("Beaver", "").strip().lower() != "off",
    )


def _parse_date(value: str | None) -> dt.date | None:
    if not value:
        return None
    m = re.match(r"^\s*(\d{4})\.(\d{1,2})\.(\d{1,2})", value)
    if not m:
        return None
    try:
        return dt.date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        return None


class _GameReader:
    """Replays one game's items through the engine, collecting its actions."""

    def __init__(
        self,
        options: RuleOptions,
        match: MatchState,
        number: int,
    ) -> None:
        self.options = options
        self.number = number
        try:
            self.state = new_game(options, match)
        except EngineError as exc:
            raise MatError("mat_invalid", exc.message, game=number, cause=exc.code) from None
        self.actions: list[Action] = []
        self.pending: _Item | None = None  # a roll written without its (possible) play
        self.wins_seen = False

    # ------------------------------------------------------------------ helpers
    def error(self, code: str, item: _Item, message: str, cause: str | None = None) -> MatError:
        return MatError(
            code, message, game=self.number, move=item.move, player=item.player, cause=cause
        )

    def act(self, item: _Item, action: Action, what: str) -> None:
        try:
            self.state = apply_action(self.state, action)
        except EngineError as exc:
            raise self.error(
                "mat_illegal_action", item, f"{what}: {exc.message}", exc.code
            ) from None
        self.actions.append(action)

    def resolve_pending(self) -> None:
        """A roll written without moves although plays exist must be followed by the
        resignation that ended the game (gnubg's reading); anything else is an error."""
        item = self.pending
        if item is not None:
            raise self.error(
                "mat_illegal_action",
                item,
                f"no play is written for {_dice_text(int(item.text[0]), int(item.text[1]))} "
                "but one must be played (R6)",
                "illegal_play",
            )

    def play(self, item: _Item, play: Play) -> None:
        """Play one of the state's legal plays. ``GameState.play`` is given the Play
        itself (the same check as replaying the logged action, without turning every
        legal result into a Position ID)."""
        notation = format_play(play)
        try:
            self.state = self.state.play(item.player, play)
        except EngineError as exc:  # pragma: no cover - the play came from legal_plays
            raise self.error("mat_illegal_action", item, f"{notation}: {exc.message}") from None
        self.actions.append(
            Action("play", item.player, {"play": notation, "position_id": position_id(play.result)})
        )

    # ------------------------------------------------------------------ items
    def read(self, item: _Item) -> None:
        text = item.text
        lower = text.lower()
        if self.state.is_over:
            if lower.startswith("win"):
                self.wins(item)
                return
            raise self.error("mat_invalid", item, f"{text!r} after the end of the game")
        if lower.startswith("resign"):
            return  # gnubg ignores these .gam lines; the "Wins" line carries the result
        if lower.startswith("win"):
            self.wins(item)
            return
        self.resolve_pending()
        roll = _ROLL.match(text)
        if roll:
            self.roll(item, int(roll["d1"]), int(roll["d2"]), roll["moves"].strip())
            return
        cube = _CUBE.match(text)
        if cube:
            self.cube(item, cube["word"].lower(), cube["value"])
            return
        if re.fullmatch(r"takes?", lower):
            self.act(item, Action("take", item.player), "take")
            return
        if re.fullmatch(r"drops?", lower):
            self.act(item, Action("drop", item.player), "drop")
            return
        raise self.error("mat_invalid", item, f"cannot read {text!r}")

    def roll(self, item: _Item, d1: int, d2: int, moves: str) -> None:
        if moves.startswith("???") or moves.lower().startswith("cannot move"):
            moves = ""  # XG: a resignation after rolling / a dancing roll
        if moves.lower().startswith("illegal play"):
            raise self.error("mat_unsupported", item, "Snowie 'Illegal play' records are not read")
        if self.state.phase == "opening":
            if d1 == d2:
                raise self.error(
                    "mat_illegal_action",
                    item,
                    f"the opening roll can't be a double ({d1}-{d2}, R3)",
                    "invalid_dice",
                )
            high, low = max(d1, d2), min(d1, d2)
            dice = [high, low] if item.player == 0 else [low, high]
            self.act(
                item,
                Action("opening_roll", None, {"dice": dice}),
                f"the opening roll {_dice_text(d1, d2)}",
            )
        else:
            self.act(
                item,
                Action("roll", item.player, {"dice": [d1, d2]}),
                f"the roll {_dice_text(d1, d2)}",
            )
        state = self.state
        if state.phase != "move" or state.turn != item.player:
            if moves:
                raise self.error(
                    "mat_illegal_action",
                    item,
                    f"{moves} is not legal with {_dice_text(d1, d2)}: no move is possible (R6)",
                    "illegal_play",
                )
            return
        if not moves:
            plays = state.legal_plays()
            if len(plays) == 1:
                self.play(item, plays[0])  # a forced play may be left out (gnubg plays it)
            else:
                self.pending = item  # the roller resigned after rolling: "Wins" must follow
            return
        try:
            play = parse_play(
                state.position,
                moves,
                d1,
                d2,
                max_checkers_per_point=self.options.max_checkers_per_point,
                min_pip_waste=self.options.min_pip_waste,
                plays=state.legal_plays(),  # generated by the roll already (cached)
            )
        except EngineError as exc:
            if exc.code == "invalid_notation":
                raise self.error(
                    "mat_invalid", item, f"cannot read the play {moves!r}: {exc.message}", exc.code
                ) from None
            raise self.error(
                "mat_illegal_action",
                item,
                f"{moves} is not legal with {_dice_text(d1, d2)}",
                exc.code,
            ) from None
        self.play(item, play)

    def cube(self, item: _Item, word: str, value: str | None) -> None:
        cube = self.state.cube
        if word.startswith("double"):
            expected = cube * 2
            self.act(item, Action("double", item.player), "double")
        elif word.startswith("beaver"):
            expected = cube * 4
            self.act(item, Action("beaver", item.player), "beaver")
        else:
            raise self.error("mat_unsupported", item, "raccoons are not played (R8)")
        if value is not None and int(value) != expected:
            raise self.error(
                "mat_invalid", item, f"the cube goes to {expected}, not {value} as written"
            )

    def wins(self, item: _Item) -> None:
        m = _WINS.match(item.text)
        if not m:
            raise self.error("mat_invalid", item, f"cannot read {item.text!r}")
        points = int(m["points"])
        if self.wins_seen:
            raise self.error("mat_invalid", item, "a second 'Wins' line for the game")
        self.wins_seen = True
        winner = item.player
        if not self.state.is_over:
            self.resign(item, winner, points)
        result = self.state.result
        assert result is not None
        if (result.winner, result.points) != (winner, points):
            raise self.error(
                "mat_result_mismatch",
                item,
                f"the file says player {winner} wins {points}, the game gives player "
                f"{result.winner} {result.points} point{'' if result.points == 1 else 's'}",
            )

    def resign(self, item: _Item, winner: int, points: int) -> None:
        """A ``Wins`` line during play: the other player resigned (gnubg's reading)."""
        self.pending = None
        loser = 1 - winner
        if self.state.phase == "doubled":
            raise self.error(
                "mat_illegal_action", item, "a resignation while a double waits for an answer"
            )
        if self.options.resign_mode == "seed002":
            self.act(item, Action("resign", loser), "resignation")
            return
        kinds: tuple[ResignKind, ...] = ("single", "gammon", "backgammon")
        for kind in kinds:
            try:
                offered = apply_action(self.state, Action("resign", loser, {"kind": kind}))
                ended = apply_action(offered, Action("accept_resignation", winner))
            except EngineError as exc:
                raise self.error(
                    "mat_illegal_action", item, f"resignation: {exc.message}", exc.code
                ) from None
            if ended.result is not None and ended.result.points == points:
                self.actions.append(Action("resign", loser, {"kind": kind}))
                self.actions.append(Action("accept_resignation", winner))
                self.state = ended
                return
        cube = self.state.cube
        raise self.error(
            "mat_result_mismatch",
            item,
            f"a resignation wins the cube ({cube}) times 1, 2 or 3, not {points}",
        )

    def finish(self, last: bool) -> GameState:
        if not self.state.is_over and not last:
            raise MatError(
                "mat_invalid",
                "the game has no result but another game follows",
                game=self.number,
            )
        return self.state


def _moves(text: str) -> int:
    """The checker moves an entry stands for (:attr:`MatOutline.moves`)."""
    if len(text) > 2 and text[2] == ":" and text[0] in "123456" and text[1] in "123456":
        return 4 if text[0] == text[1] else 2
    return 1


@dataclass(frozen=True, slots=True)
class MatOutline:
    """What a ``.mat`` file holds, as read before any of its moves is replayed (cheap:
    one pass over the lines), for a caller's limits and permissions.

    Attributes:
        length: the match length (``0``: a money session).
        players: the names of game 1's header (left, right column).
        games: how many games the file holds.
        entries: how many entries its move lines hold: each roll (with its play), cube
            action and ``Wins`` line (the replay makes one or two engine actions of each).
        moves: the checker moves of its rolls, as a player counts them: two for a roll,
            four for a double (R3), and one for each cube action and ``Wins`` line. What
            the replay costs follows this count more closely than the entries: the
            legal plays of a double take several times longer to find, and a file's
            dice are whatever it says, so a crafted file may roll doubles only.
    """

    length: int
    players: tuple[str, str]
    games: int
    entries: int
    moves: int


def import_mat(
    text: str,
    *,
    options: RuleOptions | None = None,
    before_replay: Callable[[MatOutline], None] | None = None,
) -> MatchRecord:
    """Read and validate a ``.mat`` file (see the module docstring).

    ``options`` are the rules the match was played with; by default standard rules, the
    variant from ``; [Variation ...]`` and, in money play, Jacoby from ``; [Jacoby "On"]``
    and beavers unless ``; [Beaver "Off"]``. Raises :class:`MatError` at the first
    unreadable or illegal action, naming the game and move.

    ``before_replay`` is called with the file's :class:`MatOutline` once the text is
    read and before the (costly) replay; it may raise to refuse the file.
    """
    if not isinstance(text, str):
        raise MatError("mat_invalid", "a .mat file is text")
    lines = text.lstrip("\ufeff").splitlines()
    length, header, comments, games_text = _split_games(lines)
    if not games_text:
        raise MatError("mat_invalid", "the file has no games")
    if before_replay is not None:
        name0, name1, _ = _parse_header(games_text[0])
        before_replay(
            MatOutline(
                length=length,
                players=(name0, name1),
                games=len(games_text),
                entries=sum(len(game.items) for game in games_text),
                moves=sum(_moves(item.text) for game in games_text for item in game.items),
            )
        )
    opts = _options_from_header(header, length) if options is None else options
    try:
        MatchState(length=length).check_options(opts)
    except EngineError as exc:
        raise MatError("mat_invalid", exc.message, cause=exc.code) from None
    players: tuple[str, str] | None = None
    games: list[MatGame] = []
    match: MatchState | None = None
    for index, game_text in enumerate(games_text):
        name0, name1, score = _parse_header(game_text)
        number = game_text.number
        if players is None:
            players = (name0, name1)
        if index == 0:
            match = first_match_state(length, score, game=number)
        elif match is None:
            if length and max(score) >= length and not game_text.items:
                continue  # gnubg ignores a game header after the end of the match
            raise MatError(
                "mat_invalid",
                "a game follows an unfinished game or the end of the match",
                game=number,
            )
        assert match is not None
        if score != match.score:
            raise MatError(
                "mat_result_mismatch",
                f"the file gives the score {score[0]}-{score[1]}, the games before give "
                f"{match.score[0]}-{match.score[1]}",
                game=number,
            )
        reader = _GameReader(opts, match, number)
        for item in game_text.items:
            reader.read(item)
        state = reader.finish(last=index == len(games_text) - 1)
        result = state.result
        games.append(
            MatGame(
                score=score,
                actions=tuple(reader.actions),
                winner=None if result is None else result.winner,
                points=0 if result is None else result.points,
                final=state,
            )
        )
        match = _next_match(match, result, number)
    if players is None:
        raise MatError("mat_invalid", "the file has no games")
    return MatchRecord(
        players=players,
        length=length,
        games=tuple(games),
        options=opts,
        event=header.get("Event"),
        site=header.get("Site"),
        round=header.get("Round"),
        date=_parse_date(header.get("EventDate")),
        transcriber=header.get("Transcriber"),
        comment="\n".join(comments) or None,
    )


__all__ = [
    "MatError",
    "MatGame",
    "MatOutline",
    "MatchRecord",
    "build_record",
    "export_mat",
    "import_mat",
]
