"""Rotation plans (issue 7): a proposed grid of tables x periods with the breaks (the planner in
:mod:`tables.services.rotation`, the checks in :mod:`tables.services.rotation_checks`), edited by the
floor while proposed, published into live dealer assignments, or cancelled."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from casino.errors import ApplicationError
from casino.gaming_day import gaming_day_check
from casino.i18n import gettext_noop, status_word
from casino.status import audit_record, status_transition
from tables.models import (
    Dealer,
    DealerAssignment,
    Game,
    RotationPlan,
    RotationSlot,
    Table,
)
from tables.services.floor._common import _aware, _hm
from tables.services.rotation import DealerSpec, PlanInfeasible, TableSpec, plan_rotation
from tables.services.rotation_checks import (
    plan_long_break,
    slots_working_time_check,
    staffing_advice,
    staffing_advice_by_trial,
)

#: Bounds of a rotation period (minutes) and of the periods dealt before a break.
PERIOD_MINUTES_RANGE = (5, 240)
PERIODS_BEFORE_BREAK_RANGE = (1, 12)
#: Longest shift a plan may cover.
MAX_SHIFT = dt.timedelta(hours=24)


def _plan_params(shift_start, shift_end, period_minutes, periods_before_break) -> int:
    _aware(shift_start, "shift_start")
    _aware(shift_end, "shift_end")
    for name, moment in (("shift_start", shift_start), ("shift_end", shift_end)):
        try:  # the calendar's two ends: no time zone reaches them whole (a stored year 1 broke the plan pages)
            held = gaming_day_check(moment.astimezone(dt.UTC).date())
        except OverflowError:
            held = False
        if not held:
            raise ApplicationError(gettext_noop("%(name)s: not a date a plan can hold", name=name), extra={"field": name})
    if shift_end <= shift_start:
        raise ApplicationError(gettext_noop("shift_end: the shift must end after it starts"), extra={"field": "shift_end"})
    if shift_end - shift_start > MAX_SHIFT:
        raise ApplicationError(gettext_noop("shift_end: a plan covers at most 24 hours"), extra={"field": "shift_end"})
    low, high = PERIOD_MINUTES_RANGE
    if isinstance(period_minutes, bool) or not isinstance(period_minutes, int) or not low <= period_minutes <= high:
        raise ApplicationError(gettext_noop("period_minutes: must be a whole number of minutes from %(low)s to %(high)s", low=low, high=high),
                               extra={"field": "period_minutes"})
    low, high = PERIODS_BEFORE_BREAK_RANGE
    if (isinstance(periods_before_break, bool) or not isinstance(periods_before_break, int)
            or not low <= periods_before_break <= high):
        raise ApplicationError(gettext_noop("periods_before_break: must be a whole number from %(low)s to %(high)s", low=low, high=high),
                               extra={"field": "periods_before_break"})
    return math.ceil((shift_end - shift_start) / dt.timedelta(minutes=period_minutes))


def rotation_plan_grid(*, shift_start: dt.datetime, shift_end: dt.datetime, tables: Sequence[Table] | None = None,
                       dealers: Sequence[Dealer] | None = None, period_minutes: int = 30,
                       periods_before_break: int = 2) -> tuple[list[Table], list[Dealer], dict[int, list[int | None]]]:
    """Compute (without saving) the rotation grid ``{dealer_id: [table_id | None per period]}`` and the
    tables and dealers it covers; the defaults and errors of :func:`rotation_plan_generate`. The planner
    plans in the house rhythm's breaks and the working-time law's long break (settings, AZG § 11 by
    default: :func:`~tables.services.rotation_checks.plan_long_break`); when no grid staffs every table the
    refusal's ``advice`` says how many relief dealers to call or which tables to close."""
    periods = _plan_params(shift_start, shift_end, period_minutes, periods_before_break)
    if tables is None:
        tables = list(Table.objects.exclude(status=Table.Status.CLOSED))
        if not tables:
            raise ApplicationError(gettext_noop("tables: no table is open; name the tables to staff"), extra={"field": "tables"})
    if dealers is None:
        dealers = list(Dealer.objects.filter(active=True).select_related("user"))
    tables, dealers = list(dict.fromkeys(tables)), list(dict.fromkeys(dealers))
    if not tables:
        raise ApplicationError(gettext_noop("tables: tick the tables to staff"), extra={"field": "tables"})
    if not dealers:
        raise ApplicationError(gettext_noop("dealers: tick the dealers on shift"), extra={"field": "dealers"})
    inactive = [d for d in dealers if not d.active]
    if inactive:
        raise ApplicationError(gettext_noop("dealers: %(inactive)s is not active", inactive=inactive[0]), extra={"field": "dealers"})
    long_break = plan_long_break(period_minutes=period_minutes)
    try:
        grid = plan_rotation(
            tables=[TableSpec(t.pk, t.name, t.game) for t in tables],
            dealers=[DealerSpec(d.pk, str(d), frozenset(d.games)) for d in dealers],
            periods=periods, periods_before_break=periods_before_break, long_break=long_break,
        )
    except PlanInfeasible as err:
        advice = staffing_advice(tables=tables, dealers=dealers, periods_before_break=periods_before_break,
                                 periods=periods, long_break=long_break)
        if not advice:
            advice = staffing_advice_by_trial(tables=tables, dealers=dealers, periods=periods,
                                              periods_before_break=periods_before_break, long_break=long_break)
        message = (gettext_noop("cannot staff every table: %(reason)s. What would work: %(advice)s",
                                reason=err.reason, advice=advice) if advice
                   else gettext_noop("cannot staff every table: %(reason)s", reason=err.reason))
        raise ApplicationError(message, code="plan_infeasible", extra={"period": err.period, "advice": advice}) from None
    return tables, dealers, grid


