"""The test settings' database backend: Django's PostgreSQL backend with a cheaper flush.

A transactional test (a browser test, a test of a worker or a server: anything that
commits) ends with Django's ``flush``, which empties every table. On PostgreSQL Django
does it with one ``TRUNCATE`` of all tables, which gives each table and index new files
and drops their pages from shared buffers: about 0.4 s on this machine for a database a
test left nearly empty, after each of the suite's two hundred such tests. ``DELETE`` of
those few rows takes about 10 ms.

The DELETEs run with ``session_replication_role = replica``, which switches off the
triggers for that transaction: the foreign keys' checks (every table is emptied, so
none is left dangling) and the project's own guards (the action log's append-only
trigger, the chouette ledger's zero-sum check), as TRUNCATE does. Only a superuser may
set it (the CI's ``postgres`` is one); for any other role, and whenever sequences are to
be reset, the flush is Django's own.
"""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base


class DatabaseOperations(base.DatabaseOperations):
    def sql_flush(
        self,
        style: Any,
        tables: Any,
        *,
        reset_sequences: bool = False,
        allow_cascade: bool = False,
    ) -> list[str]:
        if not tables or reset_sequences or not self.connection.is_superuser():
            return super().sql_flush(
                style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        # Django runs the list in one transaction (execute_sql_flush): SET LOCAL holds
        # for exactly these statements.
        return [
            "SET LOCAL session_replication_role = replica",
            *(f"DELETE FROM {self.quote_name(table)}" for table in tables),  # noqa: S608 (table names quoted)
        ]


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
    _superuser: bool | None = None

    def is_superuser(self) -> bool:
        if self._superuser is None:
            with self.cursor() as cursor:
                cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
                row = cursor.fetchone()
            self._superuser = bool(row and row[0])
        return self._superuser
