"""``/api/v1/duty-corrections/`` (issue 20): corrections of the duty roster's past, each with a reason.

Reads for staff (croupiers: the corrections about themselves); writes for floor managers. Views translate
only: :func:`tables.services.roster.duty_correction_record` does the work.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status
from rest_framework.response import Response

from casino.api_input import NOTE_MAX_CHARS, StrictInputSerializer
from tables import selectors
from tables.api.floor import _FloorViewSet, _valid
from tables.models import Dealer, DealerAssignment, DutyCorrection, Table
from tables.services.roster import duty_correction_record


class DutyCorrectionOutput(serializers.ModelSerializer):
    dealer_name = serializers.CharField(source="dealer.user.username", read_only=True)
    table_name = serializers.CharField(source="table.name", read_only=True)
    recorded_by = serializers.SlugRelatedField(slug_field="username", read_only=True)

    class Meta:
        model = DutyCorrection
        fields = ["id", "dealer", "dealer_name", "table", "table_name", "start", "end", "assignment", "reason",
                  "recorded_by", "recorded_at"]


class DutyCorrectionInput(StrictInputSerializer):
    dealer = serializers.PrimaryKeyRelatedField(queryset=Dealer.objects.select_related("user"))
    table = serializers.PrimaryKeyRelatedField(queryset=Table.objects.all())
    start = serializers.DateTimeField()
    end = serializers.DateTimeField(help_text="the period must be over")
    assignment = serializers.PrimaryKeyRelatedField(queryset=DealerAssignment.objects.all(), required=False,
                                                    allow_null=True, default=None,
                                                    help_text="the assignment this corrects, if any")
    reason = serializers.CharField(max_length=NOTE_MAX_CHARS, help_text="why the roster is corrected (required)")


@extend_schema_view(list=extend_schema(summary="Corrections of the duty roster's past"),
                    retrieve=extend_schema(summary="One correction"))
class DutyCorrectionViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, _FloorViewSet):
    """Who really dealt where in the past, recorded with a reason; the assignments stay as they were."""

    serializer_class = DutyCorrectionOutput
    queryset = DutyCorrection.objects.none()
    selector = staticmethod(selectors.duty_correction_list)
    filterset_fields = ["dealer", "table"]

    @extend_schema(summary="Record a correction of the past", request=DutyCorrectionInput,
                   responses={201: DutyCorrectionOutput})
    def create(self, request):
        correction = duty_correction_record(actor=request.user, **_valid(DutyCorrectionInput, request))
        return Response(DutyCorrectionOutput(correction).data, status=status.HTTP_201_CREATED)
