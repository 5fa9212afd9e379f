"""Shared pieces of the benches: a throwaway PostgreSQL database and fast bulk loading (the accounting benches),
the host's stolen CPU and the cores' speed while a phase runs (the load benches) and the best CPU time of repeated
passes (the replay benches).

``bench_database()`` creates ``casino_bench_<name>_<pid>`` on the server of ``DATABASE_URL`` (which
must point at PostgreSQL), points Django at it, migrates, yields, and drops it at the end.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _admin_url(url: str) -> str:
    parts = urlparse(url)
    return urlunparse(parts._replace(path="/postgres"))


@contextlib.contextmanager
def bench_database(name: str):
    """Create, migrate, yield and finally drop a database for one bench run."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        print(f"skipped bench/{name}.py: it needs DATABASE_URL pointing at a PostgreSQL server "
              "(postgres://user@host:port/db); it creates its own database there and drops it afterwards")
        sys.exit(0)
    import psycopg

    db_name = f"casino_bench_{name}_{os.getpid()}"
    admin = _admin_url(url)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{db_name}"')
        conn.execute(f'CREATE DATABASE "{db_name}"')
    os.environ["DATABASE_URL"] = urlunparse(urlparse(url)._replace(path=f"/{db_name}"))
    os.environ.pop("REDIS_URL", None)  # Celery eager: the bench calls the services directly
    os.environ["DEBUG"] = "false"      # no query log in memory
    os.environ.setdefault("SECRET_KEY", "bench-only-secret-key")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    try:
        import django

        django.setup()
        from django.core.management import call_command

        started = time.perf_counter()
        call_command("migrate", verbosity=0)
        print(f"database {db_name} created and migrated in {time.perf_counter() - started:.1f} s")
        yield db_name
    finally:
        with contextlib.suppress(Exception):
            from django.db import connections

            connections.close_all()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')
        print(f"database {db_name} dropped")


def copy_rows(cursor, table: str, columns: list[str], rows) -> int:
    """``COPY table (columns) FROM STDIN`` the given row tuples; returns the row count."""
    count = 0
    with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
            count += 1
    return count


def set_sequences(cursor, tables: list[str]) -> None:
    """Move each table's id sequence past the ids written by COPY."""
    for table in tables:
        cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 1)) FROM {table}")


