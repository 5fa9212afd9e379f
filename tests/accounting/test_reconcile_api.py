"""Discrepancies and reconciliation runs through the API: accountants see them and resolve with a note."""

from __future__ import annotations

import dataclasses
import datetime as dt
import random

import pytest

from accounting.models import Discrepancy
from accounting.services.reconciliation import hand_reconcile
from rules.engines.registry import get_engine
from tests.accounting.helpers import make_hand, make_table, post_settlement

pytestmark = pytest.mark.django_db


def _flagged_hand():
    hand = make_hand(make_table("capsa_susun"), rng=random.Random(3), post=False,
                     opened_at=dt.datetime(2026, 5, 4, 20, 0, tzinfo=dt.UTC))
    engine = get_engine(hand.game)
    events = list(hand.events.order_by("seq").values_list("payload", flat=True))
    true = engine.settlement(engine.replay(engine.build_config(hand.limit_snapshot), {1: 20000, 2: 20000, 3: 20000},
                                           events, button=1))
    post_settlement(hand, dataclasses.replace(true, fees={**true.fees, 1: true.fees[1] + 100}))  # fee charged twice
    hand_reconcile(hand_id=hand.id)
    return hand


def test_an_accountant_lists_and_resolves_discrepancies_with_a_note(api_client, role_user):
    hand = _flagged_hand()
    api_client.force_authenticate(role_user("accountant"))
    listed = api_client.get("/api/v1/reconciliation/discrepancies/", {"hand": hand.id}).json()["results"]
    assert sorted(row["check_key"].rsplit(":", 1)[-1] for row in listed) == ["fee", "seat1"]
    fee = next(row for row in listed if row["check_key"].endswith(":fee"))
    assert (fee["expected"], fee["found"], fee["hand_number"]) == ("1.50", "2.50", hand.number)
    refused = api_client.post(f"/api/v1/reconciliation/discrepancies/{fee['id']}/resolve/", {"note": ""}, format="json")
    assert refused.status_code == 400
    done = api_client.post(f"/api/v1/reconciliation/discrepancies/{fee['id']}/resolve/",
                           {"note": "fee overcharged; reversed and reposted"}, format="json")
    assert done.status_code == 200 and done.json()["status"] == "resolved"
    assert Discrepancy.objects.filter(status="open").count() == 1
    runs = api_client.get("/api/v1/reconciliation/runs/", {"scope": "hand"}).json()["results"]
    assert runs[0]["status"] == "discrepancy"


def test_an_accountant_queues_a_gaming_day_run(api_client, role_user):
    make_hand(make_table("forty_one"), rng=random.Random(1), opened_at=dt.datetime(2026, 5, 4, 20, 0, tzinfo=dt.UTC))
    api_client.force_authenticate(role_user("accountant"))
    response = api_client.post("/api/v1/reconciliation/gaming-days/", {"gaming_day": "2026-05-04"}, format="json")
    assert response.status_code == 202


def test_floor_and_croupiers_do_not_see_discrepancies(api_client, role_user):
    for role in ("croupier", "floor_manager"):
        api_client.force_authenticate(role_user(role))
        assert api_client.get("/api/v1/reconciliation/discrepancies/").status_code == 403
