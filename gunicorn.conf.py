"""gunicorn's settings for the web processes (read by ``gunicorn casino.wsgi`` run from this folder).

gunicorn loads ``./gunicorn.conf.py`` by default; flags on the command line override each value here, and
``WEB_CONCURRENCY`` sets the number of worker processes.

Defaults (issue 19, measured with ``bench/api_load.py --croupiers 250 --think 3`` on a 2-core machine):

- ``gthread`` workers, two per core, two threads each, and connections kept open 30 s between a tablet's
  actions (a croupier logs one every few seconds; a new connection per action costs the worker more).
- Each worker's interpreter hands the GIL to a waiting thread after 0.5 ms instead of Python's 5 ms
  (``WEB_SWITCH_INTERVAL_MS``). A worker runs two request threads and the thread that publishes
  reconciliation tasks after a close: with 5 ms, a request whose database answer had arrived waited for
  its sibling's Python up to 5 ms at every statement. Same run, same offered load: p50 11.9 ms and p99
  106.5 ms with 5 ms; p50 6.0 ms and p99 25.2 ms with 0.5 ms; web CPU per action unchanged (4.60 and 4.73 ms).
"""

import os
import sys

worker_class = "gthread"
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * (os.cpu_count() or 1)))
threads = 2
keepalive = 30

#: Seconds after which a thread waiting for the GIL asks the running one to let go (Python's default: 0.005).
SWITCH_INTERVAL = float(os.environ.get("WEB_SWITCH_INTERVAL_MS", "0.5")) / 1000


def post_fork(server, worker) -> None:
    """gunicorn hook, in each worker process after it is forked: set the GIL switch interval (module docstring).

    Raises ValueError at start-up when ``WEB_SWITCH_INTERVAL_MS`` is not a positive number of milliseconds.
    """
    sys.setswitchinterval(SWITCH_INTERVAL)
