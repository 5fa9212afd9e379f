"""Stored texts in the reader's language (issue 18): reconciliation findings by code, notes the service adds,
audit reasons, PHH import details, "geschlossen" / "abgeschlossen", the floor card without a dealer and the
German CSV's limit label. Each test reads what a German (and an English) reader is shown."""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from decimal import Decimal

import pytest
from django.utils import translation

from accounting.models import Discrepancy, GamingDay
from accounting.services.reconciliation import hand_reconcile
from casino.i18n import message_text, status_word, stored_text
from casino.models import AuditEntry
from rules.engines.registry import get_engine
from tables.models import Hand, Table
from tests.accounting.helpers import make_hand, post_settlement
from tests.accounting.helpers import make_table as accounting_table
from tests.factories import make_user

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 5, 4)


def _fee_charged_twice():
    """A Capsa hand whose seat 1 was charged its 0.50 fee twice: two findings (seat 1's fee, the fee account)."""
    hand = make_hand(accounting_table("capsa_susun"), rng=random.Random(3), post=False,
                     opened_at=dt.datetime(2026, 5, 4, 20, 0, tzinfo=dt.UTC))
    engine = get_engine(hand.game)
    events = list(hand.events.order_by("seq").values_list("payload", flat=True))
    true = engine.settlement(engine.replay(engine.build_config(hand.limit_snapshot), {1: 20000, 2: 20000, 3: 20000},
                                           events, button=1))
    post_settlement(hand, dataclasses.replace(true, fees={**true.fees, 1: true.fees[1] + 100}))
    hand_reconcile(hand_id=hand.id)
    return hand


def _accountant_client(client, language: str):
    client.force_login(make_user("anna", "accountant"))
    client.cookies["django_language"] = language
    return client


# --- 1. reconciliation findings: a code and its parameters, rendered per reader --------------------------------


def test_a_finding_is_stored_by_code_with_its_english_text_and_shown_in_german():
    hand = _fee_charged_twice()
    fee = Discrepancy.objects.get(hand=hand, what_code="fee")
    assert fee.what_code == "fee" and fee.what_params["hand"] == hand.number
    assert fee.what_params["expected"] == {"cents": 150} and fee.what_params["found"] == {"cents": 250}
    # The English stays in the old columns (exports, audits, the four-eyes amount read them).
    assert (fee.what, fee.expected, fee.found) == (f"hand #{hand.number}: house fee posted to the fee account",
                                                   "1.50", "2.50")
    with translation.override("de-at"):
        assert fee.what_text == f"Spiel Nr. {hand.number}: Hausgebühr auf dem Gebührenkonto"
        assert (fee.expected_text, fee.found_text) == ("1,50", "2,50")
        assert fee.kind_text == "Gebühr"
        seat_row = Discrepancy.objects.get(hand=hand, what_code="seat_leg")
        assert seat_row.what_text == f"Spiel Nr. {hand.number}, Platz 1: Gebühr auf dem Spielerkonto"
    with translation.override("en"):
        assert fee.what_text == fee.what and fee.expected_text == "1.50"
        assert seat_row.what_text == f"hand #{hand.number} seat 1: fee on the players account"


def test_the_api_answers_the_same_fields_with_the_text_in_the_asked_language(api_client, role_user):
    hand = _fee_charged_twice()
    api_client.force_authenticate(role_user("accountant"))
    url = "/api/v1/reconciliation/discrepancies/"
    english = [r for r in api_client.get(url, {"hand": hand.id}).json()["results"] if r["check_key"].endswith(":fee:fee")]
    german = [r for r in api_client.get(url, {"hand": hand.id}, HTTP_ACCEPT_LANGUAGE="de-AT").json()["results"]
              if r["check_key"].endswith(":fee:fee")]
    assert set(german[0]) == set(english[0]) == {
        "id", "check_key", "kind", "what", "expected", "found", "hand", "hand_number", "table", "table_name",
        "gaming_day", "status", "found_at", "resolved_by", "resolution_note"}
    assert (english[0]["what"], english[0]["expected"]) == (f"hand #{hand.number}: house fee posted to the fee account",
                                                            "1.50")
    assert (german[0]["what"], german[0]["expected"], german[0]["found"]) == (
        f"Spiel Nr. {hand.number}: Hausgebühr auf dem Gebührenkonto", "1,50", "2,50")
    assert german[0]["kind"] == english[0]["kind"] == "fee"  # codes never change with the language


def test_the_day_page_shows_findings_and_amounts_in_german(client):
    hand = _fee_charged_twice()
    page = _accountant_client(client, "de-at").get(f"/accounting/days/{hand.gaming_day:%Y-%m-%d}/")
    text = page.content.decode()
    assert f"Spiel Nr. {hand.number}: Hausgebühr auf dem Gebührenkonto" in text
    assert "<td>1,50</td><td>2,50</td>" in text
    assert "house fee posted" not in text and "<td>1.50</td>" not in text