def rotation_plan_generate(*, name: str, shift_start: dt.datetime, shift_end: dt.datetime,
                           tables: Sequence[Table] | None = None, dealers: Sequence[Dealer] | None = None,
                           period_minutes: int = 30, periods_before_break: int = 2, actor=None) -> RotationPlan:
    """Propose a rotation for the shift window: one slot per dealer and period (``table`` None = break).

    ``tables`` default: the tables open or paused now; ``dealers`` default: every active dealer. The last
    period is shorter when the window is not a whole number of periods. Raises ``ApplicationError``
    (``code="plan_infeasible"``) with the planner's reason and what would work when the dealers cannot
    staff every table (rules H1/H2 of :mod:`tables.services.rotation` and the working-time law's long
    break, which the planner schedules), and for bad parameters (a ``name`` longer than the plan's column,
    ``code="invalid"``); nothing is saved.
    """
    limit = RotationPlan._meta.get_field("name").max_length
    if len((name or "").strip()) > limit:
        raise ApplicationError(gettext_noop("name: at most %(limit)s characters (%(n)s given)", limit=limit,
                                            n=len(name.strip())), code="invalid", extra={"field": "name"})
    tables, dealers, grid = rotation_plan_grid(shift_start=shift_start, shift_end=shift_end, tables=tables,
                                               dealers=dealers, period_minutes=period_minutes,
                                               periods_before_break=periods_before_break)
    periods = len(next(iter(grid.values()), []))
    step = dt.timedelta(minutes=period_minutes)
    table_by_id = {t.pk: t for t in tables}
    slots_working_time_check(
        slots=[{"dealer": d, "table": table_by_id.get(tid), "start": shift_start + p * step,
                "end": min(shift_start + (p + 1) * step, shift_end)}
               for d in dealers for p, tid in enumerate(grid[d.pk])],
        period_minutes=period_minutes, periods_before_break=periods_before_break)
    with transaction.atomic():
        plan = RotationPlan.objects.create(
            # without a name: the date and hours, the same in every language
            name=(name or "").strip() or (f"{timezone.localtime(shift_start):%Y-%m-%d %H:%M}–"
                                          f"{timezone.localtime(shift_end):%H:%M}"),
            shift_start=shift_start, shift_end=shift_end, period_minutes=period_minutes,
            periods_before_break=periods_before_break, created_by=actor,
        )
        plan.tables.set(tables)
        plan.dealers.set(dealers)
        slots = []
        for dealer in dealers:
            for p, table_id in enumerate(grid[dealer.pk]):
                start = shift_start + p * step
                slots.append(RotationSlot(plan=plan, dealer=dealer, table=table_by_id.get(table_id),
                                          start=start, end=min(start + step, shift_end)))
        RotationSlot.objects.bulk_create(slots)
        audit_record(obj=plan, action="generated", actor=actor,
                     data={"tables": [t.pk for t in tables], "dealers": [d.pk for d in dealers],
                           "periods": periods, "period_minutes": period_minutes,
                           "periods_before_break": periods_before_break})
    return plan


