"""Charts of the accountant's pages, rendered on the server with matplotlib as SVG (no CDN, no script).

Gross gaming revenue (Taxe/tax + Capsa fees - Forty-one bonuses) and the house take (Taxe/tax + Capsa
fees, before the bonuses) per table and per game, for one gaming day or a period; figures from the
same tax report the downloads use (so a closed day's chart shows its stored figures). The two series
differ by hatching as well as colour (WCAG: nothing by colour alone).
"""

from __future__ import annotations

import datetime as dt
import io
from collections import defaultdict
from decimal import Decimal

from django.utils.translation import gettext as _

from accounting.services.reports import tax_report_build

GGR_COLOUR = "#0b5d3b"
TAKE_COLOUR = "#c9a227"


def _sums(rows, key: str) -> dict[str, tuple[Decimal, Decimal]]:
    out: dict[str, list[Decimal]] = defaultdict(lambda: [Decimal(0), Decimal(0)])
    for row in rows:
        name = row[key] if key == "table" else _game(row["game"])
        out[name][0] += row["ggr"]
        out[name][1] += row["tax"] + row["fees"]
    return {name: (ggr, take) for name, (ggr, take) in sorted(out.items())}


def _game(code: str) -> str:
    from accounting.report_pdf import game_name

    return game_name(code)


def revenue_chart_svg(*, date_from: dt.date, date_to: dt.date, title: str) -> str:
    """An SVG (text) with two panels, per table and per game: GGR and house take in EUR for the period."""
    from matplotlib import rcParams
    from matplotlib.figure import Figure

    rcParams["svg.fonttype"] = "none"  # text stays text (smaller, searchable)
    rcParams["svg.hashsalt"] = "casino"  # stable ids: the same figures give the same SVG
    rows = tax_report_build(date_from=date_from, date_to=date_to).rows
    fig = Figure(figsize=(11, 3.8), layout="constrained")
    fig.suptitle(title, fontsize=12)
    axes = fig.subplots(1, 2)
    for ax, key, heading in ((axes[0], "table", _("per table")), (axes[1], "game", _("per game"))):
        sums = _sums(rows, key)
        names = list(sums)
        ax.set_title(heading, fontsize=10)
        ax.set_xlabel("EUR")
        if not names:
            ax.text(0.5, 0.5, _("no hands"), ha="center", va="center", transform=ax.transAxes)
            ax.set_yticks([])
            continue
        positions = range(len(names))
        height = 0.38
        ax.barh([p - height / 2 for p in positions], [float(sums[n][0]) for n in names], height=height,
                color=GGR_COLOUR, label=_("gross gaming revenue"))
        ax.barh([p + height / 2 for p in positions], [float(sums[n][1]) for n in names], height=height,
                color=TAKE_COLOUR, hatch="//", edgecolor="#5a4500", label=_("house take (Taxe/tax + fees)"))
        ax.set_yticks(list(positions), labels=names, fontsize=8)
        ax.invert_yaxis()
        ax.grid(axis="x", alpha=0.3)
    handles, labels = next(((h, lab) for h, lab in (ax.get_legend_handles_labels() for ax in axes) if h), ([], []))
    if handles:  # one legend for both panels, below them, where it hides no bar
        fig.legend(handles, labels, loc="outside lower center", ncols=2, fontsize=9, frameon=False)
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()
