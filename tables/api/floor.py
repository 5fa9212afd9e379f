"""Floor management API (issue 7) under /api/v1/: tables, limit profiles, limit-change requests, dealers,
rotation plans, table sessions and live dealer assignments.

Views only translate: validate the input serializer, call one service of :mod:`tables.services.floor`,
serialize the result. Lists come from role-scoped selectors (:mod:`tables.selectors`): floor managers
and accountants see everything, croupiers their own dealer record and assignments and the tables they
deal. Writes: floor managers only (:class:`~casino.permissions.FloorManagerWritesStaffReads`).
"""

from __future__ import annotations

import datetime as dt

import django_filters
from django.db.models import Q
from django.utils import timezone
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from casino.errors import ApplicationError
from casino.i18n import gettext_noop
from casino.permissions import FloorManagerWritesStaffReads
from tables import selectors
from tables.api import floor_serializers as s
from tables.models import (
    Dealer,
    DealerAssignment,
    Game,
    LimitChangeRequest,
    LimitProfile,
    RotationPlan,
    Table,
    TableSession,
)
from tables.services import floor as services
from tables.services.dealer_push import dealer_takeover


def _valid(serializer_class, request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class _FloorViewSet(viewsets.GenericViewSet):
    """Reads for staff (scoped by role through ``selector``), writes for floor managers."""

    permission_classes = [FloorManagerWritesStaffReads]
    selector = None

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no user
            return self.queryset
        return type(self).selector(user=self.request.user)


class UtcIsoDateTimeFilter(django_filters.IsoDateTimeFilter):
    """An ISO 8601 instant, compared in UTC: an offset the database cannot store (``-18:56``, valid ISO) is
    converted first instead of failing the query (found by schemathesis, issue 20)."""

    def filter(self, qs, value):
        if value is not None and timezone.is_aware(value):
            value = value.astimezone(dt.UTC)
        return super().filter(qs, value)


# ---- tables -------------------------------------------------------------------------------------

class TableFilter(django_filters.FilterSet):
    class Meta:
        model = Table
        fields = ["game", "status"]


@extend_schema_view(
    list=extend_schema(summary="Tables (croupiers: the tables they deal)"),
    retrieve=extend_schema(summary="One table"),
)
class TableViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, _FloorViewSet):
    """Tables: create, rename / reseat, open (with the counted float), pause, resume, close, audit."""

    serializer_class = s.TableOutput
    filterset_class = TableFilter

    queryset = Table.objects.none()
    selector = staticmethod(selectors.table_list_for)

    @extend_schema(summary="Create a closed table", request=s.TableCreateInput, responses={201: s.TableOutput})
    def create(self, request):
        data = _valid(s.TableCreateInput, request)
        table = services.table_create(actor=request.user, **data)
        return Response(s.TableOutput(table).data, status=status.HTTP_201_CREATED)

    @extend_schema(summary="Rename a table or change its seats (closed tables)", request=s.TableUpdateInput,
                   responses=s.TableOutput)
    def partial_update(self, request, pk=None):
        table = self.get_object()
        if "game" in request.data:
            raise ApplicationError(gettext_noop("game: a table's game never changes; create another table"),
                                   extra={"field": "game"})
        data = _valid(s.TableUpdateInput, request)
        table = services.table_update(table=table, actor=request.user, **data)
        return Response(s.TableOutput(table).data)

    @extend_schema(summary="Open a closed table with its counted opening float", request=s.TableOpenInput,
                   responses={201: s.TableSessionOutput})
    @action(detail=True, methods=["post"])
    def open(self, request, pk=None):
        table = self.get_object()
        data = _valid(s.TableOpenInput, request)
        session = services.table_open(table=table, actor=request.user, **data)
        return Response(s.TableSessionOutput(session).data, status=status.HTTP_201_CREATED)

    @extend_schema(summary="Pause an open table", request=s.FloorReasonInput, responses=s.TableOutput)
    @action(detail=True, methods=["post"])
    def pause(self, request, pk=None):
        table = services.table_pause(table=self.get_object(), actor=request.user, **_valid(s.FloorReasonInput, request))
        return Response(s.TableOutput(table).data)

    @extend_schema(summary="Resume a paused table", request=s.FloorReasonInput, responses=s.TableOutput)
    @action(detail=True, methods=["post"])
    def resume(self, request, pk=None):
        table = services.table_resume(table=self.get_object(), actor=request.user, **_valid(s.FloorReasonInput, request))
        return Response(s.TableOutput(table).data)

    @extend_schema(summary="Close a table with its counted closing float", request=s.TableCloseInput,
                   responses=s.TableSessionOutput)
    @action(detail=True, methods=["post"])
    def close(self, request, pk=None):
        table = self.get_object()
        data = _valid(s.TableCloseInput, request)
        session = services.table_close(table=table, actor=request.user, **data)
        return Response(s.TableSessionOutput(session).data if session else s.TableOutput(table).data)

    @extend_schema(summary="Audit history of a table (status changes, edits, limit versions)",
                   responses=s.AuditOutput(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)  # the whole trail, as documented
    def audit(self, request, pk=None):
        return Response(s.AuditOutput(selectors.audit_history(obj=self.get_object()), many=True).data)


# ---- limit profiles -----------------------------------------------------------------------------

class LimitProfileFilter(django_filters.FilterSet):
    class Meta:
        model = LimitProfile
        fields = ["table", "game", "version", "currency"]


@extend_schema_view(list=extend_schema(summary="Limit profile versions"), retrieve=extend_schema(summary="One version"))
class LimitProfileViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, _FloorViewSet):
    """Versioned limit profiles. A change is a new version (POST), applied from the table's next hand;
    versions are never edited."""

    serializer_class = s.LimitProfileOutput
    filterset_class = LimitProfileFilter

    queryset = LimitProfile.objects.none()
    selector = staticmethod(selectors.limit_profile_list)

    @extend_schema(summary="Add a new limit version (validated by the game's engine)",
                   request=s.LimitProfileCreateInput, responses={201: s.LimitProfileOutput})
    def create(self, request):
        data = _valid(s.LimitProfileCreateInput, request)
        profile = services.limit_profile_create(actor=request.user, **data)
        return Response(s.LimitProfileOutput(profile).data, status=status.HTTP_201_CREATED)

    @extend_schema(summary="Audit history of a limit version", responses=s.AuditOutput(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)  # the whole trail, as documented
    def audit(self, request, pk=None):
        return Response(s.AuditOutput(selectors.audit_history(obj=self.get_object()), many=True).data)


class LimitChangeRequestFilter(django_filters.FilterSet):
    class Meta:
        model = LimitChangeRequest
        fields = ["table", "status"]


@extend_schema_view(list=extend_schema(summary="Players' limit change requests"),
                    retrieve=extend_schema(summary="One request"))
class LimitChangeRequestViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, _FloorViewSet):
    """Players ask for different limits (house sheets); the floor records, approves or rejects."""

    serializer_class = s.LimitChangeRequestOutput
    filterset_class = LimitChangeRequestFilter

    queryset = LimitChangeRequest.objects.none()
    selector = staticmethod(selectors.limit_change_request_list)

    @extend_schema(summary="Record a request (the requested config is validated now)",
                   request=s.LimitChangeRequestCreateInput, responses={201: s.LimitChangeRequestOutput})
    def create(self, request):
        data = _valid(s.LimitChangeRequestCreateInput, request)
        req = services.limit_change_request_create(actor=request.user, **data)
        return Response(s.LimitChangeRequestOutput(req).data, status=status.HTTP_201_CREATED)

    @extend_schema(summary="Approve: schedules the new limit version from the table's next hand",
                   request=s.ApproveInput, responses=s.LimitChangeRequestOutput)
    @action(detail=True, methods=["post"])
    def approve(self, request, pk=None):
        req = services.limit_change_request_approve(request=self.get_object(), actor=request.user,
                                                    **_valid(s.ApproveInput, request))
        return Response(s.LimitChangeRequestOutput(req).data)

    @extend_schema(summary="Reject the request", request=s.DecisionInput, responses=s.LimitChangeRequestOutput)
    @action(detail=True, methods=["post"])
    def reject(self, request, pk=None):
        req = services.limit_change_request_reject(request=self.get_object(), actor=request.user,
                                                   **_valid(s.DecisionInput, request))
        return Response(s.LimitChangeRequestOutput(req).data)

    @extend_schema(summary="Audit history of a request", responses=s.AuditOutput(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)  # the whole trail, as documented
    def audit(self, request, pk=None):
        return Response(s.AuditOutput(selectors.audit_history(obj=self.get_object()), many=True).data)


# ---- dealers ------------------------------------------------------------------------------------

class DealerFilter(django_filters.FilterSet):
    game = django_filters.ChoiceFilter(choices=Game.choices, method="filter_game", label="may deal this game")

    class Meta:
        model = Dealer
        fields = ["active", "game"]

    def filter_game(self, queryset, name, value):
        # ``games`` is a JSON list; filtered in Python so it works on SQLite and PostgreSQL alike.
        return queryset.filter(pk__in=[d.pk for d in queryset if value in d.games])


@extend_schema_view(list=extend_schema(summary="Dealers (croupiers: themselves)"),
                    retrieve=extend_schema(summary="One dealer"))
class DealerViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, _FloorViewSet):
    """Dealers: croupier users and the games they may deal."""

    serializer_class = s.DealerOutput
    filterset_class = DealerFilter

    queryset = Dealer.objects.none()
    selector = staticmethod(selectors.dealer_list)

    @extend_schema(summary="Make a croupier user a dealer", request=s.DealerCreateInput,
                   responses={201: s.DealerOutput})
    def create(self, request):
        dealer = services.dealer_create(actor=request.user, **_valid(s.DealerCreateInput, request))
        return Response(s.DealerOutput(dealer).data, status=status.HTTP_201_CREATED)

    @extend_schema(summary="Change a dealer's games or active flag", request=s.DealerUpdateInput,
                   responses=s.DealerOutput)
    def partial_update(self, request, pk=None):
        dealer = services.dealer_update(dealer=self.get_object(), actor=request.user,
                                        **_valid(s.DealerUpdateInput, request))
        return Response(s.DealerOutput(dealer).data)


