"""Admin pages for accountants: discrepancies, reconciliation runs, drop counts, report jobs, the tax report.

Who: accountants (and superusers); the pages check the role, not Django model permissions. Writes go
through the services (a discrepancy is resolved with a note, a drop count is recorded and signed off
through :mod:`accounting.services.drop`). The tax report page ("Report jobs" -> "Tax report") downloads
a small period at once in CSV, XLSX or PDF and queues a report job for a large one.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.http import FileResponse, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.formats import localize
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounting.exports import CONTENT_TYPES, tax_report_render
from accounting.findings import discrepancy_kind
from accounting.models import Approval, Discrepancy, DropCount, GamingDay, ReconciliationRun, ReportJob, TroncCount
from accounting.services.approvals import approval_decide, discrepancy_resolve_request
from accounting.services.drop import drop_count_confirm, drop_count_record, drop_count_sign_off, shift_label
from accounting.services.reports import (
    FORMATS,
    job_threshold_days,
    period_check,
    report_filename,
    report_job_create,
    tax_report_build,
)
from accounting.services.tronc import tronc_count_confirm
from casino.errors import ApplicationError
from casino.i18n import message_text
from casino.roles import ACCOUNTANT, has_role


class AccountantOnly:
    """Model admin access for accountants (superusers hold every role); no deletes: records are evidence."""

    def _ok(self, request) -> bool:
        return request.user.is_active and request.user.is_staff and has_role(request.user, ACCOUNTANT)

    def has_module_permission(self, request):
        return self._ok(request)

    def has_view_permission(self, request, obj=None):
        return self._ok(request)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return self._ok(request)

    def has_delete_permission(self, request, obj=None):
        return False


# --- discrepancies ------------------------------------------------------------------------------------------


class DiscrepancyForm(forms.ModelForm):
    class Meta:
        model = Discrepancy
        fields = ["resolution_note"]

    def clean(self):
        data = super().clean()
        if self.instance.status == Discrepancy.Status.OPEN and self.has_changed() and not data.get("resolution_note"):
            raise ValidationError(_("write a note to resolve the discrepancy"))
        return data


class DiscrepancyKindFilter(admin.SimpleListFilter):
    """The kinds of finding stored, each in the reader's language."""

    title = _("kind")
    parameter_name = "kind"

    def lookups(self, request, model_admin):
        kinds = Discrepancy.objects.order_by().values_list("kind", flat=True).distinct()
        return sorted(((k, discrepancy_kind(k)) for k in kinds), key=lambda pair: str(pair[1]).lower())

    def queryset(self, request, queryset):
        return queryset.filter(kind=self.value()) if self.value() else queryset


@admin.register(Discrepancy)
class DiscrepancyAdmin(AccountantOnly, admin.ModelAdmin):
    form = DiscrepancyForm
    list_display = ["id", "kind_name", "what_shown", "expected_shown", "found_shown", "hand_link", "table", "gaming_day",
                    "status", "found_at"]
    list_filter = ["status", DiscrepancyKindFilter, "gaming_day"]
    search_fields = ["what", "check_key"]
    list_select_related = ["hand__table", "table"]
    readonly_fields = ["check_key", "kind_name", "what_shown", "expected_shown", "found_shown", "hand", "table",
                       "gaming_day", "status", "found_at", "resolved_by"]
    fields = [*readonly_fields, "resolution_note"]

    @admin.display(description=_("kind"), ordering="kind")
    def kind_name(self, obj: Discrepancy) -> str:
        """The kind of finding in the reader's language (the code stays in the database)."""
        return obj.kind_text

    @admin.display(description=_("what"))
    def what_shown(self, obj: Discrepancy) -> str:
        """What differs, in the reader's language (:mod:`accounting.findings`)."""
        return obj.what_text

    @admin.display(description=_("expected"))
    def expected_shown(self, obj: Discrepancy) -> str:
        """The expected side, amounts in the reader's number format."""
        return obj.expected_text

    @admin.display(description=_("found"))
    def found_shown(self, obj: Discrepancy) -> str:
        """The found side, amounts in the reader's number format."""
        return obj.found_text

    @admin.display(description=_("hand"))
    def hand_link(self, obj):
        if obj.hand_id is None:
            return "-"
        return format_html('<a href="{}">{}</a>', reverse("admin:tables_hand_change", args=[obj.hand_id]), obj.hand)

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.status != Discrepancy.Status.OPEN:
            return [*self.readonly_fields, "resolution_note"]
        return self.readonly_fields

    def save_model(self, request, obj, form, change):
        if obj.status == Discrepancy.Status.OPEN and form.cleaned_data.get("resolution_note"):
            try:
                row = discrepancy_resolve_request(discrepancy=obj, actor=request.user,
                                                  note=form.cleaned_data["resolution_note"])
            except ApplicationError as err:
                messages.error(request, message_text(err.message))
                return
            if isinstance(row, Approval):
                messages.warning(request, _("the amount is above the four-eyes limit: a second accountant must "
                                            "approve the resolution (request %(id)s)") % {"id": row.pk})
            else:
                messages.success(request, gettext("discrepancy %(id)s resolved") % {"id": obj.pk})


