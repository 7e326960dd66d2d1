"""The action log is append-only (R14): on PostgreSQL a trigger refuses UPDATE and
DELETE of its rows, whatever code or SQL tries. SQLite (the local demo run only) has no
such guard; the application never updates or deletes log rows in any case.

TRUNCATE (which the test suite uses to empty tables) fires no row trigger.
"""

from django.db import migrations

CREATE = """
CREATE FUNCTION games_gameaction_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'games_gameaction is append-only: % refused', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_gameaction_append_only
    BEFORE UPDATE OR DELETE ON games_gameaction
    FOR EACH ROW EXECUTE FUNCTION games_gameaction_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS games_gameaction_append_only ON games_gameaction;
DROP FUNCTION IF EXISTS games_gameaction_append_only();
"""


def _on_postgresql(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)  # the SQL holds a literal %

    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0002_matches_games_action_log")]

    operations = [migrations.RunPython(_on_postgresql(CREATE), _on_postgresql(DROP))]
