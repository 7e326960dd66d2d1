"""Matches in and out as ``.mat`` files (the Jellyfish / GNU Backgammon text format).

The text format itself lives in the pure engine (:mod:`games.engine.matfile`); this
module joins it to the database: :func:`match_export_mat` writes a stored match,
:func:`match_import_mat` records a match played elsewhere after the engine has replayed
and accepted every action of it. A refused file stores nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final

from django.db import connection, transaction
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext as _
from psycopg.types.json import Jsonb

from games.engine import actions as engine_actions
from games.engine.actions import Action
from games.engine.game import apply_result
from games.engine.matfile.read import MatOutline, import_mat
from games.engine.matfile.record import MatchRecord, MatError, build_record, first_match_state
from games.engine.matfile.write import export_mat
from games.errors import PermissionDenied, ValidationFailed
from games.models import Game, GameAction, Match, Player
from games.play.gamestore import game_begin_next, game_row_values
from games.players.names import player_name_clean
from games.signals import match_recorded


def match_record(*, match: Match) -> MatchRecord:
    """The stored match as a :class:`MatchRecord` (every game's log, in order)."""
    logs: list[list[Action]] = []
    actions = (
        GameAction.objects.filter(game__match=match)
        .exclude(game__result_kind=Game.VOID)  # never played: nothing to export
        .order_by("game__number", "seq")
    )
    current: int | None = None
    for row in actions.values_list("game_id", "kind", "player_index", "data"):
        game_id, kind, player, data = row
        if game_id != current:
            logs.append([])
            current = game_id
        logs[-1].append(Action(kind, player, data))
    first_score = (0, 0)
    return build_record(
        (match.player1.name, match.player2.name),
        match.length,
        logs,
        options=engine_actions.options_from_dict(match.rules),
        start_score=first_score,
        date=match.started_at.date() if match.started_at else None,
    )


def match_export_mat(*, match: Match, forfeit_unfinished: bool = False) -> str:
    """The ``.mat`` text of a stored match (refused with ``mat_unsupported`` for rules
    the format cannot carry, such as Acey-Deucey). ``forfeit_unfinished``: a match lost
    on time is written with its last game unfinished (for the analysis) instead of
    refused."""
    try:
        return export_mat(match_record(match=match), forfeit_unfinished=forfeit_unfinished)
    except MatError as exc:
        raise ValidationFailed(
            exc.code,
            _("This match cannot be written as a .mat file: %(reason)s") % {"reason": exc.message},
        ) from None


#: What one imported file may hold (issue 16). The whole import runs in the request, so
#: these bound the time it holds a web worker; they are checked before any move is
#: replayed. Chosen to admit every real club match with room to spare, and measured on
#: the project's 2-core machine with ``python bench/mat_import.py``:
#:
#: * a game as played is 50-70 entries (rolls with their plays, cube actions), 100-150
#:   checker moves (a roll is two, a double four) and 1.5-2 KB (GNU Backgammon's own
#:   matches in tests/games/engine/data: 72-149 moves a game);
#: * so a match to 25 points (20-30 games) is about 2,500-3,500 moves and 50 KB, a money
#:   night of 30-40 games 3,600-4,800 moves;
#: * the largest file of long random legal self-play games these admit imports in about
#:   a second (two with the other sessions of the machine busy); one of doubles only
#:   (legal in a file: its dice are what it says), whose plays take longer to find, in
#:   about the same.
#:
#: ``manage.py import_mat --no-limits`` lifts them for an operator.
MAX_MAT_BYTES: Final = 256 * 1024
MAX_MAT_GAMES: Final = 150
MAX_MAT_MOVES: Final = 5_000
#: The Django permission that lets a user import a match between any two players (a
#: club scorekeeper or director; staff may too), beside the match's own players.
IMPORT_ANY_PERMISSION: Final = "games.import_any_match"


@dataclass(frozen=True, slots=True)
class MatLimits:
    """The bounds of one import (``None``: unbounded)."""

    bytes: int | None = MAX_MAT_BYTES
    games: int | None = MAX_MAT_GAMES
    moves: int | None = MAX_MAT_MOVES


DEFAULT_LIMITS: Final = MatLimits()
NO_LIMITS: Final = MatLimits(bytes=None, games=None, moves=None)


def mat_too_large(limit: str, found: int, most: int) -> ValidationFailed:
    """The refusal of a file over a limit (400 ``mat_too_large``), naming the limit
    (``limit``: ``bytes``, ``games`` or ``moves``; also in ``extra``)."""
    numbers = {"found": f"{found:,}", "most": f"{most:,}"}
    if limit == "bytes":
        detail = _(
            "The .mat file is too large: %(found)s bytes, at most %(most)s bytes may be "
            "imported at once."
        )
    elif limit == "games":
        detail = _(
            "The .mat file is too large: it holds %(found)s games, at most %(most)s may be "
            "imported at once."
        )
    else:
        detail = _(
            "The .mat file is too large: it holds %(found)s checker moves (a roll is two, "
            "a double four), at most %(most)s may be imported at once."
        )
    return ValidationFailed(
        "mat_too_large",
        detail % numbers,
        extra={"limit": limit, "max": most, "found": found, "field": "file"},
    )


def mat_check_size(*, size: int, limits: MatLimits = DEFAULT_LIMITS) -> None:
    """Refuse a file of ``size`` bytes over the byte limit (before reading it all)."""
    if limits.bytes is not None and size > limits.bytes:
        raise mat_too_large("bytes", size, limits.bytes)


def match_import_can_any(*, user: Any) -> bool:
    """Whether ``user`` may import a match between any two players: staff and holders of
    ``games.import_any_match``. Anyone else may import only a match they played."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff) or bool(user.has_perm(IMPORT_ANY_PERMISSION))


def _check_name(name: str, field: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise ValidationFailed(
            "invalid_name", _("A player's name is empty."), extra={"field": field}
        )
    limit = Player._meta.get_field("name").max_length
    assert limit is not None
    if len(name) > limit:
        raise ValidationFailed(
            "name_too_long",
            _(
                "The name “%(name)s…” is longer than %(limit)s characters: give a shorter "
                "one for this player."
            )
            % {"name": name[:40], "limit": limit},
            extra={"field": field, "limit": limit},
        )
    try:  # the check of every typed name: invisible, control and direction characters
        return player_name_clean(name=name, max_length=limit)
    except ValidationFailed as exc:
        raise ValidationFailed(exc.code, str(exc.detail), extra={"field": field}) from None


def _insert_actions(rows: Iterable[tuple[int, int, str, int | None, Any]], *, at: Any) -> None:
    """Append ``(game id, seq, kind, player index, data)`` rows to the action log. On
    PostgreSQL one binary COPY: a long file's log is thousands of rows, and building a
    model instance for each (``bulk_create``) took as long as replaying them (measured:
    1.9 s of a 5.7 s import of 19,000 actions; the COPY 0.3 s). Elsewhere (the SQLite of
    the one-command local run) ``bulk_create``."""
    if connection.vendor != "postgresql":
        GameAction.objects.bulk_create(
            (
                GameAction(game_id=g, seq=q, kind=k, player_index=p, data=dict(d))
                for g, q, k, p, d in rows
            ),
            batch_size=2_000,
        )
        return
    table = GameAction._meta.db_table
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(
            f"COPY {table} (game_id, seq, kind, player_index, data, created_at)"
            " FROM STDIN (FORMAT BINARY)"
        ) as copy,
    ):
        copy.set_types(["int8", "int4", "varchar", "int2", "jsonb", "timestamptz"])
        for game_id, seq, kind, player, data in rows:
            copy.write_row((game_id, seq, kind, player, Jsonb(dict(data)), at))


def _player_named(name: str) -> Player:
    existing = Player.objects.annotate(lname=Lower("name")).filter(lname=name.lower()).first()
    return existing or Player.objects.create(name=name)


def match_import_mat(
    *,
    text: str,
    by: Any,
    player1_name: str | None = None,
    player2_name: str | None = None,
    limits: MatLimits = DEFAULT_LIMITS,
    players_for: Callable[[MatOutline], tuple[Player, Player]] | None = None,
) -> Match:
    """Record a match from ``.mat`` text, imported by the user ``by`` (``None``: an
    operator at the command line, who may import any match).

    In order, each refusal storing nothing: the file's size, games and checker moves
    against ``limits`` and the names (at most ``Player.name``'s length) before any move
    is replayed; then who may import it: one of its two players (the user's player is
    one of the names, matched case-insensitively), staff, or a holder of
    ``games.import_any_match`` (403 ``cannot_import_match`` for anyone else); then every
    action is replayed by the engine, the first illegal one refusing the whole file
    (``mat_illegal_action`` and friends, naming the game and move).

    The match is marked as imported (``imported_at``, ``imported_by``) and never rated
    (see :func:`games.ratings.services.rating_record_online`). A match file cut between
    two games resumes: the next game begins with its opening roll, as live play begins
    it, so the players go on here.

    ``players_for``: called with the file's outline before the replay (after the
    limits), it names the file's player 1 and player 2 or refuses the file; for a caller
    that has already decided that ``by`` may record the match (a tournament's directors
    and players: :mod:`tournaments.services.mats`). The names in the file and
    ``player1_name``/``player2_name`` are then not used, nor checked against ``by``.
    """
    if limits.bytes is not None:
        mat_check_size(size=len(text.encode("utf-8")), limits=limits)
    chosen: list[str] = []
    given: list[Player] = []

    def before_replay(outline: MatOutline) -> None:
        if limits.games is not None and outline.games > limits.games:
            raise mat_too_large("games", outline.games, limits.games)
        if limits.moves is not None and outline.moves > limits.moves:
            raise mat_too_large("moves", outline.moves, limits.moves)
        if players_for is not None:
            given.extend(players_for(outline))
            return
        names = (
            _check_name(player1_name or outline.players[0], "player1"),
            _check_name(player2_name or outline.players[1], "player2"),
        )
        if names[0].lower() == names[1].lower():
            raise ValidationFailed("same_player", _("A player cannot play against themselves."))
        if by is not None and not match_import_can_any(user=by):
            me = Player.of_user(by)
            if me is None:
                raise PermissionDenied(
                    "cannot_import_match",
                    _(
                        "You may only import a match you played, and your account is not "
                        "linked to a player of the club."
                    ),
                )
            if me.name.lower() not in (names[0].lower(), names[1].lower()):
                raise PermissionDenied(
                    "cannot_import_match",
                    _(
                        "You may only import a match you played: give your own name "
                        "(%(name)s) as one of the two players."
                    )
                    % {"name": me.name},
                    extra={"field": "player1"},
                )
        chosen.extend(names)

    try:
        record = import_mat(text, before_replay=before_replay)
    except MatError as exc:
        raise ValidationFailed(
            exc.code,
            _("The .mat file was refused: %(reason)s") % {"reason": exc.message},
            extra={"game": exc.game, "move": exc.move},
        ) from None
    if not record.games:
        raise ValidationFailed("mat_invalid", _("The .mat file holds no game."))
    now = timezone.now()
    user = by if getattr(by, "is_authenticated", False) else None
    with transaction.atomic():
        players = (
            (given[0], given[1]) if given else (_player_named(chosen[0]), _player_named(chosen[1]))
        )
        match_state = first_match_state(record.length, record.games[0].score)
        match = Match.objects.create(
            player1=players[0],
            player2=players[1],
            length=record.length,
            rules=engine_actions.options_to_dict(record.options),
            state=engine_actions.match_to_dict(match_state),
            status=Match.Status.PLAYING,
            created_by=user,
            imported_by=user,
            imported_at=now,
            started_at=now,
        )
        rows: list[Game] = []
        for number, game in enumerate(record.games, start=1):
            # The import's replay already reached each game's final state: no second one.
            state = game.final
            assert state is not None
            rows.append(
                Game(
                    match=match,
                    number=number,
                    crawford=match_state.crawford,
                    finished_at=now if state.is_over else None,
                    **game_row_values(state, version=len(game.actions)),
                )
            )
            if state.result is not None:
                match_state = apply_result(match_state, state.result)
        Game.objects.bulk_create(rows)
        _insert_actions(
            (
                (row.pk, seq, a.kind, a.player, a.data)
                for row, game in zip(rows, record.games, strict=True)
                for seq, a in enumerate(game.actions, start=1)
            ),
            at=now,
        )
        match.state = engine_actions.match_to_dict(match_state)
        match.score1, match.score2 = match_state.score
        last_over = record.games[-1].winner is not None
        if match_state.is_over or (record.length == 0 and last_over):
            match.status = Match.Status.FINISHED
            match.finished_at = now
            if match_state.winner is not None:
                match.winner = players[match_state.winner]
        match.save()
        if match.status == Match.Status.PLAYING and last_over:
            # Cut between two games of a match that goes on: begin the next game as live
            # play begins it after a game (its opening roll, R3), so it can be played.
            game_begin_next(match=match, match_state=match_state)
        match_recorded.send(sender=Match, match=match)
    return match
