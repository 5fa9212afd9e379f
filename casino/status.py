"""The one function that changes a status (STYLE.md rule 7, django-oscar's pipeline).

Every stateful model declares an explicit table of allowed transitions; :func:`status_transition`
locks the row, checks the table, writes the new status and an :class:`~casino.models.AuditEntry` in
one transaction, and raises :class:`~casino.errors.ApplicationError` for anything else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import models, transaction
from django.utils import timezone

from casino import rows
from casino.errors import ApplicationError
from casino.i18n import Message, gettext_noop, or_list, status_word
from casino.models import AuditEntry


def audit_record(*, obj: models.Model, action: str, actor=None, reason: str = "", from_status: str = "",
                 to_status: str = "", data: dict | None = None) -> AuditEntry:
    """Write one audit row for ``obj`` (call inside the transaction of the change it records)."""
    row = _audit_row(obj=obj, action=action, actor=actor, reason=reason, from_status=from_status,
                     to_status=to_status, data=data)
    row.save()
    return row


def _audit_row(*, obj: models.Model, action: str, actor=None, reason: str = "", from_status: str = "",
               to_status: str = "", data: dict | None = None) -> AuditEntry:
    return AuditEntry(subject=obj._meta.label_lower, subject_id=str(obj.pk), action=action, actor=actor,
                      reason=reason or "", from_status=from_status, to_status=to_status, data=data or {})


def status_transition(*, obj: models.Model, to: str, allowed: Mapping[str, set[str] | frozenset[str]],
                      actor=None, reason: str = "", field: str = "status", extra_updates: dict | None = None,
                      noun: str | None = None, locked: bool = False,
                      audit_also: Sequence[Mapping[str, Any]] = (), writes: rows.Writes | None = None) -> models.Model:
    """Move ``obj.<field>`` to ``to`` if ``allowed[current]`` contains it; audit it; return the fresh row.

    Takes ``SELECT ... FOR UPDATE`` on the row, so two concurrent changes serialize and the second
    sees the first's result. Raises ``ApplicationError(code="invalid_transition")`` with a readable
    message ("table 'Stud 1' is already open") for a transition not in the table.

    ``locked=True``: the caller already holds ``obj``'s row under ``SELECT ... FOR UPDATE`` in the current
    transaction and ``obj`` is that fresh row (the hand service's hot path, issue 19): it is changed in
    place with one ``UPDATE``, without a second lock or a savepoint, and returned. ``audit_also``: further
    audit rows of the same change (:func:`audit_record`'s keywords, ``obj`` defaulting to this row), written
    with the status change's own row in one ``INSERT``. ``writes`` (with ``locked=True``): that UPDATE and INSERT
    join this batch (:class:`casino.rows.Writes`), sent by the caller with its other writes, instead of now.
    """
    model = type(obj)
    # ``noun`` is the English catalogue word ("table"), rendered in the reader's language like the verbose name.
    label = Message(noun.replace("%", "%%"), {}) if noun and type(noun) is str else (noun or model._meta.verbose_name)
    if locked:
        if not transaction.get_connection().in_atomic_block:
            raise RuntimeError("status_transition(locked=True) needs the caller's transaction holding the row lock")
        return _transition(obj, held=True, to=to, allowed=allowed, actor=actor, reason=reason, field=field,
                           extra_updates=extra_updates, label=label, audit_also=audit_also, writes=writes)
    with transaction.atomic():
        fresh = model.objects.select_for_update().get(pk=obj.pk)
        return _transition(fresh, held=False, to=to, allowed=allowed, actor=actor, reason=reason, field=field,
                           extra_updates=extra_updates, label=label, audit_also=audit_also)


def _transition(locked: models.Model, *, held: bool, to: str, allowed: Mapping[str, set[str] | frozenset[str]],
                actor, reason: str, field: str, extra_updates: dict | None, label: Any,
                audit_also: Sequence[Mapping[str, Any]], writes: rows.Writes | None = None) -> models.Model:
    """The checked change of a row held under its lock: the transition table, one UPDATE, the audit rows."""
    current = getattr(locked, field)
    if to == current:
        raise ApplicationError(gettext_noop("%(label)s '%(locked)s' is already %(to)s", label=label, locked=locked,
                                            to=status_word(locked, to, field=field)), code="invalid_transition",
                               extra={"status": current})
    if to not in allowed.get(current, ()):
        options = [status_word(locked, option, field=field) for option in sorted(allowed.get(current, ()))]
        here = status_word(locked, current, field=field)
        then = (gettext_noop("from %(current)s it may go to %(options)s", current=here, options=or_list(options))
                if options else gettext_noop("%(current)s is final", current=here))
        raise ApplicationError(
            gettext_noop("%(label)s '%(locked)s' cannot go from %(current)s to %(to)s; %(then)s", label=label,
                         locked=locked, current=here, to=status_word(locked, to, field=field), then=then),
            code="invalid_transition", extra={"status": current, "requested": to},
        )
    updates = {field: to, **(extra_updates or {})}
    for key, value in updates.items():
        setattr(locked, key, value)
    first = {"action": f"{field}_change", "actor": actor, "reason": reason, "from_status": current, "to_status": to}
    if held:  # the hot path (issue 19): one UPDATE and one INSERT in plain SQL (casino.rows), no signals, and the
        # audit rows as values (what _audit_row would hold), without model instances
        batch = writes if writes is not None else rows.Writes()
        batch.update(type(locked), locked.pk, **updates).insert_rows(
            AuditEntry, _AUDIT_FIELDS, [_audit_values(**{"obj": locked, **audit}, now=timezone.now())
                                        for audit in (first, *audit_also)])
        if writes is None:
            batch.send()
    else:
        locked.save(update_fields=list(updates))
        AuditEntry.objects.bulk_create([_audit_row(**{"obj": locked, **audit}) for audit in (first, *audit_also)])
    return locked


#: The fields of an audit row written by :func:`_audit_values`, in its order.
_AUDIT_FIELDS = ("subject", "subject_id", "action", "from_status", "to_status", "actor", "reason", "data", "at")


def _audit_values(obj: models.Model, *, now, action: str, actor=None, reason: str = "", from_status: str = "",
                  to_status: str = "", data: dict | None = None) -> tuple[Any, ...]:
    """The values of :func:`_audit_row`'s row (fields :data:`_AUDIT_FIELDS`; ``at`` is ``now``), for
    :meth:`casino.rows.Writes.insert_rows`."""
    return (obj._meta.label_lower, str(obj.pk), action, from_status, to_status, getattr(actor, "pk", None),
            reason or "", data or {}, now)
