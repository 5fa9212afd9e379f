"""Suite-wide fixtures: which database and broker the run uses, the CI guard, a real Celery worker,
and the database role the suite acts as.

Outside CI the suite may fall back to SQLite and eager Celery (it says so in the header); in CI
(``CI=true``) a missing PostgreSQL or Redis stops the run with a failure.

The restricted database role (issue 20): with ``DATABASE_APP_ROLE`` set (CI sets ``casino_app``) the
test database is created and migrated as the login user (the owner; ``migrate`` grants the role its
row rights, ``casino/db_roles.py``), and from then on every connection acts as the application role
(``SET ROLE``, Django's ``assume_role``), so the tests run with exactly the service's rights. Two steps
go back to the owner for a moment, by ``RESET ROLE``: emptying the tables after a transactional test
(``TRUNCATE``, which the role may not do) and the tamper tests' changes behind the service's back
(``tests/accounting/tamper.py``).
"""

from __future__ import annotations

import os

import pytest
from django.conf import settings


def _backend_summary() -> tuple[str, str]:
    db = settings.DATABASES["default"]
    vendor = db["ENGINE"].rsplit(".", 1)[-1]
    where = f"{db.get('HOST') or 'local'}:{db.get('PORT') or ''}/{db.get('NAME')}" if vendor != "sqlite3" else str(db["NAME"])
    broker = f"redis ({settings.REDIS_URL})" if settings.REDIS_URL else "eager Celery (no REDIS_URL; fallback)"
    return f"{vendor} at {where}" + ("" if vendor == "postgresql" else " (fallback)"), broker


def pytest_report_header(config):
    database, broker = _backend_summary()
    role = settings.DATABASE_APP_ROLE if settings.DATABASES["default"]["ENGINE"].endswith("postgresql") else ""
    return [f"casino: database = {database}", f"casino: broker = {broker}",
            f"casino: database role = {role or 'the login user (owner); set DATABASE_APP_ROLE to restrict'}"]


def _app_role() -> str:
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        return ""
    return settings.DATABASE_APP_ROLE


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database, created and migrated as the owner; then acting as ``DATABASE_APP_ROLE`` if set."""
    role = _app_role()
    if not role:
        yield
        return
    from django.db import connection

    connection.close()
    connection.settings_dict.setdefault("OPTIONS", {})["assume_role"] = role
    original_flush = connection.ops.execute_sql_flush

    def flush_as_owner(sql_list):
        with connection.cursor() as cursor:
            cursor.execute("RESET ROLE")
        try:
            original_flush(sql_list)
        finally:
            with connection.cursor() as cursor:
                cursor.execute(f"SET ROLE {connection.ops.quote_name(role)}")

    connection.ops.execute_sql_flush = flush_as_owner
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        assert cursor.fetchone()[0] == role
    try:
        yield
    finally:
        connection.settings_dict["OPTIONS"].pop("assume_role", None)
        del connection.ops.execute_sql_flush
        connection.close()


def pytest_sessionstart(session):
    if os.environ.get("CI", "").lower() not in ("1", "true", "yes"):
        return
    problems = []
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        problems.append("DATABASE_URL does not point at PostgreSQL")
    if not settings.REDIS_URL:
        problems.append("REDIS_URL is not set")
    else:
        from casino.views import broker_status

        status = broker_status()
        if not status["ok"]:
            problems.append(f"Redis is not reachable: {status['detail']}")
    if problems:
        pytest.exit("CI=true but " + "; ".join(problems) + " (no fallback in CI)", returncode=3)


def pytest_terminal_summary(terminalreporter):
    database, broker = _backend_summary()
    terminalreporter.write_line(f"casino: ran against database {database}; broker {broker}")


@pytest.fixture
def live_worker(transactional_db):
    """A real Celery worker thread on the Redis broker when ``REDIS_URL`` is set (None when eager).

    Tests using it see committed data only (hence ``transactional_db``); the queue is purged first so
    tasks left by earlier tests do not run here.
    """
    if not settings.REDIS_URL:
        yield None
        return
    from celery.contrib.testing.worker import start_worker

    from casino.celery import app

    app.control.purge()
    with start_worker(app, pool="solo", perform_ping_check=False, loglevel="WARNING", shutdown_timeout=30) as worker:
        yield worker


@pytest.fixture
def role_user(db, django_user_model):
    """Factory: ``role_user("croupier", username="c1")`` makes a user in that role group."""
    from django.contrib.auth.models import Group

    def make(role: str | None, username: str | None = None, **extra):
        name = username or f"{role or 'nobody'}-{django_user_model.objects.count() + 1}"
        user = django_user_model.objects.create_user(username=name, password="pw-for-tests-only", **extra)
        if role:
            user.groups.add(Group.objects.get_or_create(name=role)[0])
        return user

    return make


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture(autouse=True)
def _language_reset():
    """Every test ends in the default language: a request in German activates it for the thread (Django's
    LocaleMiddleware), and a service called directly by the next test would otherwise answer in German."""
    yield
    from django.utils import translation

    translation.deactivate()
