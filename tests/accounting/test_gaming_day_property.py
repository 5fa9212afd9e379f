"""Property (issue 17): for random days of hands, the closed day's report totals equal the ledger's."""

from __future__ import annotations

import datetime as dt
import itertools
import random
from decimal import Decimal

import pytest
from django.db.models import Sum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounting.models import JournalEntry, Posting
from accounting.selectors import drop_logged
from accounting.services.drop import drop_count_confirm, drop_count_record
from accounting.services.gaming_day import gaming_day_close
from accounting.services.reconciliation import gaming_day_reconcile
from accounting.services.reports import tax_report_build
from accounting.services.tronc import tronc_count_confirm, tronc_count_record
from casino.gaming_day import gaming_day_bounds
from tests.accounting.helpers import make_hand, make_table

pytestmark = pytest.mark.django_db
GAMES = ("seven_card_stud", "forty_one", "capsa_susun")
_days = itertools.count()


def _ledger(day: dt.date, code_suffix: str) -> Decimal:
    total = Posting.objects.filter(entry__gaming_day=day, account__code__endswith=code_suffix).aggregate(t=Sum("amount"))
    return Decimal(str(total["t"] or 0)).quantize(Decimal("0.01"))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), tables=st.lists(st.sampled_from(GAMES), min_size=1, max_size=3),
       hands=st.integers(1, 5))
def test_the_closed_report_totals_equal_the_ledgers(role_user, seed, tables, hands):
    day = dt.date(2026, 3, 1) + dt.timedelta(days=next(_days))  # includes the spring clock change (29 March)
    start, end = gaming_day_bounds(day)
    rng = random.Random(seed)
    counter, confirmer, closer = (role_user("accountant") for _ in range(3))
    made = []
    for game in tables:
        table = make_table(game)
        made.append(table)
        for _ in range(hands):
            at = start + dt.timedelta(seconds=rng.randrange(int((end - start).total_seconds()) - 600))
            make_hand(table, rng=rng, opened_at=at, seats=(1, 2, 3) if game != "capsa_susun" else (1, 2))
    gaming_day_reconcile(day=day)
    for table in made:
        drop = drop_count_record(table=table, gaming_day=day, actor=counter,
                                 counted=str(drop_logged(table_id=table.id, gaming_day=day)))
        drop_count_confirm(drop_count=drop, actor=confirmer)
        tronc_count_confirm(tronc_count=tronc_count_record(table=table, gaming_day=day, counted="5.00", actor=counter),
                            actor=confirmer)
    gaming_day_close(day=day, actor=closer)
    report = tax_report_build(date_from=day, date_to=day)
    totals = report.totals
    assert totals["tax"] == _ledger(day, ":tax")
    assert totals["fees"] == _ledger(day, ":fee")
    assert totals["bonus"] == -_ledger(day, "house:bonus_expense")
    assert totals["ggr"] == totals["tax"] + totals["fees"] - totals["bonus"]
    assert totals["hands"] == JournalEntry.objects.filter(gaming_day=day, kind="hand_settlement").count()
    assert report.days[day]["closed"] and sum(t["counted"] for t in report.tronc) == Decimal("5.00") * len(made)
