"""Input and output serializers of the floor API. They translate only: no business rule lives here
(the services in :mod:`tables.services.floor` validate and write)."""

from __future__ import annotations

from decimal import Decimal

from django.contrib.auth import get_user_model
from rest_framework import serializers

from casino.api_input import NOTE_MAX_CHARS, StrictInputSerializer, StrictIntegerField
from casino.i18n import stored_text
from casino.models import AuditEntry
from tables.models import (
    Dealer,
    DealerAssignment,
    Game,
    LimitChangeRequest,
    LimitProfile,
    RotationPlan,
    RotationSlot,
    Table,
    TableSession,
)

MONEY = {"max_digits": 12, "decimal_places": 2, "min_value": Decimal("0")}


class EurField(serializers.DecimalField):
    """An EUR amount sent as a decimal string (``"2500.00"``) or a whole number; a JSON float or a boolean
    is refused, never rounded through binary floating point (STYLE.md: money is never a float)."""

    def to_internal_value(self, data):
        if isinstance(data, bool | float):
            self.fail("invalid_type")
        return super().to_internal_value(data)

    default_error_messages = {
        **serializers.DecimalField.default_error_messages,
        "invalid_type": 'send the amount as a decimal string such as "2500.00", not a JSON number with a fraction '
                        "or true/false",
    }


class FloorReasonInput(StrictInputSerializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=NOTE_MAX_CHARS,
                                   help_text="why (audited)")


# ---- tables -------------------------------------------------------------------------------------

class TableOutput(serializers.ModelSerializer):
    class Meta:
        model = Table
        fields = ["id", "name", "game", "seats", "status", "button_seat", "created_at"]


class TableCreateInput(FloorReasonInput):
    name = serializers.CharField(max_length=64)
    game = serializers.ChoiceField(choices=Game.choices)
    seats = StrictIntegerField(help_text="stud 2-8, Forty-one 3-7, Capsa Susun 2-4")


class TableUpdateInput(FloorReasonInput):
    name = serializers.CharField(max_length=64, required=False)
    seats = StrictIntegerField(required=False, help_text="only while the table is closed")


class TableOpenInput(FloorReasonInput):
    opening_float = EurField(help_text="chip float counted at opening, EUR", **MONEY)


class TableCloseInput(FloorReasonInput):
    closing_float = EurField(help_text="chip float counted at closing, EUR", **MONEY)


class TableSessionOutput(serializers.ModelSerializer):
    opened_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    closed_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)

    class Meta:
        model = TableSession
        fields = ["id", "table", "opened_at", "opened_by", "opening_float", "closed_at", "closed_by", "closing_float"]


class StoredTextField(serializers.CharField):
    """A stored text shown in the request's language when the service wrote it itself ("table opened",
    "imported from PHH ..."; :func:`casino.i18n.stored_text`); text a person typed as typed."""

    def to_representation(self, value):
        return stored_text(super().to_representation(value))


class AuditOutput(serializers.ModelSerializer):
    actor = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    reason = StoredTextField(read_only=True)

    class Meta:
        model = AuditEntry
        fields = ["id", "subject", "subject_id", "action", "from_status", "to_status", "actor", "reason", "data", "at"]


# ---- limit profiles and requests ----------------------------------------------------------------

class LimitProfileOutput(serializers.ModelSerializer):
    created_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    reason = StoredTextField(read_only=True)

    class Meta:
        model = LimitProfile
        fields = ["id", "table", "version", "game", "limit_label", "config", "currency", "chip_unit",
                  "effective_from", "created_at", "created_by", "reason"]


class LimitProfileCreateInput(FloorReasonInput):
    table = serializers.PrimaryKeyRelatedField(queryset=Table.objects.all())
    limit_label = serializers.CharField(max_length=64, required=False, allow_blank=True, default="")
    config = serializers.DictField(help_text="the game's configuration keys (stud §13, Forty-one B.9, Capsa A.12); "
                                             "money as EUR strings, e.g. \"5.00\"")
    currency = serializers.CharField(max_length=3, required=False, default="EUR")
    chip_unit = EurField(max_digits=10, decimal_places=2, required=False, allow_null=True,
                                         default=None)
    effective_from = serializers.DateTimeField(required=False, allow_null=True, default=None,
                                               help_text="default now: from the table's next hand")


class LimitChangeRequestOutput(serializers.ModelSerializer):
    requested_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    decided_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)

    class Meta:
        model = LimitChangeRequest
        fields = ["id", "table", "limit_label", "requested_config", "note", "status", "requested_by", "requested_at",
                  "decided_by", "decided_at", "decision_note", "resulting_profile"]


