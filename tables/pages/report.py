"""``/floor/report/``: the shift report (hands per table per hour, occupancy, waiting times, pushes and
floor calls) with server-side charts (SVG), and the same as PDF (``/floor/report/pdf/``)."""

from __future__ import annotations

import datetime as dt
from io import BytesIO

from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from casino.gaming_day import gaming_day_bounds, gaming_day_of
from tables.charts import bar_chart, hands_per_hour_chart
from tables.pages.common import floor_only
from tables.selectors_report import ShiftReport, shift_report


def _window(request) -> tuple[dt.datetime, dt.datetime, dict]:
    """The shift from ``?day=YYYY-MM-DD&start=HH:MM&end=HH:MM`` (local); default the current gaming day."""
    today = gaming_day_of(timezone.now())
    start, end = gaming_day_bounds(today)
    form = {"day": today.isoformat(), "start": timezone.localtime(start).strftime("%H:%M"),
            "end": timezone.localtime(end).strftime("%H:%M"), "error": ""}
    if request.GET.get("day"):
        try:
            day = dt.date.fromisoformat(request.GET["day"])
            t0 = dt.time.fromisoformat(request.GET.get("start") or "06:00")
            t1 = dt.time.fromisoformat(request.GET.get("end") or "06:00")
            tz = timezone.get_current_timezone()
            shift_start = timezone.make_aware(dt.datetime.combine(day, t0), tz)
            shift_end = timezone.make_aware(dt.datetime.combine(day, t1), tz)
            if shift_end <= shift_start:
                shift_end = timezone.make_aware(dt.datetime.combine(day + dt.timedelta(days=1), t1), tz)
            shift_start.astimezone(dt.UTC), shift_end.astimezone(dt.UTC)  # the database's form of both ends
        except (ValueError, OverflowError):  # OverflowError: a day at the calendar's end (9999-12-31)
            form["error"] = _("Give the day as YYYY-MM-DD and the times as HH:MM.")
            form.update(day=request.GET["day"][:10], start=(request.GET.get("start") or "")[:5],
                        end=(request.GET.get("end") or "")[:5])  # as typed, to correct
        else:
            start, end = shift_start, shift_end
            form.update(day=day.isoformat(), start=t0.strftime("%H:%M"), end=t1.strftime("%H:%M"))
    return start, end, form


def _charts(report: ShiftReport, fmt: str) -> dict:
    hours = [h.strftime("%H") for h in report.hours]
    occ = sorted(report.occupancy.items())
    waits = report.wait_summary()
    return {
        "hands": hands_per_hour_chart(hours=hours, hands=report.hands, title=_("Hands per table and hour"),
                                      ylabel=_("hands"), fmt=fmt),
        "occupancy": bar_chart(labels=[n for n, _v in occ], values=[100 * p / s for _n, (p, s) in occ],
                               title=_("Occupancy (players per hand / seats)"), ylabel="%", percent=True, fmt=fmt,
                               empty_text=_("No hands in this shift.")),
        "waits": bar_chart(labels=[w["list"] for w in waits], values=[w["mean"] for w in waits],
                           title=_("Mean wait on the list"), ylabel=_("minutes"), fmt=fmt,
                           empty_text=_("Nobody was seated from the list.")),
    }


@floor_only
def report_page(request):
    """``GET /floor/report/``: the report for the chosen shift, charts inline as SVG."""
    start, end, form = _window(request)
    if form["error"]:  # no report of another shift under the error
        return render(request, "tables/floor/report.html", {"form": form, "query": request.GET.urlencode()},
                      status=400)
    report = shift_report(start=start, end=end)
    return render(request, "tables/floor/report.html",
                  {"report": report, "form": form, "charts": _charts(report, "svg"),
                   "query": request.GET.urlencode()})


@floor_only
def report_pdf(request):
    """``GET /floor/report/pdf/``: the same report as PDF (reportlab, charts as images)."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import cm
    from reportlab.lib.utils import ImageReader
    from reportlab.platypus import Image, Paragraph, SimpleDocTemplate, Spacer, TableStyle
    from reportlab.platypus import Table as PdfTable

    start, end, form = _window(request)
    if form["error"]:  # the page says what is wrong, instead of a PDF of another day
        return report_page(request)
    report = shift_report(start=start, end=end)
    charts = _charts(report, "png")
    styles = getSampleStyleSheet()
    buf = BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=A4, title=_("Shift report"), leftMargin=1.5 * cm, rightMargin=1.5 * cm)
    title = _("Shift report %(start)s – %(end)s") % {"start": date_format(timezone.localtime(start), "DATETIME_FORMAT"),
                                                      "end": date_format(timezone.localtime(end), "DATETIME_FORMAT")}
    story = [Paragraph(title, styles["Title"]),
             Paragraph(_("%(n)s hands, %(p)s pushes, %(c)s floor calls") % {
                 "n": report.total_hands, "p": sum(report.pushes.values()), "c": sum(report.calls.values())},
                 styles["Normal"]), Spacer(1, 8)]
    for key in ("hands", "occupancy", "waits"):
        width, height = ImageReader(BytesIO(charts[key])).getSize()  # keep each chart's own proportions
        story += [Image(BytesIO(charts[key]), width=15 * cm, height=15 * cm * height / width), Spacer(1, 6)]
    rows = [[_("List"), _("seated"), _("mean"), _("median"), _("longest")]]
    rows += [[w["list"], w["seated"], w["mean"], w["median"], w["longest"]] for w in report.wait_summary()]
    rows += [[_("Push") + ": " + k, v, "", "", ""] for k, v in report.pushes.items()]
    rows += [[_("Floor call") + ": " + k, v, "", "", ""] for k, v in report.calls.items()]
    table = PdfTable(rows, repeatRows=1)
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.4, colors.grey), ("FONTSIZE", (0, 0), (-1, -1), 8)]))
    story.append(table)
    doc.build(story)
    response = HttpResponse(buf.getvalue(), content_type="application/pdf")
    response["Content-Disposition"] = 'inline; filename="shift-report.pdf"'
    return response
