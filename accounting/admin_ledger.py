"""Admin pages for the ledger: accounts, journal entries with their postings. Read-only: the ledger is
append-only (corrections are reversing entries, posted through the API by an accountant or floor manager)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from django.contrib import admin
from django.db.models import Sum
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from accounting.models import Account, JournalEntry, Posting
from casino.admin_mixins import ReadOnlyAdminMixin
from casino.i18n import stored_text
from casino.money import format_money
from casino.roles import ACCOUNTANT, FLOOR_MANAGER


def _eur_text(total) -> str:
    """A summed amount (a Decimal; SQLite sums as float) in the reader's number format, two decimals."""
    return format_money(Decimal(str(total or 0)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


class _ReadOnly(ReadOnlyAdminMixin):
    """Read-only; viewing for accountants and floor managers (or the model permission)."""

    view_roles = (ACCOUNTANT, FLOOR_MANAGER)


class PostingInline(_ReadOnly, admin.TabularInline):
    model = Posting
    fields = ["account", "amount", "role", "seat", "player_ref", "pot_index"]
    readonly_fields = fields
    extra = 0


@admin.register(JournalEntry)
class JournalEntryAdmin(_ReadOnly, admin.ModelAdmin):
    list_display = ["id", "kind", "idempotency_key", "hand_link", "table", "gaming_day", "posted_at", "total"]
    list_filter = ["kind", "gaming_day", "table"]
    search_fields = ["idempotency_key", "memo", "reason"]
    list_select_related = ["hand__table", "table"]
    readonly_fields = ["idempotency_key", "kind", "memo", "hand", "table", "gaming_day", "posted_at", "created_by",
                       "reverses", "reason_text"]
    inlines = [PostingInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_total=Sum("postings__amount"))

    @admin.display(description=_("sum of legs"))
    def total(self, obj):
        """The sum of the entry's legs (zero when it balances), in the reader's number format."""
        return _eur_text(obj._total)

    @admin.display(description=_("reason"))
    def reason_text(self, obj):
        """The reason; what the service adds ("approved by ...") in the reader's language."""
        return stored_text(obj.reason)

    @admin.display(description=_("hand"))
    def hand_link(self, obj):
        if obj.hand_id is None:
            return "-"
        return format_html('<a href="{}">{}</a>', reverse("admin:tables_hand_change", args=[obj.hand_id]), obj.hand)


@admin.register(Account)
class AccountAdmin(_ReadOnly, admin.ModelAdmin):
    list_display = ["code", "name", "kind", "table", "balance"]
    list_filter = ["kind"]
    search_fields = ["code", "name"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_balance=Sum("postings__amount"))

    @admin.display(description=_("balance (EUR)"))
    def balance(self, obj):
        """The account's balance in the reader's number format (``1.234,50`` in German)."""
        return _eur_text(obj._balance)
