"""Writes of the rating ledger: record results, correct or void old ones, replay them.

Terms (see :class:`~games.models.RatedResult` and :mod:`games.engine.rating`, the formula):

* The **ledger** is the table of results, rated or not, in the order of their **key**
  ``(at, id)``. A player's rating and experience (``Player.rating``/``experience``) are
  those after their last rated result, or 1500 and 0 before the first: a cache of the
  ledger, written only by this module.
* **Incremental**: :func:`rating_record` locks both players' rows (in id order), computes
  the change from their current values with :func:`games.engine.rating.rate`, stores the
  row with its calculation and moves both players on: five SQL statements.
* **Replay**: the rated results from a key on are computed again in order, each from the
  values the previous rows left (:func:`games.engine.rating.replay_cents`, in whole
  cents); the rows whose numbers changed and the players they touch are written back in
  bulk. A **full** replay (:func:`ratings_replay`, the ``ratings_recompute`` command)
  starts everyone at 1500/0. A result recorded with a key before a later rated result of
  one of its players, a correction (:func:`rating_correct`) and a void
  (:func:`rating_void`) replay from their key. Both paths run the same pure step of the
  formula on the same stored two-decimal ratings, so they give identical numbers
  (``tests/games/ratings/test_ratings.py`` and ``tests/games/engine/test_rating.py`` check it).

Speed of a replay (issue 8: 100,000 results in at most 5 s; ``bench/ratings.py``): one
read of the ledger that PostgreSQL shapes for Python (ratings as cents, no datetimes),
the formula on integers, and the rows that changed written by a binary COPY and one
``UPDATE ... FROM``. The ledger's table leaves half of each page free (migration
``0009_ratings_fillfactor``), so that most rewritten rows stay on their page and
PostgreSQL skips their index entries (HOT updates): the write is most of a replay.

Locking, on PostgreSQL: every write here first takes a table lock on the ledger, ROW
EXCLUSIVE for an incremental record (they do not block each other; two records of one
player are serialised by the player row locks), SHARE ROW EXCLUSIVE for a replay (one at a
time, and no record meanwhile). The table lock comes before any player lock, so a record
and a replay cannot deadlock. SQLite (the local run) serialises writes anyway.

Which results are rated is decided when they are recorded: the source's setting
(``settings.RATING_SOURCES``) and the caller's ``rated`` (a tournament's
``Event.rated``). Money sessions (length 0) are refused; chouettes never come here.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db import connection, transaction
from django.utils.translation import gettext as _

from games.engine import rating as formula
from games.errors import NotFound, ValidationFailed
from games.models import Match, Player, RatedResult
from games.ratings.sources import is_rated

logger = logging.getLogger(__name__)

Source = RatedResult.Source
#: ``progress(done, total)``: called while a replay computes and writes.
Progress = Callable[[int, int], None]
Key = tuple[datetime, int]
#: A replay computes (and reports progress) this many results at a time.
PROGRESS_STEP = 10_000

#: The columns of a row's calculation, in the order :func:`_numbers` gives them.
CALC_FIELDS = (
    "p_upset",
    "k1",
    "k2",
    "change1",
    "change2",
    "rating1_before",
    "rating1_after",
    "rating2_before",
    "rating2_after",
    "experience1_before",
    "experience1_after",
    "experience2_before",
    "experience2_after",
)


def _numbers(change: formula.RatingChange) -> tuple[Any, ...]:
    a, b = change.player1, change.player2
    return (
        change.p_upset,
        a.k,
        b.k,
        a.change,
        b.change,
        a.rating_before,
        a.rating_after,
        b.rating_before,
        b.rating_after,
        a.experience_before,
        a.experience_after,
        b.experience_before,
        b.experience_after,
    )


def _lock_ledger(*, replay: bool) -> None:
    if connection.vendor == "postgresql":
        mode = "SHARE ROW EXCLUSIVE" if replay else "ROW EXCLUSIVE"
        with connection.cursor() as cursor:
            cursor.execute(f"LOCK TABLE {RatedResult._meta.db_table} IN {mode} MODE")


def check_players(*, player1: Player, player2: Player, winner: Player | None = None) -> None:
    """Two different players, and the winner (when given) one of them."""
    if player1.pk == player2.pk:
        raise ValidationFailed("same_player", _("A player cannot play against themselves."))
    if winner is not None and winner.pk not in (player1.pk, player2.pk):
        raise ValidationFailed("invalid_winner", _("The winner must be one of the players."))


def _check(*, source: str, player1: Player, player2: Player, length: int, winner: Player) -> None:
    if source not in Source.values:
        raise ValidationFailed("invalid_source", _("Unknown source of a result."))
    check_players(player1=player1, player2=player2, winner=winner)
    if isinstance(length, bool) or not isinstance(length, int) or length < 1:
        raise ValidationFailed(
            "not_rated_length", _("Only matches to 1 point or more are rated; money play is not.")
        )


# ====================================================================== incremental
def rating_record(
    *,
    source: str,
    source_key: str,
    player1: Player,
    player2: Player,
    length: int,
    winner: Player,
    at: datetime,
    match: Match | None = None,
    rated: bool = True,
) -> RatedResult:
    """Record a result in the ledger and, when it is rated, move both players' ratings.

    Idempotent on ``source_key``: a key already recorded is left as it is and its row
    returned (to change it, :func:`rating_correct`). ``rated=False`` (e.g. an event that
    is not rated) records it without numbers."""
    _check(source=source, player1=player1, player2=player2, length=length, winner=winner)
    with transaction.atomic():
        # Five statements in all (measured: this runs for every finished match and for
        # 5,000 results in a test): the ledger lock, the player locks, one look at the
        # ledger, the row, one update of both players.
        _lock_ledger(replay=False)
        ids = sorted((player1.pk, player2.pk))
        locked = {
            pk: (r, e)
            for pk, r, e in Player.objects.select_for_update()
            .filter(pk__in=ids)
            .order_by("pk")
            .values_list("pk", "rating", "experience")
        }
        # After the player locks: a concurrent record of the same key held them too.
        recorded, later = _look(source_key, ids, at)
        if recorded:
            return RatedResult.objects.get(source_key=source_key)
        row = RatedResult(
            source=source,
            source_key=source_key,
            match=match,
            player1_id=player1.pk,
            player2_id=player2.pk,
            length=length,
            winner_id=winner.pk,
            at=at,
            rated=is_rated(source, rated),
        )
        if not row.rated:
            row.save(force_insert=True)
            return row
        if later:  # recorded after a later result of one of its players: replay from it
            row.save(force_insert=True)
            _replay(since=(row.at, row.pk))
            row.refresh_from_db()
            return row
        (r1, e1), (r2, e2) = locked[player1.pk], locked[player2.pk]
        change = formula.rate(r1, e1, r2, e2, length=length, winner=row.winner_index)
        for name, value in zip(CALC_FIELDS, _numbers(change), strict=True):
            setattr(row, name, value)
        row.save(force_insert=True)
        _set_two_players(
            (player1.pk, change.player1.rating_after, change.player1.experience_after),
            (player2.pk, change.player2.rating_after, change.player2.experience_after),
        )
        return row


def _look(source_key: str, ids: Sequence[int], at: datetime) -> tuple[bool, bool]:
    """In one query: is ``source_key`` recorded, and has one of the players ``ids`` a
    rated result after ``at``?"""
    table = RatedResult._meta.db_table
    sql = (
        f"SELECT EXISTS (SELECT 1 FROM {table} WHERE source_key = %s), "  # noqa: S608
        f"EXISTS (SELECT 1 FROM {table} WHERE rated AND at > %s"
        " AND (player1_id IN (%s, %s) OR player2_id IN (%s, %s)))"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [source_key, connection.ops.adapt_datetimefield_value(at), *ids, *ids])
        recorded, later = cursor.fetchone()
    return bool(recorded), bool(later)


def _set_two_players(*values: tuple[int, Decimal, int]) -> None:
    """One ``UPDATE`` of two players' ratings and experiences."""
    (a, ra, ea), (b, rb, eb) = values
    decimal = connection.ops.adapt_decimalfield_value
    table = Player._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET"  # noqa: S608 (names from the model, no input)
            " rating = CASE WHEN id = %s THEN %s ELSE %s END,"
            " experience = CASE WHEN id = %s THEN %s ELSE %s END"
            " WHERE id IN (%s, %s)",
            [a, decimal(ra, 7, 2), decimal(rb, 7, 2), a, ea, eb, a, b],
        )


