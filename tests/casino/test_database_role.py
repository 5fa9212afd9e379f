"""The service's database role owns nothing (issue 20): it reads and writes rows, and the database refuses
it TRUNCATE, ALTER, trigger changes and switching triggers off. Runs where the suite acts as
``DATABASE_APP_ROLE`` (CI: ``casino_app``, see tests/conftest.py); ``migrate`` granted its rights."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import DatabaseError, connection, transaction

from casino.db_roles import app_role_grant

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(not (connection.vendor == "postgresql" and settings.DATABASE_APP_ROLE),
                       reason="the suite acts as the database owner here: set DATABASE_APP_ROLE on PostgreSQL "
                              "(.ci/run does) to run it as the restricted role"),
]

REFUSED = [
    "TRUNCATE accounting_posting",
    "TRUNCATE tables_handevent CASCADE",
    "ALTER TABLE accounting_posting DISABLE TRIGGER accounting_posting_no_update",
    "ALTER TABLE accounting_journalentry DISABLE TRIGGER USER",
    "DROP TRIGGER tables_handevent_no_update ON tables_handevent",
    "ALTER TABLE casino_auditentry ADD COLUMN note text",
    "DROP TABLE accounting_discrepancy",
    "CREATE TABLE intruder (id int)",
    "SET session_replication_role = replica",
    "CREATE OR REPLACE FUNCTION casino_refuse_change() RETURNS trigger AS $$ BEGIN RETURN NEW; END $$ LANGUAGE plpgsql",
]


def test_the_suite_acts_as_the_application_role():
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user")
        assert cursor.fetchone() == (settings.DATABASE_APP_ROLE, False)
        cursor.execute("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tableowner = current_user")
        assert cursor.fetchone()[0] == 0  # owns no table


@pytest.mark.parametrize("statement", REFUSED)
def test_the_application_role_may_not(statement):
    with pytest.raises(DatabaseError, match="permission denied|must be owner|must be superuser"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(statement)


def test_granting_is_skipped_while_acting_as_the_role():
    assert app_role_grant() is False  # only the owner (migrate) grants
