"""Benchmark: recompute the ratings of 100,000 rated matches (issue 8: goal <= 5 s).

Run from the repository root: ``python bench/ratings.py`` (``--quick``: 10,000 matches).
It is not a test. It talks to nothing but PostgreSQL on 127.0.0.1:5432.

1. Drops and recreates the PostgreSQL database ``bench_ratings`` (trust auth, user
   ``postgres``), migrates it with the production settings (in this process) and seeds
   ``--players`` players and ``--matches`` rated results among them (random pairs,
   lengths 1 to 25, one a minute), written by COPY with their numbers empty, as after an
   import: the first replay computes and writes every row. ``--fillfactor N`` sets the
   ledger table's fillfactor before the seeding instead of the migrations' 50 (to compare).
2. **pure**: :func:`games.engine.rating.replay_cents` (what a replay computes) over the
   results in memory, best of 3: the formula alone; and the same with Decimal ratings
   (:func:`games.engine.rating.replay_numbers`).
3. **full replay, all rows written**: :func:`games.ratings.services.ratings_replay`, as
   ``manage.py ratings_recompute`` runs it: one ordered read of the ledger, the pure
   replay, the rows written back through a binary COPY into a temporary table and one
   ``UPDATE ... FROM``, the players the same way; one transaction, committed.
4. **full replay, nothing to write**: the same again on the consistent ledger (the rows
   are compared, none written): the cost of checking.
5. **first result changed**: the winner of the first result changed and a replay from
   its key, as :func:`games.ratings.services.rating_correct` runs it: most rows rewritten, now
   rows that already had their numbers.
6. **incremental**: ``--records`` results more through :func:`games.ratings.services.rating_record`
   (each its own transaction, as a finished match does), in milliseconds per result.
7. **pages**: one more player with ``--heavy`` results (2,000), then the median of 10
   renders through Django's test client, with their query counts: that player's page
   (first and 40th page of results), the leaderboard of all players (all time and 30
   days) and the API's list of the player's results.

The last line is ``seconds <full replay with all rows written>``.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import sys
import time
from pathlib import Path

import _host  # bench/_host.py: this folder is on sys.path when run as a script

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
DB_NAME = "bench_ratings"
PG_ADMIN_DSN = f"postgresql://postgres@{HOST}:5432/postgres"
DATABASE_URL = f"postgres://postgres@{HOST}:5432/{DB_NAME}"
GOAL_SECONDS = 5.0
LENGTHS = (1, 3, 3, 5, 5, 5, 7, 7, 7, 9, 11, 13, 15, 17, 21, 25)


def setup_django() -> None:
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings.production",
            "DATABASE_URL": DATABASE_URL,
            "REDIS_URL": "redis://127.0.0.1:6379/14",  # required by the settings, not used
            "SECRET_KEY": "bench",
            "ALLOWED_HOSTS": HOST,
            "SECURE_SSL_REDIRECT": "false",
            "EMAIL_HOST": "127.0.0.1",
            "DEFAULT_FROM_EMAIL": "bench@localhost",
            "SITE_URL": f"http://{HOST}",
        }
    )
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def seed(n_players: int, n_matches: int, rng: random.Random) -> list[tuple[int, int, int, int]]:
    """Players and rated results with empty numbers; returns (p1, p2, length, winner 1|2)."""
    import datetime

    from django.db import connection

    from games.models import Player, RatedResult

    players = Player.objects.bulk_create(
        Player(name=f"Bench Player {i:05d}") for i in range(n_players)
    )
    ids = [p.pk for p in players]
    t0 = datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC)
    results = []
    buffer = io.StringIO()
    for i in range(n_matches):
        a, b = rng.sample(ids, 2)
        length, winner = rng.choice(LENGTHS), rng.choice((1, 2))
        results.append((a, b, length, winner))
        at = (t0 + datetime.timedelta(minutes=i)).isoformat()
        buffer.write(
            f"tournament\tbench:{i}\t{a}\t{b}\t{length}\t{a if winner == 1 else b}\t{at}\tt\t{at}\n"
        )
    table = RatedResult._meta.db_table
    with connection.cursor() as cursor:
        with cursor.cursor.copy(
            f"COPY {table} (source, source_key, player1_id, player2_id, length, winner_id,"
            " at, rated, recorded_at) FROM STDIN"
        ) as copy:
            copy.write(buffer.getvalue())
        cursor.execute(f"ANALYZE {table}")
    return results


def pages(heavy: int, ids: list[int], start: object, rng: random.Random) -> None:
    """Render the player page of a player with ``heavy`` results (and the leaderboard, the
    API's results) through Django's test client: median of 10 renders, and the queries."""
    import datetime
    import statistics
    import warnings

    from django.db import connection
    from django.test import Client, override_settings
    from django.test.utils import CaptureQueriesContext

    from games.models import Player, RatedResult
    from games.ratings import services as ratings

    # WhiteNoise warns that collectstatic never ran: the pages here need no static files.
    warnings.filterwarnings("ignore", message="No directory at")
    player = Player.objects.create(name="Bench Heavy Player")
    assert isinstance(start, datetime.datetime)
    RatedResult.objects.bulk_create(
        [
            RatedResult(
                source="club",
                source_key=f"bench-heavy:{i}",
                player1_id=player.pk,
                player2_id=(other := rng.choice(ids)),
                length=rng.choice(LENGTHS),
                winner_id=rng.choice((player.pk, other)),
                at=start + datetime.timedelta(minutes=i),
                rated=True,
            )
            for i in range(heavy)
        ],
        batch_size=2_000,
    )
    ratings.ratings_replay(since=(start, 0))
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    # Plain static storage: the production one needs collectstatic's manifest.
    plain = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    with override_settings(STORAGES=plain, ALLOWED_HOSTS=["testserver"], SECURE_SSL_REDIRECT=False):
        for label, url in (
            (f"player page ({heavy:,} results)", f"/players/{player.pk}/"),
            ("player page, page 40", f"/players/{player.pk}/?page=40"),
            (f"leaderboard ({len(ids) + 1:,} players)", "/ratings/?min_experience=0"),
            ("leaderboard, 30 days", "/ratings/?period=30d&min_experience=0"),
            ("API results (50)", f"/api/v1/players/{player.pk}/results/"),
        ):
            times = []
            for _ in range(10):
                with CaptureQueriesContext(connection) as queries:
                    t = time.perf_counter()
                    response = client.get(url)
                    times.append(time.perf_counter() - t)
                assert response.status_code == 200, (url, response.status_code)
            print(
                f"{label:34} {statistics.median(times) * 1000:7.1f} ms median of 10, "
                f"{len(queries.captured_queries)} queries, {len(response.content) // 1024} kB",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--records", type=int, default=1_000)
    parser.add_argument(
        "--heavy", type=int, default=2_000, help="results of the player whose page is timed"
    )
    parser.add_argument("--quick", action="store_true", help="10,000 matches, 200 records")
    parser.add_argument("--keep-db", action="store_true", help=f"keep {DB_NAME} afterwards")
    parser.add_argument(
        "--fillfactor",
        type=int,
        help="the ledger table's fillfactor for this run instead of the migrations' (to compare)",
    )
    args = parser.parse_args()
    if args.quick:
        args.matches, args.records = 10_000, 200
    _host.warn_if_busy()
    rng = random.Random(8)
    _host.database_recreate(PG_ADMIN_DSN, DB_NAME)
    try:
        setup_django()
        from django.core.management import call_command
        from django.db import connection, transaction

        from games.engine import rating as formula
        from games.models import Player, RatedResult
        from games.ratings import services as ratings

        began = time.perf_counter()
        call_command("migrate", verbosity=0, interactive=False)
        if args.fillfactor:
            with connection.cursor() as cursor:
                cursor.execute(
                    f"ALTER TABLE {RatedResult._meta.db_table}"
                    f" SET (fillfactor = {int(args.fillfactor)})"
                )
        results = seed(args.players, args.matches, rng)
        print(
            f"bench/ratings.py: PostgreSQL {DB_NAME}, {args.players:,} players, "
            f"{args.matches:,} rated results; setup {time.perf_counter() - began:.1f} s",
            flush=True,
        )

        # 2. The formula alone, in memory: what a replay computes (whole cents), and the
        # same with Decimal ratings (the numbers of rate(), for comparison).
        pure = {}
        for name, replay in (("cents", formula.replay_cents), ("Decimal", formula.replay_numbers)):
            best = float("inf")
            for _ in range(3):
                t = time.perf_counter()
                replay(results, {})
                best = min(best, time.perf_counter() - t)
            pure[name] = best
        print(
            f"pure replay          {pure['cents']:7.2f} s  "
            f"({pure['cents'] / len(results) * 1e6:.1f} us per match; with Decimal ratings "
            f"{pure['Decimal']:.2f} s)",
            flush=True,
        )

        def show(label: str, seconds: float, report: ratings.ReplayReport) -> None:
            print(
                f"{label:20} {seconds:7.2f} s  (read {report.read_seconds:.2f}, compute "
                f"{report.compute_seconds:.2f}, write and commit "
                f"{seconds - report.read_seconds - report.compute_seconds:.2f}; "
                f"{report.rows_written:,} rows and {report.players_written:,} players written)",
                flush=True,
            )

        # 3. and 4. The full replay in the database.
        rows = []
        for label in ("full replay, written", "full replay, checked"):
            t = time.perf_counter()
            report = ratings.ratings_replay()
            seconds = time.perf_counter() - t
            rows.append(seconds)
            show(label, seconds, report)
        assert RatedResult.objects.filter(rated=True, rating1_after__isnull=True).count() == 0

        # 5. The first result's winner corrected: a replay from its key rewrites nearly
        # every row, now of full width (rating_correct does the same, in one transaction).
        first = RatedResult.objects.order_by("at", "id").first()
        assert first is not None
        loser = first.player2_id if first.winner_id == first.player1_id else first.player1_id
        t = time.perf_counter()
        with transaction.atomic():
            RatedResult.objects.filter(pk=first.pk).update(winner_id=loser)
            report = ratings.ratings_replay(since=(first.at, first.pk))
        show("first result changed", time.perf_counter() - t, report)

        # 6. Incremental records, each its own transaction.
        import datetime

        ids = list(Player.objects.values_list("pk", flat=True))
        players = {p.pk: p for p in Player.objects.all()}
        after = datetime.datetime(2030, 1, 1, tzinfo=datetime.UTC)
        t = time.perf_counter()
        for i in range(args.records):
            a, b = rng.sample(ids, 2)
            ratings.rating_record(
                source="club",
                source_key=f"bench-more:{i}",
                player1=players[a],
                player2=players[b],
                length=rng.choice(LENGTHS),
                winner=players[rng.choice((a, b))],
                at=after + datetime.timedelta(minutes=i),
            )
        per = (time.perf_counter() - t) / max(args.records, 1) * 1000
        print(f"incremental          {per:7.2f} ms per result ({args.records:,} results)")
        # The incremental results agree with a replay: a check writes nothing.
        check = ratings.ratings_replay()
        assert (check.rows_written, check.players_written) == (0, 0), check

        # 7. The pages on this ledger: a player with --heavy results, the leaderboard.
        pages(args.heavy, ids, after + datetime.timedelta(days=30), rng)
        connection.close()

        verdict = "met" if rows[0] <= GOAL_SECONDS else "NOT met"
        print(
            f"goal (issue 8): recompute {args.matches:,} matches in <= {GOAL_SECONDS:g} s: "
            f"{verdict} ({rows[0]:.2f} s with every row written, {rows[1]:.2f} s checked)"
        )
        print(f"seconds {rows[0]:.3f}")
    finally:
        if not args.keep_db:
            _host.database_drop(PG_ADMIN_DSN, DB_NAME)


if __name__ == "__main__":
    _host.ensure_venv(__file__, "BENCH_RATINGS_VENV")
    main()