@admin.register(ReconciliationRun)
class ReconciliationRunAdmin(AccountantOnly, admin.ModelAdmin):
    list_display = ["key", "scope", "hand", "gaming_day", "status", "started_at", "finished_at"]
    list_filter = ["scope", "status", "gaming_day"]
    search_fields = ["key"]
    readonly_fields = ["key", "scope", "hand", "gaming_day", "status", "started_at", "finished_at", "summary"]

    def has_change_permission(self, request, obj=None):
        return False


# --- drop counts --------------------------------------------------------------------------------------------


class DropCountAddForm(forms.ModelForm):
    counted = forms.DecimalField(label=_("counted"), max_digits=14, decimal_places=2, min_value=0,
                                 help_text=_("EUR counted in the box"))

    class Meta:
        model = DropCount
        fields = ["table", "gaming_day", "shift", "counted"]


class DropCountSignOffForm(forms.ModelForm):
    class Meta:
        model = DropCount
        fields = ["sign_off_note"]


def _each(request, queryset, step) -> None:
    """Run a four-eyes service step on each selected row; a refusal is shown, never a 500."""
    for obj in queryset:
        try:
            step(obj)
            messages.success(request, _("%(obj)s: done") % {"obj": obj})
        except ApplicationError as err:
            messages.error(request, f"{obj}: {message_text(err.message)}")


@admin.action(description=_("Confirm the selected counts (second accountant)"))
def confirm_counts(modeladmin, request, queryset):
    confirm = drop_count_confirm if queryset.model is DropCount else tronc_count_confirm
    field = "drop_count" if queryset.model is DropCount else "tronc_count"
    _each(request, queryset, lambda obj: confirm(**{field: obj, "actor": request.user}))


@admin.display(description=_("shift"), ordering="shift")
def shift_text(obj) -> str:
    """A count's shift as the admin's language names it ("Spätschicht"; issue 18), not the stored key."""
    return shift_label(obj.shift)


@admin.register(DropCount)
class DropCountAdmin(AccountantOnly, admin.ModelAdmin):
    actions = [confirm_counts]
    list_display = ["table", "gaming_day", shift_text, "counted", "logged", "variance", "status", "counted_by",
                    "confirmed_by", "signed_off_by"]
    list_filter = ["status", "gaming_day", "table"]
    list_select_related = ["table", "signed_off_by"]
    readonly_fields = ["table", "gaming_day", "shift", "counted", "logged", "variance", "status", "counted_by",
                       "counted_at", "signed_off_by", "signed_off_at"]

    def has_add_permission(self, request, obj=None):
        return self._ok(request)

    def get_form(self, request, obj=None, change=False, **kwargs):
        kwargs["form"] = DropCountSignOffForm if obj is not None else DropCountAddForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["table", "gaming_day", "shift", "counted"]
        return [*self.readonly_fields, "sign_off_note"]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        if obj.status != DropCount.Status.NEEDS_SIGN_OFF:
            return [*self.readonly_fields, "sign_off_note"]
        return self.readonly_fields

    def save_model(self, request, obj, form, change):
        try:
            if not change:
                saved = drop_count_record(table=form.cleaned_data["table"], gaming_day=form.cleaned_data["gaming_day"],
                                          shift=form.cleaned_data.get("shift") or "",
                                          counted=form.cleaned_data["counted"], actor=request.user)
                obj.pk = saved.pk
                level = messages.WARNING if saved.status == DropCount.Status.NEEDS_SIGN_OFF else messages.SUCCESS
                messages.add_message(request, level, gettext(
                    "logged %(logged)s, counted %(counted)s, variance %(variance)s (%(status)s)") % {
                    "logged": localize(saved.logged), "counted": localize(saved.counted),
                    "variance": localize(saved.variance), "status": saved.get_status_display()})
            elif form.cleaned_data.get("sign_off_note"):
                drop_count_sign_off(drop_count=obj, actor=request.user, note=form.cleaned_data["sign_off_note"])
        except ApplicationError as err:
            obj._refused = True  # nothing was written: no "added" log entry, back to the form
            messages.error(request, message_text(err.message))

    def log_addition(self, request, obj, message):
        if not getattr(obj, "_refused", False):
            super().log_addition(request, obj, message)

    def response_add(self, request, obj, post_url_continue=None):
        if getattr(obj, "_refused", False):
            return HttpResponseRedirect(request.path)
        return super().response_add(request, obj, post_url_continue)


# --- report jobs and the tax report page --------------------------------------------------------------------


class TaxReportForm(forms.Form):
    date_from = forms.DateField(label=_("first gaming day"), widget=forms.DateInput(attrs={"type": "date"}))
    date_to = forms.DateField(label=_("last gaming day"), widget=forms.DateInput(attrs={"type": "date"}))
    fmt = forms.ChoiceField(label=_("format"), choices=[(f, f.upper()) for f in FORMATS])

    def clean(self):
        data = super().clean()
        if data.get("date_from") and data.get("date_to"):
            try:
                period_check(date_from=data["date_from"], date_to=data["date_to"])
            except ApplicationError as err:
                raise ValidationError(message_text(err.message)) from None
        return data


