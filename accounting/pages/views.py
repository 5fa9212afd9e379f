"""The accountant's pages under ``/accounting/`` (issue 17). Views only translate: they call the same
services as the API (four eyes, close, re-open, counts, approvals) and show their refusals as messages.

* ``/accounting/``: the last 30 gaming days with their state, and the 30-day chart;
* ``/accounting/days/<date>/``: reconciliation progress (an htmx partial polled while the run works),
  what blocks the close (with links), discrepancies, approvals, drop and tronc counts, close / re-open,
  the downloads and the day's chart;
* ``/accounting/days/<date>/<action>/`` (POST): one service call each, then back to the day (PRG);
* ``/accounting/days/<date>/report.<fmt>``, ``/accounting/charts/...svg``.
"""

from __future__ import annotations

import datetime as dt
from functools import wraps

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounting.exports import CONTENT_TYPES, CSV_FORM_EXCEL_DE, CSV_FORM_EXCEL_EN, CSV_FORMS, tax_report_render
from accounting.models import Approval, Discrepancy, DropCount, GamingDay, TroncCount
from accounting.pages.charts import revenue_chart_svg
from accounting.services.approvals import (
    approval_decide,
    discrepancy_amount,
    discrepancy_resolve_request,
    gaming_day_reopen_request,
)
from accounting.services.drop import drop_count_confirm, drop_count_record, drop_count_sign_off, shift_label
from accounting.services.four_eyes import approval_amount
from accounting.services.gaming_day import (
    day_period,
    gaming_day_blockers,
    gaming_day_close,
    gaming_day_state,
    gaming_days_overview,
    reconciliation_progress,
)
from accounting.services.reports import report_filename, tax_report_build
from accounting.services.tronc import tronc_count_confirm, tronc_count_record
from casino.errors import ApplicationError
from casino.forms import MoneyField
from casino.gaming_day import gaming_day_check, gaming_day_of
from casino.i18n import local_date_text, local_datetime_zone_text, message_text
from casino.roles import ACCOUNTANT, has_role
from tables.models import Hand, Table

STATE_LABELS = {"open": gettext_lazy("open"), "reconciling": gettext_lazy("reconciling"),
                "ready_to_close": gettext_lazy("ready to close"), "closed": pgettext_lazy("gaming day status", "closed")}
STATE_BADGES = {"open": "warn", "reconciling": "warn", "ready_to_close": "ok", "closed": "ok"}


def accountant_page(view):
    """Anonymous -> login; signed in without the accountant role -> 403 page."""
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not has_role(request.user, ACCOUNTANT):
            return render(request, "accounting/forbidden.html", status=403)
        return view(request, *args, **kwargs)
    return wrapped


def _day(text: str) -> dt.date:
    """The gaming day in a page's URL; 404 for text that is not one (also the calendar's last day, 9999-12-31,
    which has no next day: :func:`~casino.gaming_day.gaming_day_check`)."""
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        raise Http404(text) from None
    if not gaming_day_check(day):
        raise Http404(text)
    return day


class CountForm(forms.Form):
    table = forms.ModelChoiceField(queryset=Table.objects.order_by("name"), label=gettext_lazy("Table"))
    shift = forms.ChoiceField(required=False, label=gettext_lazy("Shift"))
    counted = MoneyField(label=gettext_lazy("Counted (EUR)"))  # typed the language's way: "12,50", "1.234,50"

    def __init__(self, *args, day: dt.date | None = None, **kwargs):
        from django.conf import settings

        super().__init__(*args, **kwargs)
        if day is not None:  # the tables that dealt that day come first (their boxes must be counted)
            dealt = Table.objects.filter(hands__gaming_day=day).distinct().order_by("name")
            if dealt.exists():
                self.fields["table"].queryset = dealt
                self.fields["table"].empty_label = None
        shifts = getattr(settings, "DROP_SHIFTS", {})
        self.fields["shift"].choices = [("", _("whole day")), *((name, f"{shift_label(name)} ({span})")
                                                                for name, span in shifts.items())]


