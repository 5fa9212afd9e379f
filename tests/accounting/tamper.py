"""Changing rows behind the service's back, as the tamper tests (and an intruder) would.

On PostgreSQL the change runs as the database owner with the triggers switched off for the
transaction (``session_replication_role = replica``): what someone who can bypass the database's
guards could do. If the suite acts as the restricted application role (``DATABASE_APP_ROLE``, see
``tests/conftest.py``), the role is dropped for the change and taken again after it.
"""

from __future__ import annotations

import contextlib

from django.db import connection, transaction


@contextlib.contextmanager
def behind_the_service():
    """A cursor that writes around the service and the database's triggers (PostgreSQL) for the block."""
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor != "postgresql":
            yield cursor
            return
        role = connection.settings_dict.get("OPTIONS", {}).get("assume_role")
        if role:
            cursor.execute("RESET ROLE")
        # What the service wrote was committed before the intruder came: its deferred checks run now, as at COMMIT.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        cursor.execute("SET LOCAL session_replication_role = replica")
        try:
            yield cursor
        finally:
            cursor.execute("SET LOCAL session_replication_role = origin")
            if role:
                cursor.execute(f"SET ROLE {connection.ops.quote_name(role)}")
