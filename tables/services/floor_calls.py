"""Floor calls: the croupier calls the floor manager to a table; the floor resolves the call.

``floor_call_create`` is what the croupier's screen calls from its "call the floor" button;
``floor_call_resolve`` is the floor page's "done". Keyword-only, one transaction each, audited
(:func:`casino.status.audit_record`); bad input raises :class:`~casino.errors.ApplicationError` with a
message in the active language and nothing is written.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.errors import ApplicationError
from casino.status import audit_record, status_transition
from tables.models import FloorCall, Hand, Table

#: Longest note a call may carry (characters).
NOTE_MAX = 500


def floor_call_create(*, table: Table, reason: str, actor, hand: Hand | None = None, note: str = "") -> FloorCall:
    """Open a floor call at ``table`` for ``reason`` (a :class:`FloorCall.Reason` value), optionally about
    ``hand`` (which must be a hand of that table), with a short ``note``. Returns the call.

    Calling again for the same table and reason while a call is still open returns that open call
    (a second press of the button does not page the floor twice); a new note is appended to it.

    Raises ``ApplicationError``: unknown reason (field ``reason``), a hand of another table (field
    ``hand``), a closed table, a note longer than :data:`NOTE_MAX`.
    """
    if reason not in FloorCall.Reason.values:
        raise ApplicationError(_("Choose why the floor is called."), code="invalid_reason", extra={"field": "reason"})
    note = (note or "").strip()
    if len(note) > NOTE_MAX:
        raise ApplicationError(_("The note is too long (at most %(max)s characters).") % {"max": NOTE_MAX},
                               extra={"field": "note"})
    if hand is not None and hand.table_id != table.pk:
        raise ApplicationError(_("Hand #%(number)s is not a hand of table %(table)s.")
                               % {"number": hand.number, "table": table.name}, extra={"field": "hand"})
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        if locked.status == Table.Status.CLOSED:
            raise ApplicationError(_("Table %(table)s is closed; nobody is there to call the floor.")
                                   % {"table": locked.name}, code="table_closed")
        existing = (FloorCall.objects.select_for_update()
                    .filter(table=locked, reason=reason, status=FloorCall.Status.OPEN).first())
        if existing is not None:
            if note and note not in existing.note:
                existing.note = f"{existing.note}\n{note}".strip()[:2 * NOTE_MAX]
                existing.save(update_fields=["note"])
            return existing
        call = FloorCall.objects.create(table=locked, hand=hand, reason=reason, note=note, created_by=actor)
        audit_record(obj=call, action="floor_call_opened", actor=actor, reason=note,
                     data={"table": locked.pk, "reason": reason, "hand": hand.pk if hand else None})
    return call


#: Calls the floor resolves by deciding something: their resolution needs a note saying what.
DECISIONS = (FloorCall.Reason.RULING, FloorCall.Reason.DISPUTE)


def floor_call_resolve(*, call: FloorCall, actor, note: str = "") -> FloorCall:
    """Resolve an open floor call (open -> resolved) with who, when and a note; audited. The note is required
    for a ruling or a dispute (what the floor decided is the record the audit reads), optional otherwise.

    Raises ``ApplicationError(code="invalid_transition")`` if the call is already resolved, and
    ``ApplicationError(code="note_required")`` for a ruling or a dispute without a note.
    """
    note = (note or "").strip()[:NOTE_MAX]
    with transaction.atomic():
        current = FloorCall.objects.select_for_update().get(pk=call.pk)
        if current.status != FloorCall.Status.OPEN:
            raise ApplicationError(_("This floor call at %(table)s was already resolved.")
                                   % {"table": current.table.name}, code="invalid_transition")
        if not note and current.reason in DECISIONS:
            raise ApplicationError(_("Say what was decided: the call '%(reason)s' at %(table)s is resolved with a note.")
                                   % {"reason": current.get_reason_display(), "table": current.table.name},
                                   code="note_required", extra={"field": "note"})
        return status_transition(obj=current, to=FloorCall.Status.RESOLVED, allowed=FloorCall.ALLOWED, actor=actor,
                                 reason=note, noun="floor call",
                                 extra_updates={"resolved_by": actor, "resolved_at": timezone.now(),
                                                "resolution_note": note})