class LimitChangeRequestCreateInput(StrictInputSerializer):
    table = serializers.PrimaryKeyRelatedField(queryset=Table.objects.all())
    limit_label = serializers.CharField(max_length=64, required=False, allow_blank=True, default="")
    requested_config = serializers.DictField(help_text="the requested profile: the game's configuration keys")
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=NOTE_MAX_CHARS)


class DecisionInput(StrictInputSerializer):
    decision_note = serializers.CharField(required=False, allow_blank=True, default="", max_length=NOTE_MAX_CHARS)


class ApproveInput(DecisionInput):
    effective_from = serializers.DateTimeField(required=False, allow_null=True, default=None,
                                               help_text="default now: from the table's next hand")


# ---- dealers ------------------------------------------------------------------------------------

class DealerOutput(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = Dealer
        fields = ["id", "user", "username", "games", "active"]


class DealerCreateInput(FloorReasonInput):
    user = serializers.PrimaryKeyRelatedField(queryset=get_user_model().objects.all())
    games = serializers.ListField(child=serializers.ChoiceField(choices=Game.choices), allow_empty=False)


class DealerUpdateInput(FloorReasonInput):
    games = serializers.ListField(child=serializers.ChoiceField(choices=Game.choices), required=False,
                                  allow_empty=False)
    active = serializers.BooleanField(required=False)


# ---- rotation -----------------------------------------------------------------------------------

class RotationSlotOutput(serializers.ModelSerializer):
    dealer_name = serializers.CharField(source="dealer.user.username", read_only=True)
    table_name = serializers.CharField(source="table.name", read_only=True, default=None)

    class Meta:
        model = RotationSlot
        fields = ["id", "dealer", "dealer_name", "table", "table_name", "start", "end"]


class RotationPlanOutput(serializers.ModelSerializer):
    created_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    slots = RotationSlotOutput(many=True, read_only=True)

    class Meta:
        model = RotationPlan
        fields = ["id", "name", "shift_start", "shift_end", "period_minutes", "periods_before_break", "tables",
                  "dealers", "status", "created_by", "created_at", "slots"]


class RotationPlanCreateInput(StrictInputSerializer):
    name = serializers.CharField(max_length=128, required=False, allow_blank=True, default="")
    shift_start = serializers.DateTimeField()
    shift_end = serializers.DateTimeField()
    tables = serializers.PrimaryKeyRelatedField(queryset=Table.objects.all(), many=True, required=False,
                                                help_text="default: the tables open now")
    dealers = serializers.PrimaryKeyRelatedField(queryset=Dealer.objects.all(), many=True, required=False,
                                                 help_text="default: every active dealer")
    period_minutes = StrictIntegerField(required=False, default=30)
    periods_before_break = StrictIntegerField(required=False, default=2)


class RotationSlotInput(StrictInputSerializer):
    dealer = serializers.PrimaryKeyRelatedField(queryset=Dealer.objects.select_related("user"))
    table = serializers.PrimaryKeyRelatedField(queryset=Table.objects.all(), allow_null=True, required=False,
                                               default=None, help_text="null = a break")
    start = serializers.DateTimeField()
    end = serializers.DateTimeField()


class RotationSlotsReplaceInput(FloorReasonInput):
    slots = RotationSlotInput(many=True)


# ---- live assignments ---------------------------------------------------------------------------

class DealerAssignmentOutput(serializers.ModelSerializer):
    dealer_name = serializers.CharField(source="dealer.user.username", read_only=True)
    table_name = serializers.CharField(source="table.name", read_only=True)
    plan = serializers.IntegerField(source="slot.plan_id", read_only=True, default=None, allow_null=True)

    class Meta:
        model = DealerAssignment
        fields = ["id", "dealer", "dealer_name", "table", "table_name", "start", "end", "slot", "plan"]


class DealerAssignmentStartInput(FloorReasonInput):
    dealer = serializers.PrimaryKeyRelatedField(queryset=Dealer.objects.select_related("user"))
    table = serializers.PrimaryKeyRelatedField(queryset=Table.objects.all())
    at = serializers.DateTimeField(required=False, allow_null=True, default=None, help_text="default now")
    end = serializers.DateTimeField(required=False, allow_null=True, default=None)
    confirm_uncovered = serializers.BooleanField(
        required=False, default=False,
        help_text="true: move the dealer even though the open table they deal at is left without a dealer "
                  "(without it that takeover is refused, code needs_confirmation, naming the table)")


class DealerAssignmentEndInput(FloorReasonInput):
    at = serializers.DateTimeField(required=False, allow_null=True, default=None, help_text="default now")
