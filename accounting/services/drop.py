"""Drop counts: the count team's counted tax box compared with the logged Taxe/tax and fees.

The count team enters, per table and gaming day (optionally per shift), what it counted in the
table's drop box. The service computes what the ledger says went in (Taxe/tax plus Capsa fees on the
table's ``tax`` and ``fee`` accounts) and the variance ``counted - logged``. A variance whose size is
over ``DROP_VARIANCE_THRESHOLD`` (EUR, default 5.00) needs an accountant's sign-off with a note.

Shifts come from ``DROP_SHIFTS`` (``{"name": "HH:MM-HH:MM"}`` local times inside the gaming day;
default early 06:00-14:00, late 14:00-22:00, night 22:00-06:00); an empty shift is the whole day.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounting.models import DropCount
from accounting.selectors import drop_logged
from accounting.services.day_lock import gaming_day_open_check
from accounting.services.four_eyes import accountant_check, second_person_check
from casino.errors import ApplicationError, ConflictError
from casino.gaming_day import gaming_day_bounds, gaming_day_of
from casino.i18n import comma_list, gettext_noop
from casino.status import audit_record, status_transition
from rules.engines.errors import RuleViolation
from rules.engines.money import from_cents, to_cents
from tables.models import Table

DEFAULT_VARIANCE_THRESHOLD = "5.00"
DEFAULT_SHIFTS = {"early": "06:00-14:00", "late": "14:00-22:00", "night": "22:00-06:00"}
#: How people read the default shifts' names (issue 18); a house's own shift names are shown as configured.
SHIFT_LABELS = {"early": gettext_lazy("early shift"), "late": gettext_lazy("late shift"),
                "night": gettext_lazy("night shift")}


def shift_label(name: str) -> str:
    """The shift ``name`` as staff read it in the active language; ``""`` (a whole-day count) is "whole day"."""
    if not name:
        return str(gettext_lazy("whole day"))
    return str(SHIFT_LABELS.get(name, name))


def variance_threshold() -> Decimal:
    """``DROP_VARIANCE_THRESHOLD`` (EUR) from settings; a variance larger than this needs a sign-off."""
    return from_cents(to_cents(str(getattr(settings, "DROP_VARIANCE_THRESHOLD", DEFAULT_VARIANCE_THRESHOLD)),
                               field="DROP_VARIANCE_THRESHOLD"))


def shift_bounds(*, gaming_day: dt.date, shift: str) -> tuple[dt.datetime | None, dt.datetime | None]:
    """``[start, end)`` (aware UTC) of a named shift of a gaming day; ``(None, None)`` for the whole day.

    A shift's times are local wall-clock times; a time before the gaming day's start belongs to the
    next calendar date (the night shift). Raises ``ApplicationError`` for an unknown shift name.
    """
    if not shift:
        return None, None
    shifts = getattr(settings, "DROP_SHIFTS", DEFAULT_SHIFTS)
    if shift not in shifts:
        raise ApplicationError(gettext_noop("unknown shift %(shift)s; known shifts: %(shifts)s", shift=repr(shift), shifts=', '.join(shifts)), code="unknown_shift")
    zone = ZoneInfo(settings.TIME_ZONE)
    day_start, day_end = gaming_day_bounds(gaming_day)
    start_local = day_start.astimezone(zone).time()

    def at(text: str) -> dt.datetime:
        hours, minutes = (int(p) for p in text.split(":"))
        clock = dt.time(hours, minutes)
        date = gaming_day if clock >= start_local else gaming_day + dt.timedelta(days=1)
        return dt.datetime.combine(date, clock, tzinfo=zone).astimezone(dt.UTC)

    first, last = shifts[shift].split("-")
    start, end = at(first.strip()), at(last.strip())
    if end <= start:
        end = day_end
    return max(start, day_start), min(end, day_end)


def drop_count_record(*, table: Table, gaming_day: dt.date, counted: Decimal | str, actor, shift: str = "",
                      ) -> DropCount:
    """Record the counted contents of a table's drop box and compare them with the log.

    ``counted`` is EUR (string or Decimal, two decimals at most). Returns the :class:`DropCount` with
    ``logged``, ``variance = counted - logged`` and status ``recorded``, or ``needs_sign_off`` when
    ``|variance|`` exceeds the threshold. Raises ``ApplicationError`` for a bad amount or shift or a
    gaming day that has not started, and ``ConflictError`` if this table, day and shift was already
    counted, or the whole day was counted and a shift is now counted (or the reverse).
    """
    counted_eur = _counted_eur(counted)
    if gaming_day > gaming_day_of(timezone.now()):
        raise ApplicationError(gettext_noop("gaming day %(gaming_day)s has not started yet; its drop box cannot be counted", gaming_day=gaming_day),
                               code="gaming_day_not_started", extra={"gaming_day": gaming_day.isoformat()})
    gaming_day_open_check(gaming_day)
    start, end = shift_bounds(gaming_day=gaming_day, shift=shift)
    logged = drop_logged(table_id=table.id, gaming_day=gaming_day, start=start, end=end)
    variance = counted_eur - logged
    status = DropCount.Status.NEEDS_SIGN_OFF if abs(variance) > variance_threshold() else DropCount.Status.RECORDED
    try:
        with transaction.atomic():
            Table.objects.select_for_update().filter(pk=table.pk).first()  # serializes the counts of this box
            _overlap_check(table=table, gaming_day=gaming_day, shift=shift)
            count = DropCount.objects.create(table=table, gaming_day=gaming_day, shift=shift, counted=counted_eur,
                                             logged=logged, variance=variance, status=status,
                                             counted_by=actor if getattr(actor, "pk", None) else None)
            audit_record(obj=count, action="drop_counted", actor=count.counted_by, to_status=status,
                         data={"counted": str(counted_eur), "logged": str(logged), "variance": str(variance)})
    except IntegrityError:
        raise ConflictError(gettext_noop("the drop box of %(table)s for gaming day %(gaming_day)s %(value)s was already counted", table=table, gaming_day=gaming_day, value=shift or gettext_noop("(whole day)")), code="already_counted") from None
    return count


def _counted_eur(counted: object) -> Decimal:
    """``counted`` (EUR: a plain decimal string, an int or a Decimal) as a two-decimal Decimal.

    Raises ``ApplicationError(code="invalid_amount")`` for floats, booleans, exponents, ``NaN`` and
    any text that is not a plain decimal number (``rules.engines.money.PLAIN_DECIMAL``), negatives, more than two
    decimals and amounts above the money edge's maximum.
    """
    try:
        return from_cents(to_cents(counted, field="counted"))
    except RuleViolation as exc:  # the money edge's InvalidAmount -> application error
        raise ApplicationError(exc.message, code="invalid_amount", extra={"field": "counted"}) from exc


#: The box named inside a refusal, translated at the edge (``drop`` reads "Drop" in German, glossary).
_BOX_WORDS = {"drop": gettext_noop("drop"), "tronc": gettext_noop("tronc")}


def _overlap_check(*, table: Table, gaming_day: dt.date, shift: str, model=DropCount, box: str = "drop") -> None:
    """A box is counted either for the whole gaming day or per shift, never both (the money would count twice).

    Raises ``ConflictError(code="already_counted")``; call with the table row locked.
    """
    existing = list(model.objects.filter(table=table, gaming_day=gaming_day).values_list("shift", flat=True))
    if shift in existing:
        raise ConflictError(gettext_noop("the %(box)s box of %(table)s for gaming day %(gaming_day)s %(value)s was already counted", box=_BOX_WORDS.get(box, box), table=table, gaming_day=gaming_day, value=shift or gettext_noop("(whole day)")), code="already_counted")
    if existing and (not shift or "" in existing):
        done = comma_list([gettext_noop("shift %(shift)s", shift=s) if s else gettext_noop("the whole day")
                           for s in sorted(existing)])
        raise ConflictError(
            gettext_noop("the %(box)s box of %(table)s for gaming day %(gaming_day)s was already counted for %(done)s; a box is counted either for the whole day or per shift, not both", box=_BOX_WORDS.get(box, box), table=table, gaming_day=gaming_day, done=done), code="already_counted",
            extra={"counted_shifts": sorted(existing)})


def drop_count_confirm(*, drop_count: DropCount, actor) -> DropCount:
    """A second accountant confirms a recorded drop count (four eyes, issue 17).

    Raises ``ApplicationError`` 403 for a non-accountant or for the person who counted
    (``second_person_required``), ``ConflictError(code="already_confirmed")`` when it was confirmed
    already and ``ConflictError(code="gaming_day_closed")`` for a closed day. Audited.
    """
    accountant_check(actor, step=_("confirm a drop count"))
    with transaction.atomic():
        locked = DropCount.objects.select_for_update(of=("self",)).select_related("counted_by").get(pk=drop_count.pk)
        gaming_day_open_check(locked.gaming_day)
        if locked.confirmed_by_id is not None:
            raise ConflictError(_("this drop count was already confirmed"), code="already_confirmed")
        second_person_check(actor=actor, earlier=[locked.counted_by], step=_("confirming the drop count"))
        locked.confirmed_by, locked.confirmed_at = actor, timezone.now()
        locked.save(update_fields=["confirmed_by", "confirmed_at"])
        audit_record(obj=locked, action="drop_confirmed", actor=actor, data={"counted": str(locked.counted)})
    return locked


def drop_count_sign_off(*, drop_count: DropCount, actor, note: str) -> DropCount:
    """A third accountant signs off a confirmed count whose variance is over the threshold, with a note.

    Four eyes (issue 17): the count must be confirmed first, and the person signing off must have
    neither counted nor confirmed it. Raises ``ApplicationError`` without a note, for a user who is not
    an accountant (403), for the counter or confirmer (403, ``second_person_required``) or an unconfirmed
    count (``not_confirmed``), and ``ConflictError(code="invalid_transition")`` (409) when the count was
    already signed off or does not need a sign-off.
    """
    if not (note or "").strip():
        raise ApplicationError(_("a note is required to sign off a drop variance"), code="note_required")
    accountant_check(actor, step=_("sign off a drop variance"))
    drop_count = DropCount.objects.select_related("counted_by", "confirmed_by").get(pk=drop_count.pk)
    if drop_count.status == DropCount.Status.NEEDS_SIGN_OFF:
        if drop_count.confirmed_by_id is None:
            raise ApplicationError(_("the drop count must be confirmed by a second accountant before its variance "
                                     "is signed off"), code="not_confirmed")
        second_person_check(actor=actor, earlier=[drop_count.counted_by, drop_count.confirmed_by],
                            step=_("signing off the variance"))
    try:
        return status_transition(obj=drop_count, to=DropCount.Status.SIGNED_OFF, allowed=DropCount.ALLOWED,
                                 actor=actor, reason=note, noun="drop count",
                                 extra_updates={"signed_off_by": actor, "signed_off_at": timezone.now(),
                                                "sign_off_note": note})
    except ApplicationError as exc:  # already signed off / nothing to sign off: the row's state conflicts
        if exc.code != "invalid_transition":
            raise
        raise ConflictError(exc.message, code=exc.code, extra=exc.extra) from None
