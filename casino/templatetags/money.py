"""``{% load money %}{{ value|money }}``: an amount as the active language writes it (``1.234,50`` / ``1,234.50``).

``int`` values are cents, ``Decimal`` or decimal text are EUR (:func:`casino.money.format_money`).
"""

from __future__ import annotations

import re

from django import template

from casino.money import format_money

register = template.Library()
#: An amount as the engines and the API write it: ASCII digits, a point, exactly two decimals.
_MACHINE_AMOUNT = re.compile(r"(?<![0-9.,])[0-9]+\.[0-9]{2}(?![0-9])", re.ASCII)


@register.filter
def money(value) -> str:
    """``123450 -> "1.234,50"`` (de) / ``"1,234.50"`` (en); ``Decimal("60") -> "60,00"``; ``None -> ""``."""
    return format_money(value)


@register.filter
def money_signed(value) -> str:
    """As :func:`money` with a ``+`` before a positive amount: ``1050 -> "+10,50"``, ``0 -> "0,00"``."""
    text = format_money(value if value not in (None, "") else 0)
    return f"+{text}" if text and text[0].isdigit() and text.strip("0.,") else text


@register.filter
def money_in_text(text) -> str:
    """Stored text with machine amounts (a limit label ``"2-4 @ 1.00"``, ``"2500.00/5000.00"``) with each
    amount the language's way: ``"2-4 @ 1,00"``, ``"2.500,00/5.000,00"`` (de). Other text is unchanged."""
    return _MACHINE_AMOUNT.sub(lambda m: format_money(m.group(0)), str(text or ""))
