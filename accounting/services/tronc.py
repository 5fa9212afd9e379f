"""The tronc: the tips box of a table, counted per gaming day and shift like the drop (issue 17).

The tronc is the staff's money, not the house's: it is never part of gross gaming revenue and has no
ledger side to compare with. A count is recorded by one accountant and confirmed by a second
(:mod:`accounting.services.four_eyes`). A box is counted for the whole day or per shift, never both.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounting.models import TroncCount
from accounting.services.day_lock import gaming_day_open_check
from accounting.services.drop import _counted_eur, _overlap_check, shift_bounds
from accounting.services.four_eyes import accountant_check, second_person_check
from casino.errors import ApplicationError, ConflictError
from casino.gaming_day import gaming_day_of
from casino.i18n import local_date_text
from casino.status import audit_record
from tables.models import Table


def tronc_count_record(*, table: Table, gaming_day: dt.date, counted: Decimal | str, actor, shift: str = "",
                       ) -> TroncCount:
    """Record the counted tronc box of ``table`` for ``gaming_day`` (and ``shift``; empty = whole day).

    ``counted`` is EUR (two decimals at most). Raises ``ApplicationError`` for a bad amount or shift, a
    non-accountant (403) or a day that has not started, ``ConflictError`` for a box already counted
    (``already_counted``) or a closed day (``gaming_day_closed``). Audited.
    """
    accountant_check(actor, step=_("record a tronc count"))
    counted_eur = _counted_eur(counted)
    if gaming_day > gaming_day_of(timezone.now()):
        raise ApplicationError(_("gaming day %(day)s has not started yet; its tronc box cannot be counted")
                               % {"day": local_date_text(gaming_day)}, code="gaming_day_not_started")
    gaming_day_open_check(gaming_day)
    shift_bounds(gaming_day=gaming_day, shift=shift)  # validates the shift name
    try:
        with transaction.atomic():
            Table.objects.select_for_update().filter(pk=table.pk).first()
            _overlap_check(table=table, gaming_day=gaming_day, shift=shift, model=TroncCount, box="tronc")
            count = TroncCount.objects.create(table=table, gaming_day=gaming_day, shift=shift, counted=counted_eur,
                                              counted_by=actor)
            audit_record(obj=count, action="tronc_counted", actor=actor, data={"counted": str(counted_eur)})
    except IntegrityError:
        raise ConflictError(f"the tronc box of {table} for gaming day {gaming_day} {shift or '(whole day)'} "
                            "was already counted", code="already_counted") from None
    return count


def tronc_count_confirm(*, tronc_count: TroncCount, actor) -> TroncCount:
    """A second accountant confirms a tronc count (not the one who counted). Audited.

    Raises ``ApplicationError`` 403 (``permission_denied`` / ``second_person_required``) and
    ``ConflictError`` (``already_confirmed``, ``gaming_day_closed``).
    """
    accountant_check(actor, step=_("confirm a tronc count"))
    with transaction.atomic():
        locked = TroncCount.objects.select_for_update(of=("self",)).select_related("counted_by").get(pk=tronc_count.pk)
        gaming_day_open_check(locked.gaming_day)
        if locked.confirmed_by_id is not None:
            raise ConflictError(_("this tronc count was already confirmed"), code="already_confirmed")
        second_person_check(actor=actor, earlier=[locked.counted_by], step=_("confirming the tronc count"))
        locked.confirmed_by, locked.confirmed_at = actor, timezone.now()
        locked.save(update_fields=["confirmed_by", "confirmed_at"])
        audit_record(obj=locked, action="tronc_confirmed", actor=actor, data={"counted": str(locked.counted)})
    return locked
