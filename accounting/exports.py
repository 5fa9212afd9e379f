"""File formats of the tax report and the hand-level audit export: CSV, XLSX, PDF.

* CSV: UTF-8, RFC 4180 (comma, ``"`` quoting, CRLF line ends), dot decimal with two decimals, dates ISO 8601
  (``2026-11-30``) in every language: this is the machine-readable form, read by programs and scripts, for
  which ISO is the one unambiguous, sortable date; people get the Excel CSVs, the XLSX and the PDF.
* XLSX (openpyxl): amounts and counts are numbers (``0.00`` / ``0`` formats), dates are dates shown in the
  reader's format (``30.11.2026`` in German, ``30 Nov 2026`` in English: ``SPREADSHEET_DATE_FORMAT`` of
  ``casino/formats``).
* CSV for German-language Excel (issue 17): ``;``, decimal comma, dates ``30.11.2026`` (German Excel reads them
  as dates), UTF-8 with BOM.
* CSV for English-language Excel: ``,``, decimal point, dates ``30 Nov 2026`` (the English formats module; English
  Excel reads them as dates), UTF-8 with BOM; the same content as the German form (headings and line kinds in the
  reader's language, game names in words, the tronc block).
* PDF (reportlab): the signed report of :mod:`accounting.report_pdf`.

Formula injection (OWASP "CSV injection"): a *text* cell that starts with ``=``, ``+``, ``-``, ``@``,
tab or carriage return is prefixed with an apostrophe in CSV and stored as an explicit string cell in
XLSX; amounts are never text, so a negative amount stays the number ``-5.00``.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from accounting.services.drop import shift_label
from accounting.services.reports import TAX_COLUMNS, TaxReport
from casino.i18n import house_format, local_date_text
from rules.engines.money import to_eur

#: First characters that make a spreadsheet treat a text cell as a formula.
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
FORMULA_FIRST = frozenset(FORMULA_TRIGGERS)
CSV_CONTENT_TYPE = "text/csv; charset=utf-8"
XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PDF_CONTENT_TYPE = "application/pdf"
CONTENT_TYPES = {"csv": CSV_CONTENT_TYPE, "xlsx": XLSX_CONTENT_TYPE, "pdf": PDF_CONTENT_TYPE}
#: The CSV forms (issue 17): RFC 4180 for machines (codes, no tronc block), and the people's form for
#: German-language and English-language Excel (the same content, each with its separators).
CSV_FORM_MACHINE = "machine"
CSV_FORM_EXCEL_DE = "excel_de"
CSV_FORM_EXCEL_EN = "excel_en"
CSV_FORMS = (CSV_FORM_MACHINE, CSV_FORM_EXCEL_DE, CSV_FORM_EXCEL_EN)
#: XLSX number formats: amounts with thousands grouping and two decimals, counts grouped.
XLSX_MONEY_FORMAT = "#,##0.00"
XLSX_INT_FORMAT = "#,##0"
#: XLSX column widths (characters) of the line kind and the :data:`TAX_COLUMNS`.
XLSX_WIDTHS = (14, 12, 28, 18, 14, 10, 16, 14, 14, 14, 22)


def neutralize(text: str) -> str:
    """Make a text cell inert for spreadsheets: ``"=1+2"`` -> ``"'=1+2"``; other text unchanged."""
    if text and text.startswith(FORMULA_TRIGGERS):
        return "'" + text
    return text


def money_text(value: Any) -> str:
    """An amount as CSV text: dot decimal, exactly two decimals (``Decimal("-5") -> "-5.00"``)."""
    return f"{value:.2f}"


class _Echo:
    """A file-like whose ``write`` returns the line, so ``csv.writer`` can feed a generator."""

    def write(self, value: str) -> str:
        return value


def _csv_writer():
    return csv.writer(_Echo(), lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)


def _cell_text(kind: str, value: Any) -> str:
    if value is None:
        return ""
    if kind == "money":
        return money_text(value)
    if kind in ("int", "date"):
        return str(value)
    return neutralize(str(value))


def _report_lines(report: TaxReport) -> Iterator[tuple[str, dict[str, Any]]]:
    """(line kind, values) in print order: each day's lines then its total, then the period total."""
    for day, lines in report.by_day():
        for row in lines:
            yield "line", row
        yield "day total", {**report.day_totals[day], "gaming_day": day}
    yield "period total", report.totals


def tax_report_csv(report: TaxReport) -> Iterator[str]:
    """Yield the tax report as CSV text chunks (header first)."""
    writer = _csv_writer()
    yield writer.writerow(["line", *(header for _, header, _ in TAX_COLUMNS)])
    for kind, row in _report_lines(report):
        yield writer.writerow([kind, *(_cell_text(ck, row.get(key)) for key, _, ck in TAX_COLUMNS)])