# ====================================================================== corrections
def rating_void(*, source_key: str) -> bool:
    """Take a result out of the ledger (e.g. a tournament result that was reset or became
    a walkover) and replay from where it stood. ``False``: there was none."""
    with transaction.atomic():
        _lock_ledger(replay=True)
        row = RatedResult.objects.filter(source_key=source_key).first()
        if row is None:
            return False
        key, players, rated = (row.at, row.pk), (row.player1_id, row.player2_id), row.rated
        row.delete()
        if rated:
            _replay(since=key, also=players)
        return True


def rating_correct(
    *,
    source_key: str,
    player1: Player,
    player2: Player,
    length: int,
    winner: Player,
    at: datetime | None = None,
    rated: bool | None = None,
    source: str | None = None,
    match: Match | None = None,
) -> RatedResult:
    """Change a recorded result (players, length, winner; ``at`` and ``rated`` when
    given) and replay from the earlier of its old and new place. A key not recorded yet
    is recorded (``source`` and ``at`` are then needed). Nothing changes when the result
    is the same."""
    with transaction.atomic():
        _lock_ledger(replay=True)
        row = RatedResult.objects.filter(source_key=source_key).first()
        if row is None:
            if source is None or at is None:
                raise NotFound("result_not_found", _("There is no such result to correct."))
            return rating_record(
                source=source,
                source_key=source_key,
                player1=player1,
                player2=player2,
                length=length,
                winner=winner,
                at=at,
                match=match,
                rated=True if rated is None else rated,
            )
        _check(source=row.source, player1=player1, player2=player2, length=length, winner=winner)
        new_rated = row.rated if rated is None else is_rated(row.source, rated)
        new_at = row.at if at is None else at
        same = (row.player1_id, row.player2_id, row.length, row.winner_id, row.at, row.rated) == (
            player1.pk,
            player2.pk,
            length,
            winner.pk,
            new_at,
            new_rated,
        )
        if same:
            return row
        old_key, was_rated = (row.at, row.pk), row.rated
        old_players = (row.player1_id, row.player2_id)
        row.player1_id, row.player2_id = player1.pk, player2.pk
        row.length, row.winner_id, row.at, row.rated = length, winner.pk, new_at, new_rated
        if match is not None:
            row.match = match
        for name in CALC_FIELDS:
            setattr(row, name, None)
        row.save()
        if was_rated or new_rated:
            _replay(since=min(old_key, (row.at, row.pk)), also=old_players)
        row.refresh_from_db()
        return row


