"""Drop counts under an auditor's bad inputs: every refusal is readable and writes nothing."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from accounting.models import DropCount
from accounting.services.drop import drop_count_confirm, drop_count_record, drop_count_sign_off
from casino.errors import ApplicationError, ConflictError
from casino.gaming_day import gaming_day_of
from tests.accounting.helpers import make_table

pytestmark = pytest.mark.django_db

DAY = "2026-05-04"


def _post(api_client, table, counted, **extra):
    return api_client.post("/api/v1/drop-counts/", {"table": table.id, "gaming_day": DAY, "counted": counted, **extra},
                           format="json")


@pytest.mark.parametrize("counted", ["12.5", "1e400", "10.0", "1e2", "true", "[1]"])
def test_a_json_number_with_a_fraction_is_refused_at_the_api(api_client, role_user, counted):
    table = make_table("forty_one")
    api_client.force_authenticate(role_user("accountant"))
    body = f'{{"table": {table.id}, "gaming_day": "{DAY}", "counted": {counted}}}'  # raw JSON: 1e400 as sent
    response = api_client.post("/api/v1/drop-counts/", body, content_type="application/json")
    assert response.status_code == 400, response.json()
    assert "decimal string" in response.json()["message"]
    assert not DropCount.objects.exists()


def test_a_json_integer_is_an_exact_amount(api_client, role_user):
    table = make_table("forty_one")
    api_client.force_authenticate(role_user("accountant"))
    response = _post(api_client, table, 12)
    assert response.status_code == 201, response.json()
    assert response.json()["counted"] == "12.00"


@pytest.mark.parametrize("counted", ["1_000", "\uff11\uff12", "\u0663", "5e1", "1E+2", "0x10", "12,50", ".5", "5.",
                                     "NaN", "-5", "1.005", "1e400", "+-1", " 125.50 ", "125.50\n"])
def test_an_amount_that_is_not_a_plain_decimal_string_is_refused(role_user, counted):
    table = make_table("forty_one")
    with pytest.raises(ApplicationError) as err:
        drop_count_record(table=table, gaming_day=dt.date(2026, 5, 4), counted=counted, actor=role_user("accountant"))
    assert err.value.code == "invalid_amount" and "counted" in err.value.message
    assert not DropCount.objects.exists()


@pytest.mark.parametrize("counted", ["0", "0.00", "12", "12.5", "125.50", "+3.00"])
def test_plain_decimal_strings_are_accepted(role_user, counted):
    table = make_table("forty_one")
    count = drop_count_record(table=table, gaming_day=dt.date(2026, 5, 4), counted=counted,
                              actor=role_user("accountant"))
    assert count.counted == count.counted.quantize(count.counted.__class__("0.01"))


def test_a_gaming_day_that_has_not_started_cannot_be_counted(api_client, role_user):
    table = make_table("forty_one")
    tomorrow = gaming_day_of(timezone.now()) + dt.timedelta(days=1)
    api_client.force_authenticate(role_user("accountant"))
    response = api_client.post("/api/v1/drop-counts/", {"table": table.id, "gaming_day": tomorrow.isoformat(),
                                                        "counted": "1.00"}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "gaming_day_not_started", response.json()
    assert not DropCount.objects.exists()


@pytest.mark.parametrize(("first", "second"), [("", "early"), ("late", "")])
def test_a_whole_day_count_and_a_shift_count_of_the_same_box_conflict(role_user, first, second):
    table = make_table("forty_one")
    user = role_user("accountant")
    drop_count_record(table=table, gaming_day=dt.date(2026, 5, 4), shift=first, counted="1.00", actor=user)
    with pytest.raises(ConflictError) as err:
        drop_count_record(table=table, gaming_day=dt.date(2026, 5, 4), shift=second, counted="1.00", actor=user)
    assert err.value.code == "already_counted" and "shift" in err.value.message
    assert DropCount.objects.count() == 1


def test_two_different_shifts_of_the_same_box_are_both_counted(role_user):
    table = make_table("forty_one")
    user = role_user("accountant")
    drop_count_record(table=table, gaming_day=dt.date(2026, 5, 4), shift="early", counted="1.00", actor=user)
    drop_count_record(table=table, gaming_day=dt.date(2026, 5, 4), shift="late", counted="1.00", actor=user)
    assert DropCount.objects.count() == 2


def test_signing_off_twice_is_a_conflict_and_a_croupier_cannot_sign_off(api_client, role_user):
    table = make_table("forty_one")
    accountant = role_user("accountant")
    count = drop_count_record(table=table, gaming_day=dt.date(2026, 5, 4), counted="100.00", actor=accountant)
    with pytest.raises(ApplicationError) as err:
        drop_count_sign_off(drop_count=count, actor=role_user("croupier"), note="looks fine")
    assert err.value.status_code == 403
    drop_count_confirm(drop_count=count, actor=role_user("accountant"))
    api_client.force_authenticate(role_user("accountant"))
    url = f"/api/v1/drop-counts/{count.id}/sign-off/"
    assert api_client.post(url, {"note": "recount confirmed"}, format="json").status_code == 200
    again = api_client.post(url, {"note": "again"}, format="json")
    assert again.status_code == 409 and "already signed off" in again.json()["message"] and again.json()["extra"]["status"] == "signed_off", again.json()
    count.refresh_from_db()
    assert count.sign_off_note == "recount confirmed"


def test_a_refused_count_in_the_admin_shows_the_reason_and_writes_nothing(client, role_user):
    accountant = role_user("accountant", is_staff=True)
    table = make_table("forty_one")
    day = gaming_day_of(timezone.now())
    drop_count_record(table=table, gaming_day=day, shift="", counted="10.00", actor=accountant)
    client.force_login(accountant)
    response = client.post("/admin/accounting/dropcount/add/",
                           {"table": table.pk, "gaming_day": day.isoformat(), "shift": "early", "counted": "4.00"},
                           follow=True)
    assert response.status_code == 200
    page = response.content.decode()
    assert "already" in page
    assert "added successfully" not in page
    assert DropCount.objects.count() == 1
