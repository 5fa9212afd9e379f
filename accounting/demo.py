"""The accountant's demo day for ``manage.py seed_demo`` (issue 17): a finished gaming day to close.

The demo evening (``tables.demo_evening``) deals on the current gaming day, which cannot be closed
before it ends. So that an accountant can close a day right after ``make run``, this hook deals a
few hands of Seven Card Stud on the previous gaming day at the table ``Stud 2`` (the house stud
limits of ``Stud 1``, in force since the evening before), through the croupier's own services as a
floor manager would log them, reconciles the day, and plants one discrepancy of 80.00 EUR (above the
default four-eyes amount) for the accountants to resolve with a second person's approval. It also
creates a second accountant, ``accountant2`` (the demo password), for the four-eyes steps.

Idempotent: when ``Stud 2`` has hands, nothing happens.
"""

from __future__ import annotations

import datetime as dt
import random

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone

from casino.gaming_day import gaming_day_bounds, gaming_day_of
from casino.roles import ACCOUNTANT, FLOOR_MANAGER

DEMO_TABLE = "Stud 2"
SECOND_ACCOUNTANT = "accountant2"
HANDS = 6
SEED = 17


def _second_accountant():
    from casino.management.commands.seed_demo import DEMO_PASSWORD

    user, created = get_user_model().objects.get_or_create(username=SECOND_ACCOUNTANT, defaults={"is_staff": True})
    if created:
        user.set_password(DEMO_PASSWORD)
        user.save()
    user.groups.add(Group.objects.get_or_create(name=ACCOUNTANT)[0])
    return user


def seed_demo(*, stdout) -> None:
    """Deal the demo day (see the module docstring); print what was made."""
    from accounting.models import Discrepancy
    from accounting.services.reconciliation import gaming_day_reconcile
    from rules.engines.registry import get_engine
    from tables.models import Hand, LimitProfile, Table
    from tables.services.hands import SeatInput, hand_events_submit, hand_open
    from tables.services.simulation import random_hand_events

    _second_accountant()
    model = Table.objects.filter(name="Stud 1").first()
    floor = get_user_model().objects.filter(groups__name=FLOOR_MANAGER).order_by("id").first()
    if model is None or floor is None:
        stdout.write("Accounting demo day: no 'Stud 1' or floor manager to copy from; skipped.")
        return
    table, _ = Table.objects.get_or_create(name=DEMO_TABLE, defaults={"game": model.game, "seats": 6,
                                                                      "status": Table.Status.OPEN})
    if Hand.objects.filter(table=table).exists():
        return
    day = gaming_day_of(timezone.now()) - dt.timedelta(days=1)
    start, _end = gaming_day_bounds(day)
    profile = model.limit_profiles.order_by("-version").first()
    if not table.limit_profiles.exists():
        LimitProfile.objects.create(table=table, version=1, game=table.game, limit_label=profile.limit_label,
                                    config=profile.config, effective_from=start - dt.timedelta(hours=12),
                                    reason="accounting demo day")
    engine = get_engine(table.game)
    config = engine.build_config(profile.config)
    rng = random.Random(SEED)
    seats = {1: 300_00, 3: 300_00, 5: 300_00}
    for number in range(HANDS):
        opened = start + dt.timedelta(hours=14, minutes=4 * number)  # from 20:00 local
        hand = hand_open(table=table, seats=[SeatInput(seat=s, stack=c) for s, c in seats.items()], actor=floor,
                         opened_at=opened)
        events = random_hand_events(game=table.game, config=config, seats=seats, button=hand.button_seat, rng=rng)
        hand_events_submit(events=events, idempotency_key=f"demo-day:{hand.pk}", actor=floor, hand=hand)
    gaming_day_reconcile(day=day)
    Discrepancy.objects.get_or_create(
        check_key=f"demo:{day.isoformat()}:drop-envelope", defaults={
            "kind": "demo_planted", "table": table, "gaming_day": day,
            "what": "demo: a cash envelope of 80.00 was booked to the wrong table's drop (planted for the walkthrough)",
            "expected": "0.00", "found": "80.00"})
    stdout.write(f"Accounting demo day: gaming day {day} at '{DEMO_TABLE}' ({HANDS} hands, one planted "
                 f"discrepancy) is ready to be counted and closed at /accounting/days/{day}/ by 'accountant' and "
                 f"'{SECOND_ACCOUNTANT}'.")
