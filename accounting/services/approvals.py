"""Second-person approvals (issue 17): resolving a discrepancy or reversing an entry above
``FOUR_EYES_APPROVAL_AMOUNT``, and re-opening a closed gaming day.

The first person asks (``*_request``): below the amount the step is done at once; above it (and
always for a re-opening) a pending :class:`~accounting.models.Approval` is written. A second person
decides (:func:`approval_decide`): on approval the step is done in the same transaction, in the name
of the person who asked, and the audit trail names both. The person who asked cannot decide.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounting.models import Approval, Discrepancy, GamingDay, JournalEntry
from accounting.services.four_eyes import accountant_check, approval_amount, second_person_check
from accounting.services.ledger import journal_entry_reverse
from accounting.services.reconciliation import discrepancy_resolve
from casino.errors import ApplicationError, ConflictError
from casino.i18n import APPROVED_BY, local_date_text
from casino.roles import ACCOUNTANT, FLOOR_MANAGER, has_role
from casino.status import audit_record, status_transition
from casino.text_limits import NOTE_MAX_CHARS


def _eur(text: str) -> Decimal | None:
    try:
        value = Decimal(str(text).strip())
    except (InvalidOperation, ValueError):
        return None
    return value if value.is_finite() else None


def discrepancy_amount(discrepancy: Discrepancy) -> Decimal:
    """The money at stake in a discrepancy (EUR): ``|found - expected|`` when both are amounts, else the
    one amount given, else 0.00 (a status finding such as an open hand)."""
    expected, found = _eur(discrepancy.expected), _eur(discrepancy.found)
    if expected is not None and found is not None:
        return abs(found - expected)
    return abs(expected if expected is not None else found if found is not None else Decimal("0.00"))


def entry_amount(entry: JournalEntry) -> Decimal:
    """The size of a journal entry (EUR): the sum of its positive legs."""
    return sum((p.amount for p in entry.postings.all() if p.amount > 0), Decimal("0.00"))


def _note_check(note: str, *, reason: bool = False, limit: int = NOTE_MAX_CHARS) -> None:
    """Refuse a note (or a reason) longer than ``limit`` (:data:`~casino.text_limits.NOTE_MAX_CHARS`) before
    anything is written: the database's check would refuse it too, and its IntegrityError was taken for a pending
    approval."""
    if len(note) > limit:
        message = (_("The reason is too long (at most %(max)s characters).") if reason
                   else _("The note is too long (at most %(max)s characters)."))
        raise ApplicationError(message % {"max": limit}, code="note_too_long")


def _approved_note_limit() -> int:
    """The longest note a request for approval may carry: carried out, it is stored as :data:`APPROVED_BY`
    ("<note> (approved by <user>)") in a column of :data:`NOTE_MAX_CHARS`, with room for the longest username."""
    longest_user = get_user_model()._meta.get_field("username").max_length or 150
    return NOTE_MAX_CHARS - len(APPROVED_BY % {"note": "", "user": ""}) - longest_user


def _pending(*, kind: str, subject_id: str, actor, note: str, amount: Decimal | None,
             gaming_day: dt.date | None) -> Approval:
    if kind in (Approval.Kind.DISCREPANCY_RESOLVE, Approval.Kind.ENTRY_REVERSE):  # carried out as APPROVED_BY
        _note_check(note, reason=kind == Approval.Kind.ENTRY_REVERSE, limit=_approved_note_limit())
    try:
        with transaction.atomic():
            approval = Approval.objects.create(kind=kind, subject_id=subject_id, amount=amount, note=note,
                                               requested_by=actor, gaming_day=gaming_day)
            audit_record(obj=approval, action="approval_requested", actor=actor, reason=note, to_status="pending",
                         data={"kind": kind, "subject_id": subject_id,
                               "amount": None if amount is None else str(amount)})
    except IntegrityError:
        raise ConflictError(_("a second person's approval is already pending for this"),
                            code="approval_pending") from None
    return approval


def discrepancy_resolve_request(*, discrepancy: Discrepancy, actor, note: str) -> Discrepancy | Approval:
    """Resolve a discrepancy, or ask for a second person's approval when its amount is above the limit.

    Returns the resolved :class:`Discrepancy` or the pending :class:`Approval`. Raises
    ``ApplicationError`` without a note or for a non-accountant, ``ConflictError`` when it is already
    resolved or an approval is pending.
    """
    note = (note or "").strip()
    if not note:
        raise ApplicationError(_("a note is required to resolve a discrepancy"), code="note_required")
    _note_check(note)
    accountant_check(actor, step=_("resolve a discrepancy"))
    if discrepancy.status != Discrepancy.Status.OPEN:
        raise ConflictError(_("this discrepancy is already resolved"), code="invalid_transition")
    amount = discrepancy_amount(discrepancy)
    if amount <= approval_amount():
        return discrepancy_resolve(discrepancy=discrepancy, actor=actor, note=note)
    return _pending(kind=Approval.Kind.DISCREPANCY_RESOLVE, subject_id=str(discrepancy.pk), actor=actor, note=note,
                    amount=amount, gaming_day=discrepancy.gaming_day)


def journal_entry_reverse_request(*, entry: JournalEntry, actor, reason: str) -> JournalEntry | Approval:
    """Reverse an entry, or ask for a second person's approval when it is larger than the limit.

    Returns the reversal or the pending :class:`Approval`. The same errors as
    :func:`~accounting.services.ledger.journal_entry_reverse`, plus ``approval_pending``.
    """
    reason = (reason or "").strip()
    if not has_role(actor, ACCOUNTANT, FLOOR_MANAGER):
        raise ApplicationError(_("only an accountant or a floor manager may correct the ledger"),
                               code="permission_denied", status_code=403)
    if not reason:
        raise ApplicationError(_("a correction needs a reason"), code="reason_required")
    _note_check(reason, reason=True)
    already = JournalEntry.objects.filter(reverses=entry).first()
    amount = entry_amount(entry)
    if already is not None or entry.kind == JournalEntry.Kind.REVERSAL or amount <= approval_amount():
        return journal_entry_reverse(entry=entry, actor=actor, reason=reason)
    return _pending(kind=Approval.Kind.ENTRY_REVERSE, subject_id=str(entry.pk), actor=actor, note=reason,
                    amount=amount, gaming_day=entry.gaming_day)


def gaming_day_reopen_request(*, day: dt.date, actor, reason: str) -> Approval:
    """Ask to re-open a closed gaming day (always needs a second person). Raises ``reason_required``,
    403 for a non-accountant, ``ConflictError`` if the day is not closed or a request is pending."""
    reason = (reason or "").strip()
    if not reason:
        raise ApplicationError(_("re-opening a closed gaming day needs a reason"), code="reason_required")
    _note_check(reason, reason=True)
    accountant_check(actor, step=_("re-open a gaming day"))
    if not GamingDay.objects.filter(day=day, status=GamingDay.Status.CLOSED).exists():
        raise ConflictError(_("gaming day %(day)s is not closed") % {"day": local_date_text(day)}, code="not_closed")
    return _pending(kind=Approval.Kind.GAMING_DAY_REOPEN, subject_id=day.isoformat(), actor=actor, note=reason,
                    amount=None, gaming_day=day)


def approval_decide(*, approval: Approval, actor, approve: bool, note: str = "") -> Approval:
    """A second person approves (and so carries out) or rejects a pending request. One transaction.

    Raises 403 ``second_person_required`` for the person who asked, 403 for a non-accountant (a floor
    manager may decide a reversal), ``ConflictError(code="invalid_transition")`` when already decided.
    The step is done in the name of the person who asked; the audit trail names the decider.
    """
    if approval.kind == Approval.Kind.ENTRY_REVERSE:
        if not has_role(actor, ACCOUNTANT, FLOOR_MANAGER):
            raise ApplicationError(_("only an accountant or a floor manager may correct the ledger"),
                                   code="permission_denied", status_code=403)
    else:
        accountant_check(actor, step=_("approve this"))
    second_person_check(actor=actor, earlier=[approval.requested_by], step=_("approving it"))
    _note_check(note or "")
    to = Approval.Status.APPROVED if approve else Approval.Status.REJECTED
    with transaction.atomic():
        try:
            decided = status_transition(obj=approval, to=to, allowed=Approval.ALLOWED, actor=actor, reason=note,
                                        noun="approval",
                                        extra_updates={"decided_by": actor, "decided_at": timezone.now()})
        except ApplicationError as exc:
            if exc.code != "invalid_transition":
                raise
            raise ConflictError(exc.message, code=exc.code, extra=exc.extra) from None
        if approve:
            decided.result_id = _carry_out(decided, approver=actor)
            decided.save(update_fields=["result_id"])
    return decided


def _carry_out(approval: Approval, *, approver) -> str:
    requester = approval.requested_by
    if approval.kind == Approval.Kind.DISCREPANCY_RESOLVE:
        row = Discrepancy.objects.get(pk=int(approval.subject_id))
        resolved = discrepancy_resolve(discrepancy=row, actor=requester,
                                       note=APPROVED_BY % {"note": approval.note, "user": approver.get_username()})
        return str(resolved.pk)
    if approval.kind == Approval.Kind.ENTRY_REVERSE:
        entry = JournalEntry.objects.get(pk=int(approval.subject_id))
        reversal = journal_entry_reverse(entry=entry, actor=requester,
                                         reason=APPROVED_BY % {"note": approval.note, "user": approver.get_username()})
        return str(reversal.pk)
    from accounting.services.gaming_day import gaming_day_reopen

    day = gaming_day_reopen(day=dt.date.fromisoformat(approval.subject_id), requested_by=requester,
                            approved_by=approver, reason=approval.note)
    return day.day.isoformat()


def approval_list() -> QuerySet[Approval]:
    """Approvals, newest first, with the people joined."""
    return Approval.objects.select_related("requested_by", "decided_by").order_by("-requested_at", "-id")
