"""The shift report's charts, drawn on the server with matplotlib (no CDN, no browser script): SVG for
the page, PNG for the PDF. Titles and axis labels arrive translated from the caller."""

from __future__ import annotations

import re
from io import BytesIO

FELT = "#0b5d3b"
PALETTE = ["#0b5d3b", "#8a1c1c", "#1a57c4", "#8a5a00", "#5b3b8a", "#2d7d7d", "#555555", "#b0417a"]


#: Text sizes in points of the figure. The page shows a chart about 500 px wide (two columns at 1280 px),
#: so a 5.5-inch figure (396 pt) is drawn at about 1.25 px per point: 10 pt reads as 12-13 px, never
#: smaller than the page's small print; on a portrait tablet (one column) it is larger still.
FONT_SIZE = 10
SMALL_SIZE = 10


def _figure(width: float = 5.5, height: float = 3.0):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.fonttype": "none", "font.size": FONT_SIZE, "axes.titlesize": FONT_SIZE + 2,
                         "xtick.labelsize": SMALL_SIZE, "ytick.labelsize": SMALL_SIZE,
                         "legend.fontsize": SMALL_SIZE, "axes.spines.top": False, "axes.spines.right": False})
    return plt, *plt.subplots(figsize=(width, height), layout="constrained")


def _out(plt, fig, fmt: str) -> bytes | str:
    buf = BytesIO()
    fig.savefig(buf, format=fmt, dpi=150 if fmt == "png" else None)
    plt.close(fig)
    data = buf.getvalue()
    if fmt == "svg":
        text = data.decode("utf-8")
        # Inline in a page: without matplotlib's RDF metadata block, which names other hosts (issue 13).
        return re.sub(r"<metadata>.*?</metadata>\s*", "", text[text.index("<svg"):], flags=re.S)
    return data


def hands_per_hour_chart(*, hours: list[str], hands: dict[str, list[int]], title: str, ylabel: str,
                         fmt: str = "svg") -> bytes | str:
    """Stacked bars: hands opened per hour, one colour (and a legend entry) per table."""
    plt, fig, ax = _figure()
    bottom = [0] * len(hours)
    for i, (name, counts) in enumerate(sorted(hands.items())):
        ax.bar(hours, counts, bottom=bottom, label=name, color=PALETTE[i % len(PALETTE)],
               hatch=["", "//", "..", "xx"][i // len(PALETTE) % 4])
        bottom = [b + c for b, c in zip(bottom, counts)]
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    if hands:
        ax.legend(loc="upper left", bbox_to_anchor=(1, 1), fontsize=SMALL_SIZE, frameon=False)
    if len(hours) > 12:  # a label every other hour, so that they do not run into each other
        ax.set_xticks(range(len(hours)), [h if i % 2 == 0 else "" for i, h in enumerate(hours)])
    return _out(plt, fig, fmt)


def bar_chart(*, labels: list[str], values: list[float], title: str, ylabel: str, fmt: str = "svg",
              percent: bool = False, empty_text: str = "") -> bytes | str:
    """One bar per label with its value written on it (so nothing relies on colour); without values, the
    chart says ``empty_text`` instead of drawing empty axes."""
    plt, fig, ax = _figure(height=2.8)
    if not values:
        ax.set_axis_off()
        ax.set_title(title)
        ax.text(0.5, 0.5, empty_text, ha="center", va="center", transform=ax.transAxes)
        return _out(plt, fig, fmt)
    bars = ax.bar(labels, values, color=FELT)
    ax.bar_label(bars, labels=[f"{v:.0f} %" if percent else f"{v:.0f}" for v in values], fontsize=SMALL_SIZE)
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    if percent:
        ax.set_ylim(0, 100)
    ax.tick_params(axis="x", labelrotation=30)
    return _out(plt, fig, fmt)