def peak_rss_mb() -> float:
    """Peak resident memory of this process in MB (Linux ru_maxrss is in KB)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def backend_cpu_counter():
    """Count the CPU seconds of the PostgreSQL backends serving this process (the server on this host, read
    from /proc): each connection's backend is read as it closes, the open ones when the returned function is
    called, which returns the total (None when the backends cannot be read, e.g. a server on another host)."""
    import threading

    from django.db import connection
    from django.db.backends.postgresql.base import DatabaseWrapper

    tick = os.sysconf("SC_CLK_TCK")
    lock = threading.Lock()
    total = [0.0]
    unreadable = [False]

    def read(wrapper) -> float:
        raw = wrapper.connection
        if raw is None or raw.closed:
            return 0.0
        try:
            with open(f"/proc/{raw.info.backend_pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            unreadable[0] = True
            return 0.0
        return (int(fields[11]) + int(fields[12])) / tick

    real_close = DatabaseWrapper.close

    def close(self):
        seconds = read(self)
        with lock:
            total[0] += seconds
        return real_close(self)

    DatabaseWrapper.close = close
    connection.ensure_connection()  # this thread's backend, read at the end
    baseline = read(connection)

    def counted() -> float | None:
        return None if unreadable[0] else total[0] + read(connection) - baseline

    return counted


def host_cpu_mark() -> tuple[int, int] | None:
    """``(steal, total)`` CPU ticks of the whole host so far (Linux ``/proc/stat``), or None where unreadable.

    Steal is the time the hypervisor gave this VM's virtual CPUs to someone else: on a shared host the same
    code then runs slower, so every phase's figures are printed with the share stolen while it ran."""
    try:
        with open("/proc/stat") as stat:
            fields = [int(x) for x in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    steal = fields[7] if len(fields) > 7 else 0
    return steal, sum(fields[:8])


def steal_text(before: tuple[int, int] | None, after: tuple[int, int] | None) -> str:
    """``"host CPU stolen 3 %"`` between two :func:`host_cpu_mark` readings ("" when either is missing)."""
    if before is None or after is None or after[1] <= before[1]:
        return ""
    return f"host CPU stolen {(after[0] - before[0]) / (after[1] - before[1]) * 100:.0f} %"


def steal_meter():
    """Start measuring the host's stolen CPU share; the returned function gives :func:`steal_text` since then."""
    before = host_cpu_mark()
    return lambda: steal_text(before, host_cpu_mark())


#: The probe of :class:`SpeedProbe`, run by a separate interpreter: a fixed piece of pure Python timed by its own CPU
#: time (so waiting for a core is not counted, only how fast a core runs it), one line of milliseconds each time.
_PROBE = """
import sys, time
interval = float(sys.argv[1])
while True:
    start, total = time.thread_time(), 0
    for i in range(60000):
        total += i * i % 7
    print(f"{(time.thread_time() - start) * 1000:.3f}", flush=True)
    time.sleep(interval)
"""


class SpeedProbe:
    """How fast this machine's cores ran while a phase ran: a separate process times a fixed piece of pure Python
    (about 5 ms of CPU on a quiet core) every ``interval`` seconds, by its own CPU time.

    On a shared host the same code runs at different speeds from one second to the next (seen here on an idle
    machine: this probe took 5.5 ms or 9-10 ms, alternating, with no CPU reported stolen), so every phase's figures are printed with
    the probe's times: a slow phase on a slow machine reads as such. Costs about 0.5 % of one core.
    Use as a context manager; :meth:`text` afterwards."""

    def __init__(self, interval: float = 1.0) -> None:
        self.interval = interval
        self.samples: list[float] = []
        self._proc = None
        self._reader = None

    def __enter__(self) -> SpeedProbe:
        import subprocess
        import threading

        self._proc = subprocess.Popen([sys.executable, "-c", _PROBE, str(self.interval)], stdout=subprocess.PIPE,
                                      text=True, start_new_session=True)
        self._reader = threading.Thread(target=self._read, name="speed-probe", daemon=True)
        self._reader.start()
        return self

    def _read(self) -> None:
        for line in self._proc.stdout:
            try:
                self.samples.append(float(line))
            except ValueError:
                continue

    def __exit__(self, *exc) -> None:
        processes_stop([self._proc], timeout=5)
        self._reader.join(timeout=5)
        if not self._reader.is_alive():  # the pipe's end read to EOF: close it (else one open descriptor per phase)
            self._proc.stdout.close()

    def text(self) -> str:
        """``"core speed: probe p50 5.9 ms (fastest 5.1, slowest 8.0; 40 probes)"``, or "" without a probe."""
        if not self.samples:
            return ""
        ordered = sorted(self.samples)
        return (f"core speed: probe p50 {ordered[len(ordered) // 2]:.1f} ms (fastest {ordered[0]:.1f}, slowest "
                f"{ordered[-1]:.1f}; {len(ordered)} probes; lower is faster)")


def best_cpu(fn, items, rounds: int, *, before_pass=None) -> float:
    """Best CPU seconds of this process (``time.process_time``) over ``rounds`` passes of ``fn`` over ``items``;
    ``before_pass`` (if given) runs before each pass, outside the timing (e.g. to empty a cache)."""
    best = float("inf")
    for _ in range(rounds):
        if before_pass is not None:
            before_pass()
        start = time.process_time()
        for item in items:
            fn(item)
        best = min(best, time.process_time() - start)
    return best


def processes_stop(procs, *, timeout: float = 20.0) -> None:
    """Stop the benchmark's own child processes ``procs`` (``subprocess.Popen``, each started in a session of its
    own): SIGTERM to each one's process group, then wait up to ``timeout`` seconds each, SIGKILL for any still
    running."""
    import signal
    import subprocess

    for proc in procs:
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
    for proc in procs:
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
