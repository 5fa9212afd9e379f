"""Suite-wide fixtures: which database and broker the run uses, the CI guard, a real Celery worker.

Outside CI the suite may fall back to SQLite and eager Celery (it says so in the header); in CI
(``CI=true``) a missing PostgreSQL or Redis stops the run with a failure.
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
    return [f"casino: database = {database}", f"casino: broker = {broker}"]


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
