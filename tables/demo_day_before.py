"""The previous gaming day for the accountants' demo (``manage.py seed_demo``, issue 17).

The demo evening deals on the current gaming day, which cannot be closed before it ends. This hook
deals :data:`HANDS` hands of Seven Card Stud on the previous gaming day at the table ``Stud 2`` (the
house stud limits of ``Stud 1``, a version in force since the evening before), through the croupier's
own services as a floor manager logs them; ``accounting.demo`` then reconciles the day and plants a
discrepancy for the accountants to close it (``/accounting/``).

Idempotent: when ``Stud 2`` has hands, nothing happens.
"""

from __future__ import annotations

import datetime as dt
import random

from django.contrib.auth import get_user_model
from django.utils import timezone

from casino.gaming_day import gaming_day_bounds, gaming_day_of
from casino.roles import FLOOR_MANAGER

DEMO_TABLE = "Stud 2"
HANDS = 6
SEED = 17


def seed_demo(*, stdout) -> None:
    """Deal the previous gaming day at ``Stud 2`` (see the module docstring)."""
    from rules.engines.registry import get_engine
    from tables.models import Hand, LimitProfile, Table
    from tables.services.hands import SeatInput, hand_events_submit, hand_open
    from tables.services.simulation import random_hand_events

    model = Table.objects.filter(name="Stud 1").first()
    floor = get_user_model().objects.filter(groups__name=FLOOR_MANAGER).order_by("id").first()
    if model is None or floor is None:
        stdout.write("Demo day before: no 'Stud 1' or floor manager to copy from; skipped.")
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
                                    reason="demo: the previous gaming day for the accountants")
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
    stdout.write(f"Demo day before: {HANDS} hands of gaming day {day} at '{DEMO_TABLE}'.")
