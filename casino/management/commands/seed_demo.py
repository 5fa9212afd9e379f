"""``python manage.py seed_demo``: idempotent demo data (one user per role, then each app's demo floor)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils.translation import gettext as _

from casino.roles import ROLES

#: Demo password for every demo user (printed to the console; change it or drop the users in production).
DEMO_PASSWORD = "demo-pass-2026"
DEMO_USERS = {"floor": "floor_manager", "croupier": "croupier", "accountant": "accountant"}


class Command(BaseCommand):
    help = ("Create demo users (one per role) and the demo floor; safe to run again. Refuses with DEBUG off "
            "unless --allow-without-debug is given (the demo users share a published password).")

    def add_arguments(self, parser):
        parser.add_argument("--allow-without-debug", action="store_true",
                            help="seed even though DEBUG is off (a demo or staging machine, never production)")

    def handle(self, *args, **options):
        if not settings.DEBUG and not options["allow_without_debug"]:
            raise CommandError(_(
                "seed_demo refuses to run with DEBUG off: it creates demo accounts, a superuser among them, whose "
                "password %(password)s is published in the README, so anyone could log in. On a demo machine run it "
                "with DEBUG=true, or pass --allow-without-debug if this is really not production.")
                % {"password": DEMO_PASSWORD})
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
        self.stdout.write("Seeding the demo tables, the day before and this evening's hands (a minute or two)...")
        for hook in _seed_hooks():
            hook(stdout=self.stdout)
        from accounting.demo import EXTRA_ACCOUNTANTS

        self.stdout.write(f"Demo users (password for all: {DEMO_PASSWORD}):")
        for username, role in DEMO_USERS.items():
            self.stdout.write(f"  {username:<11} role {role}")
        for username, step in zip(EXTRA_ACCOUNTANTS, ("confirms a count", "signs off a variance"), strict=True):
            self.stdout.write(f"  {username:<11} role accountant (four eyes: {step})")
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
