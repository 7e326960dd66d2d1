"""The rating ledger leaves half of each table page free (PostgreSQL ``fillfactor``).

A replay rewrites the calculation of many rows at once (a full replay: every row). When
the new version of a row fits on the row's own page and no indexed column changed (the
calculation is in no index), PostgreSQL updates it without touching the table's indexes
(a "HOT" update); otherwise each of its six indexes gets an entry for the new version.
Measured on 100,000 rows that had their numbers, all rewritten: the ``UPDATE`` took 2.2
to 2.9 s with full pages, 0.4 s with half of each page free (98 % HOT); the whole
replay of ``bench/ratings.py`` (rows without numbers, as after an import) 2.3 s and 1.5
to 2 s (see ``bench/README.md``). The price is a table twice the size (22 MB and 43 MB
per 100,000 rows); lookups go through the indexes and did not notice, the leaderboard's
scan of the whole ledger measured the same.

The setting applies to pages written from now on: rows already stored move to such
pages as replays rewrite them (or at once with ``VACUUM FULL games_ratedresult``, which
locks the table while it runs). SQLite (the local run) has no such setting.
"""

from django.db import migrations

FILLFACTOR = 50


def _alter(apps, schema_editor, storage):
    if schema_editor.connection.vendor != "postgresql":
        return
    table = schema_editor.quote_name(apps.get_model("games", "RatedResult")._meta.db_table)
    schema_editor.execute(f"ALTER TABLE {table} {storage}")


def set_fillfactor(apps, schema_editor):
    _alter(apps, schema_editor, f"SET (fillfactor = {FILLFACTOR})")


def reset_fillfactor(apps, schema_editor):
    _alter(apps, schema_editor, "RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_ratings"),
    ]

    operations = [
        migrations.RunPython(set_fillfactor, reset_fillfactor),
    ]
