"""Demo floor for ``manage.py seed_demo`` (idempotent): three tables with example limits, six dealers
and a published dealer rotation for this gaming day's evening shift.

The figures are **examples to change** (README "Floor management"): stud split 5/10 with ante 1 and a
flat Taxe of 2.00; Forty-one 5/10 with ante 2, 5 % tax capped at 5.00 and a 41 bonus of 10.00; Capsa
Susun 2-4 at 1.00 EUR a unit with a 5 % commission.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext

from casino.gaming_day import gaming_day_of
from casino.roles import CROUPIER
from tables.models import Dealer, Game, LimitProfile, RotationPlan, Table
from tables.services import floor as services

#: name, game, seats, limit label, config (spec keys; money as EUR strings), opening float.
DEMO_TABLES = [
    ("Stud 1", Game.SEVEN_CARD_STUD, 8, "5/10", {
        "limit_type": "split", "lower": "5.00", "higher": "10.00", "ante": "1.00", "bring_in_mode": "full_bet",
        "raise_cap": 3, "taxe_mode": "flat", "taxe_amount": "2.00"}, "2000.00"),
    ("Forty-one 1", Game.FORTY_ONE, 7, "5/10", {
        "limits": ["5.00", "10.00"], "ante": "2.00", "tax_rate": "0.05", "tax_cap": {"5/10": "5.00"},
        "bonus_41_amount": "10.00"}, "2000.00"),
    ("Capsa 1", Game.CAPSA_SUSUN, 4, "2-4 @ 1.00", {
        "preset": "western_2_4", "unit_value": "1.00", "fee_mode": "commission", "fee_rate": "0.05"}, "1000.00"),
]
_ALL = [Game.SEVEN_CARD_STUD, Game.FORTY_ONE, Game.CAPSA_SUSUN]
#: username -> games; ``croupier`` is the demo croupier user made by seed_demo.
DEMO_DEALERS = {
    "croupier": _ALL,
    "dealer-anna": [Game.SEVEN_CARD_STUD, Game.FORTY_ONE],
    "dealer-ben": [Game.SEVEN_CARD_STUD, Game.CAPSA_SUSUN],
    "dealer-clara": [Game.FORTY_ONE, Game.CAPSA_SUSUN],
    "dealer-david": _ALL,
    "dealer-eva": [Game.SEVEN_CARD_STUD],
}
#: The evening shift, local time: 18:00 to 02:00.
EVENING_START = dt.time(18, 0)
EVENING_HOURS = 8


def _evening_shift(now: dt.datetime) -> tuple[dt.datetime, dt.datetime, dt.date]:
    day = gaming_day_of(now)
    start = dt.datetime.combine(day, EVENING_START, tzinfo=ZoneInfo(settings.TIME_ZONE))
    return start, start + dt.timedelta(hours=EVENING_HOURS), day


def seed_demo(*, stdout) -> None:
    """Create what is missing of the demo floor; running it again changes nothing."""
    from casino.management.commands.seed_demo import DEMO_PASSWORD

    User = get_user_model()
    floor = User.objects.filter(username="floor").first()
    with transaction.atomic():
        tables = []
        for name, game, seats, label, config, opening_float in DEMO_TABLES:
            table = Table.objects.filter(name=name).first() or services.table_create(
                name=name, game=game, seats=seats, actor=floor, reason="demo floor")
            if not LimitProfile.objects.filter(table=table).exists():
                services.limit_profile_create(table=table, config=config, limit_label=label, actor=floor,
                                              reason="demo limits (examples to change)")
            if table.status == Table.Status.CLOSED:
                services.table_open(table=table, opening_float=opening_float, actor=floor, reason="demo floor")
            tables.append(table)
        group = Group.objects.get_or_create(name=CROUPIER)[0]
        dealers = []
        for username, games in DEMO_DEALERS.items():
            user, created = User.objects.get_or_create(username=username, defaults={"is_staff": False})
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
            user.groups.add(group)
            user.__dict__.pop("_casino_roles", None)
            dealer = Dealer.objects.filter(user=user).first() or services.dealer_create(
                user=user, games=[str(g) for g in games], actor=floor, reason="demo dealer")
            dealers.append(dealer)
        start, end, day = _evening_shift(timezone.now())
        # Named as a floor manager of the house would name it on the page (its default, "Abend 01.12." in the
        # house language; issue 18: no ISO date where a person reads); the page shows the shift's start beside it
        # in the reader's own format.
        with translation.override(settings.LANGUAGE_CODE):
            name = gettext("Evening %(day)s") % {"day": date_format(day, "MONTH_DAY_FORMAT")}
        # (a database seeded before keeps its plan under an older name)
        older = [f"{day:%Y-%m-%d} {timezone.localtime(start):%H:%M}–{timezone.localtime(end):%H:%M}",
                 f"Evening shift {day:%Y-%m-%d}"]
        plan = RotationPlan.objects.filter(name__in=[name, *older]).first()
        if plan is None:
            plan = services.rotation_plan_generate(name=name, shift_start=start, shift_end=end, tables=tables,
                                                   dealers=dealers, actor=floor)
            services.rotation_plan_publish(plan=plan, actor=floor, reason="demo rotation")
    stdout.write(f"Demo floor: {len(tables)} tables open ({', '.join(t.name for t in tables)}), "
                 f"{len(dealers)} dealers (password {DEMO_PASSWORD}), rotation '{plan.name}' "
                 f"{timezone.localtime(start):%H:%M}-{timezone.localtime(end):%H:%M}.")
