"""The ledger API (issue 8): accounts with balances, journal entries with their postings, corrections.

Views translate only (STYLE.md rule 9). Who may call: accountants and floor managers read; the same
two roles post a correction (a reversing entry with a reason). Nobody edits or deletes an entry.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.response import Response

from accounting.models import Account, Approval, JournalEntry, Posting
from accounting.services.approvals import journal_entry_reverse_request
from accounting.services.ledger import account_list, journal_entry_list
from casino.api_input import NOTE_MAX_CHARS, StrictInputSerializer
from casino.permissions import IsAccountantOrFloorManager


class PostingOutputSerializer(serializers.ModelSerializer):
    account = serializers.CharField(source="account.code")
    amount = serializers.DecimalField(max_digits=14, decimal_places=2, coerce_to_string=True)

    class Meta:
        model = Posting
        fields = ["id", "account", "amount", "role", "seat", "player_ref", "pot_index"]


class JournalEntryOutputSerializer(serializers.ModelSerializer):
    postings = PostingOutputSerializer(many=True)
    created_by = serializers.StringRelatedField(allow_null=True)
    reversed_by = serializers.SerializerMethodField()

    class Meta:
        model = JournalEntry
        fields = ["id", "idempotency_key", "kind", "memo", "hand", "table", "gaming_day", "posted_at", "created_by",
                  "reverses", "reversed_by", "reason", "postings"]

    def get_reversed_by(self, obj: JournalEntry) -> int | None:
        reversal = getattr(obj, "reversed_by", None)
        return reversal.pk if reversal is not None else None


class AccountOutputSerializer(serializers.ModelSerializer):
    balance = serializers.SerializerMethodField()

    class Meta:
        model = Account
        fields = ["id", "code", "name", "kind", "table", "currency", "balance"]

    def get_balance(self, obj: Account) -> str:
        return f"{(getattr(obj, 'balance', None) or 0):.2f}"


class ReverseInputSerializer(StrictInputSerializer):
    reason = serializers.CharField(max_length=NOTE_MAX_CHARS, help_text="why the entry is corrected (required)")


class JournalEntryFilter(filters.FilterSet):
    class Meta:
        model = JournalEntry
        fields = ["hand", "table", "kind", "gaming_day"]


class AccountFilter(filters.FilterSet):
    class Meta:
        model = Account
        fields = ["kind", "table"]


class AccountListView(generics.ListAPIView):
    """``GET /api/v1/ledger/accounts/``: accounts with their balance in EUR."""

    permission_classes = [IsAccountantOrFloorManager]
    serializer_class = AccountOutputSerializer
    filterset_class = AccountFilter

    def get_queryset(self):
        return account_list()


class AccountDetailView(generics.RetrieveAPIView):
    """``GET /api/v1/ledger/accounts/{id}/``: one account with its balance."""

    permission_classes = [IsAccountantOrFloorManager]
    serializer_class = AccountOutputSerializer

    def get_queryset(self):
        return account_list()


class JournalEntryListView(generics.ListAPIView):
    """``GET /api/v1/ledger/entries/``: entries newest first with postings (filter hand, table, kind, gaming_day)."""

    permission_classes = [IsAccountantOrFloorManager]
    serializer_class = JournalEntryOutputSerializer
    filterset_class = JournalEntryFilter

    def get_queryset(self):
        return journal_entry_list().select_related("reversed_by")


class JournalEntryDetailView(generics.RetrieveAPIView):
    """``GET /api/v1/ledger/entries/{id}/``: one entry with its postings."""

    permission_classes = [IsAccountantOrFloorManager]
    serializer_class = JournalEntryOutputSerializer

    def get_queryset(self):
        return journal_entry_list().select_related("reversed_by")


class JournalEntryReverseView(generics.GenericAPIView):
    """``POST /api/v1/ledger/entries/{id}/reverse/`` ``{"reason"}``: post the reversing entry (every leg
    negated, linked to the original): 201. A second call posts nothing and answers 200 with the same reversal.
    An entry larger than ``FOUR_EYES_APPROVAL_AMOUNT`` answers 202 with the approval a second person decides."""

    permission_classes = [IsAccountantOrFloorManager]
    serializer_class = ReverseInputSerializer

    @extend_schema(request=ReverseInputSerializer,
                   responses={201: JournalEntryOutputSerializer, 200: JournalEntryOutputSerializer})
    def post(self, request, pk: int):
        form = ReverseInputSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        entry = get_object_or_404(JournalEntry, pk=pk)
        existed = JournalEntry.objects.filter(reverses=entry).exists()
        reversal = journal_entry_reverse_request(entry=entry, actor=request.user, reason=form.validated_data["reason"])
        if isinstance(reversal, Approval):  # issue 17: above the four-eyes amount a second person approves
            from accounting.api.gaming_days import ApprovalOutputSerializer

            return Response(ApprovalOutputSerializer(reversal).data, status=status.HTTP_202_ACCEPTED)
        reversal = journal_entry_list().get(pk=reversal.pk)
        return Response(JournalEntryOutputSerializer(reversal).data,
                        status=status.HTTP_200_OK if existed else status.HTTP_201_CREATED)
