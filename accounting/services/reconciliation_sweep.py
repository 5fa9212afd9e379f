"""The reconciliation sweep: closed hands whose reconciliation is due and that no task took.

DESIGN.md "accounting/": a hand's "reconciliation due" state (``Hand.reconciliation = awaiting``) is
written in the transaction that closes or voids it; the per-hand task normally reconciles it within
seconds. A broker outage at that moment, or a worker host lost with its unacknowledged messages,
leaves the hand ``awaiting``: Celery beat runs this sweep every ``RECONCILE_SWEEP_INTERVAL`` seconds
and it reconciles every closed or void hand due for longer than ``RECONCILE_SWEEP_AFTER`` seconds
(default 60). :func:`accounting.services.reconciliation.hand_reconcile` locks the hand and keys its
run by what it checks, so a hand reached by the task and the sweep at once is reconciled once.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.utils import timezone

from tables.models import Hand

logger = logging.getLogger(__name__)

#: Hands per sweep run (the next run takes the rest).
SWEEP_LIMIT = 500
#: Hands per transaction of the sweep (one batch read and written together).
SWEEP_BATCH = 100
#: Reconciliation states meaning "due and not done" (``not_due`` only on hands closed before the sweep existed).
DUE_STATES = (Hand.Reconciliation.AWAITING, Hand.Reconciliation.NOT_DUE)


def reconciliation_due_hands(*, older_than: dt.timedelta, limit: int = SWEEP_LIMIT) -> list[int]:
    """Ids of closed or void hands closed more than ``older_than`` ago and not reconciled, oldest first."""
    cutoff = timezone.now() - older_than
    return list(Hand.objects.filter(status__in=(Hand.Status.CLOSED, Hand.Status.VOID), reconciliation__in=DUE_STATES,
                                    closed_at__lte=cutoff).order_by("closed_at", "id").values_list("id", flat=True)[:limit])


def reconciliation_sweep(*, older_than: dt.timedelta | None = None, limit: int = SWEEP_LIMIT,
                         batch: int = SWEEP_BATCH) -> dict:
    """Reconcile the hands :func:`reconciliation_due_hands` finds; return ``{"due", "reconciled", "failed"}``.

    ``older_than`` defaults to ``settings.RECONCILE_SWEEP_AFTER`` seconds. The hands are checked
    ``batch`` at a time, each batch one transaction
    (:func:`~accounting.services.reconciliation.hands_reconcile`); when a batch fails, its hands are
    tried again one by one (:func:`~accounting.services.reconciliation.hand_reconcile`, each its own
    transaction): a hand that fails is logged and left due (the next sweep tries again), the others go on.
    """
    from accounting.services.reconciliation import hand_reconcile, hands_reconcile

    if older_than is None:
        older_than = dt.timedelta(seconds=settings.RECONCILE_SWEEP_AFTER)
    due = reconciliation_due_hands(older_than=older_than, limit=limit)
    done = failed = 0
    for start in range(0, len(due), batch):
        part = due[start:start + batch]
        try:
            hands_reconcile(hand_ids=part)
            done += len(part)
            continue
        except Exception:
            logger.warning("sweep: a batch of %s hands failed; trying them one by one", len(part), exc_info=True)
        for hand_id in part:
            try:
                hand_reconcile(hand_id=hand_id)
                done += 1
            except Exception:
                failed += 1
                logger.exception("sweep: reconciliation of hand %s failed; it stays due", hand_id)
    if due:
        logger.info("sweep: %s hands due, %s reconciled, %s failed", len(due), done, failed)
    return {"due": len(due), "reconciled": done, "failed": failed}
