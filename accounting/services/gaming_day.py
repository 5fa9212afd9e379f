"""Closing a gaming day (issue 17): what blocks it, the close itself, the locked report, re-opening.

A day can be closed when it has ended, every hand of it is settled and reconciled, every discrepancy
resolved, no approval is pending, and every table that dealt that day has its drop and tronc counted
and confirmed (a drop variance over the threshold signed off). Closing stores the day's report
(figures from the ledger, the tronc, the counts) with a SHA-256 checksum; the report of a closed day
is read from that snapshot and never changes. Nothing may be posted into a closed day
(:mod:`accounting.services.day_lock`); re-opening needs a reason and a second person
(:func:`accounting.services.approvals.gaming_day_reopen_request`). Everything is audited.

States shown to the accountant: ``open``, ``reconciling`` (a day run is working or hands await their
check), ``ready_to_close`` (nothing blocks), ``closed``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounting.models import Approval, Discrepancy, DropCount, GamingDay, ReconciliationRun, TroncCount
from accounting.selectors import tax_report_rows
from accounting.services.four_eyes import accountant_check
from casino.errors import ApplicationError, ConflictError
from casino.gaming_day import gaming_day_bounds, gaming_day_of
from casino.i18n import local_date_text
from casino.status import audit_record, status_transition
from tables.models import Hand

STATES = ("open", "reconciling", "ready_to_close", "closed")
#: Report figures as they are stored in a closed day's snapshot (money as two-decimal strings).
MONEY_KEYS = ("pots", "tax", "fees", "bonus", "ggr")


@dataclass(frozen=True)
class Blocker:
    """One thing that keeps a day from closing: a stable ``code``, a readable ``message``, how many
    (``count``) and where to fix it (``url``)."""

    code: str
    message: str
    count: int
    url: str

    def as_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "count": self.count, "url": self.url}


def day_url(day: dt.date, anchor: str = "") -> str:
    """The accountant's page of ``day`` (``/accounting/days/2026-05-04/``), with an optional anchor."""
    return f"/accounting/days/{day.isoformat()}/" + (f"#{anchor}" if anchor else "")


