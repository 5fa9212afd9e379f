from django.apps import AppConfig


class CasinoConfig(AppConfig):
    """Project-level app: roles migration, health view, seed_demo command."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "casino"
