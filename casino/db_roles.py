"""The database roles (issue 20): the schema's owner runs the migrations; the service runs as a role
that owns nothing.

The application role (``DATABASE_APP_ROLE``) may read and write rows (SELECT, INSERT, UPDATE, DELETE on
the tables, USAGE on the sequences) and nothing else: it cannot TRUNCATE, ALTER or DROP a table,
create, drop or disable a trigger, or switch triggers off for its session
(``session_replication_role`` needs a superuser). The append-only guards of the ledger, the hands'
events, the audit trail and the accounting records (database triggers, see the migrations) therefore
hold against the service's own credentials.

``manage.py migrate``, run as the owner with ``DATABASE_APP_ROLE`` set, grants these rights after
every migration (:func:`app_role_grant`, a ``post_migrate`` handler), so new tables are covered.
PostgreSQL only; elsewhere nothing happens.
"""

from __future__ import annotations

from django.conf import settings
from django.db import connections

#: Rights of the application role on every table and sequence of the schema.
TABLE_RIGHTS = "SELECT, INSERT, UPDATE, DELETE"
SEQUENCE_RIGHTS = "USAGE, SELECT"


def app_role_grant(*, using: str = "default", role: str | None = None) -> bool:
    """Grant ``role`` (default ``settings.DATABASE_APP_ROLE``) its row rights on the current schema.

    Returns False (and does nothing) off PostgreSQL, without a role, or when the connection already
    acts as a role other than its login (``assume_role``: not the owner, e.g. the test suite after setup).
    Raises ``django.db.Error`` if the role does not exist or the caller does not own the tables.
    """
    role = role if role is not None else getattr(settings, "DATABASE_APP_ROLE", "")
    connection = connections[using]
    if not role or connection.vendor != "postgresql" or connection.settings_dict.get("OPTIONS", {}).get("assume_role"):
        return False
    quoted = connection.ops.quote_name(role)
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_schema()")
        schema = connection.ops.quote_name(cursor.fetchone()[0])
        cursor.execute(f"GRANT USAGE ON SCHEMA {schema} TO {quoted}")
        cursor.execute(f"GRANT {TABLE_RIGHTS} ON ALL TABLES IN SCHEMA {schema} TO {quoted}")
        cursor.execute(f"GRANT {SEQUENCE_RIGHTS} ON ALL SEQUENCES IN SCHEMA {schema} TO {quoted}")
    return True


def grant_after_migrate(sender, using: str = "default", **kwargs) -> None:
    """``post_migrate`` handler: :func:`app_role_grant` on the migrated database."""
    app_role_grant(using=using)