@accountant_page
def day_list(request):
    """The last 30 gaming days with their state (open, reconciling, ready to close, closed)."""
    days = gaming_days_overview(days=30)
    for row in days:
        row["label"], row["badge"] = STATE_LABELS[row["state"]], STATE_BADGES[row["state"]]
    return render(request, "accounting/day_list.html", {"days": days, "today": gaming_day_of(timezone.now())})


def _day_context(request, day: dt.date) -> dict:
    row = GamingDay.objects.select_related("closed_by").filter(day=day).first()
    closed = row is not None and row.status == GamingDay.Status.CLOSED
    blockers = [] if closed else gaming_day_blockers(day)
    state = gaming_day_state(day, blockers=blockers)
    german = (get_language() or "").startswith("de")
    period = day_period(day)
    return {
        "day": day, "row": row, "closed": closed, "blockers": blockers, "state": state,
        "state_label": STATE_LABELS[state], "state_badge": STATE_BADGES[state],
        "progress": reconciliation_progress(day), "period": period,
        # a person reads the period and the close in the page's language (30.11.2026 06:00 CET / 30 Nov 2026 ...)
        "period_start_text": local_datetime_zone_text(period["start"]),
        "period_end_text": local_datetime_zone_text(period["end"]),
        "closed_at_text": local_datetime_zone_text(row.closed_at) if row is not None else "",
        "discrepancies": Discrepancy.objects.filter(gaming_day=day).select_related("hand", "table", "resolved_by")
        .order_by("status", "id"),
        "approvals": Approval.objects.filter(gaming_day=day).select_related("requested_by", "decided_by"),
        "drops": DropCount.objects.filter(gaming_day=day).select_related("table", "counted_by", "confirmed_by",
                                                                         "signed_off_by").order_by("table__name", "shift"),
        "troncs": TroncCount.objects.filter(gaming_day=day).select_related("table", "counted_by", "confirmed_by")
        .order_by("table__name", "shift"),
        "count_form": CountForm(day=day), "limit": approval_amount(),
        "csv_default": CSV_FORM_EXCEL_DE if german else CSV_FORM_EXCEL_EN,
        "hands_open": Hand.objects.filter(gaming_day=day, status=Hand.Status.OPEN).exists(),
    }


@accountant_page
def day_detail(request, date: str):
    """A gaming day: progress, blockers, discrepancies, approvals, counts, close / re-open, downloads, chart."""
    day = _day(date)
    context = _day_context(request, day)
    for d in context["discrepancies"]:
        d.amount = discrepancy_amount(d)
    return render(request, "accounting/day_detail.html", context)


@accountant_page
def day_progress(request, date: str):
    """The progress partial (htmx polls it every two seconds while the reconciliation run works)."""
    day = _day(date)
    return render(request, "accounting/_progress.html", {"day": day, "progress": reconciliation_progress(day),
                                                         "state": gaming_day_state(day)})


def _act(request, day: dt.date, action, success: str):
    """Run one service call; its refusal becomes an error message (never a 500). Back to the day page."""
    try:
        result = action()
    except ApplicationError as err:
        messages.error(request, message_text(err.message))
    else:
        if isinstance(result, Approval) and result.status == Approval.Status.PENDING:
            messages.warning(request, _("Waiting for a second person: request %(id)s must be approved by another "
                                        "accountant.") % {"id": result.pk})
        else:
            messages.success(request, success)
    return redirect("accounting-day", date=day.isoformat())


