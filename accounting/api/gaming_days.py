"""API of the gaming-day close (issue 17): confirmations, the tronc, approvals, close and re-open.

Views only translate; the four-eyes rules live in the services (the same ones the pages call):

* ``drop-counts/{id}/confirm/`` (POST): the second accountant confirms a drop count;
* ``tronc-counts/`` (GET list, POST ``{table, gaming_day, shift, counted}``), ``tronc-counts/{id}/confirm/``;
* ``approvals/`` (GET, filter ``status``, ``kind``, ``gaming_day``), ``approvals/{id}/approve/`` and
  ``.../reject/`` (POST ``{note}``): the second person's decision;
* ``gaming-days/{date}/`` (GET): state, what blocks closing (with links), progress, period, checksum;
* ``gaming-days/{date}/close/`` (POST), ``gaming-days/{date}/reopen/`` (POST ``{reason}``: 202, a request
  a second accountant approves).
"""

from __future__ import annotations

import datetime as dt

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView, get_object_or_404
from rest_framework.response import Response
from rest_framework.views import APIView

from accounting.api.reports import AmountField, DropCountOutputSerializer
from accounting.models import Approval, DropCount, TroncCount
from accounting.selectors import drop_count_list
from accounting.services.approvals import approval_decide, approval_list, gaming_day_reopen_request
from accounting.services.drop import drop_count_confirm
from accounting.services.gaming_day import gaming_day_close, gaming_day_summary
from accounting.services.tronc import tronc_count_confirm, tronc_count_record
from casino.api_input import NOTE_MAX_CHARS, StrictInputSerializer
from casino.errors import ApplicationError
from casino.gaming_day import gaming_day_check
from casino.i18n import gettext_noop
from casino.permissions import IsAccountant, IsAccountantOrFloorManager
from tables.models import Table


def _day(text: str) -> dt.date:
    """The gaming day named in a URL; a 400 in the reader's language for text that is not one."""
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        day = None
    if day is None or not gaming_day_check(day):
        raise ApplicationError(gettext_noop("'%(text)s' is not a gaming day: write it as a date, YYYY-MM-DD",
                                            text=text[:40]), code="invalid", extra={"field": "date"})
    return day


class DropCountConfirmView(APIView):
    """The second accountant (not the one who counted) confirms a drop count."""

    permission_classes = [IsAccountant]

    @extend_schema(request=None, responses=DropCountOutputSerializer)
    def post(self, request, pk: int):
        count = drop_count_confirm(drop_count=get_object_or_404(DropCount, pk=pk), actor=request.user)
        return Response(DropCountOutputSerializer(drop_count_list().get(pk=count.pk)).data)


class TroncCountOutputSerializer(serializers.ModelSerializer):
    """A tronc count. ``counted_by`` and ``confirmed_by`` are usernames (as elsewhere in the API); the same names
    are in ``counted_by_username`` and ``confirmed_by_username``, the fields a drop count carries too (whose
    ``counted_by`` is a user id; break-test finding 4)."""

    table_name = serializers.CharField(source="table.name")
    counted_by = serializers.StringRelatedField()
    confirmed_by = serializers.StringRelatedField()
    counted_by_username = serializers.CharField(source="counted_by.username", allow_null=True, default=None,
                                                read_only=True)
    confirmed_by_username = serializers.CharField(source="confirmed_by.username", allow_null=True, default=None,
                                                  read_only=True)

    class Meta:
        model = TroncCount
        fields = ["id", "table", "table_name", "gaming_day", "shift", "counted", "counted_by", "counted_by_username",
                  "counted_at", "confirmed_by", "confirmed_by_username", "confirmed_at"]


class TroncCountInputSerializer(StrictInputSerializer):
    table = serializers.PrimaryKeyRelatedField(queryset=Table.objects.all())
    gaming_day = serializers.DateField()
    shift = serializers.CharField(required=False, allow_blank=True, default="", max_length=32)
    counted = AmountField(help_text='EUR as a decimal string, e.g. "42.50"')