# ====================================================================== replay
@dataclass(frozen=True)
class ReplayReport:
    """What a replay did: results computed, rows and players written, seconds spent
    (reading, computing, writing)."""

    results: int
    rows_written: int
    players_written: int
    read_seconds: float
    compute_seconds: float
    write_seconds: float


def ratings_replay(*, since: Key | None = None, progress: Progress | None = None) -> ReplayReport:
    """Replay the rated results in order: all of them from 1500/0 (``since=None``), or
    those from the key ``since`` on. One transaction; the ledger is locked meanwhile."""
    with transaction.atomic():
        _lock_ledger(replay=True)
        return _replay(since=since, progress=progress)


def _replay(
    *,
    since: Key | None,
    also: Iterable[int] = (),
    progress: Progress | None = None,
) -> ReplayReport:
    """Recompute the rated rows from ``since`` (``None``: all, everyone from 1500/0) and
    write back the rows and players that changed. ``also``: players whose values must
    be set again even if no row from ``since`` on is theirs (those of a row that was
    voided or moved). The caller holds the ledger lock.

    Ratings and changes stay whole cents (integers) from the read to the write
    (:func:`games.engine.rating.replay_cents`, the numbers of
    :func:`~games.engine.rating.rate` exactly): a full replay of 100,000 results would
    otherwise build and compare about a million :class:`~decimal.Decimal` objects."""
    t0 = time.perf_counter()
    start: dict[int, tuple[int, int]] = {}
    todo: list[tuple[Any, ...]] = []
    for values in _ledger_rows(since):
        if values[1]:
            # Before the point: the stored values after it are the start of the replay.
            # (Every rated row before a replay's point is consistent, replays keep it so.)
            start[values[2]] = (values[7], values[11])
            start[values[3]] = (values[9], values[13])
        else:
            todo.append(values)
    t1 = time.perf_counter()
    results = [values[2:6] for values in todo]  # (player1, player2, length, winner)
    state = dict(start)
    computed: list[formula.CentNumbers] = []
    for i in range(0, len(results), PROGRESS_STEP):
        computed += formula.replay_cents(results[i : i + PROGRESS_STEP], state)
        if progress is not None:
            progress(len(computed), len(results))
    updates = [
        (values[0], *numbers)
        for values, numbers in zip(todo, computed, strict=True)
        # Ratings and experiences before and after decide the rest of the calculation.
        if values[6:] != numbers[5:]
    ]
    t2 = time.perf_counter()
    _write_rows(updates)
    touched = {p for r in results for p in r[:2]} | set(also)
    players = _write_players(state, touched, full=since is None)
    t3 = time.perf_counter()
    return ReplayReport(
        results=len(todo),
        rows_written=len(updates),
        players_written=players,
        read_seconds=t1 - t0,
        compute_seconds=t2 - t1,
        write_seconds=t3 - t2,
    )


