"""Jobs run side by side in threads of one process, each thread with its own database connection (issue 19).

The reconciliation's database work (reading a part's rows, hashing a day's rows inside PostgreSQL) waits
on the server; a second thread with its own connection keeps the process, or a second server process,
busy meanwhile. Inside a transaction (e.g. a test) the jobs run one after the other in the caller's
connection instead: other connections would not see its rows.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

from django.db import connection

T = TypeVar("T")


def run_in_threads(jobs: Sequence[Callable[[], T]], threads: int, *, name: str = "reconcile") -> list[T]:
    """Run ``jobs`` with ``threads`` threads taking them in turn; return their results in the jobs' order.

    Each thread uses its own connection and closes it when the queue is empty. The first error stops
    the threads (no new job is taken) and is raised here once they have all ended. With one thread, one
    job, or inside the caller's transaction, the jobs run here in order.
    """
    if threads <= 1 or len(jobs) <= 1 or connection.in_atomic_block:
        return [job() for job in jobs]
    todo: queue.SimpleQueue[tuple[int, Callable[[], T]]] = queue.SimpleQueue()
    for item in enumerate(jobs):
        todo.put(item)
    results: list[T | None] = [None] * len(jobs)
    errors: list[BaseException] = []

    def work() -> None:
        try:
            while not errors:
                try:
                    index, job = todo.get_nowait()
                except queue.Empty:
                    return
                results[index] = job()
        except BaseException as exc:  # noqa: BLE001 - handed to the calling thread
            errors.append(exc)
        finally:
            connection.close()  # this thread's own connection

    workers = [threading.Thread(target=work, name=f"{name}-{i}") for i in range(min(threads, len(jobs)))]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if errors:
        raise errors[0]
    return results  # type: ignore[return-value]
