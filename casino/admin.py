"""Admin: the audit trail, read-only; times in the card room's time zone, in the reader's language."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from casino.admin_mixins import ReadOnlyAdminMixin
from casino.i18n import audit_action_text, audit_data_text, audit_status_text, audit_subject_text, stored_text
from casino.models import AuditEntry, StaffPreference


class _TranslatedValuesFilter(admin.SimpleListFilter):
    """A list filter over the stored codes of one field, each shown in the reader's language."""

    field = ""

    def label(self, value: str) -> str:
        return value

    def lookups(self, request, model_admin):
        values = AuditEntry.objects.order_by().values_list(self.field, flat=True).distinct()
        return sorted(((v, self.label(v)) for v in values), key=lambda pair: str(pair[1]).lower())

    def queryset(self, request, queryset):
        return queryset.filter(**{self.field: self.value()}) if self.value() else queryset


class SubjectFilter(_TranslatedValuesFilter):
    title = _("subject")
    parameter_name = field = "subject"

    def label(self, value: str) -> str:
        return audit_subject_text(value)


class ActionFilter(_TranslatedValuesFilter):
    title = _("action")
    parameter_name = field = "action"

    def label(self, value: str) -> str:
        return audit_action_text(value)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("at", "subject_name", "subject_id", "action_name", "status_from", "status_to", "actor", "reason_text",
                    "details")
    list_filter = (SubjectFilter, ActionFilter)
    search_fields = ("subject_id", "reason")
    fields = ("at", "subject_name", "subject_id", "action_name", "status_from", "status_to", "actor", "reason_text",
              "details")
    readonly_fields = fields

    @admin.display(description=_("action"), ordering="action")
    def action_name(self, obj: AuditEntry) -> str:
        """What happened, in the reader's language ("Hand geschlossen"), not the stored code."""
        return audit_action_text(obj.action)

    @admin.display(description=_("subject"), ordering="subject")
    def subject_name(self, obj: AuditEntry) -> str:
        """The audited model's name in the reader's language ("Tisch"), not its label (``tables.table``)."""
        return audit_subject_text(obj.subject)

    @admin.display(description=_("from status"), ordering="from_status")
    def status_from(self, obj: AuditEntry) -> str:
        """The stored status as its label in the reader's language."""
        return audit_status_text(obj.subject, obj.action, obj.from_status)

    @admin.display(description=_("to status"), ordering="to_status")
    def status_to(self, obj: AuditEntry) -> str:
        """The stored status as its label in the reader's language."""
        return audit_status_text(obj.subject, obj.action, obj.to_status)

    @admin.display(description=_("reason"))
    def reason_text(self, obj: AuditEntry) -> str:
        """The reason; one the service wrote itself ("table opened") in the reader's language."""
        return stored_text(obj.reason)

    @admin.display(description=_("details"))
    def details(self, obj: AuditEntry) -> str:
        """The stored ``data``, its timestamps (stored in UTC) in the card room's local time."""
        return audit_data_text(obj.data)


@admin.register(StaffPreference)
class StaffPreferenceAdmin(admin.ModelAdmin):
    list_display = ("user", "language")
    search_fields = ("user__username",)
