"""``python manage.py import_phh --table NAME FILE...``: import recorded stud hands (PHH), each file all or nothing.

Every file is replayed through the stud engine and refused unless it ends at its recorded
``finishing_stacks``; the table's limit versions follow the files' stakes (a new version, reason
"imported from PHH <file>", whenever the stakes change). Importing a file twice stores it once.
See :mod:`tables.services.phh_import`. The hands are logged by ``--user`` (default: the dealer on
duty at the table, else the first floor manager). Exits with an error naming every refused file
after importing the others.
"""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from casino.errors import ApplicationError
from casino.roles import FLOOR_MANAGER
from tables.models import Table
from tables.selectors import dealer_on_duty
from tables.services.phh_import import phh_file_import


def default_actor(table: Table):
    """The dealer on duty at ``table``, else the first floor manager (by id), else None."""
    dealer = dealer_on_duty(table=table)
    if dealer is not None:
        return dealer.user
    return get_user_model().objects.filter(groups__name=FLOOR_MANAGER, is_active=True).order_by("pk").first()


class Command(BaseCommand):
    help = "Import Seven Card Stud hands from PHH files into a stud table (each file all or nothing)."

    def add_arguments(self, parser):
        parser.add_argument("--table", required=True, help="name of an open Seven Card Stud table")
        parser.add_argument("--user", default=None,
                            help="username logging the hands (default: dealer on duty, else a floor manager)")
        parser.add_argument("files", nargs="+", help="PHH files (.phh)")

    def handle(self, *args, **options):
        table = Table.objects.filter(name=options["table"]).first()
        if table is None:
            raise CommandError(f"no table named {options['table']!r}")
        if options["user"]:
            actor = get_user_model().objects.filter(username=options["user"]).first()
            if actor is None:
                raise CommandError(f"no user named {options['user']!r}")
        else:
            actor = default_actor(table)
            if actor is None:
                raise CommandError(f"nobody may log hands at '{table}': assign a dealer or give --user")
        failed: list[str] = []
        for name in options["files"]:
            path = Path(name)
            try:
                text = path.read_text(encoding="utf-8")
            except OSError as exc:
                failed.append(f"{name}: {exc.strerror or exc}")
                continue
            try:
                result = phh_file_import(table=table, text=text, name=path.name, actor=actor)
            except ApplicationError as exc:
                failed.append(exc.message if exc.message.startswith(path.name) else f"{path.name}: {exc.message}")
                continue
            hand = result.hand
            what = "imported" if result.created else "already imported"
            limits = f", new limit version {result.profile.version}" if result.profile_created else ""
            self.stdout.write(f"{path.name}: {what} as hand #{hand.number} at '{table}' "
                              f"({hand.event_count} events, limits {result.profile.limit_label}{limits})")
        if failed:
            raise CommandError("refused (nothing stored for these files):\n  " + "\n  ".join(failed))