def _slot_problems(plan: RotationPlan, slots: Sequence[Mapping[str, Any]]) -> None:
    """Raise ``ApplicationError`` for the first bad slot: outside the window, an unknown dealer or table,
    an unqualified dealer, overlapping slots for one dealer or at one table."""
    plan_dealers = {d.pk: d for d in plan.dealers.select_related("user")}
    plan_tables = {t.pk: t for t in plan.tables.all()}
    for i, slot in enumerate(slots):
        dealer, table, start, end = slot["dealer"], slot.get("table"), slot["start"], slot["end"]
        where = f"slots[{i}]"
        _aware(start, f"{where}.start")
        _aware(end, f"{where}.end")
        if end <= start:
            raise ApplicationError(gettext_noop("%(where)s: ends at %(hm)s, before it starts at %(hm2)s", where=where, hm=_hm(end), hm2=_hm(start)),
                                   extra={"field": f"{where}.end"})
        if start < plan.shift_start or end > plan.shift_end:
            raise ApplicationError(gettext_noop("%(where)s: %(hm)s-%(hm2)s is outside the shift %(hm3)s-%(hm4)s", where=where, hm=_hm(start), hm2=_hm(end), hm3=_hm(plan.shift_start), hm4=_hm(plan.shift_end)), extra={"field": where})
        if dealer.pk not in plan_dealers:
            raise ApplicationError(gettext_noop("%(where)s: dealer %(dealer)s is not on this plan", where=where, dealer=dealer), extra={"field": f"{where}.dealer"})
        if table is not None:
            if table.pk not in plan_tables:
                raise ApplicationError(gettext_noop("%(where)s: table '%(table)s' is not on this plan", where=where, table=table), extra={"field": f"{where}.table"})
            if not dealer.may_deal(table.game):
                raise ApplicationError(gettext_noop("%(where)s: dealer %(dealer)s may not deal %(label)s (table '%(table)s')", where=where, dealer=dealer, label=Game(table.game).label, table=table), extra={"field": f"{where}.dealer"})
    for key, noun in (("dealer", "dealer"), ("table", "table")):
        groups: dict[int, list[Mapping[str, Any]]] = {}
        for slot in slots:
            owner = slot.get(key)
            if owner is not None:
                groups.setdefault(owner.pk, []).append(slot)
        for items in groups.values():
            items = sorted(items, key=lambda s: s["start"])
            for a, b in zip(items, items[1:]):
                if b["start"] < a["end"]:
                    who = a[key]
                    where_a = a["table"] or "break" if noun == "dealer" else a["dealer"]
                    where_b = b["table"] or "break" if noun == "dealer" else b["dealer"]
                    raise ApplicationError(
                        gettext_noop("%(noun)s %(who)s has overlapping slots: %(hm)s-%(hm2)s (%(where_a)s) and %(hm3)s-%(hm4)s (%(where_b)s)", noun=noun, who=who, hm=_hm(a['start']), hm2=_hm(a['end']), where_a=where_a, hm3=_hm(b['start']), hm4=_hm(b['end']), where_b=where_b), code="overlapping_slots",
                        extra={"field": "slots"})


def rotation_plan_slots_replace(*, plan: RotationPlan, slots: Sequence[Mapping[str, Any]], actor=None,
                                reason: str = "") -> RotationPlan:
    """The floor's edit of a proposed plan: replace all its slots with ``slots`` (each ``{"dealer": Dealer,
    "table": Table | None, "start", "end"}``). Refuses (400, nothing saved) a plan that is not proposed,
    overlapping slots for one dealer or one table, unqualified dealers, slots outside the shift."""
    with transaction.atomic():
        locked = RotationPlan.objects.select_for_update().get(pk=plan.pk)
        if locked.status != RotationPlan.Status.PROPOSED:
            raise ApplicationError(gettext_noop("plan '%(locked)s' is %(status)s; only a proposed plan can be edited", locked=locked, status=status_word(locked)),
                                   code="invalid_transition", extra={"status": locked.status})
        _slot_problems(locked, slots)
        slots_working_time_check(slots=slots, period_minutes=locked.period_minutes,
                                 periods_before_break=locked.periods_before_break)
        locked.slots.all().delete()
        RotationSlot.objects.bulk_create([
            RotationSlot(plan=locked, dealer=s["dealer"], table=s.get("table"), start=s["start"], end=s["end"])
            for s in slots
        ])
        audit_record(obj=locked, action="slots_edited", actor=actor, reason=reason, data={"slots": len(slots)})
    return locked