#: The columns of :data:`CALC_FIELDS` with two decimals (``numeric(7, 2)``): a replay
#: reads, compares and writes them in whole cents.
CENT_FIELDS = frozenset(CALC_FIELDS[3:9])


def _to_cents(value: Decimal | None) -> int | None:
    return None if value is None else int(value.scaleb(2))


def _from_cents(value: int) -> Decimal:
    return Decimal(value).scaleb(-2)


def _ledger_rows(since: Key | None) -> Iterable[tuple[Any, ...]]:
    """The rated rows in the ledger's order, each as (id, before the key ``since``,
    player1, player2, length, winner 1 or 2, then the last eight :data:`CALC_FIELDS`
    with the ratings in whole cents).

    On PostgreSQL one plain query that does the conversions itself: measured on 100,000
    rows, loading the ``at`` of each row as an aware datetime and its ratings as
    Decimals took 0.4 to 0.6 s of the 0.5 to 0.8 s the read cost; integers and booleans
    load in C in a fraction of that. The ORM elsewhere (the local run)."""
    if connection.vendor == "postgresql":
        before, params = "false", []
        if since is not None:
            before = "(at, id) < (%s, %s)"
            params = [connection.ops.adapt_datetimefield_value(since[0]), since[1]]
        calc = ", ".join(
            f"({name} * 100)::integer" if name in CENT_FIELDS else name for name in CALC_FIELDS[5:]
        )
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT id, {before}, player1_id, player2_id, length,"  # noqa: S608
                f" CASE WHEN winner_id = player1_id THEN 1 ELSE 2 END, {calc}"
                f" FROM {RatedResult._meta.db_table} WHERE rated ORDER BY at, id",
                params,
            )
            return cursor.fetchall()
    rows = (
        RatedResult.objects.filter(rated=True)
        .order_by("at", "id")
        .values_list(
            "id", "at", "player1_id", "player2_id", "length", "winner_id", *CALC_FIELDS[5:]
        )
    )
    return (
        (
            pk,
            since is not None and (at, pk) < since,
            p1,
            p2,
            length,
            1 if winner == p1 else 2,
            *map(_to_cents, calc[:4]),
            *calc[4:],
        )
        for pk, at, p1, p2, length, winner, *calc in rows.iterator(chunk_size=10_000)
    )


