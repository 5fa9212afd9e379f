"""Exports opened back with the csv module and openpyxl and checked cell by cell; formula injection
neutralised in text cells while negative amounts stay numbers; the hand-level export streams."""

from __future__ import annotations

import csv
import datetime as dt
import io
import random
import types
from decimal import Decimal

import pytest
from openpyxl import load_workbook

from accounting.exports import hand_export_csv, neutralize, tax_report_csv, tax_report_pdf, tax_report_xlsx
from accounting.selectors import HAND_EXPORT_COLUMNS, hand_export_rows
from accounting.services.reports import TAX_COLUMNS, TaxReport
from tests.accounting.helpers import make_hand, make_table

D1, D2 = dt.date(2026, 10, 24), dt.date(2026, 10, 25)


def _row(day, table, game, limit, hands, pots, tax, fees, bonus):
    pots, tax, fees, bonus = (Decimal(v) for v in (pots, tax, fees, bonus))
    return {"gaming_day": day, "table": table, "game": game, "limit": limit, "hands": hands, "pots": pots,
            "tax": tax, "fees": fees, "bonus": bonus, "ggr": tax + fees - bonus}


ROWS = [
    _row(D1, "Stud 1", "seven_card_stud", "5/10", 120, "8450.00", "240.00", "0.00", "0.00"),
    _row(D1, "Einundvierzig Ü", "forty_one", "5/10 cap 10", 80, "5120.50", "256.05", "0.00", "300.00"),  # GGR < 0
    _row(D1, "=HYPERLINK(\"http://x\",\"click\")", "capsa_susun", "+1.00/unit", 15, "310.00", "0.00", "22.50", "0.00"),
    _row(D2, "@SUM(A1:A9)", "seven_card_stud", "-2/4", 3, "41.00", "6.00", "0.00", "0.00"),
]


def _report():
    return TaxReport(D1, D2, ROWS)


def _expected_csv_cells(kind, row):
    out = [kind]
    for key, _, ck in TAX_COLUMNS:
        value = row.get(key)
        if ck == "money":
            out.append(f"{value:.2f}")
        elif ck == "text":
            out.append(neutralize(value) if value is not None else "")
        else:
            out.append("" if value is None else str(value))
    return out


@pytest.mark.parametrize(("text", "safe"), [
    ("=1+2", "'=1+2"), ("+41", "'+41"), ("-2/4", "'-2/4"), ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"),
    ("Stud 1", "Stud 1"), ("5/10", "5/10"), ("", ""), ("a=b", "a=b"),
])
def test_text_that_a_spreadsheet_would_run_as_a_formula_is_neutralised(text, safe):
    assert neutralize(text) == safe


def test_the_csv_reads_back_cell_by_cell_with_crlf_utf8_and_two_decimal_amounts():
    raw = "".join(tax_report_csv(_report())).encode("utf-8")
    assert raw.count(b"\r\n") == len(ROWS) + 2 + 1 + 1  # header, lines, two day totals, period total
    assert "Einundvierzig Ü".encode() in raw
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8"), newline="")))
    assert rows[0] == ["line", *(h for _, h, _ in TAX_COLUMNS)]
    report = _report()
    expected = [_expected_csv_cells("line", r) for r in ROWS[:3]]
    expected.append(_expected_csv_cells("day total", {**report.day_totals[D1], "gaming_day": D1}))
    expected.append(_expected_csv_cells("line", ROWS[3]))
    expected.append(_expected_csv_cells("day total", {**report.day_totals[D2], "gaming_day": D2}))
    expected.append(_expected_csv_cells("period total", report.totals))
    assert rows[1:] == expected
    day1 = rows[4]
    assert day1[1:] == ["2026-10-24", "", "", "", "215", "13880.50", "496.05", "22.50", "300.00", "218.55"]
    assert rows[2][-1] == "-43.95"  # a negative amount stays a plain number
    assert rows[3][2].startswith("'=") and rows[5][4] == "'-2/4"


