"""The tax report as a PDF an auditor signs (issue 17), built with reportlab.

Every page: the casino's name, address and licence number (settings ``CASINO_NAME``,
``CASINO_ADDRESS``, ``CASINO_LICENCE``), "page x of y", who generated the report and when (local time
with the zone). Per gaming day: its local period (06:00 to 06:00 with the zone) and its length where a
clock change makes it 23 or 25 hours, the reconciliation status (all reconciled / open discrepancies),
who counted and confirmed, who signed off a drop variance (table, shift, variance), and for a closed day "closed", who closed it and the SHA-256 checksum of its figures;
its lines with game names in words and amounts with thousands separators, the day total and the
tronc per table and shift (the staff's, shown apart from gross gaming revenue). Names are printed as
they are (the CSV's formula neutralising belongs to spreadsheets only). Signature lines close it.
Headings go through the translations (the language active when the report is rendered).
"""

from __future__ import annotations

import datetime as dt
import io
from collections import defaultdict
from decimal import Decimal
from html import escape
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounting.services.drop import shift_label
from accounting.services.reports import TaxReport
from casino.i18n import local_date_text, local_datetime_zone_text
from casino.templatetags.money import money_in_text
from tables.models import Game

#: Widths (mm) of the report's columns on A4 landscape (273 mm between the margins).
COLUMN_WIDTHS_MM = (44, 30, 40, 20, 28, 24, 28, 24, 30)


def game_name(code: str) -> str:
    """A game code in words (``capsa_susun`` -> ``Capsa Susun``), from the one list of games."""
    return dict(Game.choices).get(code, str(code).replace("_", " ").title())


def money(value: Decimal | int | None) -> str:
    """An amount with two decimals and thousands separators in the active language (1,234.50 / 1.234,50)."""
    return number_format(Decimal(value or 0), 2, use_l10n=True, force_grouping=True)


def count(value: int | None) -> str:
    """A count with thousands separators in the active language."""
    return number_format(int(value or 0), 0, use_l10n=True, force_grouping=True)


def local_time(moment: dt.datetime | None) -> str:
    """An instant in the card room's local time with its zone, in the active language's format
    (``casino/formats``): ``04.05.2026 21:13 CEST`` (de), ``4 May 2026 21:13 CEST`` (en); ``""`` for None."""
    if moment is None:
        return ""
    return local_datetime_zone_text(moment.astimezone(ZoneInfo(settings.TIME_ZONE)))


def _column_headers() -> list[str]:
    return [_("table"), _("game"), _("limit"), _("hands dealt"), _("total of pots"), _("Taxe/tax"), _("Capsa fees"),
            _("41 bonuses"), _("gross gaming revenue")]


def _day_heading(day: dt.date, info: dict[str, Any]) -> str:
    text = _("Gaming day %(day)s: %(start)s to %(end)s") % {
        "day": local_date_text(day), "start": local_time(info["start"]), "end": local_time(info["end"])}
    if info["hours"] != 24:
        text += " " + _("(%(hours)d hours: the clocks change)") % {"hours": info["hours"]}
    return text


def _reconciliation_text(info: dict[str, Any]) -> str:
    if not info["open_discrepancies"] and not info["unchecked_hands"]:
        return _("Reconciliation: all hands reconciled, no open discrepancies")
    open_text = ngettext("%(count)s open discrepancy", "%(count)s open discrepancies", info["open_discrepancies"]) % {
        "count": count(info["open_discrepancies"])}
    unchecked_text = ngettext("%(count)s hand not reconciled", "%(count)s hands not reconciled",
                              info["unchecked_hands"]) % {"count": count(info["unchecked_hands"])}
    return _("Reconciliation: %(open)s, %(unchecked)s") % {"open": open_text, "unchecked": unchecked_text}


def _close_text(info: dict[str, Any]) -> str:
    if info["closed"]:
        return _("Closed by %(who)s at %(when)s. Checksum (SHA-256) of the figures: %(checksum)s") % {
            "who": escape(info["closed_by"]), "when": local_time(info["closed_at"]), "checksum": info["checksum"]}
    return _("Not closed: the figures of this day may still change.")


