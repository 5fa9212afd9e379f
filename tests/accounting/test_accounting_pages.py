"""Issue 17: the accountant's pages (Django's test client): who may open them, what they show, the actions."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from accounting.models import DropCount, GamingDay, TroncCount
from accounting.selectors import drop_logged
from accounting.services.reconciliation import gaming_day_reconcile
from tests.accounting.helpers import make_hand, make_table

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 5, 4)
URL = "/accounting/days/2026-05-04/"


@pytest.fixture
def dealt(role_user):
    table = make_table("seven_card_stud", name="Stud <1>")
    rng = random.Random(2)
    for i in range(3):
        make_hand(table, rng=rng, opened_at=dt.datetime(2026, 5, 4, 18, i, tzinfo=dt.UTC))
    gaming_day_reconcile(day=DAY)
    return table


def test_only_accountants_open_the_pages(client, role_user):
    assert client.get("/accounting/").status_code == 302
    client.force_login(role_user("croupier"))
    assert client.get("/accounting/").status_code == 403
    client.force_login(role_user("accountant"))
    assert client.get("/accounting/").status_code == 200


def test_two_accountants_count_confirm_and_close_from_the_day_page(client, role_user, dealt):
    anna, bernd = role_user("accountant", username="anna"), role_user("accountant", username="bernd")
    client.force_login(anna)
    listing = client.get("/accounting/").content.decode()
    assert "2026-05-04" in listing and "state-open" in listing  # an old day never closed stays on the list
    page = client.get(URL).content.decode()
    assert "the drop box of Stud &lt;1&gt; is not counted" in page and 'id="close-day" disabled' in page
    logged = drop_logged(table_id=dealt.id, gaming_day=DAY)
    client.post(URL + "drop/", {"table": dealt.id, "shift": "", "counted": f"{logged:.2f}"})
    client.post(URL + "tronc/", {"table": dealt.id, "shift": "late", "counted": "15.00"})
    drop, tronc = DropCount.objects.get(), TroncCount.objects.get()
    refused = client.post(URL + "drop-confirm/", {"id": drop.id}, follow=True).content.decode()
    assert "another accountant" in refused
    client.force_login(bernd)
    client.post(URL + "drop-confirm/", {"id": drop.id})
    client.post(URL + "tronc-confirm/", {"id": tronc.id})
    page = client.get(URL).content.decode()
    assert "ready to close" in page and 'id="close-day" disabled' not in page
    closed = client.post(URL + "close/", follow=True).content.decode()
    assert "The gaming day is closed." in closed and GamingDay.objects.get(day=DAY).closed_by == bernd
    pdf = client.get(URL + "report.pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert "2026-05-04" not in client.get("/accounting/").content.decode()


def test_the_pages_speak_german_and_choose_the_german_csv(client, role_user, dealt):
    client.force_login(role_user("accountant"))
    page = client.get(URL, HTTP_ACCEPT_LANGUAGE="de-AT").content.decode()
    assert "Spieltag 04.05.2026" in page and "Tronc-Zählungen" in page
    csv = client.get(URL + "report.csv", HTTP_ACCEPT_LANGUAGE="de-AT")
    assert csv.content.startswith(b"\xef\xbb\xbf") and b";" in csv.content.splitlines()[0]
    assert client.get(URL + "report.csv", {"form": "machine"}, HTTP_ACCEPT_LANGUAGE="de-AT").content.startswith(b"line,")


def test_the_charts_are_svg_rendered_on_the_server(client, role_user, dealt):
    client.force_login(role_user("accountant"))
    day = client.get(URL + "chart.svg")
    assert day.status_code == 200 and day["Content-Type"] == "image/svg+xml"
    assert b"<svg" in day.content and b"Stud &lt;1&gt;" in day.content
    assert client.get("/accounting/charts/30-days.svg").content.startswith(b"<?xml")


def test_a_bad_count_is_a_message_not_a_500(client, role_user, dealt):
    client.force_login(role_user("accountant"))
    answer = client.post(URL + "drop/", {"table": dealt.id, "counted": "-3"}, follow=True)
    assert answer.status_code == 200 and "Check the count" in answer.content.decode()
    assert client.get("/accounting/days/not-a-date/").status_code == 404


def test_the_progress_bar_polls_while_the_day_run_works_and_stops_after(client, role_user, dealt):
    from accounting.models import ReconciliationRun

    client.force_login(role_user("accountant"))
    idle = client.get(URL + "progress/").content.decode()
    assert 'value="100"' in idle and "hx-trigger" not in idle
    ReconciliationRun.objects.create(key="day:test:running", scope="day", gaming_day=DAY)
    running = client.get(URL + "progress/", HTTP_HX_REQUEST="true").content.decode()
    assert 'hx-trigger="every 2s"' in running and "the reconciliation run is working" in running


def test_a_refusal_on_the_day_page_reads_in_the_page_language(client, role_user, dealt):
    """A second count of the same box is refused in German with its parameters, and nothing is stored twice."""
    client.force_login(role_user("accountant"))
    client.post(URL + "drop/", {"table": dealt.id, "shift": "", "counted": "12.00"})
    page = client.post(URL + "drop/", {"table": dealt.id, "shift": "", "counted": "13.00"}, follow=True,
                       HTTP_ACCEPT_LANGUAGE="de-AT").content.decode()
    assert "die Drop-Box von Stud &lt;1&gt; für Spieltag" in page and "(ganzer Tag) wurde bereits gezählt" in page
    assert DropCount.objects.count() == 1


def test_approving_a_resolution_says_approved_not_waiting(client, role_user, dealt):
    from accounting.models import Approval, Discrepancy

    row = Discrepancy.objects.create(check_key="test:planted", kind="demo_planted", table=dealt, gaming_day=DAY,
                                     what="an envelope booked to the wrong table", expected="0.00", found="80.00")
    client.force_login(role_user("accountant", username="anna"))
    asked = client.post(URL + "resolve/", {"id": row.id, "note": "booked back"}, follow=True).content.decode()
    assert "Waiting for a second person" in asked
    approval = Approval.objects.get(status=Approval.Status.PENDING)
    client.force_login(role_user("accountant", username="bernd"))
    approved = client.post(URL + "approve/", {"id": approval.id}, follow=True).content.decode()
    assert "Approved." in approved and "Waiting for a second person" not in approved
    assert Discrepancy.objects.get(pk=row.pk).status != "open"


def test_a_resolution_note_over_the_limit_says_so_not_that_an_approval_waits(client, role_user, dealt):
    """The note's length was refused by the database and its error read as "already pending" (break test)."""
    from accounting.models import Approval, Discrepancy

    row = Discrepancy.objects.create(check_key="test:long-note", kind="demo_planted", table=dealt, gaming_day=DAY,
                                     what="an envelope booked to the wrong table", expected="0.00", found="80.00")
    client.force_login(role_user("accountant", username="anna"))
    page = client.post(URL + "resolve/", {"id": row.id, "note": "x" * 2001}, follow=True,
                       HTTP_ACCEPT_LANGUAGE="de-AT").content.decode()
    assert "Die Notiz ist zu lang (höchstens 2000 Zeichen)." in page and "bereits eine Freigabe" not in page
    assert not Approval.objects.exists() and Discrepancy.objects.get(pk=row.pk).status == "open"


def test_the_day_page_of_a_date_the_calendar_cannot_hold_is_not_found(client, role_user):
    client.force_login(role_user("accountant"))
    assert client.get("/accounting/days/9999-12-31/").status_code == 404  # was a 500 (no next day)
    assert client.post("/accounting/days/9999-12-31/close/").status_code == 404
