"""A ``.mat`` file read and validated by replaying it through the engine
(:func:`import_mat`), and its outline read before the replay (:class:`MatOutline`).

The layout it reads, the other writers' variants it accepts and the error codes are the
package's docstring (:mod:`games.engine.matfile`).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Final

from games.engine.actions import Action, apply_action
from games.engine.errors import EngineError
from games.engine.game import GameState, ResignKind, new_game
from games.engine.match import MatchState
from games.engine.matfile.record import (
    MatchRecord,
    MatError,
    MatGame,
    first_match_state,
    next_match,
)
from games.engine.movegen import Play
from games.engine.notation import format_play, parse_play
from games.engine.position import position_id
from games.engine.rules import RuleOptions

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


def _dice_text(d1: int, d2: int) -> str:
    return f"{d1}-{d2}"


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
    """Read and validate a ``.mat`` file (see the package docstring).

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
        match = next_match(match, result, number)
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