def _days(report: TaxReport) -> dict[dt.date, dict[str, Any]]:
    """Per-day details of the report; a day that was not filled in (a report built by hand) is open."""
    from accounting.services.gaming_day import day_period

    out = {}
    for day in sorted({*report.days, *report.day_totals}):
        out[day] = report.days.get(day) or {**day_period(day), "closed": False, "checksum": "", "closed_by": "",
                                            "closed_at": None, "open_discrepancies": 0, "unchecked_hands": 0,
                                            "counted_by": [], "signed_off": []}
    return out


def tax_report_pdf(report: TaxReport) -> bytes:
    """The signed tax report (A4 landscape) as PDF bytes; see the module docstring for what it carries."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import mm
    from reportlab.pdfgen import canvas as pdf_canvas
    from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    generated = _("Generated by %(who)s at %(when)s") % {"who": report.generated_by or "-",
                                                        "when": local_time(report.generated_at)}
    casino = getattr(settings, "CASINO_NAME", "")
    header_line = _("%(address)s · Licence: %(licence)s") % {"address": getattr(settings, "CASINO_ADDRESS", ""),
                                                            "licence": getattr(settings, "CASINO_LICENCE", "")}
    page_label = _("Page %(page)d of %(pages)d")

    class NumberedCanvas(pdf_canvas.Canvas):
        """Draws the header and "page x of y" once the page count is known."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._pages: list[dict] = []

        def showPage(self):  # noqa: N802 - reportlab's name
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def save(self):
            total = len(self._pages)
            for state in self._pages:
                self.__dict__.update(state)
                width, height = self._pagesize
                self.setFont("Helvetica-Bold", 10)
                self.drawString(12 * mm, height - 9 * mm, casino)
                self.setFont("Helvetica", 8)
                self.drawString(12 * mm, height - 13 * mm, header_line)
                self.drawRightString(width - 12 * mm, 7 * mm, page_label % {"page": self._pageNumber, "pages": total})
                self.drawString(12 * mm, 7 * mm, generated)
                super().showPage()
            super().save()

    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=landscape(A4), leftMargin=12 * mm, rightMargin=12 * mm,
                            topMargin=18 * mm, bottomMargin=14 * mm,
                            title=_("Tax report %(start)s to %(end)s") % {"start": local_date_text(report.date_from),
                                                                          "end": local_date_text(report.date_to)},
                            author=report.generated_by or casino)
    styles = getSampleStyleSheet()
    from reportlab.lib.enums import TA_RIGHT
    from reportlab.lib.styles import ParagraphStyle

    cell = ParagraphStyle("cell", parent=styles["Normal"], fontSize=8, leading=9.5)
    head_left = ParagraphStyle("head", parent=cell, fontName="Helvetica-Bold")
    head_right = ParagraphStyle("head_right", parent=head_left, alignment=TA_RIGHT)
    base = [("FONTSIZE", (0, 0), (-1, -1), 8), ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
            ("LINEBELOW", (0, 0), (-1, 0), 0.75, colors.black), ("VALIGN", (0, 0), (-1, -1), "TOP")]
    story: list = [
        Paragraph(_("Tax report: gaming days %(start)s to %(end)s") % {"start": local_date_text(report.date_from),
                                                                       "end": local_date_text(report.date_to)},
                  styles["Title"]),
        Paragraph(_("Amounts in EUR. Gross gaming revenue = Taxe/tax + Capsa fees - Forty-one bonuses. The tronc is "
                    "the staff's and is shown apart; it is not part of gross gaming revenue."), styles["Normal"]),
        Spacer(1, 3 * mm),
    ]
    rows_by_day = dict(report.by_day())
    tronc_by_day: dict[dt.date, list[dict]] = defaultdict(list)
    for line in report.tronc:
        tronc_by_day[line["gaming_day"]].append(line)
    for day, info in _days(report).items():
        story.append(Paragraph(_day_heading(day, info), styles["Heading2"]))
        state = _("CLOSED") if info["closed"] else _("OPEN")
        story.append(Paragraph(f"<b>{state}</b> · {_reconciliation_text(info)}", styles["Normal"]))
        story.append(Paragraph(_("Counted and confirmed by: %(people)s") % {
            "people": escape(", ".join(info["counted_by"])) or "-"}, styles["Normal"]))
        for sign_off in info.get("signed_off", ()):  # the third person of the four-eyes steps
            story.append(Paragraph(_("Drop variance of %(table)s (%(shift)s, %(variance)s) signed off by: %(who)s") % {
                "table": escape(sign_off["table"]), "shift": escape(shift_label(sign_off["shift"])),
                "variance": money(sign_off["variance"]), "who": escape(sign_off["who"])}, styles["Normal"]))
        story.append(Paragraph(_close_text(info), styles["Normal"]))
        story.append(Spacer(1, 2 * mm))
        data = [[Paragraph(escape(h), head_right if i >= 3 else head_left) for i, h in enumerate(_column_headers())]]
        for row in rows_by_day.get(day, []):
            data.append([Paragraph(escape(row["table"]), cell), game_name(row["game"]),
                         Paragraph(escape(money_in_text(row["limit"])), cell), count(row["hands"]),
                         *(money(row[k]) for k in ("pots", "tax", "fees", "bonus", "ggr"))])
        totals = report.day_totals.get(day)
        if totals:
            data.append([_("day total"), "", "", count(totals["hands"]),
                         *(money(totals[k]) for k in ("pots", "tax", "fees", "bonus", "ggr"))])
        table = Table(data, repeatRows=1, colWidths=[w * mm for w in COLUMN_WIDTHS_MM])
        style = [*base, ("ALIGN", (3, 1), (-1, -1), "RIGHT")]
        if totals:
            style += [("FONTNAME", (0, -1), (-1, -1), "Helvetica-Bold"), ("LINEABOVE", (0, -1), (-1, -1), 0.5,
                                                                           colors.grey)]
        table.setStyle(TableStyle(style))
        story.append(table)
        tronc = tronc_by_day.get(day, [])
        if tronc:
            per_table: dict[str, Decimal] = defaultdict(Decimal)
            tdata = [[_("table"), _("shift"), _("tronc counted"), _("confirmed")]]
            for line in tronc:
                per_table[line["table"]] += line["counted"]
                tdata.append([line["table"], shift_label(line["shift"]), money(line["counted"]),
                              _("yes") if line["confirmed"] else _("no")])
            for name, total in sorted(per_table.items()):
                tdata.append([name, _("tronc total of the table"), money(total), ""])
            ttable = Table(tdata, colWidths=[55 * mm, 45 * mm, 30 * mm, 25 * mm], hAlign="LEFT")
            ttable.setStyle(TableStyle([*base, ("ALIGN", (2, 1), (2, -1), "RIGHT")]))
            story += [Spacer(1, 2 * mm), Paragraph(_("Tronc (staff tips, not gross gaming revenue)"),
                                                   styles["Heading4"]), ttable]
        story.append(Spacer(1, 4 * mm))
    if not report.days and not report.day_totals:
        story.append(Paragraph(_("No hands and no counts in this period."), styles["Normal"]))
    totals = report.totals
    period = Table([[_("period total"), count(totals["hands"]),
                     *(money(totals[k]) for k in ("pots", "tax", "fees", "bonus", "ggr"))]],
                   colWidths=[sum(COLUMN_WIDTHS_MM[:3]) * mm, *(w * mm for w in COLUMN_WIDTHS_MM[3:])])
    period.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), "Helvetica-Bold"), ("FONTSIZE", (0, 0), (-1, -1), 8),
                                ("ALIGN", (1, 0), (-1, -1), "RIGHT"), ("LINEABOVE", (0, 0), (-1, 0), 0.75,
                                                                        colors.black)]))
    story.append(period)
    labels = [_("Counted by (name, date, signature)"), _("Closed by (accountant: name, date, signature)"),
              _("Checked by (management: name, date, signature)")]
    signature = Table([["", "", "", "", ""], [Paragraph(escape(labels[0]), cell), "", Paragraph(escape(labels[1]), cell),
                                              "", Paragraph(escape(labels[2]), cell)]],
                      colWidths=[83 * mm, 12 * mm, 83 * mm, 12 * mm, 83 * mm], rowHeights=[18 * mm, None],
                      hAlign="LEFT")
    signature.setStyle(TableStyle([("LINEBELOW", (col, 0), (col, 0), 0.75, colors.black) for col in (0, 2, 4)]))
    story += [Spacer(1, 8 * mm), KeepTogether([Paragraph(_("Signatures"), styles["Heading3"]), signature])]
    doc.build(story, canvasmaker=NumberedCanvas)
    return buffer.getvalue()