def _tronc_list():
    return TroncCount.objects.select_related("table", "counted_by", "confirmed_by").order_by("-gaming_day", "table__name")


class TroncCountListCreateView(ListAPIView):
    """Tronc counts (the staff's tips box per table and shift); POST records one."""

    permission_classes = [IsAccountant]
    serializer_class = TroncCountOutputSerializer
    filterset_fields = ["table", "gaming_day", "shift"]

    def get_queryset(self):
        return _tronc_list()

    @extend_schema(request=TroncCountInputSerializer, responses={201: TroncCountOutputSerializer})
    def post(self, request):
        data = TroncCountInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        count = tronc_count_record(actor=request.user, **data.validated_data)
        return Response(TroncCountOutputSerializer(_tronc_list().get(pk=count.pk)).data, status=status.HTTP_201_CREATED)


class TroncCountConfirmView(APIView):
    """The second accountant confirms a tronc count."""

    permission_classes = [IsAccountant]

    @extend_schema(request=None, responses=TroncCountOutputSerializer)
    def post(self, request, pk: int):
        count = tronc_count_confirm(tronc_count=get_object_or_404(TroncCount, pk=pk), actor=request.user)
        return Response(TroncCountOutputSerializer(_tronc_list().get(pk=count.pk)).data)


class ApprovalOutputSerializer(serializers.ModelSerializer):
    requested_by = serializers.StringRelatedField()
    decided_by = serializers.StringRelatedField()

    class Meta:
        model = Approval
        fields = ["id", "kind", "subject_id", "gaming_day", "amount", "note", "status", "requested_by", "requested_at",
                  "decided_by", "decided_at", "result_id"]


class ApprovalListView(ListAPIView):
    """Requests waiting for (or decided by) a second person."""

    permission_classes = [IsAccountantOrFloorManager]
    serializer_class = ApprovalOutputSerializer
    filterset_fields = ["status", "kind", "gaming_day"]

    def get_queryset(self):
        return approval_list()


class DecisionSerializer(StrictInputSerializer):
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=NOTE_MAX_CHARS)


class ApprovalDecideView(APIView):
    """A second person approves (and so carries out) or rejects a request."""

    permission_classes = [IsAccountantOrFloorManager]
    approve = True

    @extend_schema(request=DecisionSerializer, responses=ApprovalOutputSerializer)
    def post(self, request, pk: int):
        data = DecisionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        approval = approval_decide(approval=get_object_or_404(approval_list(), pk=pk), actor=request.user,
                                   approve=self.approve, note=data.validated_data["note"])
        return Response(ApprovalOutputSerializer(approval_list().get(pk=approval.pk)).data)


class GamingDayView(APIView):
    """A gaming day's state (open, reconciling, ready_to_close, closed) and what blocks closing it."""

    permission_classes = [IsAccountant]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request, day: str):
        return Response(gaming_day_summary(_day(day)))


class GamingDayCloseView(APIView):
    """Close a gaming day (400 ``gaming_day_blocked`` with the blockers when it cannot be closed)."""

    permission_classes = [IsAccountant]

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT})
    def post(self, request, day: str):
        closed = gaming_day_close(day=_day(day), actor=request.user)
        return Response(gaming_day_summary(closed.day))


class ReasonSerializer(StrictInputSerializer):
    reason = serializers.CharField(max_length=NOTE_MAX_CHARS)


class GamingDayReopenView(APIView):
    """Ask to re-open a closed day with a reason: 202 with the approval a second accountant decides."""

    permission_classes = [IsAccountant]

    @extend_schema(request=ReasonSerializer, responses={202: ApprovalOutputSerializer})
    def post(self, request, day: str):
        data = ReasonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        approval = gaming_day_reopen_request(day=_day(day), actor=request.user, reason=data.validated_data["reason"])
        return Response(ApprovalOutputSerializer(approval_list().get(pk=approval.pk)).data,
                        status=status.HTTP_202_ACCEPTED)
