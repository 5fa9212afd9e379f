"""Admin: the audit trail, read-only."""

from django.contrib import admin

from casino.models import AuditEntry


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("at", "subject", "subject_id", "action", "from_status", "to_status", "actor", "reason")
    list_filter = ("subject", "action")
    search_fields = ("subject_id", "reason")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
