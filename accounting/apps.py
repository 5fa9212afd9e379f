from django.apps import AppConfig


class AccountingConfig(AppConfig):
    """Ledger, tax and fee collection, reconciliation, drop counts and tax reports."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "accounting"
