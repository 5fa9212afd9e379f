"""Issue 17 API: confirm (second person), tronc counts, approvals, a gaming day's state, close and re-open."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from accounting.selectors import drop_logged
from accounting.services.reconciliation import gaming_day_reconcile
from tests.accounting.helpers import make_hand, make_table

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 5, 4)


def test_two_accountants_close_a_day_through_the_api_and_a_third_cannot_reopen_alone(api_client, role_user):
    anna, bernd = role_user("accountant", username="anna"), role_user("accountant", username="bernd")
    table = make_table("forty_one")
    make_hand(table, rng=random.Random(5), opened_at=dt.datetime(2026, 5, 4, 18, 0, tzinfo=dt.UTC))
    gaming_day_reconcile(day=DAY)
    api_client.force_authenticate(anna)
    state = api_client.get("/api/v1/gaming-days/2026-05-04/").json()
    assert state["state"] == "open" and {b["code"] for b in state["blockers"]} == {"drop_not_counted",
                                                                                    "tronc_not_counted"}
    assert state["period"]["hours"] == 24 and state["period"]["start"].endswith("06:00:00+02:00")
    drop = api_client.post("/api/v1/drop-counts/", {"table": table.id, "gaming_day": "2026-05-04",
                                                    "counted": f"{drop_logged(table_id=table.id, gaming_day=DAY):.2f}"},
                           format="json").json()
    tronc = api_client.post("/api/v1/tronc-counts/", {"table": table.id, "gaming_day": "2026-05-04",
                                                      "shift": "late", "counted": "20.00"}, format="json")
    assert tronc.status_code == 201, tronc.json()
    same = api_client.post(f"/api/v1/drop-counts/{drop['id']}/confirm/")
    assert same.status_code == 403 and same.json()["code"] == "second_person_required"
    blocked = api_client.post("/api/v1/gaming-days/2026-05-04/close/")
    assert blocked.status_code == 400 and blocked.json()["code"] == "gaming_day_blocked"
    api_client.force_authenticate(bernd)
    assert api_client.post(f"/api/v1/drop-counts/{drop['id']}/confirm/").status_code == 200
    assert api_client.post(f"/api/v1/tronc-counts/{tronc.json()['id']}/confirm/").json()["confirmed_by"] == "bernd"
    assert api_client.get("/api/v1/gaming-days/2026-05-04/").json()["state"] == "ready_to_close"
    closed = api_client.post("/api/v1/gaming-days/2026-05-04/close/").json()
    assert closed["state"] == "closed" and closed["closed_by"] == "bernd" and len(closed["checksum"]) == 64
    request = api_client.post("/api/v1/gaming-days/2026-05-04/reopen/", {"reason": "recount"}, format="json")
    assert request.status_code == 202 and request.json()["status"] == "pending"
    own = api_client.post(f"/api/v1/approvals/{request.json()['id']}/approve/")
    assert own.status_code == 403
    api_client.force_authenticate(anna)
    assert api_client.post(f"/api/v1/approvals/{request.json()['id']}/approve/").json()["status"] == "approved"
    assert api_client.get("/api/v1/gaming-days/2026-05-04/").json()["state"] == "ready_to_close"


def test_a_bad_date_is_a_clear_400(api_client, role_user):
    api_client.force_authenticate(role_user("accountant"))
    answer = api_client.get("/api/v1/gaming-days/2026-13-40/")
    assert answer.status_code == 400 and "YYYY-MM-DD" in answer.json()["message"]
    api_client.force_authenticate(role_user("croupier"))
    assert api_client.get("/api/v1/gaming-days/2026-05-04/").status_code == 403
