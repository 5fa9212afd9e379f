"""A gaming day reconciled by two real worker processes (issue 19): the day task fans its parts (hand id
ranges, ledger windows) out on Redis, both workers take them, a chord closes the run, and the result is
the one a single process finds."""

from __future__ import annotations

import datetime as dt
import random
import time

import pytest
from celery import Celery

from accounting.models import Discrepancy, ReconciliationRun
from tables.models import Hand
from tests.accounting.helpers import make_hand, make_table
from tests.faults.support import Worker, postgres_or_reason

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

DAY = dt.date(2026, 6, 10)
IN_DAY = dt.datetime(2026, 6, 10, 15, 0, tzinfo=dt.UTC)


def test_two_workers_reconcile_a_day_in_parts_and_close_one_run(private_redis, tmp_path):
    reason = postgres_or_reason()
    if reason:
        pytest.skip(reason)
    rng = random.Random(19)
    hands = []
    for game in ("seven_card_stud", "forty_one", "capsa_susun"):
        table = make_table(game)
        hands += [make_hand(table, rng=rng, opened_at=IN_DAY + dt.timedelta(minutes=i)) for i in range(4)]
    open_hand = make_hand(hands[0].table, rng=random.Random(3), opened_at=IN_DAY, post=False)
    Hand.objects.filter(id=open_hand.id).update(status=Hand.Status.OPEN)

    workers = [Worker(broker_url=private_redis.url, name=f"day{i}@parts", log=tmp_path / f"day{i}.log")
               for i in (1, 2)]
    try:
        sender = Celery(broker=private_redis.url, backend=private_redis.url)
        sender.send_task("accounting.reconcile_gaming_day", args=[DAY.isoformat()], kwargs={"chunk": 2})
        sender.close()
        deadline = time.monotonic() + 180  # a wait for the workers, not a speed check
        while not ReconciliationRun.objects.filter(
                scope="day", gaming_day=DAY, status__in=("ok", "discrepancy", "failed")).exists():
            assert time.monotonic() < deadline, "the day run did not close: " + "".join(
                w.log.read_text(errors="replace")[-2000:] for w in workers)
            time.sleep(0.2)
    finally:
        for worker in workers:
            worker.kill()

    run = ReconciliationRun.objects.get(scope="day", gaming_day=DAY)
    assert run.status == ReconciliationRun.Status.DISCREPANCY
    assert run.summary["hands"] == len(hands) + 1 and run.summary["open"] == 1
    assert run.summary["reconciled_now"] == run.summary["reconciled"] == len(hands)
    assert Discrepancy.objects.get().kind == "hand_not_closed"
    assert ReconciliationRun.objects.filter(scope="hand").count() == len(hands)
    logs = "".join(w.log.read_text(errors="replace") for w in workers)
    assert logs.count("accounting.reconcile_day_part") >= 7  # 13 hands in parts of 2, and the ledger
