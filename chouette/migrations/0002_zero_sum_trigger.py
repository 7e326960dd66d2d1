"""The database's own guard of R13: the ledger lines of every game sum to zero.

On PostgreSQL a constraint trigger, DEFERRABLE INITIALLY DEFERRED, checks at commit the
sum of the lines of every game whose lines the transaction inserted, updated or deleted,
and raises ``check_violation`` (Django: ``IntegrityError``) when one is not zero. Deferred,
because a game's lines are written one row at a time: only the finished set must balance.

SQLite (the one-command local run) gets nothing: the service's check
(``chouette.services``) is the guard there. The operation is a no-op on other databases
in both directions, so the migration runs everywhere.
"""

from django.db import migrations

FUNCTION = """
CREATE FUNCTION chouette_line_zero_sum() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    total bigint;
BEGIN
    IF TG_OP <> 'INSERT' THEN
        SELECT COALESCE(SUM(points), 0) INTO total
        FROM chouette_chouetteline WHERE event_id = OLD.event_id;
        IF total <> 0 THEN
            RAISE EXCEPTION 'chouette game % does not sum to zero (sum %)', OLD.event_id, total
                USING ERRCODE = 'check_violation';
        END IF;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        SELECT COALESCE(SUM(points), 0) INTO total
        FROM chouette_chouetteline WHERE event_id = NEW.event_id;
        IF total <> 0 THEN
            RAISE EXCEPTION 'chouette game % does not sum to zero (sum %)', NEW.event_id, total
                USING ERRCODE = 'check_violation';
        END IF;
    END IF;
    RETURN NULL;
END;
$$
"""

TRIGGER = """
CREATE CONSTRAINT TRIGGER chouette_line_zero_sum
AFTER INSERT OR UPDATE OR DELETE ON chouette_chouetteline
DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW EXECUTE FUNCTION chouette_line_zero_sum()
"""

# One statement per item: no SQL splitting of the dollar-quoted body.
FORWARD = [FUNCTION, TRIGGER]

REVERSE = [
    "DROP TRIGGER IF EXISTS chouette_line_zero_sum ON chouette_chouetteline",
    "DROP FUNCTION IF EXISTS chouette_line_zero_sum()",
]


class PostgreSQLOnly(migrations.RunSQL):
    """``RunSQL`` that runs on PostgreSQL only (elsewhere: nothing, both ways)."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            super().database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            super().database_backwards(app_label, schema_editor, from_state, to_state)


class Migration(migrations.Migration):
    dependencies = [
        ("chouette", "0001_initial"),
    ]

    operations = [
        PostgreSQLOnly(sql=FORWARD, reverse_sql=REVERSE),
    ]
