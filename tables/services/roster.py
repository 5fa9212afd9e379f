"""The duty roster's history (issue 20): assignments are live records of who deals; the past is not
rewritten through them. :func:`roster_history_check` refuses a change that would (an assignment wholly in
the past, a running one cut short before now); :func:`duty_correction_record` records a correction of the
past with a reason instead, beside the assignments that hands point to."""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.errors import ApplicationError
from casino.status import audit_record
from tables.models import Dealer, DealerAssignment, DutyCorrection, Table

#: How far before now a takeover or an end may still be dated (terminal clocks, the floor's typing).
ROSTER_CLOCK_TOLERANCE = dt.timedelta(minutes=1)


def _hm(moment: dt.datetime) -> str:
    return timezone.localtime(moment).strftime("%H:%M")


def roster_history_error(message: str) -> ApplicationError:
    """The refusal of a change to the past, pointing to the correction record (400, ``roster_history``)."""
    return ApplicationError(message + " " + _("Correct the past with a duty correction and a reason "
                                              "(POST /api/v1/duty-corrections/)."), code="roster_history")


def roster_history_check(*, start: dt.datetime | None = None, end: dt.datetime | None = None,
                         cuts: DealerAssignment | None = None, now: dt.datetime | None = None) -> None:
    """Raise :func:`roster_history_error` if an assignment ending at ``end`` would lie wholly in the past, or
    if a running assignment ``cuts`` would end at ``start`` (or ``end``) before now (less
    :data:`ROSTER_CLOCK_TOLERANCE`)."""
    now = now or timezone.now()
    earliest = now - ROSTER_CLOCK_TOLERANCE
    if end is not None and cuts is None and end <= earliest:
        raise roster_history_error(_("This assignment would lie wholly in the past (it ends at %(end)s).")
                                   % {"end": _hm(end)})
    moment = start if start is not None else end
    if cuts is not None and moment is not None and moment < earliest:
        raise roster_history_error(
            _("This would cut %(dealer)s's running assignment at %(table)s short at %(at)s, before now.")
            % {"dealer": cuts.dealer, "table": cuts.table, "at": _hm(moment)})


def duty_correction_record(*, dealer: Dealer, table: Table, start: dt.datetime, end: dt.datetime, reason: str,
                           actor, assignment: DealerAssignment | None = None) -> DutyCorrection:
    """Record that ``dealer`` really dealt at ``table`` from ``start`` to ``end`` (a period already over),
    with the ``reason``; audited in the same transaction. No assignment changes.

    Raises :class:`ApplicationError`: no reason, ``end`` not after ``start``, a period not yet over, or an
    ``assignment`` of another table.
    """
    reason = (reason or "").strip()
    if not reason:
        raise ApplicationError(_("give the reason for the correction"), code="reason_required",
                               extra={"field": "reason"})
    if end <= start:
        raise ApplicationError(_("end: the period must end after it starts"), extra={"field": "end"})
    if end > timezone.now():
        raise ApplicationError(_("a duty correction is for the past only: the period must be over (for now and "
                                 "later, a dealer takes over the table)"), extra={"field": "end"})
    if assignment is not None and assignment.table_id != table.pk:
        raise ApplicationError(_("the corrected assignment is at another table"), extra={"field": "assignment"})
    with transaction.atomic():
        correction = DutyCorrection.objects.create(dealer=dealer, table=table, start=start, end=end,
                                                   assignment=assignment, reason=reason, recorded_by=actor)
        audit_record(obj=correction, action="duty_corrected", actor=actor, reason=reason,
                     data={"dealer": dealer.pk, "table": table.pk, "start": start.isoformat(), "end": end.isoformat(),
                           "assignment": assignment.pk if assignment else None})
    return correction