# ---- rotation plans -----------------------------------------------------------------------------

class RotationPlanFilter(django_filters.FilterSet):
    shift_start_after = UtcIsoDateTimeFilter(field_name="shift_start", lookup_expr="gte")
    shift_start_before = UtcIsoDateTimeFilter(field_name="shift_start", lookup_expr="lt")

    class Meta:
        model = RotationPlan
        fields = ["status", "shift_start_after", "shift_start_before"]


@extend_schema_view(list=extend_schema(summary="Rotation plans (croupiers: published plans they are on)"),
                    retrieve=extend_schema(summary="One plan with its slots"))
class RotationPlanViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, _FloorViewSet):
    """Dealer rotation: generate a proposal, edit its slots, publish (creates the live assignments), cancel."""

    serializer_class = s.RotationPlanOutput
    filterset_class = RotationPlanFilter

    queryset = RotationPlan.objects.none()
    selector = staticmethod(selectors.rotation_plan_list)

    def _fresh(self, plan):
        return selectors.rotation_plan_list(user=self.request.user).get(pk=plan.pk)

    @extend_schema(summary="Generate a proposed rotation (400 with the reason if the tables cannot be staffed)",
                   request=s.RotationPlanCreateInput, responses={201: s.RotationPlanOutput})
    def create(self, request):
        data = dict(_valid(s.RotationPlanCreateInput, request))
        plan = services.rotation_plan_generate(actor=request.user, **data)
        return Response(s.RotationPlanOutput(self._fresh(plan)).data, status=status.HTTP_201_CREATED)

    @extend_schema(summary="Replace the slots of a proposed plan (the floor's edit)",
                   request=s.RotationSlotsReplaceInput, responses=s.RotationPlanOutput)
    @action(detail=True, methods=["put"])
    def slots(self, request, pk=None):
        data = _valid(s.RotationSlotsReplaceInput, request)
        plan = services.rotation_plan_slots_replace(plan=self.get_object(), actor=request.user, **data)
        return Response(s.RotationPlanOutput(self._fresh(plan)).data)

    @extend_schema(summary="Publish: every table staffed for the whole shift; creates the dealer assignments",
                   request=s.FloorReasonInput, responses=s.RotationPlanOutput)
    @action(detail=True, methods=["post"])
    def publish(self, request, pk=None):
        plan = services.rotation_plan_publish(plan=self.get_object(), actor=request.user,
                                              **_valid(s.FloorReasonInput, request))
        return Response(s.RotationPlanOutput(self._fresh(plan)).data)

    @extend_schema(summary="Cancel: future assignments of a published plan are removed", request=s.FloorReasonInput,
                   responses=s.RotationPlanOutput)
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        plan = services.rotation_plan_cancel(plan=self.get_object(), actor=request.user,
                                             **_valid(s.FloorReasonInput, request))
        return Response(s.RotationPlanOutput(self._fresh(plan)).data)

    @extend_schema(summary="Audit history of a plan", responses=s.AuditOutput(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)  # the whole trail, as documented
    def audit(self, request, pk=None):
        return Response(s.AuditOutput(selectors.audit_history(obj=self.get_object()), many=True).data)


# ---- table sessions and live assignments --------------------------------------------------------

class TableSessionFilter(django_filters.FilterSet):
    open = django_filters.BooleanFilter(field_name="closed_at", lookup_expr="isnull", label="still open")

    class Meta:
        model = TableSession
        fields = ["table", "open"]


@extend_schema_view(list=extend_schema(summary="Table sessions (opened and closed with the table)"),
                    retrieve=extend_schema(summary="One session"))
class TableSessionViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, _FloorViewSet):
    """Read-only: sessions are opened and closed by ``POST /tables/{id}/open/`` and ``/close/``."""

    serializer_class = s.TableSessionOutput
    filterset_class = TableSessionFilter

    queryset = TableSession.objects.none()
    selector = staticmethod(selectors.table_session_list)


