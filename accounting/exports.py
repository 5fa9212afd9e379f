"""File formats of the tax report and the hand-level audit export: CSV, XLSX, PDF.

* CSV: UTF-8, RFC 4180 (comma, ``"`` quoting, CRLF line ends), dot decimal with two decimals.
* XLSX (openpyxl): amounts and counts are numbers (``0.00`` / ``0`` formats), dates are dates.
* PDF (reportlab): a printable A4 landscape document per period: the lines, a total per gaming day
  and the period's totals.

Formula injection (OWASP "CSV injection"): a *text* cell that starts with ``=``, ``+``, ``-``, ``@``,
tab or carriage return is prefixed with an apostrophe in CSV and stored as an explicit string cell in
XLSX; amounts are never text, so a negative amount stays the number ``-5.00``.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from accounting.services.reports import TAX_COLUMNS, TaxReport
from rules.engines.money import to_eur

#: First characters that make a spreadsheet treat a text cell as a formula.
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
FORMULA_FIRST = frozenset(FORMULA_TRIGGERS)
CSV_CONTENT_TYPE = "text/csv; charset=utf-8"
XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PDF_CONTENT_TYPE = "application/pdf"
CONTENT_TYPES = {"csv": CSV_CONTENT_TYPE, "xlsx": XLSX_CONTENT_TYPE, "pdf": PDF_CONTENT_TYPE}


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

    cells = []
    for kind, value in values:
        cell = WriteOnlyCell(ws, value=_xlsx_value(kind, value))
        if kind == "text" and value is not None:
            cell.data_type = "s"  # never a formula, whatever the first character
        elif kind == "money":
            cell.number_format = "0.00"
        elif kind == "date" and value is not None:
            cell.number_format = "yyyy-mm-dd"
        cells.append(cell)
    return cells


def tax_report_xlsx(report: TaxReport) -> bytes:
    """The tax report as an XLSX workbook (one sheet, numbers as numbers)."""
    from openpyxl import Workbook

    wb = Workbook(write_only=True)
    ws = wb.create_sheet("Tax report")
    ws.append([f"Tax report, gaming days {report.date_from.isoformat()} to {report.date_to.isoformat()}"])
    ws.append(["line", *(header for _, header, _ in TAX_COLUMNS)])
    for kind, row in _report_lines(report):
        ws.append(_xlsx_row(ws, [("text", kind), *((ck, row.get(key)) for key, _, ck in TAX_COLUMNS)]))
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


def tax_report_pdf(report: TaxReport) -> bytes:
    """The tax report as a printable PDF (A4 landscape): lines, day totals and the period totals."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=landscape(A4), leftMargin=12 * mm, rightMargin=12 * mm,
                            topMargin=12 * mm, bottomMargin=12 * mm,
                            title=f"Tax report {report.date_from}..{report.date_to}")
    styles = getSampleStyleSheet()
    header = [header for _, header, _ in TAX_COLUMNS]
    data: list[list[str]] = [header]
    bold_rows = []
    for kind, row in _report_lines(report):
        cells = [_cell_text(ck, row.get(key)) for key, _, ck in TAX_COLUMNS]
        if kind != "line":
            cells[1] = kind
            bold_rows.append(len(data))
        data.append(cells)
    table = Table(data, repeatRows=1)
    style = [
        ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
        ("FONTSIZE", (0, 0), (-1, -1), 8),
        ("ALIGN", (4, 1), (-1, -1), "RIGHT"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.75, colors.black),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.whitesmoke]),
    ]
    for index in bold_rows:
        style += [("FONTNAME", (0, index), (-1, index), "Helvetica-Bold"),
                  ("LINEABOVE", (0, index), (-1, index), 0.5, colors.grey)]
    table.setStyle(TableStyle(style))
    story = [
        Paragraph(f"Tax report: gaming days {report.date_from.isoformat()} to {report.date_to.isoformat()}",
                  styles["Title"]),
        Paragraph(f"Amounts in EUR. Gross gaming revenue = Taxe/tax + Capsa fees - Forty-one bonuses. "
                  f"Generated {report.generated_at:%Y-%m-%d %H:%M %Z}.", styles["Normal"]),
        Spacer(1, 4 * mm),
        table,
    ]
    doc.build(story)
    return buffer.getvalue()


def tax_report_render(report: TaxReport, fmt: str) -> bytes:
    """The whole file of a report in ``fmt`` (``csv``, ``xlsx`` or ``pdf``) as bytes."""
    if fmt == "csv":
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
