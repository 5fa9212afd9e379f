"""Admin pages for hands and their event log: read-only (nobody edits a hand; the API logs it).

The event log carries the cards dealt, so only floor managers and accountants see it here (issue 20);
croupiers see the hands of the tables they deal or dealt today, without their events.
"""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from casino.admin_mixins import ReadOnlyAdminMixin
from casino.roles import ACCOUNTANT, CROUPIER, FLOOR_MANAGER, has_role
from tables.models import Hand, HandEvent
from tables.selectors import hand_list_for


class _ReadOnly(ReadOnlyAdminMixin):
    """Read-only; viewing for staff in any role (or with the model permission)."""

    view_roles = (FLOOR_MANAGER, CROUPIER, ACCOUNTANT)


class _CardsReadOnly(ReadOnlyAdminMixin):
    """Read-only pages that show cards: floor managers and accountants only (never croupiers)."""

    view_roles = (FLOOR_MANAGER, ACCOUNTANT)

    def has_view_permission(self, request, obj=None):
        return has_role(request.user, *self.view_roles)

    def has_module_permission(self, request):
        return has_role(request.user, *self.view_roles)


class HandEventInline(_CardsReadOnly, admin.TabularInline):
    model = HandEvent
    fields = ["seq", "payload", "idempotency_key", "created_by", "created_at"]
    readonly_fields = fields
    extra = 0
    ordering = ["seq"]


@admin.register(Hand)
class HandAdmin(_ReadOnly, admin.ModelAdmin):
    list_display = ["__str__", "game", "status", "reconciliation", "dealer", "event_count", "opened_at", "gaming_day"]
    list_filter = ["status", "reconciliation", "game", "table", "gaming_day"]
    search_fields = ["table__name", "number"]
    date_hierarchy = "opened_at"
    list_select_related = ["table", "dealer__user"]
    readonly_fields = ["table", "session", "number", "game", "dealer", "button_seat", "limit_profile", "limit_snapshot",
                       "seats", "status", "reconciliation", "event_count", "opened_at", "opened_by", "closed_at",
                       "gaming_day", "void_reason", "source", "ledger_entries"]
    inlines = [HandEventInline]

    def get_queryset(self, request):
        return super().get_queryset(request).filter(pk__in=hand_list_for(user=request.user).values("pk"))

    @admin.display(description=_("ledger entries"))
    def ledger_entries(self, obj: Hand):
        entries = obj.journal_entries.all()
        if not entries:
            return "-"
        return format_html_join(
            ", ", '<a href="{}">{} #{}</a>',
            ((reverse("admin:accounting_journalentry_change", args=[e.pk]), e.kind, e.pk) for e in entries),
        )


@admin.register(HandEvent)
class HandEventAdmin(_CardsReadOnly, admin.ModelAdmin):
    list_display = ["hand", "seq", "event_type", "created_by", "created_at"]
    list_select_related = ["hand__table", "created_by"]
    search_fields = ["hand__table__name", "idempotency_key"]
    readonly_fields = ["hand", "seq", "payload", "idempotency_key", "created_by", "created_at"]

    @admin.display(description=_("type"))
    def event_type(self, obj: HandEvent):
        return format_html("{}", obj.payload.get("type"))
