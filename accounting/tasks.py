"""Celery tasks of the accounting app: thin, named, idempotent (STYLE.md rule 8).

Each takes an id or an ISO date, re-fetches, and calls one service; running a task twice, or two at
once, gives one result because the services claim their work (row locks, unique run keys, conditional
updates). Enqueue with ``reconcile_hand.delay_on_commit(hand.id)`` from the hand-closing service.
"""

from __future__ import annotations

import datetime as dt

from celery import shared_task


@shared_task(name="accounting.reconcile_hand", acks_late=True, soft_time_limit=50, time_limit=60)
def reconcile_hand(hand_id: int) -> str | None:
    """Replay a closed hand and compare it with its ledger entry; returns the run status (None if still open)."""
    from accounting.services.reconciliation import hand_reconcile

    run = hand_reconcile(hand_id=int(hand_id))
    return run.status if run else None


@shared_task(name="accounting.reconcile_gaming_day", acks_late=True, soft_time_limit=1700, time_limit=1800)
def reconcile_gaming_day(day: str | None = None) -> dict:
    """Reconcile a gaming day (ISO date; default: the previous gaming day, for the beat schedule)."""
    from accounting.services.reconciliation import gaming_day_reconcile, previous_gaming_day

    target = dt.date.fromisoformat(day) if day else previous_gaming_day()
    run = gaming_day_reconcile(day=target)
    return {"day": target.isoformat(), "status": run.status, "key": run.key, "summary": run.summary}


@shared_task(name="accounting.build_report", acks_late=True, soft_time_limit=1700, time_limit=1800)
def build_report(job_id: int) -> str:
    """Build the file of a queued :class:`~accounting.models.ReportJob`; returns its final status."""
    from accounting.services.reports import report_job_build

    return report_job_build(job_id=int(job_id)).status