#: An amount written in a stored text (a limit label ``"2-4 @ 1.00"``): digits, a point, two decimals.
_MACHINE_AMOUNT = re.compile(r"(?<![0-9.,])[0-9]+\.[0-9]{2}(?![0-9])", re.ASCII)


def _decimal_comma(value: Any) -> str:
    """An amount for German-language Excel: two decimals, decimal comma, no grouping (``-1234,50``)."""
    return f"{value:.2f}".replace(".", ",")


def _excel_date(value: Any, *, language: str) -> str:
    """A gaming day for Excel of ``language``: ``30.11.2026`` (``de-at``) or ``30 Nov 2026`` (``en``), from that
    language's formats module whatever the language of the headings, as the amounts keep the form's decimal
    mark (Excel of that language reads it as a date); text that is not a date as it is."""
    from django.utils import translation

    if not isinstance(value, dt.date):
        return "" if value is None else str(value)
    with translation.override(language):
        return local_date_text(value)


def _tax_headings() -> list[str]:
    """The tax report's headings (line kind, then :data:`TAX_COLUMNS`) in the active language."""
    from django.utils.translation import gettext as _

    return [_("line"), _("gaming day"), _("table"), _("game"), _("limit"), _("hands dealt"), _("total of pots"),
            _("Taxe/tax"), _("Capsa fees"), _("41 bonuses"), _("gross gaming revenue")]


def _line_kinds() -> dict[str, str]:
    """The report's line kinds (``line``, ``day total``, ``period total``) in the active language."""
    from django.utils.translation import gettext as _

    return {"line": _("line"), "day total": _("day total"), "period total": _("period total")}


def tax_report_csv_excel_de(report: TaxReport) -> Iterator[str]:
    """The tax report for German-language Excel (issue 17): ``;`` separated, decimal comma, headings in the
    active language; the file is written as UTF-8 with a BOM (:func:`tax_report_render`) so Excel reads
    umlauts. Text cells are neutralized like the machine form; the tronc follows as its own block."""
    return _tax_report_csv_people(report, delimiter=";", decimal_comma=True)


def tax_report_csv_excel_en(report: TaxReport) -> Iterator[str]:
    """The tax report for English-language Excel (break-test finding 3): the German form's content (line kinds
    and headings in the active language, game names in words, the tronc block) with ``,`` separators and a
    decimal point (``-1234.50``, no grouping), written as UTF-8 with a BOM like the German form."""
    return _tax_report_csv_people(report, delimiter=",", decimal_comma=False)


