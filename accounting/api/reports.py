"""API of reconciliation, drop counts and tax reports (accountants only). Views only translate.

Routes (``accounting/api/reports_urls.py``, under ``/api/v1/``):

* ``reports/tax/?date_from=&date_to=&fmt=json|csv|xlsx|pdf``: the tax report of a small period, rendered
  at once (``fmt`` and not ``format``: DRF reserves ``format``); a period longer than
  ``REPORT_JOB_THRESHOLD_DAYS`` is refused with ``code="period_too_large"``: queue a job instead;
* ``reports/jobs/`` (GET list, POST ``{date_from, date_to, fmt}`` -> 202), ``reports/jobs/{id}/``
  (progress), ``reports/jobs/{id}/download/`` (the file once ``done``);
* ``reports/hands/?date_from=&date_to=``: the hand-level audit export, streamed CSV, any range;
* ``reconciliation/discrepancies/`` (+ ``{id}/resolve/``), ``reconciliation/runs/``,
  ``reconciliation/gaming-days/`` (POST ``{gaming_day}``: queue a day run);
* ``drop-counts/`` (GET list, POST a count), ``drop-counts/{id}/sign-off/`` (POST ``{note}``).
"""

from __future__ import annotations

import django_filters
from django.http import FileResponse, HttpResponse, StreamingHttpResponse
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field, inline_serializer
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView, RetrieveAPIView, get_object_or_404
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.response import Response
from rest_framework.views import APIView

from accounting.exports import CONTENT_TYPES, CSV_FORM_MACHINE, CSV_FORMS, hand_export_csv, tax_report_render
from accounting.models import Approval, Discrepancy, DropCount, ReconciliationRun, ReportJob
from accounting.selectors import (
    HAND_EXPORT_COLUMNS,
    discrepancy_list,
    drop_count_list,
    hand_export_rows,
    reconciliation_run_list,
    report_job_list,
)
from accounting.services.approvals import discrepancy_resolve_request
from accounting.services.drop import drop_count_record, drop_count_sign_off
from accounting.services.reports import (
    FORMATS,
    job_threshold_days,
    period_check,
    report_filename,
    report_job_create,
    tax_report_build,
)
from casino.api_input import NOTE_MAX_CHARS, StrictInputSerializer
from casino.errors import ApplicationError
from casino.gaming_day import gaming_day_check, gaming_day_of
from casino.i18n import gettext_noop, status_word
from casino.permissions import IsAccountant
from tables.models import Table


class AnyContentNegotiation(BaseContentNegotiation):
    """File downloads ignore the client's Accept header (a browser asks for text/html)."""

    def select_parser(self, request, parsers):
        return parsers[0] if parsers else None

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


def _single_values(query, names: tuple[str, ...], *, reserved: tuple[str, ...] = ()) -> None:
    """Refuse a query string that repeats one of ``names`` (``?fmt=json&fmt=csv``: which one?) or uses a
    ``reserved`` name instead (``format`` for ``fmt``), rather than silently picking one."""
    for name in names:
        if len(query.getlist(name)) > 1:
            raise ApplicationError(gettext_noop("%(name)s is given %(n_getlist)s times; give it once", name=name, n_getlist=len(query.getlist(name))),
                                   code="invalid", extra={"field": name})
    for name in reserved:
        if name in query:
            raise ApplicationError(gettext_noop("unknown parameter %(name)s: the file type is chosen with fmt (one of json, %(formats)s)", name=repr(name), formats=', '.join(FORMATS)), code="invalid", extra={"field": name})


class PeriodSerializer(serializers.Serializer):
    date_from = serializers.DateField()
    date_to = serializers.DateField()

    def validate(self, attrs):
        period_check(date_from=attrs["date_from"], date_to=attrs["date_to"])
        return attrs


class TaxReportQuerySerializer(PeriodSerializer):
    fmt = serializers.ChoiceField(choices=("json", *FORMATS), required=False)
    form = serializers.ChoiceField(choices=CSV_FORMS, required=False,
                                   help_text="CSV only: machine (RFC 4180, game codes, no tronc; the default), "
                                             "excel_de (German-language Excel: semicolon, decimal comma, UTF-8 with "
                                             "BOM) or excel_en (English-language Excel: comma, decimal point, UTF-8 "
                                             "with BOM); both Excel forms carry game names in words and the tronc")

    def to_internal_value(self, data):
        if "fmt" in data and not data.get("fmt"):  # "?fmt=" is an unknown format, not the default
            raise serializers.ValidationError({"fmt": [f"an empty fmt is not a format; use one of json, "
                                                       f"{', '.join(FORMATS)}"]})
        return super().to_internal_value(data)


