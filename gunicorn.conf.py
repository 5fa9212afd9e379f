"""gunicorn's settings for the web processes (read by ``gunicorn casino.wsgi`` run from this folder).

gunicorn loads ``./gunicorn.conf.py`` by default; flags on the command line override each value here,
``WEB_CONCURRENCY`` sets the number of worker processes and ``WEB_THREADS`` their request threads.

Defaults (issue 19, measured with ``bench/api_load.py --croupiers 250 --think 3`` on a 2-core machine):

- ``gthread`` workers, two per core, two request threads each (``WEB_THREADS``), and connections kept open
  30 s between a tablet's actions (a croupier logs one every few seconds; a new connection per action costs
  the worker more). A kept connection stays with the worker that accepted it, so a second thread lets a
  worker serve one tablet while another's request waits for the database or for the GIL. One thread per
  worker was tried (runs of 40 s alternated with two threads, 2026-12-07): p99 35-47 ms against 46-57 ms
  while the machine was fast, but 84-111 ms against 50-72 ms once it was slow; two threads stay.
- Each worker's interpreter hands the GIL to a waiting thread after 0.5 ms instead of Python's 5 ms
  (``WEB_SWITCH_INTERVAL_MS``): a worker runs its request threads and the thread that publishes
  reconciliation tasks after a close. Same run, same offered load: p50 11.9 ms and p99 106.5 ms with 5 ms;
  p50 6.0 ms and p99 25.2 ms with 0.5 ms; web CPU per action unchanged (4.60 and 4.73 ms).
"""

import os
import sys


def _at_least_one(name: str, default: int) -> int:
    """The environment variable ``name`` as a whole number of at least 1, ``default`` when unset or empty.

    Raises ValueError naming the variable otherwise (gunicorn then stops at start with that message)."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise ValueError(f"{name} must be a whole number of at least 1, not {text!r}")
    return int(text)


worker_class = "gthread"
workers = _at_least_one("WEB_CONCURRENCY", 2 * (os.cpu_count() or 1))
threads = _at_least_one("WEB_THREADS", 2)
keepalive = 30

#: Seconds after which a thread waiting for the GIL asks the running one to let go (Python's default: 0.005).
SWITCH_INTERVAL = float(os.environ.get("WEB_SWITCH_INTERVAL_MS", "0.5")) / 1000


def post_fork(server, worker) -> None:
    """gunicorn hook, in each worker process after it is forked: set the GIL switch interval (module docstring).

    Raises ValueError at start-up when ``WEB_SWITCH_INTERVAL_MS`` is not a positive number of milliseconds.
    """
    sys.setswitchinterval(SWITCH_INTERVAL)
