"""Admin: the audit trail, read-only."""

from django.contrib import admin

from casino.admin_mixins import ReadOnlyAdminMixin
from casino.models import AuditEntry


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("at", "subject", "subject_id", "action", "from_status", "to_status", "actor", "reason")
    list_filter = ("subject", "action")
    search_fields = ("subject_id", "reason")