def _tax_report_csv_people(report: TaxReport, *, delimiter: str, decimal_comma: bool) -> Iterator[str]:
    """The people's CSV (both Excel forms): amounts with two decimals, a decimal comma (also inside a limit
    label) or a decimal point, never grouped."""
    from django.utils.translation import gettext as _

    from accounting.report_pdf import game_name

    writer = csv.writer(_Echo(), delimiter=delimiter, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
    amount = _decimal_comma if decimal_comma else money_text
    excel_language = "de-at" if decimal_comma else "en"

    def day_text(value: Any) -> str:
        return _excel_date(value, language=excel_language)

    yield writer.writerow(_tax_headings())
    names = _line_kinds()
    for kind, row in _report_lines(report):
        cells = [names[kind]]
        for key, _header, ck in TAX_COLUMNS:
            value = row.get(key)
            if key == "game" and value:  # people's form: the game's name in words, as in the PDF and XLSX
                value = game_name(value)
            if key == "limit" and value and decimal_comma:  # "2-4 @ 1.00" -> "2-4 @ 1,00": every number with a decimal comma
                value = _MACHINE_AMOUNT.sub(lambda m: m.group(0).replace(".", ","), str(value))
            cells.append("" if value is None else amount(value) if ck == "money"
                         else day_text(value) if ck == "date" else _cell_text(ck, value))
        yield writer.writerow(cells)
    if report.tronc:
        yield writer.writerow([])
        yield writer.writerow([_("tronc"), _("gaming day"), _("table"), _("shift"), _("tronc counted")])
        for line in report.tronc:
            yield writer.writerow([_("tronc"), day_text(line["gaming_day"]), neutralize(line["table"]),
                                   shift_label(line["shift"]), amount(line["counted"])])


def _xlsx_value(kind: str, value: Any) -> Any:
    if value is None:
        return None
    if kind == "money":
        return to_eur(value)
    if kind == "int":
        return int(value)
    if kind == "date":
        return value
    return str(value)


def _xlsx_row(ws, values: Sequence[tuple[str, Any]]):
    from openpyxl.cell import WriteOnlyCell

    date_format = house_format("SPREADSHEET_DATE_FORMAT") or "yyyy-mm-dd"
    cells = []
    for kind, value in values:
        cell = WriteOnlyCell(ws, value=_xlsx_value(kind, value))
        if kind == "text" and value is not None:
            cell.data_type = "s"  # never a formula, whatever the first character
        elif kind == "money":
            cell.number_format = XLSX_MONEY_FORMAT
        elif kind == "int":
            cell.number_format = XLSX_INT_FORMAT
        elif kind == "date" and value is not None:
            cell.number_format = date_format
        cells.append(cell)
    return cells


def tax_report_xlsx(report: TaxReport) -> bytes:
    """The tax report as an XLSX workbook: numbers as numbers (grouped formats), column widths set, the
    title and header rows frozen; the tronc on a second sheet (it is not gross gaming revenue). Title,
    sheet names, headings, line kinds and game names are in the active language (issue 18); the cells
    hold numbers and dates, so the spreadsheet shows them in its own locale (``1.234,50`` in German)."""
    from django.utils.translation import gettext as _
    from openpyxl import Workbook
    from openpyxl.utils import get_column_letter

    from accounting.report_pdf import game_name

    wb = Workbook(write_only=True)
    ws = wb.create_sheet(_("Tax report"))
    for index, width in enumerate(XLSX_WIDTHS, start=1):
        ws.column_dimensions[get_column_letter(index)].width = width
    ws.freeze_panes = "A3"
    ws.append([_("Tax report, gaming days %(start)s to %(end)s") % {"start": local_date_text(report.date_from),
                                                                    "end": local_date_text(report.date_to)}])
    ws.append(_tax_headings())
    kinds = _line_kinds()
    for kind, row in _report_lines(report):
        values = {**row, "game": game_name(row["game"])} if row.get("game") else row
        ws.append(_xlsx_row(ws, [("text", kinds[kind]), *((ck, values.get(key)) for key, _h, ck in TAX_COLUMNS)]))
    tronc = wb.create_sheet(_("Tronc"))
    for index, width in enumerate((12, 28, 12, 14, 12), start=1):
        tronc.column_dimensions[get_column_letter(index)].width = width
    tronc.freeze_panes = "A2"
    tronc.append([_("gaming day"), _("table"), _("shift"), _("tronc counted"), _("confirmed")])
    for line in report.tronc:
        tronc.append(_xlsx_row(tronc, [("date", line["gaming_day"]), ("text", line["table"]), ("text", shift_label(line["shift"])),
                                       ("money", line["counted"]), ("text", _("yes") if line["confirmed"] else _("no"))]))
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


def tax_report_pdf(report: TaxReport) -> bytes:
    """The tax report as the PDF an auditor signs (see :mod:`accounting.report_pdf`)."""
    from accounting.report_pdf import tax_report_pdf as build

    return build(report)


def tax_report_render(report: TaxReport, fmt: str, *, form: str = "machine") -> bytes:
    """The whole file of a report in ``fmt`` (``csv``, ``xlsx`` or ``pdf``) as bytes; for CSV ``form`` is
    ``machine`` (RFC 4180), ``excel_de`` (German-language Excel, see :func:`tax_report_csv_excel_de`) or
    ``excel_en`` (English-language Excel, :func:`tax_report_csv_excel_en`)."""
    if fmt == "csv":
        if form == CSV_FORM_EXCEL_DE:
            return "".join(tax_report_csv_excel_de(report)).encode("utf-8-sig")
        if form == CSV_FORM_EXCEL_EN:
            return "".join(tax_report_csv_excel_en(report)).encode("utf-8-sig")
        return "".join(tax_report_csv(report)).encode("utf-8")
    if fmt == "xlsx":
        return tax_report_xlsx(report)
    if fmt == "pdf":
        return tax_report_pdf(report)
    raise ValueError(f"unknown format {fmt!r}")


def hand_export_csv(rows: Iterable[tuple], columns: Sequence[str]) -> Iterator[str]:
    """Yield the hand-level audit export as CSV chunks (about 64 KB each) from a row iterator.

    Rows follow :data:`accounting.selectors.HAND_EXPORT_COLUMNS`; text columns (table, limit) are
    neutralized (see :func:`neutralize`), amounts written with two decimals, datetimes in ISO 8601 (UTC).
    """
    writer = _csv_writer()
    yield writer.writerow(columns)
    buffer: list[str] = []
    size = 0
    write = writer.writerow
    for (hand_id, day, table, number, game, limit, status, recon, opened, closed,
         pots, tax, fees, bonus, result) in rows:
        if table and table[0] in FORMULA_FIRST:
            table = "'" + table
        if limit and limit[0] in FORMULA_FIRST:
            limit = "'" + limit
        if pots.__class__ is not str:  # SQLite: native values; PostgreSQL renders them as text already
            day, opened, closed = str(day), _iso(opened), _iso(closed)
            pots, tax, fees, bonus, result = (money_text(v) for v in (pots, tax, fees, bonus, result))
        line = write((hand_id, day, table, number, game, limit, status, recon, opened, closed,
                      pots, tax, fees, bonus, result))
        buffer.append(line)
        size += len(line)
        if size > 65536:
            yield "".join(buffer)
            buffer.clear()
            size = 0
    if buffer:
        yield "".join(buffer)


def _iso(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return str(value)
