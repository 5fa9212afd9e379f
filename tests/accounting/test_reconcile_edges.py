"""Reconciliation API edges: a resolved discrepancy stays resolved; no run for a gaming day not yet started."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from accounting.models import Discrepancy, ReconciliationRun
from casino.gaming_day import gaming_day_of

pytestmark = pytest.mark.django_db


def test_resolving_a_discrepancy_twice_is_a_conflict_and_keeps_the_first_note(api_client, role_user):
    row = Discrepancy.objects.create(check_key="t:1", kind="tax", what="tax differs", expected="5.00", found="4.00")
    api_client.force_authenticate(role_user("accountant"))
    url = f"/api/v1/reconciliation/discrepancies/{row.id}/resolve/"
    assert api_client.post(url, {"note": "reversal posted"}, format="json").status_code == 200
    again = api_client.post(url, {"note": "second"}, format="json")
    assert again.status_code == 409 and "already resolved" in again.json()["message"], again.json()
    row.refresh_from_db()
    assert row.resolution_note == "reversal posted"


@pytest.mark.parametrize("days_ahead", [1, 400])
def test_a_gaming_day_that_has_not_started_cannot_be_reconciled(api_client, role_user, days_ahead):
    future = gaming_day_of(timezone.now()) + dt.timedelta(days=days_ahead)
    api_client.force_authenticate(role_user("accountant"))
    response = api_client.post("/api/v1/reconciliation/gaming-days/", {"gaming_day": future.isoformat()},
                               format="json")
    assert response.status_code == 400 and response.json()["code"] == "gaming_day_not_started", response.json()
    assert not ReconciliationRun.objects.exists()
