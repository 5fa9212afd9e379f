"""Drop counts: the counted tax box against the logged Taxe/tax and fees; big variances need a sign-off."""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

import pytest
from django.db.models import Sum
from django.test import override_settings

from accounting.models import DropCount, Posting
from accounting.services.drop import drop_count_confirm, drop_count_record, drop_count_sign_off, shift_bounds
from casino.errors import ApplicationError, ConflictError
from casino.models import AuditEntry
from tests.accounting.helpers import make_hand, make_table

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 5, 4)
EVENING = dt.datetime(2026, 5, 4, 18, 0, tzinfo=dt.UTC)  # 20:00 Vienna: the late shift


def _table_with_hands(game="seven_card_stud", n=6, at=EVENING):
    table = make_table(game)
    rng = random.Random(41)
    for i in range(n):
        make_hand(table, rng=rng, opened_at=at + dt.timedelta(minutes=3 * i))
    return table


def _logged(table):
    total = Posting.objects.filter(account__table=table, account__code__regex=r":(tax|fee)$").aggregate(t=Sum("amount"))
    return total["t"] or Decimal("0.00")


def test_a_count_equal_to_the_log_is_recorded_with_no_variance(role_user):
    table = _table_with_hands()
    logged = _logged(table)
    assert logged > 0
    count = drop_count_record(table=table, gaming_day=DAY, counted=str(logged), actor=role_user("accountant"))
    assert (count.logged, count.variance, count.status) == (logged, Decimal("0.00"), DropCount.Status.RECORDED)
    assert AuditEntry.objects.filter(action="drop_counted", subject_id=str(count.pk)).exists()


def test_capsa_fees_count_as_drop_too(role_user):
    table = _table_with_hands("capsa_susun", n=3)
    count = drop_count_record(table=table, gaming_day=DAY, counted="4.50", actor=role_user("accountant"))
    assert count.logged == Decimal("4.50")  # 3 deals x 3 seats x 0.50 per-seat fee
    assert count.variance == Decimal("0.00")


@override_settings(DROP_VARIANCE_THRESHOLD="5.00")
@pytest.mark.parametrize(("difference", "status"), [
    (Decimal("5.00"), DropCount.Status.RECORDED),
    (Decimal("-5.00"), DropCount.Status.RECORDED),
    (Decimal("5.01"), DropCount.Status.NEEDS_SIGN_OFF),
    (Decimal("-6.00"), DropCount.Status.NEEDS_SIGN_OFF),
])
def test_a_variance_over_the_threshold_needs_a_sign_off(role_user, difference, status):
    table = _table_with_hands()
    counted = _logged(table) + difference
    count = drop_count_record(table=table, gaming_day=DAY, counted=f"{counted:.2f}", actor=role_user("accountant"))
    assert count.variance == difference
    assert count.status == status


def test_an_accountant_signs_off_with_a_note_and_nobody_without_one(role_user):
    table = _table_with_hands()
    count = drop_count_record(table=table, gaming_day=DAY, counted="0.00", actor=role_user("accountant"))
    assert count.status == DropCount.Status.NEEDS_SIGN_OFF
    drop_count_confirm(drop_count=count, actor=role_user("accountant"))
    accountant = role_user("accountant")
    with pytest.raises(ApplicationError, match="note"):
        drop_count_sign_off(drop_count=count, actor=accountant, note="  ")
    with pytest.raises(ApplicationError, match="accountant"):
        drop_count_sign_off(drop_count=count, actor=role_user("floor_manager"), note="box was empty")
    signed = drop_count_sign_off(drop_count=count, actor=accountant, note="box emptied twice; see incident 12")
    assert signed.status == DropCount.Status.SIGNED_OFF
    assert (signed.signed_off_by, signed.sign_off_note) == (accountant, "box emptied twice; see incident 12")
    with pytest.raises(ApplicationError, match="already signed off"):
        drop_count_sign_off(drop_count=signed, actor=accountant, note="again")


def test_a_count_within_the_threshold_cannot_be_signed_off(role_user):
    table = _table_with_hands(n=1)
    count = drop_count_record(table=table, gaming_day=DAY, counted=f"{_logged(table):.2f}", actor=role_user("accountant"))
    with pytest.raises(ApplicationError) as err:
        drop_count_sign_off(drop_count=count, actor=role_user("accountant"), note="n/a")
    assert err.value.code == "invalid_transition"


