"""The tax report: figures per gaming day, table, game and limit level equal the ledger's and the
engines' own settlements; totals per day and per period; the API and the admin page for accountants."""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
import random
import time
from collections import defaultdict
from decimal import Decimal

import pytest
from django.db.models import Sum
from django.test import override_settings

from accounting.models import Posting, ReportJob
from accounting.services.reports import report_job_build, tax_report_build
from rules.engines.money import from_cents
from tests.accounting.helpers import make_hand, make_table, post_settlement
from tests.accounting.helpers import stored_hand_settlement as _settlement

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _report_files_in_tmp(settings, tmp_path):
    """Report job files go to a throwaway MEDIA_ROOT."""
    settings.MEDIA_ROOT = str(tmp_path)

DAYS = [dt.date(2026, 3, 27), dt.date(2026, 3, 28), dt.date(2026, 3, 29)]


def _random_floor(seed: int, per_table: int = 4):
    """Two tables per game, random hands over three gaming days; one Forty-one hand pays a 41 bonus."""
    rng = random.Random(seed)
    expected: dict[tuple, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    bonus_paid = False
    for game in ("seven_card_stud", "forty_one", "capsa_susun"):
        for copy in range(2):
            table = make_table(game, name=f"{game} {copy + 1}")
            for day in DAYS:
                for i in range(rng.randint(1, per_table)):
                    opened = dt.datetime.combine(day, dt.time(12, 0), tzinfo=dt.UTC) + dt.timedelta(minutes=i)
                    hand = make_hand(table, rng=rng, opened_at=opened, post=False,
                                     seats=tuple(sorted(rng.sample(range(1, 7), rng.randint(3, 4)))))
                    settlement = _settlement(hand)
                    if game == "forty_one" and not bonus_paid:
                        settlement = dataclasses.replace(settlement, bonus={hand.button_seat: 5000})
                        bonus_paid = True
                    post_settlement(hand, settlement)
                    row = expected[(day, table.name)]
                    row["hands"] += 1
                    row["pots"] += sum(settlement.contributions.values()) - sum(settlement.returned.values())
                    row["tax"] += settlement.tax
                    row["fees"] += sum(settlement.fees.values())
                    row["bonus"] += sum(settlement.bonus.values())
    return expected


@pytest.mark.parametrize("seed", [1, 2])
def test_report_figures_equal_the_engines_settlements_and_the_ledger_on_random_data(seed):
    expected = _random_floor(seed)
    report = tax_report_build(date_from=DAYS[0], date_to=DAYS[-1])

    got = {(r["gaming_day"], r["table"]): r for r in report.rows}
    assert set(got) == set(expected)
    for key, want in expected.items():
        row = got[key]
        assert row["hands"] == want["hands"]
        for field in ("pots", "tax", "fees", "bonus"):
            assert row[field] == from_cents(want[field]), (key, field)
        assert row["ggr"] == from_cents(want["tax"] + want["fees"] - want["bonus"])

    ledger = {purpose: Posting.objects.filter(account__code__endswith=f":{purpose}").aggregate(t=Sum("amount"))["t"]
              or Decimal("0.00") for purpose in ("tax", "fee", "bonus_expense")}
    assert report.totals["tax"] == ledger["tax"]
    assert report.totals["fees"] == ledger["fee"]
    assert report.totals["bonus"] == -ledger["bonus_expense"] == Decimal("50.00")
    assert report.totals["ggr"] == ledger["tax"] + ledger["fee"] + ledger["bonus_expense"]
    for day in DAYS:
        day_tax = Posting.objects.filter(account__code__endswith=":tax", entry__gaming_day=day).aggregate(
            t=Sum("amount"))["t"] or Decimal("0.00")
        assert report.day_totals[day]["tax"] == day_tax
        assert report.day_totals[day]["hands"] == sum(v["hands"] for (d, _), v in expected.items() if d == day)
    assert report.totals["hands"] == sum(v["hands"] for v in expected.values())


def test_a_period_built_in_slices_with_progress_equals_the_one_query_report():
    _random_floor(3, per_table=2)
    seen = []
    sliced = tax_report_build(date_from=DAYS[0] - dt.timedelta(days=20), date_to=DAYS[-1], progress=seen.append)
    whole = tax_report_build(date_from=DAYS[0] - dt.timedelta(days=20), date_to=DAYS[-1])
    assert sliced.rows == whole.rows and sliced.totals == whole.totals
    assert seen == sorted(seen) and len(seen) == 4 and seen[-1] == 99


def test_a_reversal_counts_on_its_own_gaming_day_and_cancels_the_hand_over_the_whole_period(role_user):
    from django.utils import timezone

    from accounting.models import JournalEntry
    from accounting.services.ledger import journal_entry_reverse
    from casino.gaming_day import gaming_day_of

    table = make_table("seven_card_stud")
    rng = random.Random(2)
    hand = make_hand(table, rng=rng, opened_at=dt.datetime(2026, 3, 28, 12, tzinfo=dt.UTC))
    while not _settlement(hand).tax:
        hand = make_hand(table, rng=rng, opened_at=dt.datetime(2026, 3, 28, 12, tzinfo=dt.UTC))
    original = tax_report_build(date_from=DAYS[1], date_to=DAYS[1])
    reversal = journal_entry_reverse(entry=JournalEntry.objects.get(hand=hand), actor=role_user("accountant"),
                                     reason="posted to the wrong table")
    today = gaming_day_of(timezone.now())
    assert reversal.gaming_day == today
    assert tax_report_build(date_from=DAYS[1], date_to=DAYS[1]).totals == original.totals  # the past day stands
    on_its_day = tax_report_build(date_from=today, date_to=today)
    assert on_its_day.totals["tax"] == -Decimal("2.00") and on_its_day.totals["hands"] == 0
    whole = tax_report_build(date_from=DAYS[0], date_to=today)
    assert whole.totals["tax"] == original.totals["tax"] - Decimal("2.00")


# --- API --------------------------------------------------------------------------------------------------------


def test_only_accountants_get_the_report(api_client, role_user):
    for role in (None, "croupier", "floor_manager"):
        api_client.force_authenticate(role_user(role))
        assert api_client.get("/api/v1/reports/tax/", {"date_from": "2026-03-27", "date_to": "2026-03-29"}).status_code == 403
    api_client.force_authenticate(None)
    assert api_client.get("/api/v1/reports/hands/", {"date_from": "2026-03-27", "date_to": "2026-03-29"}).status_code in (401, 403)


def test_the_api_returns_json_and_each_file_format(api_client, role_user):
    _random_floor(4, per_table=1)
    api_client.force_authenticate(role_user("accountant"))
    query = {"date_from": "2026-03-27", "date_to": "2026-03-29"}
    body = api_client.get("/api/v1/reports/tax/", query).json()
    assert len(body["day_totals"]) == 3 and body["totals"]["hands"] == sum(d["hands"] for d in body["day_totals"])
    for fmt, magic in (("csv", b"line,gaming day"), ("xlsx", b"PK"), ("pdf", b"%PDF")):
        response = api_client.get("/api/v1/reports/tax/", {**query, "fmt": fmt}, HTTP_ACCEPT="text/html")
        assert response.status_code == 200, response.content[:200]
        assert response.content.startswith(magic)
        assert f"tax-report-2026-03-27-2026-03-29.{fmt}" in response["Content-Disposition"]


def test_bad_periods_are_refused_with_readable_messages(api_client, role_user):
    api_client.force_authenticate(role_user("accountant"))
    reversed_period = api_client.get("/api/v1/reports/tax/", {"date_from": "2026-03-29", "date_to": "2026-03-27"})
    assert reversed_period.status_code == 400 and "before" in reversed_period.json()["message"]
    with override_settings(REPORT_JOB_THRESHOLD_DAYS=31):
        large = api_client.get("/api/v1/reports/tax/", {"date_from": "2026-01-01", "date_to": "2026-03-31"})
    assert large.status_code == 400 and large.json()["code"] == "period_too_large"
    assert "/api/v1/reports/jobs/" in large.json()["message"]


def test_a_report_job_builds_once_with_progress_and_is_downloaded_when_done(role_user):
    _random_floor(5, per_table=1)
    job = ReportJob.objects.create(fmt="xlsx", date_from=DAYS[0] - dt.timedelta(days=60), date_to=DAYS[-1],
                                   requested_by=role_user("accountant"))
    built = report_job_build(job_id=job.id)
    assert (built.status, built.progress) == (ReportJob.Status.DONE, 100)
    name = built.file.name
    assert report_job_build(job_id=job.id).file.name == name  # a second run builds nothing
    with built.file.open("rb") as handle:
        assert handle.read(2) == b"PK"


def test_report_jobs_through_the_api_on_a_real_worker(api_client, role_user, live_worker):
    _random_floor(6, per_table=1)
    api_client.force_authenticate(role_user("accountant"))
    queued = api_client.post("/api/v1/reports/jobs/", {"date_from": "2026-01-01", "date_to": "2026-03-31", "fmt": "csv"},
                             format="json")
    assert queued.status_code == 202
    job_id = queued.json()["id"]
    early = api_client.get(f"/api/v1/reports/jobs/{job_id}/download/")
    assert early.status_code in (200, 409)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        state = api_client.get(f"/api/v1/reports/jobs/{job_id}/").json()
        if state["status"] in ("done", "failed"):
            break
        time.sleep(0.1)
    assert state["status"] == "done" and state["progress"] == 100
    download = api_client.get(state["download_url"])
    text = b"".join(download.streaming_content).decode("utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[-1][0] == "period total"


def test_the_admin_page_downloads_the_tax_report_in_all_three_formats(client, role_user):
    _random_floor(7, per_table=1)
    accountant = role_user("accountant", is_staff=True)
    client.force_login(accountant)
    page = client.get("/admin/accounting/reportjob/tax-report/")
    assert page.status_code == 200 and b"Tax report" in page.content
    for fmt, magic in (("csv", b"line,"), ("xlsx", b"PK"), ("pdf", b"%PDF")):
        response = client.post("/admin/accounting/reportjob/tax-report/",
                               {"date_from": "2026-03-27", "date_to": "2026-03-29", "fmt": fmt})
        assert response.status_code == 200 and response.content.startswith(magic), fmt
    assert client.get("/admin/accounting/discrepancy/").status_code == 200
    assert client.get("/admin/accounting/dropcount/add/").status_code == 200


def test_the_admin_tax_report_page_is_for_accountants_only(client, role_user):
    client.force_login(role_user("croupier", is_staff=True))
    assert client.get("/admin/accounting/reportjob/tax-report/").status_code == 403


def test_report_amounts_are_whole_cents_with_two_decimals_even_where_the_database_sums_floats():
    from rules.engines.base import Settlement

    table = make_table("seven_card_stud", name="Float noise")
    taxes = [110, 220, 155]  # 1.10 + 2.20 + 1.55: as floats (SQLite's SUM) 4.8500000000000005
    opened = dt.datetime.combine(DAYS[0], dt.time(12, 0), tzinfo=dt.UTC)
    for i, tax in enumerate(taxes):
        hand = make_hand(table, rng=random.Random(i), opened_at=opened + dt.timedelta(minutes=i), post=False,
                         seats=(1, 2))
        post_settlement(hand, Settlement(contributions={1: 1011, 2: 1011}, awards={1: 2022 - tax}, tax=tax))

    (row,) = tax_report_build(date_from=DAYS[0], date_to=DAYS[0]).rows

    assert (row["tax"], row["ggr"], row["pots"]) == (Decimal("4.85"), Decimal("4.85"), Decimal("60.66"))
    for key in ("pots", "tax", "fees", "bonus", "ggr"):
        assert str(row[key]) == f"{row[key]:.2f}", (key, row[key])


def test_a_report_period_ending_on_a_date_the_calendar_cannot_hold_is_refused(api_client, role_user):
    api_client.force_authenticate(role_user("accountant"))
    response = api_client.post("/api/v1/reports/jobs/", {"date_from": "9999-12-01", "date_to": "9999-12-31",
                                                         "fmt": "csv"}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and "is not a gaming day" in response.json()["message"], response.content
