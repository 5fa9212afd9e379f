"""The accountant's demo day for ``manage.py seed_demo`` (issue 17): a finished gaming day to close.

The demo evening (``tables.demo_evening``) deals on the current gaming day, which cannot be closed
before it ends. :mod:`tables.demo_day_before` deals a few stud hands on the previous gaming day at
``Stud 2``; this hook (run after it) reconciles that day and plants one discrepancy of 80.00 EUR
(above the default four-eyes amount) for the accountants to resolve with a second person's approval,
and creates two more accountants, ``accountant2`` and ``accountant3`` (the demo password), for the four-eyes
steps: a count is confirmed by a second person, and a drop variance is signed off by a third who did
neither (so a mistyped count can be carried to the close on the demo too).

Idempotent: once the discrepancy is planted, nothing happens.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from casino.roles import ACCOUNTANT

DEMO_TABLE = "Stud 2"
SECOND_ACCOUNTANT = "accountant2"
#: The demo's accountants besides ``accountant``: the second person confirms, the third signs off a variance.
EXTRA_ACCOUNTANTS = (SECOND_ACCOUNTANT, "accountant3")


def _extra_accountants() -> None:
    from casino.management.commands.seed_demo import DEMO_PASSWORD

    for username in EXTRA_ACCOUNTANTS:
        user, created = get_user_model().objects.get_or_create(username=username, defaults={"is_staff": True})
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        user.groups.add(Group.objects.get_or_create(name=ACCOUNTANT)[0])


def seed_demo(*, stdout) -> None:
    """Reconcile the demo day dealt by :mod:`tables.demo_day_before`, plant its discrepancy, add ``accountant2`` and ``accountant3``."""
    from accounting.findings import Finding
    from accounting.models import Discrepancy
    from accounting.services.reconciliation import gaming_day_reconcile
    from rules.engines.messages import Amount
    from tables.models import Hand, Table

    _extra_accountants()
    table = Table.objects.filter(name=DEMO_TABLE).first()
    if table is None or not Hand.objects.filter(table=table).exists():
        return
    day = Hand.objects.filter(table=table).order_by("gaming_day").values_list("gaming_day", flat=True).first()
    check_key = f"demo:{day.isoformat()}:drop-envelope"
    if Discrepancy.objects.filter(check_key=check_key).exists():
        return
    gaming_day_reconcile(day=day)
    finding = Finding("demo_planted", "drop-envelope", "demo_planted", {"amount": Amount(8000)}, Amount(0), Amount(8000))
    Discrepancy.objects.create(
        check_key=check_key, kind=finding.kind, table=table, gaming_day=day, what=str(finding.what),
        expected=str(finding.expected), found=str(finding.found), what_code=finding.code,
        what_params=finding.stored_params())
    stdout.write(f"Accounting demo day: gaming day {day} at '{DEMO_TABLE}' (one planted discrepancy) is ready to be "
                 f"counted and closed at /accounting/days/{day}/ by 'accountant' and '{SECOND_ACCOUNTANT}'.")
