"""Dealer pushes from the floor: assign a dealer to a table, relieve them, or send them to a break.

Every push carries a reason and is recorded (:class:`~tables.models.DealerPush` plus the audit trail of
the assignments it changes). A push that would leave an **open** table without a dealer is refused
with ``code="needs_confirmation"`` naming the table, unless the floor confirms it
(``confirm_uncovered=True``); the confirmed push records the uncovered table. The API's takeover
(``POST /api/v1/dealer-assignments/``) asks the same through :func:`dealer_takeover`.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.errors import ApplicationError
from casino.i18n import gettext_noop
from tables.models import Dealer, DealerAssignment, DealerPush, Table
from tables.services.floor import dealer_assignment_end, dealer_assignment_start

REASON_MAX = 200


def _running(*, dealer: Dealer, at) -> DealerAssignment | None:
    return (DealerAssignment.objects.select_related("table").filter(dealer=dealer, start__lte=at)
            .filter(Q(end__isnull=True) | Q(end__gt=at)).order_by("-start").first())


def _left_uncovered(*, table: Table, at, leaving: Dealer, arriving: Dealer | None = None) -> bool:
    """True if ``table`` is open and, once ``leaving`` goes, nobody (but ``arriving``) deals there at ``at``."""
    if table.status != Table.Status.OPEN or arriving is not None:
        return False
    others = (DealerAssignment.objects.filter(table=table, start__lte=at).exclude(dealer=leaving)
              .filter(Q(end__isnull=True) | Q(end__gt=at)))
    return not others.exists()


def dealer_push(*, dealer: Dealer, kind: str, reason: str, actor, table: Table | None = None,
                confirm_uncovered: bool = False) -> DealerPush:
    """Push ``dealer`` now: ``kind`` ``"assign"`` (to ``table``; the dealer there is relieved), ``"relieve"``
    or ``"break"`` (the dealer's running assignment ends). One transaction; returns the push record.

    Raises ``ApplicationError``: no reason (field ``reason``), an unknown kind, ``assign`` without a table,
    ``relieve``/``break`` of a dealer who is not dealing, and ``code="needs_confirmation"`` (``extra``:
    ``table``, ``table_id``) when the push leaves an open table without a dealer and ``confirm_uncovered``
    is false. Errors of :func:`~tables.services.floor.dealer_assignment_start` pass through.
    """
    reason = (reason or "").strip()
    if not reason:
        raise ApplicationError(_("Give a reason for the push."), extra={"field": "reason"})
    if len(reason) > REASON_MAX:
        raise ApplicationError(_("The reason is too long (at most %(max)s characters).") % {"max": REASON_MAX},
                               extra={"field": "reason"})
    if kind not in DealerPush.Kind.values:
        raise ApplicationError(_("Choose assign, relieve or break."), extra={"field": "kind"})
    if kind == DealerPush.Kind.ASSIGN and table is None:
        raise ApplicationError(_("Choose the table the dealer goes to."), extra={"field": "table"})
    now = timezone.now()
    with transaction.atomic():
        running = _running(dealer=dealer, at=now)
        from_table = running.table if running else None
        uncovered = None
        if kind == DealerPush.Kind.ASSIGN:
            if from_table is not None and from_table.pk != table.pk and _left_uncovered(table=from_table, at=now,
                                                                                          leaving=dealer):
                uncovered = from_table
        else:
            if running is None:
                raise ApplicationError(_("%(dealer)s is not dealing at any table now.") % {"dealer": dealer},
                                       code="not_dealing", extra={"field": "dealer"})
            if _left_uncovered(table=from_table, at=now, leaving=dealer):
                uncovered = from_table
        if uncovered is not None and not confirm_uncovered:
            raise ApplicationError(
                _("This leaves the open table %(table)s without a dealer. Confirm to push anyway, or assign a "
                  "relief dealer first.") % {"table": uncovered.name},
                code="needs_confirmation", extra={"table": uncovered.name, "table_id": uncovered.pk})
        if kind == DealerPush.Kind.ASSIGN:
            if running is not None and running.table_id == table.pk:
                raise ApplicationError(_("%(dealer)s already deals at %(table)s.") % {"dealer": dealer,
                                                                                     "table": table.name},
                                       code="already_there", extra={"field": "table"})
            dealer_assignment_start(dealer=dealer, table=table, actor=actor, at=now, reason=reason)
        else:
            dealer_assignment_end(assignment=running, actor=actor, at=now, reason=reason)
        return DealerPush.objects.create(dealer=dealer, kind=kind, table=table if kind == "assign" else from_table,
                                         from_table=from_table, uncovered_table=uncovered, reason=reason, at=now,
                                         actor=actor)


def dealer_takeover(*, dealer: Dealer, table: Table, actor=None, at: dt.datetime | None = None,
                    end: dt.datetime | None = None, reason: str = "",
                    confirm_uncovered: bool = False) -> DealerAssignment:
    """``dealer`` takes over ``table`` at ``at`` (default now), as
    :func:`~tables.services.floor.dealer_assignment_start`, but first asks the floor's question: if the
    dealer deals at another **open** table at that moment and nobody else covers it, moving them leaves
    it without a dealer.

    Raises ``ApplicationError`` ``code="needs_confirmation"`` (``extra``: ``table``, ``table_id``,
    ``dealer``) naming that table, nothing written, unless ``confirm_uncovered``; the confirmed takeover's
    audit row records ``uncovered_table``. Errors of ``dealer_assignment_start`` pass through.
    """
    at = at or timezone.now()
    with transaction.atomic():
        running = _running(dealer=dealer, at=at)
        uncovered = None
        if (running is not None and running.table_id != table.pk
                and _left_uncovered(table=running.table, at=at, leaving=dealer)):
            uncovered = running.table
        if uncovered is not None and not confirm_uncovered:
            raise ApplicationError(
                gettext_noop("%(dealer)s deals at the open table %(table)s; taking over %(target)s leaves "
                             "%(table)s without a dealer. Send \"confirm_uncovered\": true to move them anyway, "
                             "or put a relief dealer on %(table)s first.",
                             dealer=str(dealer), table=uncovered.name, target=table.name),
                code="needs_confirmation",
                extra={"table": uncovered.name, "table_id": uncovered.pk, "dealer": dealer.pk})
        audit = {"uncovered_table": uncovered.pk} if uncovered is not None else None
        return dealer_assignment_start(dealer=dealer, table=table, actor=actor, at=at, end=end, reason=reason,
                                       audit_data=audit)