def test_the_xlsx_reads_back_with_numbers_as_numbers_and_text_never_a_formula():
    wb = load_workbook(io.BytesIO(tax_report_xlsx(_report())))
    ws = wb.active
    values = [[c.value for c in row] for row in ws.iter_rows(min_row=2)]
    assert values[0] == ["line", *(h for _, h, _ in TAX_COLUMNS)]
    first = values[1]
    assert first[0] == "line" and first[1].date() == D1
    assert first[2:5] == ["Stud 1", "Seven Card Stud", "5/10"]  # the game in words (issue 18)
    assert first[5] == 120 and isinstance(first[5], int)
    for index, key in enumerate(("pots", "tax", "fees", "bonus", "ggr"), start=6):
        assert isinstance(first[index], (int, float)) and Decimal(str(first[index])) == ROWS[0][key]
    negative = ws.cell(row=4, column=11)
    assert negative.data_type == "n" and negative.value == pytest.approx(-43.95) and negative.number_format == "#,##0.00"
    injected = ws.cell(row=5, column=3)
    assert injected.data_type == "s" and injected.value == ROWS[2]["table"]  # stored as text, not a formula
    assert ws.cell(row=7, column=5).data_type == "s" and ws.cell(row=7, column=5).value == "-2/4"
    assert values[-1][0] == "period total" and values[-1][5] == 218
    assert Decimal(str(values[-1][10])) == sum(r["ggr"] for r in ROWS)


def test_the_pdf_is_a_printable_document_with_the_period_totals():
    pdf = tax_report_pdf(_report())
    assert pdf.startswith(b"%PDF") and pdf.rstrip().endswith(b"%%EOF")
    assert pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") + pdf.count(b"/Type /Page>") >= 1


def test_a_long_report_pdf_runs_over_several_pages_with_the_header_repeated():
    rows = [_row(D1 + dt.timedelta(days=i // 10), f"T{i % 10}", "forty_one", "5/10", 1, "10.00", "0.50", "0", "0")
            for i in range(200)]
    pdf = tax_report_pdf(TaxReport(D1, D1 + dt.timedelta(days=19), rows))
    assert pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") > 3


@pytest.mark.django_db
def test_the_hand_level_export_streams_one_row_per_hand_with_its_tax_and_result():
    table = make_table("forty_one", name="=cmd|' /C calc'!A0")
    rng = random.Random(12)
    hands = [make_hand(table, rng=rng, opened_at=dt.datetime(2026, 10, 24, 12, i, tzinfo=dt.UTC)) for i in range(12)]
    rows = hand_export_rows(date_from=D1, date_to=D1, batch=5)
    assert isinstance(rows, types.GeneratorType)  # nothing is loaded until iterated
    chunks = hand_export_csv(rows, HAND_EXPORT_COLUMNS)
    text = "".join(chunks)
    parsed = list(csv.reader(io.StringIO(text, newline="")))
    assert parsed[0] == list(HAND_EXPORT_COLUMNS)
    assert [int(r[0]) for r in parsed[1:]] == [h.id for h in hands]
    for hand, row in zip(hands, parsed[1:]):
        record = dict(zip(HAND_EXPORT_COLUMNS, row))
        legs = {p.account.code.rsplit(":", 1)[-1]: p.amount for p in hand.journal_entries.get().postings.all()
                if p.account.code.endswith((":tax", ":fee"))}
        assert record["tax"] == f"{legs.get('tax', Decimal('0')):.2f}"
        assert record["table"].startswith("'=")
        assert Decimal(record["house_result"]) == Decimal(record["tax"]) + Decimal(record["fees"]) - Decimal(record["bonus"])
        assert record["gaming_day"] == "2026-10-24" and record["hand_number"] == str(hand.number)


@pytest.mark.django_db
def test_the_hand_export_api_streams_for_accountants(api_client, role_user):
    table = make_table("capsa_susun")
    make_hand(table, rng=random.Random(1), opened_at=dt.datetime(2026, 10, 24, 12, 0, tzinfo=dt.UTC))
    api_client.force_authenticate(role_user("accountant"))
    response = api_client.get("/api/v1/reports/hands/", {"date_from": "2026-10-01", "date_to": "2026-10-31"})
    assert response.status_code == 200 and response.streaming
    assert response["Content-Type"].startswith("text/csv")
    lines = b"".join(response.streaming_content).decode().splitlines()
    assert len(lines) == 2 and lines[1].split(",")[12] == "1.50"  # 3 seats x 0.50 per-seat fee
