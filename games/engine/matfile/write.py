"""The ``.mat`` text of a :class:`~games.engine.matfile.record.MatchRecord`
(:func:`export_mat`), every game replayed to write it.

The layout and what gnubg 1.07 needs of it are the package's docstring
(:mod:`games.engine.matfile`).
"""

from __future__ import annotations

from typing import Final

from games.engine.errors import EngineError
from games.engine.game import GameResult, GameState, new_game
from games.engine.match import MatchState
from games.engine.matfile.record import (
    MatchRecord,
    MatError,
    MatGame,
    apply_checked,
    first_match_state,
    next_match,
)
from games.engine.movegen import Play
from games.engine.rules import RuleOptions

_LEFT_WIDTH: Final = 27  # gnubg: "%3d) %-27s " then the right column (at column 33)
_RIGHT_WINS: Final = " " * 34  # gnubg puts the right column's "Wins" at column 34
_LEFT_WINS: Final = " " * 6
_NAME_WIDTH: Final = 31  # gnubg: " %-31s%s" for "name : score"
_MAX_NAME: Final = 31  # gnubg keeps MAX_NAME_LEN - 1 characters


def _points_text(points: int) -> str:
    return f"Wins {points} point{'' if points == 1 else 's'}"


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
        state, play = apply_checked(state, action, index=index, game=number)
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
    """The ``.mat`` text of ``record`` (see the package docstring for the layout).

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
        match = next_match(match, result, number)
    return "\n".join(out) + "\n"
