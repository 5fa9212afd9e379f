"""A gaming-day run says what its counts mean and where to follow it (issue 13).

The defect: right after every hand of the day had been reconciled one by one, ``POST
/reconciliation/gaming-days/`` led to a run reading ``reconciled: 0, skipped: 39``.
"""

from __future__ import annotations

import datetime as dt
import random

import pytest

from accounting.models import ReconciliationRun
from accounting.services.reconciliation import gaming_day_reconcile, hand_reconcile
from tests.accounting.helpers import make_hand, make_table

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 5, 4)
IN_DAY = dt.datetime(2026, 5, 4, 20, 0, tzinfo=dt.UTC)


def _hands(n: int = 3):
    table = make_table("forty_one")
    return [make_hand(table, rng=random.Random(i), opened_at=IN_DAY + dt.timedelta(minutes=i)) for i in range(n)]


def test_a_day_whose_hands_were_reconciled_one_by_one_says_so():
    hands = _hands()
    for hand in hands:
        hand_reconcile(hand_id=hand.id)
    run = gaming_day_reconcile(day=DAY)
    assert run.summary["hands"] == 3
    assert run.summary["already_checked"] == 3
    assert run.summary["reconciled_now"] == 0 and run.summary["discrepancy_now"] == 0
    assert run.summary["reconciled"] == 3 and run.summary["with_discrepancies"] == 0
    assert "skipped" not in run.summary and "checked" not in run.summary


def test_a_day_checked_in_bulk_counts_them_as_reconciled_now():
    _hands(2)
    run = gaming_day_reconcile(day=DAY)
    assert (run.summary["already_checked"], run.summary["reconciled_now"], run.summary["reconciled"]) == (0, 2, 2)


def test_the_answer_gives_the_run_id_and_its_url(api_client, role_user):
    _hands(2)
    api_client.force_authenticate(role_user("accountant"))
    response = api_client.post("/api/v1/reconciliation/gaming-days/", {"gaming_day": DAY.isoformat()}, format="json")
    assert response.status_code == 202, response.json()
    body = response.json()
    run = ReconciliationRun.objects.get(pk=body["run"])
    assert run.scope == "day" and run.gaming_day == DAY
    assert body["url"].endswith(f"/api/v1/reconciliation/runs/{run.pk}/")
    followed = api_client.get(body["url"])
    assert followed.status_code == 200 and followed.json()["id"] == run.pk
    if followed.json()["status"] != "running":  # eager Celery (no broker): the run is already done
        assert followed.json()["summary"]["reconciled"] == 2


def test_asking_again_for_an_unchanged_day_answers_the_finished_run(api_client, role_user):
    _hands(1)
    first = gaming_day_reconcile(day=DAY)
    api_client.force_authenticate(role_user("accountant"))
    response = api_client.post("/api/v1/reconciliation/gaming-days/", {"gaming_day": DAY.isoformat()}, format="json")
    assert response.status_code == 200
    assert response.json()["run"] == first.pk and response.json()["status"] == "ok"
    assert response.json()["summary"]["reconciled"] == 1
    assert ReconciliationRun.objects.filter(scope="day").count() == 1


def test_a_queued_run_is_done_once_by_its_task():
    from accounting.services.reconciliation import gaming_day_reconcile_request
    from accounting.tasks import reconcile_gaming_day

    _hands(1)
    run, queued = gaming_day_reconcile_request(day=DAY)
    assert queued and run.status == ReconciliationRun.Status.RUNNING
    done = reconcile_gaming_day.apply(args=(DAY.isoformat(), run.pk)).get()
    assert done["status"] == "ok" and done["run"] == run.pk
    again = reconcile_gaming_day.apply(args=(DAY.isoformat(), run.pk)).get()
    assert again["summary"] == done["summary"]
    assert ReconciliationRun.objects.filter(scope="day").count() == 1


def test_only_accountants_read_a_run(api_client, role_user):
    _hands(1)
    run = gaming_day_reconcile(day=DAY)
    api_client.force_authenticate(role_user("croupier"))
    assert api_client.get(f"/api/v1/reconciliation/runs/{run.pk}/").status_code == 403