def test_a_row_written_before_the_codes_keeps_its_text_and_shows_its_amounts_per_language():
    old = Discrepancy.objects.create(check_key="old:1", kind="pot_not_zero", what="table:3:pot does not net to zero",
                                     expected="0.00", found="80.00", gaming_day=DAY)
    with translation.override("de-at"):
        assert (old.what_text, old.expected_text, old.found_text) == ("table:3:pot does not net to zero", "0,00",
                                                                      "80,00")
    with translation.override("en"):
        assert (old.expected_text, old.found_text) == ("0.00", "80.00")


def test_a_day_run_finding_with_a_date_reads_the_date_the_german_way():
    from accounting.findings import Finding
    from rules.engines.messages import Amount

    finding = Finding("pot_not_zero", "table:1:pot", "pot_not_zero", {"account": "table:1:pot", "day": DAY}, Amount(0),
                      Amount(300))
    row = Discrepancy.objects.create(check_key="day:x", kind=finding.kind, what=str(finding.what), what_code=finding.code,
                                     what_params=finding.stored_params(), expected="0.00", found="3.00")
    row.refresh_from_db()
    assert row.what == "table:1:pot does not net to zero for gaming day 2026-05-04"
    with translation.override("de-at"):
        assert row.what_text == "table:1:pot ergibt für den Spieltag 04.05.2026 nicht null"
        assert row.found_text == "3,00"


# --- 2. "(approved by ...)" -------------------------------------------------------------------------------------


def test_the_note_of_an_approved_resolution_reads_approved_in_the_readers_language(client):
    from accounting.services.approvals import approval_decide, discrepancy_resolve_request

    anna, bernd = make_user("anna", "accountant"), make_user("bernd", "accountant")
    big = Discrepancy.objects.create(check_key="big", kind="demo_planted", what="x", expected="0.00", found="80.00",
                                     gaming_day=DAY)
    approval = discrepancy_resolve_request(discrepancy=big, actor=anna, note="Kuvert umgebucht")
    approval_decide(approval=approval, actor=bernd, approve=True)
    big.refresh_from_db()
    assert big.resolution_note == "Kuvert umgebucht (approved by bernd)"  # stored English: the audit's text
    with translation.override("de-at"):
        assert big.resolution_note_text == "Kuvert umgebucht (freigegeben von bernd)"
    text = _accountant_client(client, "de-at").get(f"/accounting/days/{DAY:%Y-%m-%d}/").content.decode()
    assert "Kuvert umgebucht (freigegeben von bernd)" in text and "approved by" not in text
    assert "<td>0,00</td><td>80,00</td>" in text


# --- 3. audit reasons the service writes ------------------------------------------------------------------------


def test_audit_reasons_the_service_writes_are_shown_in_the_readers_language(api_client, role_user, client):
    from tests.factories import make_table

    table = make_table(status="open")  # opened without a reason: the service writes "table opened"
    row = AuditEntry.objects.filter(subject="tables.table", subject_id=str(table.pk), to_status="open").get()
    assert row.reason == "table opened"
    with translation.override("de-at"):
        assert stored_text(row.reason) == "Tisch geöffnet"
        assert stored_text("called to Stud 1") == "an Stud 1 aufgerufen"
        assert stored_text("seated at Stud 1 seat 4") == "an Stud 1 auf Platz 4 gesetzt"
        assert stored_text("imported from PHH 00-02-07.phh") == "aus PHH importiert: 00-02-07.phh"
        assert stored_text("Tisch wackelt") == "Tisch wackelt"  # typed by a person: as typed
    api_client.force_authenticate(role_user("floor_manager"))
    german = api_client.get(f"/api/v1/tables/{table.pk}/audit/", HTTP_ACCEPT_LANGUAGE="de-AT").json()
    english = api_client.get(f"/api/v1/tables/{table.pk}/audit/", HTTP_ACCEPT_LANGUAGE="en").json()
    assert "Tisch geöffnet" in [r["reason"] for r in german] and "table opened" in [r["reason"] for r in english]
    admin = make_user("admin-de")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    client.force_login(admin)
    client.cookies["django_language"] = "de-at"
    page = client.get("/admin/casino/auditentry/").content.decode()
    assert "Tisch geöffnet" in page and "table opened" not in page


# --- 4. PHH import details --------------------------------------------------------------------------------------


def test_phh_stack_and_limit_differences_read_german_with_decimal_commas():
    from rules.config_fields import config_field
    from tables.services.hands import _config_differences
    from tables.services.phh_import import _stacks_line

    stacks = _stacks_line({1: 123456, 2: 800})
    limits = _config_differences("seven_card_stud", ["ante", "bring_in_mode"], {"ante": "5.00", "bring_in_mode": "x"},
                                 {"ante": "2.50", "bring_in_mode": "y"})
    label = config_field("seven_card_stud", "ante").label
    with translation.override("de-at"):
        assert message_text(stacks) == "Platz 1 1234,56, Platz 2 8,00"
        german = message_text(limits)
        assert german.startswith(f"{translation.gettext(label)} (ante): in der Datei 5,00, am Tisch 2,50; ")
    assert "file" not in german and "5.00" not in german
    assert str(stacks) == "seat 1 1234.56, seat 2 8.00"