def day_period(day: dt.date) -> dict[str, Any]:
    """The local period of a gaming day: ``start``/``end`` (aware, local zone) and its length in ``hours``
    (23 or 25 on the days the clocks change, else 24)."""
    start, end = gaming_day_bounds(day)
    zone = ZoneInfo(settings.TIME_ZONE)
    return {"start": start.astimezone(zone), "end": end.astimezone(zone),
            "hours": int((end - start).total_seconds() // 3600)}


def _dealing_tables(day: dt.date) -> dict[int, str]:
    """Tables that dealt hands on ``day``: {id: name} (their drop and tronc boxes must be counted)."""
    return dict(Hand.objects.filter(gaming_day=day).values_list("table_id", "table__name").distinct())


def gaming_day_blockers(day: dt.date, *, now: dt.datetime | None = None) -> list[Blocker]:
    """What keeps ``day`` from closing, each with a link; empty when it can be closed. A few aggregate queries."""
    out: list[Blocker] = []
    current = gaming_day_of(now or timezone.now())
    if day >= current:
        out.append(Blocker("day_not_over", _("the gaming day has not ended yet"), 1, day_url(day)))
    hands = Hand.objects.filter(gaming_day=day).aggregate(
        open=Count("id", filter=Q(status=Hand.Status.OPEN)),
        unchecked=Count("id", filter=~Q(status=Hand.Status.OPEN) & Q(
            reconciliation__in=(Hand.Reconciliation.NOT_DUE, Hand.Reconciliation.AWAITING))))
    if hands["open"]:
        out.append(Blocker("hands_open", ngettext("%(count)d hand is still open", "%(count)d hands are still open",
                                                  hands["open"]) % {"count": hands["open"]}, hands["open"],
                           f"/admin/tables/hand/?gaming_day={day.isoformat()}&status__exact=open"))
    if hands["unchecked"]:
        out.append(Blocker("hands_not_reconciled",
                           ngettext("%(count)d hand is not reconciled yet", "%(count)d hands are not reconciled yet",
                                    hands["unchecked"]) % {"count": hands["unchecked"]}, hands["unchecked"],
                           day_url(day, "reconciliation")))
    open_discrepancies = Discrepancy.objects.filter(gaming_day=day, status=Discrepancy.Status.OPEN).count()
    if open_discrepancies:
        out.append(Blocker("discrepancies_open",
                           ngettext("%(count)d discrepancy is not resolved", "%(count)d discrepancies are not resolved",
                                    open_discrepancies) % {"count": open_discrepancies}, open_discrepancies,
                           day_url(day, "discrepancies")))
    pending = Approval.objects.filter(gaming_day=day, status=Approval.Status.PENDING).exclude(
        kind=Approval.Kind.GAMING_DAY_REOPEN).count()
    if pending:
        out.append(Blocker("approvals_pending",
                           ngettext("%(count)d approval by a second person is pending",
                                    "%(count)d approvals by a second person are pending", pending) % {"count": pending},
                           pending, day_url(day, "approvals")))
    out.extend(_count_blockers(day))
    return out


def _count_blockers(day: dt.date) -> list[Blocker]:
    tables = _dealing_tables(day)
    drops: dict[int, list[DropCount]] = defaultdict(list)
    for count in DropCount.objects.filter(gaming_day=day):
        drops[count.table_id].append(count)
    troncs: dict[int, list[TroncCount]] = defaultdict(list)
    for count in TroncCount.objects.filter(gaming_day=day):
        troncs[count.table_id].append(count)
    out: list[Blocker] = []
    for table_id, name in sorted(tables.items(), key=lambda item: item[1]):
        if not drops[table_id]:
            out.append(Blocker("drop_not_counted", _("the drop box of %(table)s is not counted") % {"table": name}, 1,
                               day_url(day, "drop")))
        elif any(c.confirmed_by_id is None for c in drops[table_id]):
            out.append(Blocker("drop_not_confirmed", _("the drop count of %(table)s is not confirmed by a second "
                                                       "accountant") % {"table": name}, 1, day_url(day, "drop")))
        if any(c.status == DropCount.Status.NEEDS_SIGN_OFF for c in drops[table_id]):
            out.append(Blocker("drop_variance_not_signed_off", _("the drop variance of %(table)s is not signed off")
                               % {"table": name}, 1, day_url(day, "drop")))
        if not troncs[table_id]:
            out.append(Blocker("tronc_not_counted", _("the tronc box of %(table)s is not counted") % {"table": name}, 1,
                               day_url(day, "tronc")))
        elif any(c.confirmed_by_id is None for c in troncs[table_id]):
            out.append(Blocker("tronc_not_confirmed", _("the tronc count of %(table)s is not confirmed by a second "
                                                        "accountant") % {"table": name}, 1, day_url(day, "tronc")))
    return out


def reconciliation_progress(day: dt.date) -> dict[str, Any]:
    """Hands of ``day``: ``total``, ``checked`` (reconciled or with a discrepancy), ``percent`` and
    ``running`` (a day run is working now)."""
    counts = Hand.objects.filter(gaming_day=day).aggregate(
        total=Count("id"), checked=Count("id", filter=Q(reconciliation__in=(
            Hand.Reconciliation.RECONCILED, Hand.Reconciliation.DISCREPANCY))))
    running = ReconciliationRun.objects.filter(scope="day", gaming_day=day,
                                               status=ReconciliationRun.Status.RUNNING).exists()
    total, checked = counts["total"], counts["checked"]
    return {"total": total, "checked": checked, "running": running,
            "percent": 100 if not total else checked * 100 // total}


def gaming_day_state(day: dt.date, *, blockers: list[Blocker] | None = None) -> str:
    """``closed``, ``reconciling``, ``ready_to_close`` or ``open`` (see the module docstring)."""
    if GamingDay.objects.filter(day=day, status=GamingDay.Status.CLOSED).exists():
        return "closed"
    blockers = gaming_day_blockers(day) if blockers is None else blockers
    progress = reconciliation_progress(day)
    if progress["running"] or any(b.code == "hands_not_reconciled" for b in blockers):
        return "reconciling"
    return "open" if blockers else "ready_to_close"


def gaming_day_summary(day: dt.date) -> dict[str, Any]:
    """What the API and the day page show: state, blockers, progress, period, who closed it and the checksum."""
    row = GamingDay.objects.select_related("closed_by").filter(day=day).first()
    closed = row is not None and row.status == GamingDay.Status.CLOSED
    blockers = [] if closed else gaming_day_blockers(day)
    period = day_period(day)
    return {
        "gaming_day": day.isoformat(), "state": gaming_day_state(day, blockers=blockers),
        "blockers": [b.as_json() for b in blockers], "progress": reconciliation_progress(day),
        "period": {"start": period["start"].isoformat(), "end": period["end"].isoformat(), "hours": period["hours"],
                   "time_zone": settings.TIME_ZONE},
        "closed_by": row.closed_by.get_username() if closed and row.closed_by else None,
        # in the card room's zone, like every other timestamp of the API (DRF renders them in TIME_ZONE)
        "closed_at": timezone.localtime(row.closed_at).isoformat() if closed and row.closed_at else None,
        "checksum": row.checksum if closed else None,
    }


# --------------------------------------------------------------------------------------------- the snapshot


def _user(user) -> str:
    return user.get_username() if user is not None else ""


def day_snapshot(day: dt.date) -> dict[str, Any]:
    """The figures of ``day`` as stored at its close (JSON-able; money as two-decimal strings)."""
    rows = [{**{k: (f"{v:.2f}" if k in MONEY_KEYS else v) for k, v in row.items()},
             "gaming_day": row["gaming_day"].isoformat()} for row in tax_report_rows(date_from=day, date_to=day)]
    tronc = [{"table": c.table.name, "shift": c.shift, "counted": f"{c.counted:.2f}", "counted_by": _user(c.counted_by),
              "confirmed_by": _user(c.confirmed_by)}
             for c in TroncCount.objects.filter(gaming_day=day).select_related("table", "counted_by", "confirmed_by")
             .order_by("table__name", "shift")]
    drop = [{"table": c.table.name, "shift": c.shift, "counted": f"{c.counted:.2f}", "logged": f"{c.logged:.2f}",
             "variance": f"{c.variance:.2f}", "counted_by": _user(c.counted_by), "confirmed_by": _user(c.confirmed_by),
             "signed_off_by": _user(c.signed_off_by)}
            for c in DropCount.objects.filter(gaming_day=day)
            .select_related("table", "counted_by", "confirmed_by", "signed_off_by").order_by("table__name", "shift")]
    return {"rows": rows, "tronc": tronc, "drop": drop}


def snapshot_checksum(snapshot: dict[str, Any]) -> str:
    """SHA-256 (hex) of a snapshot's figures in canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(snapshot, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def snapshot_rows(snapshot: dict[str, Any]) -> list[dict[str, Any]]:
    """A snapshot's report rows back in the report's types (dates, Decimals)."""
    return [{**row, "gaming_day": dt.date.fromisoformat(row["gaming_day"]),
             **{k: Decimal(row[k]) for k in MONEY_KEYS}} for row in snapshot.get("rows", [])]


# --------------------------------------------------------------------------------------------- services


def gaming_day_close(*, day: dt.date, actor) -> GamingDay:
    """Close ``day``: check the blockers under the day's row lock, store the report snapshot and its
    checksum, audit. One transaction.

    Raises 403 for a non-accountant, ``ApplicationError(code="gaming_day_blocked")`` with the blockers in
    ``extra["blockers"]`` when something blocks, ``ConflictError(code="invalid_transition")`` when it is
    already closed.
    """
    accountant_check(actor, step=_("close a gaming day"))
    GamingDay.objects.get_or_create(day=day)  # the row the close locks (and postings share-lock)
    with transaction.atomic():
        row = GamingDay.objects.select_for_update().get(day=day)
        if row.status == GamingDay.Status.CLOSED:
            raise ConflictError(_("gaming day %(day)s is already closed") % {"day": local_date_text(day)},
                                code="invalid_transition")
        blockers = gaming_day_blockers(day)
        if blockers:
            raise ApplicationError(
                _("gaming day %(day)s cannot be closed yet: %(what)s")
                % {"day": local_date_text(day), "what": "; ".join(b.message for b in blockers)},
                code="gaming_day_blocked", extra={"blockers": [b.as_json() for b in blockers]})
        snapshot = day_snapshot(day)
        checksum = snapshot_checksum(snapshot)
        closed = status_transition(obj=row, to=GamingDay.Status.CLOSED, allowed=GamingDay.ALLOWED, actor=actor,
                                   noun="gaming day",
                                   extra_updates={"closed_by": actor, "closed_at": timezone.now(), "report": snapshot,
                                                  "checksum": checksum, "closings": row.closings + 1})
        audit_record(obj=closed, action="gaming_day_closed", actor=actor, data={"checksum": checksum})
    return closed


def gaming_day_reopen(*, day: dt.date, requested_by, approved_by, reason: str) -> GamingDay:
    """Re-open a closed day (called by an approved re-open request, inside its transaction). Audited with
    the reason and both people; the old checksum stays in the audit trail."""
    row = GamingDay.objects.get(day=day)
    old = row.checksum
    opened = status_transition(obj=row, to=GamingDay.Status.OPEN, allowed=GamingDay.ALLOWED, actor=approved_by,
                               reason=reason, noun="gaming day")
    audit_record(obj=opened, action="gaming_day_reopened", actor=approved_by, reason=reason,
                 data={"requested_by": _user(requested_by), "approved_by": _user(approved_by), "old_checksum": old})
    return opened


def gaming_days_overview(*, days: int = 30, today: dt.date | None = None) -> list[dict[str, Any]]:
    """The last ``days`` gaming days (newest first) with their state and hands, then older days that were
    dealt but never closed; for the accountant's list. A few grouped queries plus the blockers of open days."""
    current = today or gaming_day_of(timezone.now())
    first = current - dt.timedelta(days=days - 1)
    hands = dict(Hand.objects.filter(gaming_day__gte=first).values("gaming_day").annotate(n=Count("id"))
                 .values_list("gaming_day", "n"))
    closed = set(GamingDay.objects.filter(day__gte=first, status=GamingDay.Status.CLOSED).values_list("day", flat=True))
    out = []
    for offset in range(days):
        day = current - dt.timedelta(days=offset)
        if day not in hands and day not in closed and day != current:
            continue
        state = "closed" if day in closed else gaming_day_state(day)
        out.append({"day": day, "state": state, "hands": hands.get(day, 0)})
    # Older days that were dealt but never closed stay on the list until they are (at most 60 of them).
    backlog = (Hand.objects.filter(gaming_day__lt=first).exclude(
        gaming_day__in=GamingDay.objects.filter(status=GamingDay.Status.CLOSED).values("day"))
        .values("gaming_day").annotate(n=Count("id")).order_by("-gaming_day")[:60])
    for row in backlog:
        out.append({"day": row["gaming_day"], "state": gaming_day_state(row["gaming_day"]), "hands": row["n"]})
    return out


def closed_days(*, date_from: dt.date, date_to: dt.date) -> set[dt.date]:
    """The closed gaming days in ``[date_from, date_to]``."""
    return set(GamingDay.objects.filter(day__gte=date_from, day__lte=date_to, status=GamingDay.Status.CLOSED)
               .values_list("day", flat=True))


def report_closed_days_apply(report) -> None:
    """Put each closed day's stored rows into a built tax report (a closed day's report never changes),
    and fill ``report.tronc`` and ``report.days`` (per day: period, state, checksum, people, reconciliation)."""
    from accounting.services.reports import TaxReport

    rows = report.rows
    closed = {g.day: g for g in GamingDay.objects.filter(day__gte=report.date_from, day__lte=report.date_to)
              .select_related("closed_by")}
    closed = {day: g for day, g in closed.items() if g.status == GamingDay.Status.CLOSED}
    if closed:
        rows = [r for r in rows if r["gaming_day"] not in closed]
        for g in closed.values():
            rows.extend(snapshot_rows(g.report))
        rows.sort(key=lambda r: (r["gaming_day"], r["table"], r["game"], r["limit"] or ""))
        TaxReport.__init__(report, report.date_from, report.date_to, rows, generated_at=report.generated_at,
                           generated_by=report.generated_by)
    report.tronc = _tronc_rows(report.date_from, report.date_to, closed)
    report.days = _day_details(report, closed)


def _tronc_rows(date_from: dt.date, date_to: dt.date, closed: dict) -> list[dict[str, Any]]:
    out = []
    for count in (TroncCount.objects.filter(gaming_day__gte=date_from, gaming_day__lte=date_to)
                  .exclude(gaming_day__in=list(closed)).select_related("table").order_by("gaming_day", "table__name")):
        out.append({"gaming_day": count.gaming_day, "table": count.table.name, "shift": count.shift,
                    "counted": count.counted, "confirmed": count.confirmed_by_id is not None})
    for day, g in closed.items():
        out.extend({"gaming_day": day, "table": t["table"], "shift": t["shift"], "counted": Decimal(t["counted"]),
                    "confirmed": bool(t["confirmed_by"])} for t in g.report.get("tronc", []))
    out.sort(key=lambda r: (r["gaming_day"], r["table"], r["shift"]))
    return out


def _day_details(report, closed: dict) -> dict[dt.date, dict[str, Any]]:
    days = sorted({*report.day_totals, *(t["gaming_day"] for t in report.tronc), *closed})
    if not days:
        return {}
    open_discrepancies = dict(Discrepancy.objects.filter(gaming_day__in=days, status=Discrepancy.Status.OPEN)
                              .values("gaming_day").annotate(n=Count("id")).values_list("gaming_day", "n"))
    unchecked = dict(Hand.objects.filter(gaming_day__in=days).filter(
        Q(status=Hand.Status.OPEN) | Q(reconciliation__in=(Hand.Reconciliation.NOT_DUE, Hand.Reconciliation.AWAITING)))
        .values("gaming_day").annotate(n=Count("id")).values_list("gaming_day", "n"))
    people: dict[dt.date, set[str]] = defaultdict(set)
    for model in (DropCount, TroncCount):
        for day, counter, confirmer in (model.objects.filter(gaming_day__in=days)
                                        .values_list("gaming_day", "counted_by__username", "confirmed_by__username")):
            people[day].update(p for p in (counter, confirmer) if p)
    signed_off: dict[dt.date, list[dict[str, Any]]] = defaultdict(list)  # the third person of a drop variance
    for day, who, table, shift, variance in (DropCount.objects.filter(gaming_day__in=days, signed_off_by__isnull=False)
                                             .order_by("table__name", "shift")
                                             .values_list("gaming_day", "signed_off_by__username", "table__name",
                                                          "shift", "variance")):
        signed_off[day].append({"who": who, "table": table, "shift": shift, "variance": variance})
    out = {}
    for day in days:
        g = closed.get(day)
        out[day] = {**day_period(day), "closed": g is not None, "checksum": g.checksum if g else "",
                    "closed_by": _user(g.closed_by) if g else "", "closed_at": g.closed_at if g else None,
                    "open_discrepancies": open_discrepancies.get(day, 0), "unchecked_hands": unchecked.get(day, 0),
                    "counted_by": sorted(people[day]), "signed_off": signed_off[day]}
    return out