class TaxReportView(APIView):
    """The tax report of a period of gaming days: JSON, or a CSV / XLSX / PDF download."""

    permission_classes = [IsAccountant]
    content_negotiation_class = AnyContentNegotiation

    @extend_schema(parameters=[TaxReportQuerySerializer], responses={200: OpenApiTypes.OBJECT},
                   description="Small periods only (at most REPORT_JOB_THRESHOLD_DAYS gaming days); "
                               "queue a report job for longer ones.")
    def get(self, request):
        _single_values(request.query_params, ("date_from", "date_to", "fmt", "form"), reserved=("format",))
        query = TaxReportQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        date_from, date_to = query.validated_data["date_from"], query.validated_data["date_to"]
        fmt = query.validated_data.get("fmt", "json")
        days = (date_to - date_from).days + 1
        if days > job_threshold_days():
            raise ApplicationError(
                gettext_noop("%(days)s gaming days is a large period (more than %(job_threshold_days)s): queue it with POST /api/v1/reports/jobs/ and download it when ready", days=days, job_threshold_days=job_threshold_days()), code="period_too_large",
                extra={"days": days, "threshold": job_threshold_days()})
        report = tax_report_build(date_from=date_from, date_to=date_to)
        report.generated_by = request.user.get_username()
        if fmt == "json":
            return Response(report.as_json())
        form = query.validated_data.get("form", CSV_FORM_MACHINE)
        response = HttpResponse(tax_report_render(report, fmt, form=form), content_type=CONTENT_TYPES[fmt])
        name = report_filename(date_from=date_from, date_to=date_to, fmt=fmt)
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response


class HandExportView(APIView):
    """The hand-level audit export (one row per hand with its tax and result), streamed as CSV."""

    permission_classes = [IsAccountant]
    content_negotiation_class = AnyContentNegotiation

    @extend_schema(parameters=[PeriodSerializer], responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request):
        _single_values(request.query_params, ("date_from", "date_to"))
        query = PeriodSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        date_from, date_to = query.validated_data["date_from"], query.validated_data["date_to"]
        rows = hand_export_rows(date_from=date_from, date_to=date_to)
        response = StreamingHttpResponse(hand_export_csv(rows, HAND_EXPORT_COLUMNS), content_type=CONTENT_TYPES["csv"])
        response["Content-Disposition"] = f'attachment; filename="hands-{date_from}-{date_to}.csv"'
        return response


class ReportJobOutputSerializer(serializers.ModelSerializer):
    download_url = serializers.SerializerMethodField()

    class Meta:
        model = ReportJob
        fields = ["id", "kind", "fmt", "date_from", "date_to", "status", "progress", "error", "requested_at",
                  "finished_at", "download_url"]

    def get_download_url(self, job) -> str | None:
        if job.status != ReportJob.Status.DONE:
            return None
        return f"/api/v1/reports/jobs/{job.id}/download/"


class ReportJobCreateSerializer(StrictInputSerializer, PeriodSerializer):
    fmt = serializers.ChoiceField(choices=FORMATS)