def test_a_phh_file_under_other_limits_is_refused_in_german(api_client):
    from tests.shared_data import PHH_DIR
    from tests.tables.hands_support import Terminal, croupier_on_duty, table_make

    table = table_make(game="seven_card_stud")
    Terminal(api_client, croupier_on_duty(table))
    text = (PHH_DIR / "00-22-43.phh").read_text(encoding="utf-8")
    answer = api_client.post("/api/v1/hands/submit/", {"idempotency_key": "wsop-de", "table": table.pk, "phh": text},
                             format="json", HTTP_ACCEPT_LANGUAGE="de-AT").json()
    assert answer["code"] == "phh_config_mismatch"
    assert "in der Datei" in answer["message"] and "am Tisch" in answer["message"]
    assert ": file " not in answer["message"] and ", table " not in answer["message"]


# --- 5. a table is "geschlossen", a hand and a gaming day "abgeschlossen" ---------------------------------------


def test_closed_reads_geschlossen_for_a_table_and_abgeschlossen_for_a_hand_and_a_gaming_day():
    from tests.factories import make_table

    table = make_table()
    with translation.override("de-at"):
        assert Table(status="closed").get_status_display() == "geschlossen"
        assert Hand(status="closed").get_status_display() == "abgeschlossen"
        assert GamingDay(status="closed").get_status_display() == "abgeschlossen"
        assert message_text(status_word(table)) == "geschlossen"  # the edge's word, as in refusals
        assert message_text(status_word(Hand(), "closed")) == "abgeschlossen"
    with translation.override("en"):
        assert Table(status="closed").get_status_display() == "closed" == message_text(status_word(table))


# --- 6. the floor card of a table without a dealer ---------------------------------------------------------------


def test_the_floor_card_of_a_table_without_a_dealer_says_keiner(client):
    from tests.factories import make_table

    make_table(name="Stud ohne Croupier", status="open")
    client.force_login(make_user("floor-de", "floor_manager"))
    client.cookies["django_language"] = "de-at"
    text = client.get("/floor/").content.decode()
    assert "<dt>Croupier</dt><dd class=\"alert-text\">keiner</dd>" in text
    assert ">keine<" not in text


# --- 7. the German CSV: every number with a decimal comma ---------------------------------------------------------


def test_the_german_csv_writes_the_limit_label_with_a_decimal_comma():
    from accounting.exports import tax_report_csv_excel_de
    from accounting.services.reports import TaxReport

    zero = Decimal("0.00")
    row = {"gaming_day": DAY, "table": "Capsa 1", "game": "capsa_susun", "limit": "2-4 @ 1.00", "hands": 3,
           "pots": Decimal("12.50"), "tax": zero, "fees": Decimal("1.50"), "bonus": zero, "ggr": Decimal("1.50")}
    report = TaxReport(date_from=DAY, date_to=DAY, rows=[row])
    with translation.override("de-at"):
        lines = "".join(tax_report_csv_excel_de(report)).splitlines()
    assert lines[1].split(";")[4:7] == ["2-4 @ 1,00", "3", "12,50"]
    assert lines[1].split(";")[1] == f"{DAY:%d.%m.%Y}"  # the gaming day as German Excel reads a date (issue 18)
    assert "." not in lines[1].replace("Capsa", "").replace(f"{DAY:%d.%m.%Y}", "")  # no decimal point in the amounts


# --- 8. one house word for a hand dealt: "Spiel" (the game is the "Spielart") -------------------------------------


def test_the_accounting_pages_count_hands_as_spiele_and_name_the_game_spielart(client):
    hand = _fee_charged_twice()
    _accountant_client(client, "de-at")
    pages = [client.get("/accounting/").content.decode(),
             client.get(f"/accounting/days/{hand.gaming_day:%Y-%m-%d}/").content.decode()]
    chart = client.get(f"/accounting/days/{hand.gaming_day:%Y-%m-%d}/chart.svg").content.decode()
    for text in pages:
        assert "Hände" not in text and "Händen" not in text and "Hand Nr" not in text
    assert '<th scope="col" class="num">Spiele</th>' in pages[0]
    assert "Abgestimmt: 1 von 1 Spielen" in pages[1] and "pro Spielart" in pages[1]
    assert "pro Spielart" in chart and "pro Spiel<" not in chart


# --- found in the sweep of the German pages ----------------------------------------------------------------------


def test_admin_words_and_sums_found_in_the_sweep_read_german():
    from accounting.admin_ledger import _eur_text
    from accounting.models import ReconciliationRun
    from tables.models import DutyCorrection

    with translation.override("de-at"):
        assert ReconciliationRun(scope="day").get_scope_display() == "Spieltag"
        assert ReconciliationRun(scope="hand").get_scope_display() == "Spiel"
        assert str(ReconciliationRun._meta.verbose_name_plural) == "Abstimmungsläufe"
        assert str(DutyCorrection._meta.verbose_name_plural) == "Dienstkorrekturen"
        assert _eur_text(Decimal("1234.5")) == "1.234,50" and _eur_text(None) == "0,00"
    with translation.override("en"):
        assert _eur_text(Decimal("1234.5")) == "1,234.50"
