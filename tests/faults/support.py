"""Real faults for the fault tests: a private ``redis-server`` on its own port (never the shared one on
6379), the Celery app pointed at it, and real worker processes that a test can kill with SIGKILL.

Every process here is started by the test and stopped by its id (never by name).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import redis
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A TCP port nobody listens on right now (asked from the kernel)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PrivateRedis:
    """A throwaway ``redis-server`` on its own port: ``start()``, ``stop()``, ``url``, ``client()``."""

    def __init__(self, workdir: Path):
        self.port = free_port()
        self.workdir = workdir
        self.proc: subprocess.Popen | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.workdir)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(redis.exceptions.ConnectionError):
                if self.client().ping():
                    return
            time.sleep(0.05)
        raise RuntimeError(f"redis-server on port {self.port} did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        self.proc = None

    def client(self) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=1)


@contextlib.contextmanager
def celery_app_on(broker_url: str):
    """Point this process's Celery app at ``broker_url`` (not eager) for the block; restore it after (once the
    reconciliation tasks of the hands closed in the block are published there)."""
    from accounting.tasks import reconcile_publish_wait
    from casino.celery import app

    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}

    def reset_pools() -> None:
        # Drop the connection pool only: ``app.close()`` would also take the project's app out of Celery's
        # active apps, and a shared task imported afterwards (``casino.ping``) would then never register.
        app._pool = None
        with contextlib.suppress(AttributeError, KeyError):
            app.__dict__["amqp"]._producer_pool = None

    reset_pools()
    app.conf.update(broker_url=broker_url, task_always_eager=False)
    try:
        yield app
    finally:
        reconcile_publish_wait()
        reset_pools()
        app.conf.update(**saved)


def database_url() -> str:
    """The URL of the database this test process uses (the test database), for a worker process."""
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class Worker:
    """A real ``celery worker`` process (own session, so its pool children can be killed with it)."""

    def __init__(self, *, broker_url: str, name: str, log: Path, beat_schedule: Path | None = None,
                 env: dict[str, str] | None = None):
        command = [sys.executable, "-m", "celery", "-A", "casino", "worker", "--pool=prefork", "--concurrency=1",
                   "--loglevel=INFO", "--without-gossip", "--without-mingle", "--without-heartbeat", "-n", name]
        if beat_schedule is not None:
            command += ["--beat", "--schedule", str(beat_schedule)]
        role = connection.settings_dict.get("OPTIONS", {}).get("assume_role") or ""
        environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "casino.settings_test", "REDIS_URL": broker_url,
                       "DATABASE_URL": database_url(), "DATABASE_ASSUME_ROLE": role, "CONN_MAX_AGE": "0",
                       **(env or {})}
        self.log = log
        self.proc = subprocess.Popen(command, cwd=ROOT, env=environment, stdout=log.open("ab"),
                                     stderr=subprocess.STDOUT, start_new_session=True)

    def children(self) -> list[int]:
        """Process ids of the worker's pool children (read from /proc)."""
        out = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, IndexError, ValueError):
                fields = stat.read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == self.proc.pid:
                    out.append(int(stat.parent.name))
        return out

    def kill_child(self) -> int:
        """SIGKILL one pool child (the process running the tasks); return its id."""
        deadline = time.monotonic() + 10
        while not (children := self.children()):
            if time.monotonic() > deadline:
                raise RuntimeError("the worker has no pool child")
            time.sleep(0.05)
        os.kill(children[0], signal.SIGKILL)
        return children[0]

    def kill(self) -> None:
        """SIGKILL the worker and its children (its whole process group, which this test started)."""
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)


def postgres_or_reason() -> str | None:
    """None when worker processes can share the test database (PostgreSQL), else why not."""
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        return "a worker process needs the test database on PostgreSQL (SQLite's test database is in memory)"
    return None
