"""The tax report in German (issue 18): PDF and XLSX headings and game names in German, PDF amounts with a
decimal comma; the XLSX keeps numbers as numbers (the spreadsheet formats them in its own locale)."""

from __future__ import annotations

import io

import pytest
from django.utils import translation
from openpyxl import load_workbook

from accounting.exports import tax_report_render
from accounting.services.reports import tax_report_build
from tests.accounting.test_signed_report import DAY, _text, closed_day  # noqa: F401 - the closed day fixture

pytestmark = pytest.mark.django_db


def _build():
    return tax_report_build(date_from=DAY, date_to=DAY)


def test_the_pdf_is_german_with_german_game_names_headings_and_decimal_commas(closed_day):  # noqa: F811
    with translation.override("de-at"):
        text, _pages = _text(tax_report_render(_build(), "pdf"))
    for expected in (f"Steuerbericht: Spieltage {DAY:%d.%m.%Y} bis", "Einundvierzig", "Capsa Susun", "Bruttospielertrag",
                     "Tisch", "Spiel", "Tagessumme", "1.234,50", "Unterschrift",
                     "1,00/unit"):  # the Capsa table's limit label "1.00/unit", its amount the German way
        assert expected in text, expected
    for english in ("gross gaming revenue", "day total", "1,234.50", "1.00/unit"):  # ("Forty-one 1" is a table name)
        assert english not in text, english


def test_the_xlsx_is_german_with_german_game_names_and_headings(closed_day):  # noqa: F811
    with translation.override("de-at"):
        wb = load_workbook(io.BytesIO(tax_report_render(_build(), "xlsx")))
    assert wb.sheetnames == ["Steuerbericht", "Tronc"]
    sheet = wb["Steuerbericht"]
    rows = [[c.value for c in row] for row in sheet.iter_rows()]
    assert rows[0][0] == f"Steuerbericht, Spieltage {DAY:%d.%m.%Y} bis {DAY:%d.%m.%Y}"  # the German date format
    assert rows[1] == ["Zeile", "Spieltag", "Tisch", "Spielart", "Limit", "gegebene Spiele", "Summe der Pots", "Taxe",
                       "Capsa-Gebühren", "41-Boni", "Bruttospielertrag"]
    games = {r[3] for r in rows[2:] if r[0] == "Zeile"}
    assert games == {"Einundvierzig", "Capsa Susun"}
    assert [r[0] for r in rows[2:]][-2:] == ["Tagessumme", "Summe des Zeitraums"]
    assert isinstance(rows[2][5], int) and isinstance(rows[2][6], (int, float))  # numbers stay numbers
    tronc = [[c.value for c in row] for row in wb["Tronc"].iter_rows()]
    assert tronc[0] == ["Spieltag", "Tisch", "Schicht", "Tronc gezählt", "bestätigt"]
    assert {r[4] for r in tronc[1:]} == {"ja"}


def test_the_xlsx_in_english_names_the_games_in_english(closed_day):  # noqa: F811
    with translation.override("en"):
        wb = load_workbook(io.BytesIO(tax_report_render(_build(), "xlsx")))
    rows = [[c.value for c in row] for row in wb["Tax report"].iter_rows()]
    assert rows[1][0] == "line" and rows[1][-1] == "gross gaming revenue"
    assert {r[3] for r in rows[2:] if r[0] == "line"} == {"Forty-one", "Capsa Susun"}