def test_the_same_box_cannot_be_counted_twice(role_user):
    table = _table_with_hands(n=1)
    user = role_user("accountant")
    drop_count_record(table=table, gaming_day=DAY, counted="1.00", actor=user)
    with pytest.raises(ConflictError):
        drop_count_record(table=table, gaming_day=DAY, counted="1.00", actor=user)


@pytest.mark.parametrize("bad", ["-1.00", "1.005", "abc", 1.5])
def test_a_bad_amount_is_refused(role_user, bad):
    table = make_table("forty_one")
    with pytest.raises(ApplicationError) as err:
        drop_count_record(table=table, gaming_day=DAY, counted=bad, actor=role_user("accountant"))
    assert err.value.code == "invalid_amount"


def test_a_shift_counts_only_the_hands_posted_in_it(role_user):
    early = _table_with_hands(n=4, at=dt.datetime(2026, 5, 4, 6, 0, tzinfo=dt.UTC))  # from 08:00 Vienna
    table = early
    rng = random.Random(8)
    for i in range(4):  # the same table in the late shift (20:00 Vienna)
        make_hand(table, rng=rng, opened_at=EVENING + dt.timedelta(minutes=i))
    early_tax = Posting.objects.filter(account__table=table, account__code__endswith=":tax",
                                       entry__posted_at__lt=dt.datetime(2026, 5, 4, 12, 0, tzinfo=dt.UTC))
    early_total = early_tax.aggregate(t=Sum("amount"))["t"] or Decimal("0.00")
    user = role_user("accountant")
    count = drop_count_record(table=table, gaming_day=DAY, shift="early", counted=f"{early_total:.2f}", actor=user)
    assert (count.logged, count.variance) == (early_total, Decimal("0.00"))
    late = drop_count_record(table=table, gaming_day=DAY, shift="late", counted="0.00", actor=user)
    assert late.logged == _logged(table) - early_total
    assert shift_bounds(gaming_day=DAY, shift="early") == (dt.datetime(2026, 5, 4, 4, 0, tzinfo=dt.UTC),
                                                            dt.datetime(2026, 5, 4, 12, 0, tzinfo=dt.UTC))
    assert shift_bounds(gaming_day=DAY, shift="night") == (dt.datetime(2026, 5, 4, 20, 0, tzinfo=dt.UTC),
                                                            dt.datetime(2026, 5, 5, 4, 0, tzinfo=dt.UTC))
    with pytest.raises(ApplicationError, match="unknown shift"):
        drop_count_record(table=table, gaming_day=DAY, shift="graveyard", counted="0.00", actor=user)


def test_the_night_shift_of_the_autumn_clock_change_day_is_nine_hours():
    start, end = shift_bounds(gaming_day=dt.date(2026, 10, 24), shift="night")
    assert end - start == dt.timedelta(hours=9)


def test_the_count_team_records_through_the_api_and_an_accountant_signs_off(api_client, role_user):
    table = _table_with_hands(n=3)
    api_client.force_authenticate(role_user("accountant"))
    created = api_client.post("/api/v1/drop-counts/", {"table": table.id, "gaming_day": "2026-05-04",
                                                       "counted": "100.00"}, format="json")
    assert created.status_code == 201, created.json()
    body = created.json()
    assert body["status"] == "needs_sign_off" and Decimal(body["variance"]) == Decimal("100.00") - _logged(table)
    no_note = api_client.post(f"/api/v1/drop-counts/{body['id']}/sign-off/", {"note": ""}, format="json")
    assert no_note.status_code == 400
    api_client.force_authenticate(role_user("accountant"))
    assert api_client.post(f"/api/v1/drop-counts/{body['id']}/confirm/").status_code == 200
    api_client.force_authenticate(role_user("accountant"))
    signed = api_client.post(f"/api/v1/drop-counts/{body['id']}/sign-off/", {"note": "tips box emptied into drop"},
                             format="json")
    assert signed.status_code == 200 and signed.json()["status"] == "signed_off"
    listed = api_client.get("/api/v1/drop-counts/", {"status": "signed_off"}).json()
    assert [row["id"] for row in listed["results"]] == [body["id"]]
    again = api_client.post("/api/v1/drop-counts/", {"table": table.id, "gaming_day": "2026-05-04", "counted": "1.00"},
                            format="json")
    assert again.status_code == 409 and again.json()["code"] == "already_counted"


def test_drop_counts_are_for_accountants_only(api_client, role_user):
    api_client.force_authenticate(role_user("croupier"))
    assert api_client.get("/api/v1/drop-counts/").status_code == 403