def _copy_update(
    table: str,
    columns: Sequence[tuple[str, str]],
    rows: Sequence[Sequence[Any]],
    *,
    cents: Collection[str] = (),
) -> None:
    """PostgreSQL: ``UPDATE table`` by id from ``rows`` (id first, then ``columns``, each a
    (name, PostgreSQL type)) through a temporary table filled by a binary COPY: five
    statements for any number of rows. The columns named in ``cents`` come as whole
    cents (``int4``) and are set to a hundredth of that, exactly.

    Measured on 100,000 rows: a binary COPY (psycopg writes each row in C) takes 0.1 s
    where building the text took 0.35 s more; analysing the id alone (all the join
    needs to be a hash join) 0.02 s where the whole table took 0.1 to 0.3 s."""
    names = [name for name, _type in columns]
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TEMPORARY TABLE rating_replay (id int8, "
            + ", ".join(f"{name} {type_}" for name, type_ in columns)
            + ") ON COMMIT DROP"
        )
        with cursor.cursor.copy("COPY rating_replay FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(["int8", *(type_ for _name, type_ in columns)])
            for row in rows:
                copy.write_row(row)
        cursor.execute("ANALYZE rating_replay (id)")  # its real size: a hash join
        cursor.execute(
            f"UPDATE {table} AS r SET "  # noqa: S608 (names from the models, no input)
            + ", ".join(
                f"{name} = t.{name} * 0.01" if name in cents else f"{name} = t.{name}"
                for name in names
            )
            + " FROM rating_replay AS t WHERE r.id = t.id"
        )
        cursor.execute("DROP TABLE rating_replay")


def _write_rows(updates: Sequence[tuple[Any, ...]]) -> None:
    """Write the calculation of the rows that changed (id, then the
    :class:`~games.engine.rating.CentNumbers`): a binary COPY and one ``UPDATE ... FROM``
    on PostgreSQL, ``bulk_update`` elsewhere."""
    if not updates:
        return
    if connection.vendor == "postgresql":
        types = ["float8"] * 3 + ["int4"] * 10
        _copy_update(
            RatedResult._meta.db_table,
            list(zip(CALC_FIELDS, types, strict=True)),
            updates,
            cents=CENT_FIELDS,
        )
        return
    objs = []
    for values in updates:
        obj = RatedResult(pk=values[0])
        for name, value in zip(CALC_FIELDS, values[1:], strict=True):
            setattr(obj, name, _from_cents(value) if name in CENT_FIELDS else value)
        objs.append(obj)
    RatedResult.objects.bulk_update(objs, CALC_FIELDS, batch_size=2_000)


def _write_players(state: dict[int, tuple[int, int]], touched: set[int], *, full: bool) -> int:
    """Set the ``touched`` players' ratings and experiences to the replay's end
    (``state``, ratings in whole cents; a player not in it is back at 1500/0). A full
    replay puts every player it did not see back to 1500/0 too."""
    initial = (formula.INITIAL_CENTS, formula.INITIAL_EXPERIENCE)
    wanted = {pid: state.get(pid, initial) for pid in touched}
    written = 0
    if full:
        unseen = Player.objects.exclude(pk__in=list(wanted)) if wanted else Player.objects.all()
        start = {"rating": formula.INITIAL_RATING, "experience": formula.INITIAL_EXPERIENCE}
        written += unseen.exclude(**start).update(**start)
    if not wanted:
        return written
    stored = Player.objects.filter(pk__in=list(wanted)).values_list("pk", "rating", "experience")
    changed = [(pk, *wanted[pk]) for pk, r, e in stored if (_to_cents(r), e) != wanted[pk]]
    if connection.vendor == "postgresql":
        if changed:
            _copy_update(
                Player._meta.db_table,
                [("rating", "int4"), ("experience", "int4")],
                changed,
                cents={"rating"},
            )
    else:
        Player.objects.bulk_update(
            [Player(pk=pk, rating=_from_cents(r), experience=e) for pk, r, e in changed],
            ["rating", "experience"],
            batch_size=1_000,
        )
    return written + len(changed)


# ====================================================================== hooks
def rating_record_online(*, match: Match) -> RatedResult | None:
    """Record a finished casual online match (called when it finishes, in the transaction
    of its last move). A money session, or a match played for something else
    (``Match.played_for``, e.g. a tournament, whose app rates it), is not recorded.

    Nor is a match imported from a ``.mat`` file, even one finished here after the
    import (issue 16): the file's games were played, if at all, where nobody here saw
    them, and a player may import a match they played, so rating it would let anyone
    farm rating with invented wins. A result played elsewhere that should count is
    typed in by a director as a club result (games.ratings.club_results).

    Nor is a practice match against the computer (``Match.bot_level``, issue 28): a
    rating measures a member against members."""
    if (
        match.is_money
        or match.played_for
        or match.winner_id is None
        or match.is_imported
        or match.bot_level
    ):
        return None
    winner = match.player1 if match.winner_id == match.player1_id else match.player2
    return rating_record(
        source=Source.ONLINE,
        source_key=f"match:{match.pk}",
        player1=match.player1,
        player2=match.player2,
        length=match.length,
        winner=winner,
        at=match.finished_at or match.created_at,
        match=match,
    )