class ReportJobListCreateView(ListAPIView):
    """List report jobs; POST queues one (202) whose progress the accountant can watch."""

    permission_classes = [IsAccountant]
    serializer_class = ReportJobOutputSerializer
    filterset_fields = ["status", "fmt"]

    def get_queryset(self):
        return report_job_list()

    @extend_schema(request=ReportJobCreateSerializer, responses={202: ReportJobOutputSerializer})
    def post(self, request):
        data = ReportJobCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        job = report_job_create(actor=request.user, **data.validated_data)
        job.refresh_from_db()
        return Response(ReportJobOutputSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class ReportJobDetailView(APIView):
    """One report job: status and progress (0-100)."""

    permission_classes = [IsAccountant]

    @extend_schema(responses=ReportJobOutputSerializer)
    def get(self, request, pk: int):
        return Response(ReportJobOutputSerializer(get_object_or_404(report_job_list(), pk=pk)).data)


class ReportJobDownloadView(APIView):
    """The file of a finished report job (409 while it is still being built)."""

    permission_classes = [IsAccountant]
    content_negotiation_class = AnyContentNegotiation

    @extend_schema(responses={(200, "application/octet-stream"): OpenApiTypes.BINARY})
    def get(self, request, pk: int):
        job = get_object_or_404(report_job_list(), pk=pk)
        if job.status != ReportJob.Status.DONE or not job.file:
            raise ApplicationError(gettext_noop("report job %(id)s is %(status)s (%(progress)s %%); download it when done", id=job.id, status=status_word(job), progress=job.progress),
                                   code="report_not_ready", status_code=409,
                                   extra={"status": job.status, "progress": job.progress})
        name = report_filename(date_from=job.date_from, date_to=job.date_to, fmt=job.fmt)
        return FileResponse(job.file.open("rb"), as_attachment=True, filename=name, content_type=CONTENT_TYPES[job.fmt])


# --- reconciliation -----------------------------------------------------------------------------------------


class DiscrepancyFilter(django_filters.FilterSet):
    class Meta:
        model = Discrepancy
        fields = ["status", "kind", "gaming_day", "hand", "table"]


class DiscrepancyOutputSerializer(serializers.ModelSerializer):
    hand_number = serializers.IntegerField(source="hand.number", allow_null=True, default=None)
    table_name = serializers.CharField(source="table.name", allow_null=True, default=None)
    # Human text in the request's language (issue 18: rendered from the stored code and parameters,
    # amounts "40,00" in German); ``kind`` and ``check_key`` stay the codes.
    what = serializers.CharField(source="what_text", read_only=True)
    expected = serializers.CharField(source="expected_text", read_only=True)
    found = serializers.CharField(source="found_text", read_only=True)
    resolution_note = serializers.CharField(source="resolution_note_text", read_only=True)

    class Meta:
        model = Discrepancy
        fields = ["id", "check_key", "kind", "what", "expected", "found", "hand", "hand_number", "table", "table_name",
                  "gaming_day", "status", "found_at", "resolved_by", "resolution_note"]


class DiscrepancyListView(ListAPIView):
    """Differences found by reconciliation (never corrected automatically)."""

    permission_classes = [IsAccountant]
    serializer_class = DiscrepancyOutputSerializer
    filterset_class = DiscrepancyFilter

    def get_queryset(self):
        return discrepancy_list()


class NoteSerializer(StrictInputSerializer):
    note = serializers.CharField(max_length=NOTE_MAX_CHARS)


class DiscrepancyResolveView(APIView):
    """Close a discrepancy with a note (the ledger fix itself is a reversing entry). Above
    ``FOUR_EYES_APPROVAL_AMOUNT`` the answer is 202 with the approval a second accountant decides."""

    permission_classes = [IsAccountant]

    @extend_schema(request=NoteSerializer, responses={200: DiscrepancyOutputSerializer, 202: OpenApiTypes.OBJECT})
    def post(self, request, pk: int):
        from accounting.api.gaming_days import ApprovalOutputSerializer

        data = NoteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = discrepancy_resolve_request(discrepancy=get_object_or_404(Discrepancy, pk=pk), actor=request.user,
                                          note=data.validated_data["note"])
        if isinstance(row, Approval):
            return Response(ApprovalOutputSerializer(row).data, status=status.HTTP_202_ACCEPTED)
        return Response(DiscrepancyOutputSerializer(discrepancy_list().get(pk=row.pk)).data)


class RunOutputSerializer(serializers.ModelSerializer):
    class Meta:
        model = ReconciliationRun
        fields = ["id", "key", "scope", "hand", "gaming_day", "status", "started_at", "finished_at", "summary"]


class ReconciliationRunListView(ListAPIView):
    """Reconciliation runs (per hand and per gaming day)."""

    permission_classes = [IsAccountant]
    serializer_class = RunOutputSerializer
    filterset_fields = ["scope", "status", "gaming_day", "hand"]

    def get_queryset(self):
        return reconciliation_run_list()


class ReconciliationRunDetailView(RetrieveAPIView):
    """One reconciliation run: its status and, when finished, its counts (``summary``)."""

    permission_classes = [IsAccountant]
    serializer_class = RunOutputSerializer

    def get_queryset(self):
        return reconciliation_run_list()


class GamingDayRunSerializer(StrictInputSerializer):
    gaming_day = serializers.DateField()

    def validate_gaming_day(self, value):
        if not gaming_day_check(value):
            raise ApplicationError(gettext_noop("'%(text)s' is not a gaming day: write it as a date, YYYY-MM-DD",
                                                text=value.isoformat()), code="invalid", extra={"field": "gaming_day"})
        current = gaming_day_of(timezone.now())
        if value > current:  # an "ok" run of an empty future day would read as a clean audit
            raise ApplicationError(gettext_noop("gaming day %(value)s has not started yet (the current gaming day is %(current)s)", value=value, current=current),
                                   code="gaming_day_not_started",
                                   extra={"gaming_day": value.isoformat(), "current": current.isoformat()})
        return value


class GamingDayReconcileView(APIView):
    """Queue the reconciliation of a gaming day now (the beat schedule does it nightly)."""

    permission_classes = [IsAccountant]

    @extend_schema(
        request=GamingDayRunSerializer,
        description="202: a run is queued for the day as it stands now; 200: a run of exactly this state of the "
                    "day is finished (or under way) and is the answer. Follow `url` for its status and counts.",
        responses={202: inline_serializer("GamingDayRunStarted", {
            "gaming_day": serializers.DateField(), "run": serializers.IntegerField(),
            "status": serializers.CharField(), "url": serializers.URLField(), "summary": serializers.DictField()}),
            200: inline_serializer("GamingDayRunDone", {"run": serializers.IntegerField()})})
    def post(self, request):
        from accounting.services.reconciliation import gaming_day_reconcile_request
        from accounting.tasks import reconcile_gaming_day

        data = GamingDayRunSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        day = data.validated_data["gaming_day"]
        run, queued = gaming_day_reconcile_request(day=day)
        if queued:
            reconcile_gaming_day.delay_on_commit(day.isoformat(), run.pk)
            run.refresh_from_db()
        body = {"gaming_day": day.isoformat(), "run": run.pk, "status": run.status,
                "url": request.build_absolute_uri(reverse("reconciliation-run-detail", args=[run.pk])),
                "summary": run.summary}
        return Response(body, status=status.HTTP_202_ACCEPTED if queued else status.HTTP_200_OK)


# --- drop counts --------------------------------------------------------------------------------------------


class DropCountOutputSerializer(serializers.ModelSerializer):
    """A drop count. ``counted_by``, ``confirmed_by`` and ``signed_off_by`` are user ids; each person is also
    named by ``*_username``, the fields a tronc count carries too (break-test finding 4)."""

    table_name = serializers.CharField(source="table.name")
    counted_by_username = serializers.CharField(source="counted_by.username", allow_null=True, default=None,
                                                read_only=True)
    confirmed_by_username = serializers.CharField(source="confirmed_by.username", allow_null=True, default=None,
                                                  read_only=True)
    signed_off_by_username = serializers.CharField(source="signed_off_by.username", allow_null=True, default=None,
                                                   read_only=True)

    class Meta:
        model = DropCount
        fields = ["id", "table", "table_name", "gaming_day", "shift", "counted", "logged", "variance", "status",
                  "counted_by", "counted_by_username", "counted_at", "confirmed_by", "confirmed_by_username",
                  "confirmed_at", "signed_off_by", "signed_off_by_username", "signed_off_at", "sign_off_note"]


@extend_schema_field(OpenApiTypes.STR)
class AmountField(serializers.Field):
    """EUR as a decimal string (``"125.50"``) or a JSON integer; a JSON float is refused, never rounded.

    The value goes to the service unchanged (it checks the digits, the sign and the two decimals).
    """

    default_error_messages = {"float": 'send the amount as a decimal string such as "125.50", not a JSON number '
                                       "with a fraction or an exponent ({value})"}

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, (str, int)):
            self.fail("float", value=repr(data)[:40])
        return data

    def to_representation(self, value):
        return f"{value:.2f}"


