"""``python manage.py simulate_shift --table NAME --hands N --seed S``: deal N random legal hands at a table.

The hands go through the same services as a croupier's API calls (open, then one event at a time
with an idempotency key and the expected sequence number), logged by the dealer on duty at the table
(or ``--user``, who must be allowed to log there). Each hand closes itself, posts its ledger entry
and is reconciled (Celery, on commit). See :mod:`tables.services.simulation`.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from casino.errors import ApplicationError
from tables.models import Table
from tables.services.simulation import shift_simulate


class Command(BaseCommand):
    help = "Deal N random legal hands at a table through the croupier's services (seeded, reproducible)."

    def add_arguments(self, parser):
        parser.add_argument("--table", required=True, help="table name")
        parser.add_argument("--hands", type=int, required=True, help="number of hands (Capsa: deals)")
        parser.add_argument("--seed", type=int, default=1, help="random seed (same seed, same hands)")
        parser.add_argument("--whole-hands", action="store_true",
                            help="log each hand in one submission (POST /hands/{id}/events/batch/) instead of "
                                 "event by event")
        parser.add_argument("--user", default=None,
                            help="username logging the hands (default: the dealer on duty at the table)")

    def handle(self, *args, **options):
        table = Table.objects.filter(name=options["table"]).first()
        if table is None:
            raise CommandError(f"no table named {options['table']!r}")
        actor = None
        if options["user"]:
            actor = get_user_model().objects.filter(username=options["user"]).first()
            if actor is None:
                raise CommandError(f"no user named {options['user']!r}")
        verbosity = int(options.get("verbosity", 1))

        def progress(hand) -> None:
            if verbosity > 1:
                self.stdout.write(f"  hand #{hand.number} ({hand.status}, {hand.event_count} events)")

        try:
            result = shift_simulate(table=table, hands=options["hands"], seed=options["seed"], actor=actor,
                                    whole_hands=options["whole_hands"], progress=progress)
        except ApplicationError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(result.as_line())
