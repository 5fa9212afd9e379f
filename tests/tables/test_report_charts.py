"""The shift report's charts are readable where the page shows them: no text below 10 pt in a figure drawn
at most 5.5 inches wide (the page shows it about 500 px wide, so 10 pt reads as about 12 px)."""

from __future__ import annotations

import re

from tables.charts import bar_chart, hands_per_hour_chart


def _sizes(svg: str) -> tuple[float, list[float]]:
    width = float(re.search(r'<svg[^>]*\bwidth="([\d.]+)pt"', svg).group(1))
    return width, [float(x) for x in re.findall(r"font(?:-size)?:\s*([\d.]+)px", svg)]


def test_every_label_of_the_charts_is_at_least_ten_points_in_a_figure_the_page_does_not_shrink():
    hours = [f"{h:02}" for h in (*range(18, 24), *range(0, 6))] * 2
    charts = [
        hands_per_hour_chart(hours=hours, hands={"Stud 1": [3] * 24, "Forty-one 1": [2] * 24},
                             title="Hands per table and hour", ylabel="hands"),
        bar_chart(labels=["Stud 1", "Forty-one 1"], values=[85.0, 92.0], title="Occupancy", ylabel="%", percent=True),
        bar_chart(labels=[], values=[], title="Mean wait", ylabel="min", empty_text="Nobody was seated."),
    ]
    for svg in charts:
        width, sizes = _sizes(svg)
        assert width <= 5.5 * 72  # points: shown ~500 px wide, so scaled up, never down
        assert sizes and min(sizes) >= 10, sizes