class DropCountInputSerializer(StrictInputSerializer):
    table = serializers.PrimaryKeyRelatedField(queryset=Table.objects.all())
    gaming_day = serializers.DateField()
    shift = serializers.CharField(required=False, allow_blank=True, default="", max_length=32)
    counted = AmountField(help_text='EUR as a decimal string, e.g. "125.50"')


class DropCountListCreateView(ListAPIView):
    """Drop counts; POST records the counted contents of a table's tax box and shows the variance."""

    permission_classes = [IsAccountant]
    serializer_class = DropCountOutputSerializer
    filterset_fields = ["table", "gaming_day", "status", "shift"]

    def get_queryset(self):
        return drop_count_list()

    @extend_schema(request=DropCountInputSerializer, responses={201: DropCountOutputSerializer})
    def post(self, request):
        data = DropCountInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        count = drop_count_record(actor=request.user, **data.validated_data)
        return Response(DropCountOutputSerializer(drop_count_list().get(pk=count.pk)).data,
                        status=status.HTTP_201_CREATED)


class DropCountSignOffView(APIView):
    """An accountant signs off a variance over the threshold, with a note."""

    permission_classes = [IsAccountant]

    @extend_schema(request=NoteSerializer, responses=DropCountOutputSerializer,
                   parameters=[OpenApiParameter("pk", int, OpenApiParameter.PATH)])
    def post(self, request, pk: int):
        data = NoteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        count = drop_count_sign_off(drop_count=get_object_or_404(DropCount, pk=pk), actor=request.user,
                                    note=data.validated_data["note"])
        return Response(DropCountOutputSerializer(drop_count_list().get(pk=count.pk)).data)
