from django.apps import AppConfig


class RulesConfig(AppConfig):
    """The rules app: Django glue (showdown API and commands) around the pure engines in ``rules.engines``."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "rules"
