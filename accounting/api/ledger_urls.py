"""Routes of the ledger under /api/v1/ledger/ (issue 8); see :mod:`accounting.api.ledger`."""

from django.urls import path

from accounting.api import ledger

urlpatterns = [
    path("ledger/accounts/", ledger.AccountListView.as_view(), name="ledger-account-list"),
    path("ledger/accounts/<int:pk>/", ledger.AccountDetailView.as_view(), name="ledger-account-detail"),
    path("ledger/entries/", ledger.JournalEntryListView.as_view(), name="ledger-entry-list"),
    path("ledger/entries/<int:pk>/", ledger.JournalEntryDetailView.as_view(), name="ledger-entry-detail"),
    path("ledger/entries/<int:pk>/reverse/", ledger.JournalEntryReverseView.as_view(), name="ledger-entry-reverse"),
]
