"""Template filters of the croupier's screen: cents shown as EUR amounts."""

from __future__ import annotations

from django import template

from rules.engines.money import format_cents

register = template.Library()


@register.filter
def eur(cents) -> str:
    """``1050`` -> ``"10.50"`` (cents as a plain EUR amount; empty for None)."""
    if cents is None or cents == "":
        return ""
    return format_cents(int(cents))


@register.filter
def eur_signed(cents) -> str:
    """``1050`` -> ``"+10.50"``, ``-200`` -> ``"-2.00"``, ``0`` -> ``"0.00"``."""
    value = int(cents or 0)
    return ("+" if value > 0 else "") + format_cents(value)


@register.filter
def times(n) -> range:
    """``range(n)`` for repeating a mark ``n`` times."""
    return range(int(n or 0))


@register.simple_tag
def capsa_slots(entered, seat, row, size) -> list[dict]:
    """The ``size`` card slots of one Capsa row of ``seat`` (form field ``<row>_<seat>``), filled with the
    cards entered before (``entered``: ``{seat: {row: "As Kd ..."}}``, after a Check)."""
    cards = ((entered or {}).get(seat) or {}).get(row, "").split()
    cards = (cards + [""] * size)[:size]
    return [{"face": "up", "value": c, "name": f"{row}_{seat}", "fixed": False} for c in cards]
