from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CasinoConfig(AppConfig):
    """Project-level app: roles migration, health view, seed_demo command, login lockout audit."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "casino"
    verbose_name = _("Card room")

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from casino.db_roles import grant_after_migrate

        post_migrate.connect(grant_after_migrate, sender=self, dispatch_uid="casino.db_roles.grant_after_migrate")
        # django-axes announces a lockout only by its signal: the audit row is written from there.
        from axes.signals import user_locked_out

        from casino import checks, language  # noqa: F401 - registers the checks; connects the login signal
        from casino.auth import lockout_audit

        user_locked_out.connect(lockout_audit, dispatch_uid="casino.lockout_audit")