def _coverage_gaps(plan: RotationPlan) -> list[str]:
    gaps = []
    slots = list(plan.slots.filter(table__isnull=False).order_by("start"))
    for table in plan.tables.all():
        cursor = plan.shift_start
        for slot in (s for s in slots if s.table_id == table.pk):
            if slot.start > cursor:
                gaps.append(f"table '{table}' has no dealer from {_hm(cursor)} to {_hm(slot.start)}")
            cursor = max(cursor, slot.end)
        if cursor < plan.shift_end:
            gaps.append(f"table '{table}' has no dealer from {_hm(cursor)} to {_hm(plan.shift_end)}")
    return gaps


def rotation_plan_publish(*, plan: RotationPlan, actor=None, reason: str = "") -> RotationPlan:
    """proposed -> published: checks every table has a dealer for the whole shift and that no other
    published plan staffs the same tables or dealers in an overlapping window, then creates one live
    :class:`DealerAssignment` per table slot (linked by ``slot``), except slots already over. One
    transaction; audited."""
    with transaction.atomic():
        locked = RotationPlan.objects.select_for_update().get(pk=plan.pk)
        if locked.status != RotationPlan.Status.PROPOSED:
            raise ApplicationError(gettext_noop("plan '%(locked)s' is already %(status)s", locked=locked, status=status_word(locked)), code="invalid_transition",
                                   extra={"status": locked.status})
        gaps = _coverage_gaps(locked)
        if gaps:
            raise ApplicationError(gettext_noop("cannot publish: %(gaps)s", gaps='; '.join(gaps)), code="plan_incomplete",
                                   extra={"gaps": gaps})
        slots_working_time_check(
            slots=[{"dealer": s.dealer, "table": s.table, "start": s.start, "end": s.end}
                   for s in locked.slots.select_related("dealer__user", "table")],
            period_minutes=locked.period_minutes, periods_before_break=locked.periods_before_break)
        clash = (RotationPlan.objects.filter(status=RotationPlan.Status.PUBLISHED, shift_start__lt=locked.shift_end,
                                             shift_end__gt=locked.shift_start)
                 .filter(Q(tables__in=locked.tables.all()) | Q(dealers__in=locked.dealers.all())).distinct().first())
        if clash is not None:
            raise ApplicationError(gettext_noop("cannot publish: published plan '%(clash)s' already staffs some of these tables or dealers in this window; cancel it first", clash=clash), code="plan_overlap")
        # Slots already over become no assignment (the roster's past is not written after the fact, issue 20).
        now = timezone.now()
        slots = list(locked.slots.filter(table__isnull=False))
        past = [s.pk for s in slots if s.end <= now]
        DealerAssignment.objects.bulk_create([
            DealerAssignment(dealer_id=s.dealer_id, table_id=s.table_id, start=s.start, end=s.end, slot=s)
            for s in slots if s.end > now
        ])
        if past:
            audit_record(obj=locked, action="past_slots_not_assigned", actor=actor,
                         data={"past_slots_not_assigned": len(past), "slots": past})
        return status_transition(obj=locked, to=RotationPlan.Status.PUBLISHED, allowed=RotationPlan.ALLOWED,
                                 actor=actor, reason=reason, noun="rotation plan")


def rotation_plan_cancel(*, plan: RotationPlan, actor=None, reason: str = "") -> RotationPlan:
    """Cancel a plan. For a published plan, its assignments that have not started are deleted and the
    running ones end now (past ones stay: they record who dealt). Audited."""
    with transaction.atomic():
        locked = RotationPlan.objects.select_for_update().get(pk=plan.pk)
        if locked.status == RotationPlan.Status.PUBLISHED:
            now = timezone.now()
            planned = DealerAssignment.objects.filter(slot__plan=locked)
            planned.filter(start__gt=now).delete()
            planned.filter(start__lte=now).filter(Q(end__isnull=True) | Q(end__gt=now)).update(end=now)
        return status_transition(obj=locked, to=RotationPlan.Status.CANCELLED, allowed=RotationPlan.ALLOWED,
                                 actor=actor, reason=reason, noun="rotation plan")
