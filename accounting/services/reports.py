"""The tax report per gaming day, table, game and limit level, and its Celery-built report jobs.

Figures come from the ledger (:func:`accounting.selectors.tax_report_rows`): hands dealt, total of
pots, Taxe/tax collected, Capsa fees, Forty-one bonuses paid by the house, and gross gaming revenue
(``ggr = tax + fees - bonus``), with totals per gaming day and for the whole period. Small periods
are rendered on request; a period longer than ``REPORT_JOB_THRESHOLD_DAYS`` is built by
:func:`report_job_build` in a Celery job whose ``progress`` (0-100) the accountant can watch.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone

from accounting.models import ReportJob
from accounting.selectors import tax_report_rows
from casino.errors import ApplicationError
from casino.gaming_day import gaming_day_check
from casino.i18n import gettext_noop

#: (key, header, kind) of the tax report columns; kind is text / int / money / date.
TAX_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("gaming_day", "gaming day", "date"),
    ("table", "table", "text"),
    ("game", "game", "text"),
    ("limit", "limit", "text"),
    ("hands", "hands dealt", "int"),
    ("pots", "total of pots", "money"),
    ("tax", "Taxe/tax", "money"),
    ("fees", "Capsa fees", "money"),
    ("bonus", "41 bonuses", "money"),
    ("ggr", "gross gaming revenue", "money"),
)
SUMMED = ("hands", "pots", "tax", "fees", "bonus", "ggr")
FORMATS = ("csv", "xlsx", "pdf")
#: Longest period (in gaming days) rendered directly; longer ones need a report job.
DEFAULT_JOB_THRESHOLD_DAYS = 31
#: Longest period a report may cover at all (about ten years).
MAX_PERIOD_DAYS = 3660


def job_threshold_days() -> int:
    """``REPORT_JOB_THRESHOLD_DAYS`` from settings (default 31)."""
    return int(getattr(settings, "REPORT_JOB_THRESHOLD_DAYS", DEFAULT_JOB_THRESHOLD_DAYS))


def _zero_totals() -> dict[str, Any]:
    return {"hands": 0, "pots": Decimal("0.00"), "tax": Decimal("0.00"), "fees": Decimal("0.00"),
            "bonus": Decimal("0.00"), "ggr": Decimal("0.00")}


@dataclass
class TaxReport:
    """A built tax report: ``rows`` (see :data:`TAX_COLUMNS`), totals per gaming day and for the period."""

    date_from: dt.date
    date_to: dt.date
    rows: list[dict[str, Any]]
    day_totals: dict[dt.date, dict[str, Any]] = field(default_factory=dict)
    totals: dict[str, Any] = field(default_factory=_zero_totals)
    generated_at: dt.datetime = field(default_factory=timezone.now)
    #: Who asked for the report (printed on the PDF); set by the caller.
    generated_by: str = ""
    #: Tronc counts of the period (the staff's tips, never in GGR) and per-day details (period, state,
    #: checksum of a closed day, people, reconciliation): filled by
    #: :func:`accounting.services.gaming_day.report_closed_days_apply`.
    tronc: list[dict[str, Any]] = field(default_factory=list)
    days: dict[dt.date, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        days: dict[dt.date, dict[str, Any]] = defaultdict(_zero_totals)
        totals = _zero_totals()
        for row in self.rows:
            for key in SUMMED:
                days[row["gaming_day"]][key] += row[key]
                totals[key] += row[key]
        self.day_totals = dict(sorted(days.items()))
        self.totals = totals

    def by_day(self) -> Iterator[tuple[dt.date, list[dict[str, Any]]]]:
        """(gaming day, its rows) in date order."""
        grouped: dict[dt.date, list[dict[str, Any]]] = defaultdict(list)
        for row in self.rows:
            grouped[row["gaming_day"]].append(row)
        for day in sorted(grouped):
            yield day, grouped[day]

    def as_json(self) -> dict[str, Any]:
        """JSON-able form (money as two-decimal strings) for the API."""
        def clean(values: dict[str, Any]) -> dict[str, Any]:
            return {k: (f"{v:.2f}" if isinstance(v, Decimal) else v.isoformat() if isinstance(v, dt.date) else v)
                    for k, v in values.items()}
        return {
            "date_from": self.date_from.isoformat(), "date_to": self.date_to.isoformat(),
            "rows": [clean(r) for r in self.rows],
            "day_totals": [clean({"gaming_day": d, **t}) for d, t in self.day_totals.items()],
            "totals": clean(self.totals),
            "tronc": [clean(t) for t in self.tronc],
            "days": [{"gaming_day": d.isoformat(), "state": "closed" if info["closed"] else "open",
                      "checksum": info["checksum"] or None, "hours": info["hours"],
                      "start": info["start"].isoformat(), "end": info["end"].isoformat()}
                     for d, info in self.days.items()],
        }


def period_check(*, date_from: dt.date, date_to: dt.date) -> int:
    """Validate a period; return its length in gaming days. Raises ``ApplicationError`` if reversed or too long, or
    when an end is a date the calendar cannot hold as a whole gaming day (9999-12-31)."""
    for name, day in (("date_from", date_from), ("date_to", date_to)):
        if not gaming_day_check(day):
            raise ApplicationError(gettext_noop("'%(text)s' is not a gaming day: write it as a date, YYYY-MM-DD",
                                                text=day.isoformat()), code="invalid_period", extra={"field": name})
    if date_to < date_from:
        raise ApplicationError(gettext_noop("the last gaming day (date_to) must not be before the first (date_from)"), code="invalid_period",
                               extra={"date_from": date_from.isoformat(), "date_to": date_to.isoformat()})
    days = (date_to - date_from).days + 1
    if days > MAX_PERIOD_DAYS:
        raise ApplicationError(gettext_noop("a report covers at most %(max_period_days)s gaming days", max_period_days=MAX_PERIOD_DAYS), code="invalid_period")
    return days


def tax_report_build(*, date_from: dt.date, date_to: dt.date,
                     progress: Callable[[int], None] | None = None) -> TaxReport:
    """Build the tax report of ``[date_from, date_to]`` (gaming days, inclusive).

    With ``progress`` the period is read in slices of about a week and ``progress(percent)`` is called
    after each (the report job's progress bar); otherwise one query. Raises ``ApplicationError`` for
    an invalid period.
    """
    from accounting.services.gaming_day import closed_days, report_closed_days_apply

    days = period_check(date_from=date_from, date_to=date_to)
    if progress is None:
        closed = closed_days(date_from=date_from, date_to=date_to)
        everything_closed = len(closed) == days  # their rows are the stored snapshots: no ledger read
        rows = [] if everything_closed else tax_report_rows(date_from=date_from, date_to=date_to)
        report = TaxReport(date_from, date_to, rows)
        report_closed_days_apply(report)  # issue 17: a closed day's report is its stored snapshot
        return report
    rows: list[dict[str, Any]] = []
    step = 7
    start = date_from
    while start <= date_to:
        end = min(date_to, start + dt.timedelta(days=step - 1))
        rows.extend(tax_report_rows(date_from=start, date_to=end))
        progress(min(99, int(((end - date_from).days + 1) * 100 / days)))
        start = end + dt.timedelta(days=1)
    report = TaxReport(date_from, date_to, rows)
    report_closed_days_apply(report)
    return report


def report_job_create(*, fmt: str, date_from: dt.date, date_to: dt.date, actor) -> ReportJob:
    """Queue a tax report job; the build task is enqueued when the transaction commits.

    Raises ``ApplicationError`` for an unknown format or an invalid period.
    """
    if fmt not in FORMATS:
        raise ApplicationError(gettext_noop("format must be one of %(formats)s", formats=', '.join(FORMATS)), code="invalid_format")
    period_check(date_from=date_from, date_to=date_to)
    from accounting.tasks import build_report

    with transaction.atomic():
        job = ReportJob.objects.create(kind="tax_report", fmt=fmt, date_from=date_from, date_to=date_to,
                                       requested_by=actor if getattr(actor, "pk", None) else None)
        build_report.delay_on_commit(job.id)
    return job


def report_job_build(*, job_id: int) -> ReportJob:
    """Build a queued job's file (claimed by a conditional update: run twice or twice at once, built once).

    Progress is written as the period is read; on success the file is stored and the status is
    ``done``; on an error the status is ``failed`` with the message (and the error is re-raised).
    """
    claimed = ReportJob.objects.filter(id=job_id, status=ReportJob.Status.QUEUED).update(
        status=ReportJob.Status.RUNNING, progress=0)
    job = ReportJob.objects.get(id=job_id)
    if not claimed:
        return job
    from accounting.exports import tax_report_render

    def progress(percent: int) -> None:
        ReportJob.objects.filter(id=job_id).update(progress=percent)

    try:
        report = tax_report_build(date_from=job.date_from, date_to=job.date_to, progress=progress)
        content = tax_report_render(report, job.fmt)
        name = f"tax-report-{job.date_from.isoformat()}-{job.date_to.isoformat()}-job{job.id}.{job.fmt}"
        job.file.save(name, ContentFile(content), save=False)
        ReportJob.objects.filter(id=job_id).update(file=job.file.name, status=ReportJob.Status.DONE, progress=100,
                                                   finished_at=timezone.now())
    except Exception as exc:
        ReportJob.objects.filter(id=job_id).update(status=ReportJob.Status.FAILED, error=str(exc)[:2000],
                                                   finished_at=timezone.now())
        raise
    job.refresh_from_db()
    return job


def report_filename(*, date_from: dt.date, date_to: dt.date, fmt: str) -> str:
    """``tax-report-2026-03-01-2026-03-31.csv``."""
    return f"tax-report-{date_from.isoformat()}-{date_to.isoformat()}.{fmt}"