@require_POST
@accountant_page
def day_action(request, date: str, action: str):
    """The POST actions of the day page, each one service call."""
    day = _day(date)
    post, user = request.POST, request.user
    if action in ("drop", "tronc"):
        form = CountForm(post)
        if not form.is_valid():
            messages.error(request, _("Check the count: %(errors)s") % {
                "errors": "; ".join(f"{form.fields[k].label}: {' '.join(v)}" for k, v in form.errors.items())})
            return redirect("accounting-day", date=day.isoformat())
        record = drop_count_record if action == "drop" else tronc_count_record
        data = form.cleaned_data
        return _act(request, day, lambda: record(table=data["table"], gaming_day=day, shift=data["shift"] or "",
                                                 counted=f"{data['counted']:.2f}", actor=user),
                    _("The count is recorded; a second accountant must confirm it."))
    if action == "drop-confirm":
        count = get_object_or_404(DropCount, pk=post.get("id"), gaming_day=day)
        return _act(request, day, lambda: drop_count_confirm(drop_count=count, actor=user), _("Drop count confirmed."))
    if action == "tronc-confirm":
        count = get_object_or_404(TroncCount, pk=post.get("id"), gaming_day=day)
        return _act(request, day, lambda: tronc_count_confirm(tronc_count=count, actor=user), _("Tronc count confirmed."))
    if action == "sign-off":
        count = get_object_or_404(DropCount, pk=post.get("id"), gaming_day=day)
        return _act(request, day, lambda: drop_count_sign_off(drop_count=count, actor=user, note=post.get("note", "")),
                    _("Variance signed off."))
    if action == "resolve":
        row = get_object_or_404(Discrepancy, pk=post.get("id"), gaming_day=day)
        return _act(request, day, lambda: discrepancy_resolve_request(discrepancy=row, actor=user,
                                                                      note=post.get("note", "")),
                    _("Discrepancy resolved."))
    if action in ("approve", "reject"):
        approval = get_object_or_404(Approval, pk=post.get("id"), gaming_day=day)
        return _act(request, day, lambda: approval_decide(approval=approval, actor=user, approve=action == "approve",
                                                          note=post.get("note", "")),
                    _("Approved.") if action == "approve" else _("Rejected."))
    if action == "reconcile":
        from accounting.tasks import reconcile_gaming_day

        reconcile_gaming_day.delay_on_commit(day.isoformat())
        messages.success(request, _("The reconciliation of the day is queued."))
        return redirect("accounting-day", date=day.isoformat())
    if action == "close":
        return _act(request, day, lambda: gaming_day_close(day=day, actor=user), _("The gaming day is closed."))
    if action == "reopen":
        return _act(request, day, lambda: gaming_day_reopen_request(day=day, actor=user, reason=post.get("reason", "")),
                    "")
    raise Http404(action)


@accountant_page
def day_report(request, date: str, fmt: str):
    """The day's tax report as PDF, XLSX or CSV (``?form=machine|excel_de|excel_en``; by default the people's
    form of the reader's language: an accountant gets the same content, tronc included, in German or English)."""
    day = _day(date)
    if fmt not in CONTENT_TYPES:
        raise Http404(fmt)
    german = (get_language() or "").startswith("de")
    form = request.GET.get("form") or (CSV_FORM_EXCEL_DE if german else CSV_FORM_EXCEL_EN)
    if form not in CSV_FORMS:
        raise Http404(form)
    report = tax_report_build(date_from=day, date_to=day)
    report.generated_by = request.user.get_username()
    response = HttpResponse(tax_report_render(report, fmt, form=form), content_type=CONTENT_TYPES[fmt])
    name = report_filename(date_from=day, date_to=day, fmt=fmt)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@accountant_page
def chart_day(request, date: str):
    """SVG: GGR and house take per table and per game for one gaming day."""
    day = _day(date)
    svg = revenue_chart_svg(date_from=day, date_to=day, title=_("Gaming day %(day)s") % {"day": local_date_text(day)})
    return HttpResponse(svg, content_type="image/svg+xml")


@accountant_page
def chart_30_days(request):
    """SVG: GGR and house take per table and per game for the last 30 gaming days."""
    today = gaming_day_of(timezone.now())
    first = today - dt.timedelta(days=29)
    svg = revenue_chart_svg(date_from=first, date_to=today, title=_("Last 30 gaming days (%(start)s to %(end)s)")
                            % {"start": local_date_text(first), "end": local_date_text(today)})
    return HttpResponse(svg, content_type="image/svg+xml")
