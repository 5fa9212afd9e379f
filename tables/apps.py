from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TablesConfig(AppConfig):
    """Tables, limit profiles, dealers and rotation, table sessions, hands and their event log."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "tables"
    verbose_name = _("Tables")
