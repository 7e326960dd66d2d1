"""The two statements of a game action, with their SQL and column plans built once per
process: the read of the game with what the action needs of its match and players
(:func:`game_for_action`) and the compare-and-set write of the row with its log rows
(:func:`store_statement`). :mod:`games.play.services` decides the action between them.

Why not the ORM: a move is two round trips, and the work around them was a large part of
a move's own server time. Profiled on ``bench/moves.py``'s moves (CPU per move, Django's
WSGI handler called in one process, bench/README.md): a ``RawQuerySet`` maps its columns to
fields and looks up their converters again on every query (1.05 ms per read, against 0.54
to 0.62 ms for the same SELECT through a cursor, decoded by the same field converters looked
up once), and the write looked up each column's field and assembled its SQL text on every
action. The statements and their results are the same as before; only the work around
them is done once.

On PostgreSQL both go through :func:`statement_cursor`, which binds their parameters on the
server, so that psycopg prepares them once per connection (``prepare_threshold`` in the
settings): planning the read's four-table join took 0.17 ms of the backend's 0.22 ms and
the write's CTE about half of its 0.37 ms (bench/README.md).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any

from django.db import connection, models
from django.db.models.expressions import Col

from games.models import Game, GameAction, Match, Player

#: What a converter is called with, as Django's compiler calls it.
Converter = Callable[[Any, Any, Any], Any]
#: The match's columns the action reads (the rest stays deferred, loaded on access).
MATCH_FIELDS = ("id", "player1_id", "player2_id", "bot_level")


def _converters(
    fields: Iterable[tuple[str, models.Field[Any, Any]]],
) -> list[tuple[int, Col, list[Converter]]]:
    """Per selected column (table alias, field) that needs one, the converters Django's
    compiler applies to its value (``SQLCompiler.get_converters``): the backend's, then
    the field's (a JSON column's text decoded, SQLite's dates parsed)."""
    found = []
    for index, (alias, field) in enumerate(fields):
        col = field.get_col(alias)
        converters = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
        if converters:
            found.append((index, col, converters))
    return found


@cache
def _read_plan(vendor: str) -> tuple[str, list[str], list[tuple[int, Col, list[Converter]]]]:
    """The read's SQL, the game's field names in its column order and the converters,
    per database vendor (the converters are the alias's, alike in every thread)."""
    del vendor  # the cache key: the plan is built from the current connection
    quote = connection.ops.quote_name
    game_fields = list(Game._meta.concrete_fields)
    match_field = Match._meta.get_field
    channels = Player._meta.get_field("notification_channels")
    selected: list[tuple[str, models.Field[Any, Any]]] = [("g", f) for f in game_fields]
    selected += [("m", match_field(name)) for name in MATCH_FIELDS[1:]]
    selected += [("p1", channels), ("p2", channels)]
    columns = ", ".join(f"{alias}.{quote(field.column)}" for alias, field in selected)
    player_table = quote(Player._meta.db_table)
    to_match = quote(Game._meta.get_field("match").column)
    to_player = [quote(match_field(f"player{i}").column) for i in (1, 2)]
    sql = (
        f"SELECT {columns} FROM {quote(Game._meta.db_table)} g"  # noqa: S608 -- names from the models; the id is a parameter
        f" JOIN {quote(Match._meta.db_table)} m ON m.id = g.{to_match}"
        f" JOIN {player_table} p1 ON p1.id = m.{to_player[0]}"
        f" JOIN {player_table} p2 ON p2.id = m.{to_player[1]}"
        " WHERE g.id = %s"
    )
    return sql, [f.attname for f in game_fields], _converters(selected)


def statement_cursor() -> Any:
    """A cursor for the action's statements: on PostgreSQL one that binds its parameters on
    the server, so that psycopg prepares a statement it has run ``prepare_threshold`` times
    on this connection (Django's own cursors bind on the client and are never prepared);
    the default cursor elsewhere. Wrapped as Django wraps its cursors (database errors,
    the query log of tests and debug), after the same connection checks."""
    if connection.vendor != "postgresql":
        return connection.cursor()
    from django.db.backends.postgresql.base import ServerBindingCursor

    connection.close_if_health_check_failed()
    connection.ensure_connection()
    connection.validate_thread_sharing()
    with connection.wrap_database_errors:
        cursor = ServerBindingCursor(connection.connection)
    if connection.queries_logged:
        return connection.make_debug_cursor(cursor)
    return connection.make_cursor(cursor)


def game_for_action(game_id: int) -> Game | None:
    """The game row with its match's players and computer level and both players'
    notification choices (as ``match.notification_channels``, so that a move needs no
    query to learn whether the next player wants a "your turn" notice), in one query;
    ``None`` when there is no such game. The match's other fields stay deferred."""
    sql, names, converters = _read_plan(connection.vendor)
    with statement_cursor() as cursor:
        cursor.execute(sql, [game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for index, col, functions in converters:
        for convert in functions:
            values[index] = convert(values[index], col, connection)
    n = len(names)
    game = Game.from_db(connection.alias, names, values[:n])
    match_id = game.match_id  # type: ignore[attr-defined]
    game.match = Match.from_db(connection.alias, MATCH_FIELDS, [match_id, *values[n : n + 3]])
    game.match.notification_channels = (values[n + 3], values[n + 4])  # type: ignore[attr-defined]
    return game


@cache
def store_statement(columns: tuple[str, ...], rows: int) -> tuple[str, tuple[bool, ...]]:
    """PostgreSQL: the compare-and-set of the game row's ``columns`` with the insert of
    ``rows`` log rows in one statement (``games.play.gamestore.game_store`` says why), and for each
    column whether its value is sent as JSON text. Its parameters: the columns' values,
    the game's id and expected version, the actor's id, the time, then each row's seq,
    kind, player index and data (JSON text)."""
    assignments = []
    is_json = []
    for name in columns:
        field = Game._meta.get_field(name)
        json_column = isinstance(field, models.JSONField)
        cast = "::jsonb" if json_column else ""
        assignments.append(f"{field.column} = %s{cast}")  # type: ignore[union-attr]
        is_json.append(json_column)
    values = ", ".join(["(%s::integer, %s::text, %s::smallint, %s::jsonb)"] * rows)
    sql = (
        f"WITH u AS (UPDATE {Game._meta.db_table} SET {', '.join(assignments)}"  # noqa: S608 -- column names come from the model, values are parameters
        " WHERE id = %s AND version = %s AND NOT is_over RETURNING id)"
        f" INSERT INTO {GameAction._meta.db_table}"
        " (game_id, seq, kind, player_index, actor_id, data, created_at)"
        " SELECT u.id, a.seq, a.kind, a.player_index, %s::bigint, a.data, %s"
        f" FROM u CROSS JOIN (VALUES {values}) AS a (seq, kind, player_index, data)"
        " ORDER BY a.seq RETURNING id"
    )
    return sql, tuple(is_json)


def store_params(values: Mapping[str, Any], is_json: tuple[bool, ...]) -> list[Any]:
    """The columns' parameters of :func:`store_statement`, JSON columns as text."""
    return [
        json.dumps(value) if as_json else value
        for value, as_json in zip(values.values(), is_json, strict=True)
    ]