class DealerAssignmentFilter(django_filters.FilterSet):
    active = django_filters.BooleanFilter(method="filter_active", label="covers now")
    start_after = UtcIsoDateTimeFilter(field_name="start", lookup_expr="gte")
    start_before = UtcIsoDateTimeFilter(field_name="start", lookup_expr="lt")

    class Meta:
        model = DealerAssignment
        fields = ["table", "dealer", "active", "start_after", "start_before"]

    def filter_active(self, queryset, name, value):
        now = timezone.now()
        covering = Q(start__lte=now) & (Q(end__isnull=True) | Q(end__gt=now))
        return queryset.filter(covering) if value else queryset.exclude(covering)


@extend_schema_view(list=extend_schema(summary="Live dealer assignments (croupiers: their own)"),
                    retrieve=extend_schema(summary="One assignment"))
class DealerAssignmentViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, _FloorViewSet):
    """Who deals where: a takeover ends the previous assignment at the table; ``end`` relieves a dealer."""

    serializer_class = s.DealerAssignmentOutput
    filterset_class = DealerAssignmentFilter

    queryset = DealerAssignment.objects.none()
    selector = staticmethod(selectors.dealer_assignment_list)

    @extend_schema(summary="A dealer takes over a table (confirm_uncovered when it uncovers their open table)",
                   request=s.DealerAssignmentStartInput, responses={201: s.DealerAssignmentOutput})
    def create(self, request):
        assignment = dealer_takeover(actor=request.user, **_valid(s.DealerAssignmentStartInput, request))
        return Response(s.DealerAssignmentOutput(assignment).data, status=status.HTTP_201_CREATED)

    @extend_schema(summary="End a running assignment", request=s.DealerAssignmentEndInput,
                   responses=s.DealerAssignmentOutput)
    @action(detail=True, methods=["post"])
    def end(self, request, pk=None):
        assignment = services.dealer_assignment_end(assignment=self.get_object(), actor=request.user,
                                                    **_valid(s.DealerAssignmentEndInput, request))
        return Response(s.DealerAssignmentOutput(assignment).data)
