"""Database connections of a real server process (break-test finding: a connection leak under ``make run``).

``runserver`` serves each request on a new thread; with persistent connections (``CONN_MAX_AGE`` 60) the
connection a finished thread kept stayed open until Python's garbage collector found it (Django's
``DatabaseWrapper`` refers to itself through its ``ops``/``features``/``client``...): one idle PostgreSQL
connection per request, refused or not, until the shared server said "too many clients". Under runserver
``casino/settings.py`` now closes each request's connection (``CONN_MAX_AGE`` 0, whatever is set);
gunicorn's worker threads keep their one persistent connection each, refused requests included.

Each test starts the server as a subprocess on the test database (PostgreSQL only: SQLite's test database is
in memory) and counts that database's connections in ``pg_stat_activity``.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.db import connection

from casino.auth import token_issue
from tests.faults.support import database_url, free_port, postgres_or_reason
from tests.tables.hands_support import croupier_on_duty, seats_payload, table_make

ROOT = Path(__file__).resolve().parents[2]
REFUSED = 20

pytestmark = pytest.mark.skipif(postgres_or_reason() is not None, reason=str(postgres_or_reason()))


#: The server's connections name themselves (libpq's application_name, from DATABASE_URL's query), so the count
#: sees only them, not the suite's other connections (a live server's threads, a Celery worker's).
APPLICATION_NAME = f"casino-connection-test-{os.getpid()}"


def _server_connections() -> int:
    """The server process's connections to the test database."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [APPLICATION_NAME])
        return cursor.fetchone()[0]


def _call(port: int, method: str, path: str, token: str, body: dict | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1{path}", method=method,
                                     data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Authorization": f"Token {token}", "Content-Type": "application/json",
                                              "Accept-Language": "en", "Connection": "close"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as refusal:
        return refusal.code, json.loads(refusal.read() or b"{}")


@contextlib.contextmanager
def _server(command: list[str], port: int, log: Path, **env: str):
    role = connection.settings_dict.get("OPTIONS", {}).get("assume_role") or ""
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "casino.settings_test",
                   "DATABASE_URL": f"{database_url()}?application_name={APPLICATION_NAME}",
                   "DATABASE_ASSUME_ROLE": role}
    environment.pop("CONN_MAX_AGE", None)
    environment.update(env)
    proc = subprocess.Popen(command, cwd=ROOT, env=environment, stdout=log.open("ab"), stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health/", timeout=5).close()
                break
            except OSError:  # refused while it starts, or (a busy machine) its first answer outran the 5 s
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not start: {log.read_text()[-2000:]}") from None
                time.sleep(0.2)
        yield proc
    finally:
        if proc.poll() is None:
            proc.terminate()  # our own process, by its id
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
                proc.wait(timeout=10)


def _open_hand(api_client) -> tuple[int, str]:
    """An open stud hand at a fresh table (committed: the server process reads it); the croupier's token."""
    table = table_make(name="Leak 1")
    croupier = croupier_on_duty(table, username="leak-croupier")
    api_client.force_authenticate(croupier)
    answer = api_client.post("/api/v1/hands/", {"table": table.pk, "seats": seats_payload({1: 10000, 2: 10000})},
                             format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()["id"], token_issue(user=croupier).key


def _refuse(port: int, hand: int, token: str) -> None:
    """``REFUSED`` refused requests of three kinds: a stale ``expected_seq``, a refused batch, a bad body."""
    for i in range(REFUSED):
        if i % 3 == 0:
            code, body = _call(port, "POST", f"/hands/{hand}/events/batch/", token,
                               {"idempotency_key": f"leak-b{i}", "events": [{"kind": "fold", "seat": 7}]})
        elif i % 3 == 1:
            code, body = _call(port, "POST", f"/hands/{hand}/events/", token,
                               {"idempotency_key": f"leak-{i}", "expected_seq": 99, "event": {"kind": "ante", "seat": 1}})
        else:
            code, body = _call(port, "POST", "/limit-change-requests/", token, {"table": 999999})
        assert 400 <= code < 500, (code, body)


def _settled_count(at_most: int) -> int:
    """The server's connections once each finished request thread has closed its own (bounded wait: a thread
    closes its connection just after the client has read the answer)."""
    deadline = time.monotonic() + 15
    count = _server_connections()
    while count > at_most and time.monotonic() < deadline:
        time.sleep(0.2)
        count = _server_connections()
    return count


@pytest.mark.slow
def test_runserver_keeps_no_connection_after_refused_requests(transactional_db, api_client, tmp_path):
    hand, token = _open_hand(api_client)
    port = free_port()
    command = [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload", "--skip-checks"]
    # CONN_MAX_AGE as `make run` gets it from a production-like environment: runserver must not honour it.
    with _server(command, port, tmp_path / "runserver.log", CONN_MAX_AGE="60", DEBUG="true"):
        assert _call(port, "GET", f"/hands/{hand}/", token)[0] == 200
        before = _settled_count(at_most=0)
        _refuse(port, hand, token)
        assert _call(port, "GET", f"/hands/{hand}/", token)[0] == 200
        after = _settled_count(at_most=before)
    assert (before, after) == (0, 0), f"runserver kept {after} connection(s) after {REFUSED} refused requests"


@pytest.mark.slow
def test_gunicorn_keeps_one_connection_per_worker_refused_or_not(transactional_db, api_client, tmp_path):
    hand, token = _open_hand(api_client)
    port, workers, threads = free_port(), 2, 2
    # The project's gunicorn.conf.py (gthread) is read as well: each thread keeps its own connection.
    command = [sys.executable, "-m", "gunicorn", "casino.wsgi", "--workers", str(workers), "--threads",
               str(threads), "--bind", f"127.0.0.1:{port}"]
    with _server(command, port, tmp_path / "gunicorn.log", CONN_MAX_AGE="60"):
        for _ in range(6):
            assert _call(port, "GET", f"/hands/{hand}/", token)[0] == 200
        kept = _server_connections()
        _refuse(port, hand, token)
        assert _call(port, "GET", f"/hands/{hand}/", token)[0] == 200
        after = _server_connections()
    # Production keeps its persistent connections (at least one worker answered and kept its own) and
    # a refused request adds none: never more than one per worker thread.
    assert 1 <= kept <= workers * threads
    assert 1 <= after <= workers * threads, (
        f"{after} connections for {workers} gunicorn workers of {threads} threads after {REFUSED} refusals")