@admin.register(ReportJob)
class ReportJobAdmin(AccountantOnly, admin.ModelAdmin):
    list_display = ["id", "kind", "fmt", "date_from", "date_to", "status", "progress_bar", "requested_by",
                    "requested_at", "download"]
    list_filter = ["status", "fmt"]
    readonly_fields = ["kind", "fmt", "date_from", "date_to", "status", "progress", "error", "requested_by",
                       "requested_at", "finished_at"]
    fields = readonly_fields
    change_list_template = "admin/accounting/reportjob/change_list.html"

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description=_("progress"))
    def progress_bar(self, obj):
        return format_html('<progress max="100" value="{}"></progress> {} %', obj.progress, obj.progress)

    @admin.display(description=_("file"))
    def download(self, obj):
        if obj.status != ReportJob.Status.DONE:
            return "-"
        return format_html('<a href="{}">download</a>', reverse("admin:accounting_reportjob_download", args=[obj.pk]))

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("tax-report/", wrap(self.tax_report_view), name="accounting_tax_report"),
            path("<int:pk>/download/", wrap(self.download_view), name="accounting_reportjob_download"),
            *super().get_urls(),
        ]

    def tax_report_view(self, request):
        """The accountant's tax report page: pick a period and a format, download (or queue a job)."""
        if not self._ok(request):
            return HttpResponse(gettext("only an accountant may download the tax report"), status=403)
        form = TaxReportForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            date_from, date_to, fmt = (form.cleaned_data[k] for k in ("date_from", "date_to", "fmt"))
            if (date_to - date_from).days + 1 > job_threshold_days():
                job = report_job_create(fmt=fmt, date_from=date_from, date_to=date_to, actor=request.user)
                messages.info(request, gettext("report job %(id)s queued: the period is longer than %(days)s gaming "
                                               "days; download it here when it is done")
                              % {"id": job.pk, "days": job_threshold_days()})
                return HttpResponseRedirect(reverse("admin:accounting_reportjob_changelist"))
            report = tax_report_build(date_from=date_from, date_to=date_to)
            response = HttpResponse(tax_report_render(report, fmt), content_type=CONTENT_TYPES[fmt])
            name = report_filename(date_from=date_from, date_to=date_to, fmt=fmt)
            response["Content-Disposition"] = f'attachment; filename="{name}"'
            return response
        context = {**self.admin_site.each_context(request), "title": _("Tax report"), "form": form,
                   "opts": self.model._meta, "threshold": job_threshold_days()}
        return TemplateResponse(request, "admin/accounting/tax_report.html", context)

    def download_view(self, request, pk: int):
        if not self._ok(request):
            return HttpResponse(gettext("only an accountant may download reports"), status=403)
        job = get_object_or_404(ReportJob, pk=pk)
        if job.status != ReportJob.Status.DONE or not job.file:
            messages.warning(request, gettext("report job %(id)s is %(status)s (%(progress)s %%)")
                             % {"id": job.pk, "status": job.get_status_display(), "progress": job.progress})
            return HttpResponseRedirect(reverse("admin:accounting_reportjob_changelist"))
        name = report_filename(date_from=job.date_from, date_to=job.date_to, fmt=job.fmt)
        return FileResponse(job.file.open("rb"), as_attachment=True, filename=name, content_type=CONTENT_TYPES[job.fmt])


# --- issue 17: tronc counts, approvals, closed days (read in the admin; written through the services) ----


@admin.register(TroncCount)
class TroncCountAdmin(AccountantOnly, admin.ModelAdmin):
    actions = [confirm_counts]
    list_display = ["table", "gaming_day", shift_text, "counted", "counted_by", "confirmed_by"]
    list_filter = ["gaming_day", "table"]
    list_select_related = ["table", "counted_by", "confirmed_by"]
    readonly_fields = ["table", "gaming_day", "shift", "counted", "counted_by", "counted_at", "confirmed_by",
                       "confirmed_at"]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.action(description=_("Approve the selected requests (second person)"))
def approve_requests(modeladmin, request, queryset):
    _each(request, queryset, lambda obj: approval_decide(approval=obj, actor=request.user, approve=True))


@admin.action(description=_("Reject the selected requests"))
def reject_requests(modeladmin, request, queryset):
    _each(request, queryset, lambda obj: approval_decide(approval=obj, actor=request.user, approve=False))


@admin.register(Approval)
class ApprovalAdmin(AccountantOnly, admin.ModelAdmin):
    actions = [approve_requests, reject_requests]
    list_display = ["id", "kind", "subject_id", "gaming_day", "amount", "status", "requested_by", "decided_by"]
    list_filter = ["status", "kind"]
    list_select_related = ["requested_by", "decided_by"]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(GamingDay)
class GamingDayAdmin(AccountantOnly, admin.ModelAdmin):
    list_display = ["day", "status", "closed_by", "closed_at", "checksum"]
    list_select_related = ["closed_by"]
    exclude = ["report"]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False
