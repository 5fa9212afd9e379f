from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountingConfig(AppConfig):
    """Ledger, tax and fee collection, reconciliation, drop counts and tax reports."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "accounting"
    verbose_name = _("Accounting")
