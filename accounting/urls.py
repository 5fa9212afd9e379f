"""Routes of the accounting app under /api/v1/: ledger, reconciliation, drop counts, reports."""

from django.urls import include, path

urlpatterns = [
    path("", include("accounting.api.ledger_urls")),
    path("", include("accounting.api.reports_urls")),
]
