"""Celery tasks of the accounting app: thin, named, idempotent (STYLE.md rule 8).

Each takes an id or an ISO date, re-fetches, and calls one service; running a task twice, or two at
once, gives one result because the services claim their work (row locks, unique run keys, conditional
updates). The reconciliation tasks are therefore acknowledged late and rejected (requeued) when the
worker process running them dies (``acks_late`` + ``reject_on_worker_lost``): a killed worker loses
nothing, the message goes back to the queue. What no task took (a broker outage while a hand closed,
a whole worker host gone with its unacknowledged messages) the periodic sweep finds
(:func:`reconcile_sweep`, every ``RECONCILE_SWEEP_INTERVAL`` seconds by Celery beat).

A hand is enqueued with :func:`reconcile_hand_enqueue` from the hand-closing transaction: the hand's
"reconciliation due" state (``awaiting``) is written in that transaction, and the publish after commit
never fails the croupier's request (a broker outage is logged; the sweep reconciles the hand). With a
broker the publish runs on a background thread of the process (:class:`_Publisher`), so the croupier's
answer does not wait for it (about a millisecond of Python and a round trip to Redis, or the broker's
connection timeout while Redis is down; issue 19).
"""

from __future__ import annotations

import atexit
import datetime as dt
import functools
import logging
import os
import queue
import threading
import time

from celery import shared_task
from django.db import transaction

logger = logging.getLogger(__name__)

#: Options of the idempotent tasks: late acknowledgement, requeued if the worker process dies mid-run.
IDEMPOTENT = {"acks_late": True, "reject_on_worker_lost": True}


@shared_task(name="accounting.reconcile_hand", soft_time_limit=50, time_limit=60, **IDEMPOTENT)
def reconcile_hand(hand_id: int) -> str | None:
    """Replay a closed hand and compare it with its ledger entry; returns the run status (None if still open)."""
    from accounting.services.reconciliation import hand_reconcile

    run = hand_reconcile(hand_id=int(hand_id))
    return run.status if run else None


@shared_task(name="accounting.reconcile_gaming_day", bind=True, soft_time_limit=1700, time_limit=1800, **IDEMPOTENT)
def reconcile_gaming_day(self, day: str | None = None, run_id: int | None = None, chunk: int | None = None) -> dict:
    """Reconcile a gaming day (ISO date; default: the previous gaming day, for the beat schedule); with
    ``run_id``, the run an accountant's request claimed (``gaming_day_reconcile_request``); ``chunk``:
    hands per part (default ``DAY_CHUNK``).

    Claims the day's run, then fans its parts out (``gaming_day_parts``: hand id ranges and ledger-chain
    windows) as :func:`reconcile_day_part` tasks that every worker takes from the queue side by side; a
    chord runs :func:`reconcile_day_finish` when all are done. Run eagerly (no broker, or ``apply()``)
    the parts run here one after the other. Returns the run as it stands (finished when run eagerly;
    ``running`` while the parts are still queued on workers).
    """
    from celery import chord

    from accounting.models import ReconciliationRun
    from accounting.services.reconciliation import (
        gaming_day_claim,
        gaming_day_parts,
        gaming_day_reconcile,
        previous_gaming_day,
    )

    target = dt.date.fromisoformat(day) if day else previous_gaming_day()
    size = {"chunk": int(chunk)} if chunk else {}
    if self.request.is_eager:
        run = gaming_day_reconcile(day=target, run_id=int(run_id) if run_id is not None else None, **size)
        return {"day": target.isoformat(), "run": run.pk, "status": run.status, "key": run.key,
                "summary": run.summary}
    run, owned = gaming_day_claim(day=target, run_id=int(run_id) if run_id is not None else None)
    if owned:
        parts = gaming_day_parts(day=target, **size)
        chord([reconcile_day_part.si(target.isoformat(), run.pk, part.kind, part.after_id, part.through_id)
               for part in parts])(reconcile_day_finish.s(target.isoformat(), run.pk))
        run = ReconciliationRun.objects.get(pk=run.pk)
    return {"day": target.isoformat(), "run": run.pk, "status": run.status, "key": run.key, "summary": run.summary}


@shared_task(name="accounting.reconcile_day_part", soft_time_limit=250, time_limit=300, **IDEMPOTENT)
def reconcile_day_part(day: str, run_id: int, kind: str, after_id: int, through_id: int | None) -> dict:
    """Check one part of a gaming-day run (a hand id range or a ledger window); returns its counts."""
    from accounting.services.reconciliation import DayPart, gaming_day_part_check

    return gaming_day_part_check(day=dt.date.fromisoformat(day), part=DayPart(kind, int(after_id), through_id),
                                 run_id=int(run_id))


