"""``python manage.py seed_demo``: idempotent demo data (one user per role, then each app's demo floor)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
from django.db import transaction

from casino.roles import ROLES

#: Demo password for every demo user (printed to the console; change it or drop the users in production).
DEMO_PASSWORD = "demo-pass-2026"
DEMO_USERS = {"floor": "floor_manager", "croupier": "croupier", "accountant": "accountant"}


class Command(BaseCommand):
    help = "Create demo users (one per role) and the demo floor; safe to run again."

    def handle(self, *args, **options):
        User = get_user_model()
        with transaction.atomic():
            for role in ROLES:
                Group.objects.get_or_create(name=role)
            for username, role in DEMO_USERS.items():
                user, created = User.objects.get_or_create(username=username, defaults={"is_staff": True})
                if created:
                    user.set_password(DEMO_PASSWORD)
                    user.save()
                user.groups.add(Group.objects.get(name=role))
            admin, created = User.objects.get_or_create(
                username="admin", defaults={"is_staff": True, "is_superuser": True})
            if created:
                admin.set_password(DEMO_PASSWORD)
                admin.save()
        for hook in _seed_hooks():
            hook(stdout=self.stdout)
        self.stdout.write(f"Demo users (password for all: {DEMO_PASSWORD}):")
        for username, role in DEMO_USERS.items():
            self.stdout.write(f"  {username:<11} role {role}")
        self.stdout.write("  admin       superuser (Django admin)")


def _seed_hooks():
    """Each app may add demo data with a ``seed_demo(stdout=...)`` function in its ``demo`` module."""
    from importlib import import_module

    hooks = []
    for module in ("tables.demo", "tables.demo_day_before", "accounting.demo", "tables.demo_evening"):
        try:
            mod = import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            continue
        hooks.append(mod.seed_demo)
    return hooks
