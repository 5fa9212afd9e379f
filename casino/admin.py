"""Admin: the audit trail, read-only; times in the card room's time zone, in the reader's language."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from casino.admin_mixins import ReadOnlyAdminMixin
from casino.i18n import audit_data_text
from casino.models import AuditEntry, StaffPreference


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("at", "subject", "subject_id", "action", "from_status", "to_status", "actor", "reason", "details")
    list_filter = ("subject", "action")
    search_fields = ("subject_id", "reason")
    exclude = ("data",)
    readonly_fields = ("details",)

    @admin.display(description=_("details"))
    def details(self, obj: AuditEntry) -> str:
        """The stored ``data``, its timestamps (stored in UTC) in the card room's local time."""
        return audit_data_text(obj.data)


@admin.register(StaffPreference)
class StaffPreferenceAdmin(admin.ModelAdmin):
    list_display = ("user", "language")
    search_fields = ("user__username",)