@shared_task(name="accounting.reconcile_day_finish", soft_time_limit=250, time_limit=300, **IDEMPOTENT)
def reconcile_day_finish(parts: list[dict], day: str, run_id: int) -> dict:
    """Close a gaming-day run once its parts are checked (the chord's body); returns the run."""
    from accounting.services.reconciliation import gaming_day_finish

    run = gaming_day_finish(day=dt.date.fromisoformat(day), run_id=int(run_id), parts=parts)
    return {"day": day, "run": run.pk, "status": run.status, "key": run.key, "summary": run.summary}


@shared_task(name="accounting.reconcile_sweep", soft_time_limit=250, time_limit=300, **IDEMPOTENT)
def reconcile_sweep() -> dict:
    """Reconcile closed or void hands whose reconciliation is due for longer than ``RECONCILE_SWEEP_AFTER``."""
    from accounting.services.reconciliation_sweep import reconciliation_sweep

    return reconciliation_sweep()


@shared_task(name="accounting.build_report", acks_late=True, soft_time_limit=1700, time_limit=1800)
def build_report(job_id: int) -> str:
    """Build the file of a queued :class:`~accounting.models.ReportJob`; returns its final status."""
    from accounting.services.reports import report_job_build

    return report_job_build(job_id=int(job_id)).status


def _reconcile_hand_publish(hand_id: int) -> None:
    try:
        # Nobody waits for this result (the run is stored by the service): not asking for it spares the croupier's
        # request the result backend's subscription, and the worker the result's write (issue 19). The arguments'
        # text for the worker's log is given as Celery's saferepr would write it, which spares a third of the
        # publish's Python (issue 19, the close path).
        reconcile_hand.apply_async((hand_id,), retry=False, ignore_result=True, argsrepr=f"({hand_id},)",
                                   kwargsrepr="{}")
    except Exception:  # broker down or the eager run failed: the hand stays awaiting, the sweep takes it
        logger.warning("reconciliation of hand %s not enqueued now; the sweep will take it", hand_id, exc_info=True)


class _Publisher:
    """Publishes the reconciliation tasks of hands closed in this process from one background thread, in the
    order they were handed over; started on first use in each process (a forked worker starts its own).

    It keeps nothing but the hand ids not yet published: a process that dies with some leaves those hands
    ``awaiting`` in the database, where the sweep reconciles them (as after a broker outage)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queue: queue.Queue[int] | None = None
        self._thread: threading.Thread | None = None
        self._pid: int | None = None

    def put(self, hand_id: int) -> None:
        """Hand ``hand_id`` over to the publishing thread (starting it if needed); returns at once."""
        with self._lock:
            if self._pid != os.getpid() or self._thread is None or not self._thread.is_alive():
                self._queue = queue.Queue()
                self._thread = threading.Thread(target=self._run, args=(self._queue,), name="reconcile-publish",
                                                daemon=True)
                self._thread.start()
                self._pid = os.getpid()
            handed = self._queue
        assert handed is not None
        handed.put(hand_id)

    @staticmethod
    def _run(handed: queue.Queue[int]) -> None:
        while True:
            hand_id = handed.get()
            try:
                _reconcile_hand_publish(hand_id)
            finally:
                handed.task_done()

    def wait(self, timeout: float = 10.0) -> bool:
        """Wait until every hand handed over in this process is published (or failed and logged), at most
        ``timeout`` seconds; True if none is left."""
        handed = self._queue if self._pid == os.getpid() else None
        deadline = time.monotonic() + timeout
        while handed is not None and handed.unfinished_tasks and time.monotonic() < deadline:
            time.sleep(0.005)
        return handed is None or not handed.unfinished_tasks


_publisher = _Publisher()
atexit.register(_publisher.wait, 5.0)  # a process stopping normally publishes what it has first


def reconcile_publish_wait(timeout: float = 10.0) -> bool:
    """Wait until the reconciliation tasks of the hands closed so far in this process are published (the
    background thread's backlog; nothing to wait for when tasks run eagerly), at most ``timeout`` seconds;
    returns True when none is left. For tests, and for a process about to stop."""
    return _publisher.wait(timeout)


def _reconcile_hand_hand_over(hand_id: int) -> None:
    if reconcile_hand.app.conf.task_always_eager:  # no broker: the task runs here and now (the first-run default)
        _reconcile_hand_publish(hand_id)
    else:
        _publisher.put(hand_id)


def reconcile_hand_enqueue(hand_id: int) -> None:
    """Enqueue the reconciliation of hand ``hand_id`` when the current transaction commits.

    Call inside the transaction that made the hand due (its ``reconciliation`` set to ``awaiting``).
    Never raises after the commit: if the broker cannot take the task, a warning is logged and the
    periodic sweep reconciles the hand later (the recorded action is not reported as failed). With a
    broker the task is published by this process's background thread (:func:`reconcile_publish_wait`
    waits for it); without one (eager) it runs at the commit.
    """
    transaction.on_commit(functools.partial(_reconcile_hand_hand_over, int(hand_id)), robust=True)
