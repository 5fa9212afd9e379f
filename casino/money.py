"""Money typed and read by people on the pages, in their language (break-test findings 4-6 and 11).

The API keeps its strict machine format (``"10.00"``, :func:`rules.engines.money.to_cents`). A page form
instead takes what a person types in the active language and hands the strict check on to the engines'
edge helper, once:

* German (``de-*``): decimal comma, ``.`` or a space groups thousands: ``60,00``, ``1.234,50``, ``60``;
  a point followed by one or two digits is also read as a decimal point (``60.00``), since keyboards
  and habits mix; a point followed by three digits is German thousands (``1.234`` = 1234).
* English: decimal point, ``,`` or a space groups thousands: ``60.00``, ``1,234.50``; ``60,00`` is refused.
* Always refused: exponents (``1e3``), more than two decimals (never rounded, STYLE.md rule 3), a sign
  unless the field allows negatives, ``NaN``/``Infinity``, digits of other scripts (``١٢``, ``１２``).

:func:`format_money` writes an amount the way the active language does (``1.234,50`` / ``1,234.50``).
"""

from __future__ import annotations

import re
from decimal import Decimal

from django.utils import translation
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from casino.errors import ApplicationError
from rules.engines.errors import InvalidAmount
from rules.engines.money import MAX_AMOUNT_CENTS, MAX_DECIMALS, from_cents, to_cents

#: Thousands separators a person may type besides the language's own: space, no-break and narrow no-break space.
_SPACES = " \u00a0\u202f"
#: The typed forms per language family: whole part (grouped by three, or not), decimals (ASCII digits only).
_FORMS = {
    "de": (re.compile(r"(?P<int>[0-9]{1,3}(?:[." + _SPACES + r"][0-9]{3})+|[0-9]+)(?:,(?P<frac>[0-9]+))?", re.ASCII),
           re.compile(r"(?P<int>[0-9]+)\.(?P<frac>[0-9]{1,2})", re.ASCII)),
    "en": (re.compile(r"(?P<int>[0-9]{1,3}(?:[," + _SPACES + r"][0-9]{3})+|[0-9]+)(?:\.(?P<frac>[0-9]+))?", re.ASCII),),
}
_CURRENCY = ("€", "EUR")


class MoneyInputError(ApplicationError):
    """An amount a person typed that is not one; ``message`` is already in the active language."""

    code = "invalid_amount"


def _family(language: str | None) -> str:
    code = (language or translation.get_language() or "en").lower()
    return "de" if code.startswith("de") else "en"


def _example() -> str:
    return format_money(Decimal("1234.50"))


def parse_money_input(text: object, *, language: str | None = None, field: str = "",
                      allow_negative: bool = False) -> Decimal:
    """An amount typed on a page (``"1.234,50"`` in German, ``"1,234.50"`` in English) as a ``Decimal`` in EUR
    with two places. ``language``: a language code (default: the active one); ``field``: the label the
    message names. Raises :class:`MoneyInputError` (message in the active language) for empty text,
    anything not written as the language writes amounts, more than two decimals, a sign when
    ``allow_negative`` is false, and amounts above ``MAX_AMOUNT_CENTS``. No rounding (STYLE.md rule 3)."""
    raw = str(text if text is not None else "").strip()
    for mark in _CURRENCY:
        raw = raw.removeprefix(mark).removesuffix(mark).strip()
    prefix = f"{field}: " if field else ""
    if not raw:
        raise MoneyInputError(prefix + _("Enter an amount."))
    sign = ""
    if raw[0] in "+-\u2212":
        sign, raw = ("" if raw[0] == "+" else "-"), raw[1:]
        if not allow_negative:
            raise MoneyInputError(prefix + _("Enter the amount without a sign."))
    match = None
    for form in _FORMS[_family(language)]:
        match = form.fullmatch(raw)
        if match:
            break
    if match is None:
        raise MoneyInputError(prefix + _("%(text)s is not an amount; write it like %(example)s.")
                              % {"text": str(text).strip()[:40], "example": _example()})
    whole = re.sub(r"[^0-9]", "", match["int"])
    frac = match["frac"] or ""
    if len(frac) > MAX_DECIMALS:
        raise MoneyInputError(prefix + _("An amount has at most two decimals (cents)."))
    try:
        cents = to_cents(f"{sign}{whole}.{frac or '0'}", allow_negative=allow_negative)
    except InvalidAmount:  # the only check left: the house's largest amount
        raise MoneyInputError(prefix + _("The amount is too large (at most %(max)s).")
                              % {"max": format_money(MAX_AMOUNT_CENTS)}) from None
    return from_cents(cents)


def cents_input_check(cents: int, *, field: str = "") -> int:
    """Whole ``cents`` a page sent (the spread-limit picker's value) held to what a typed amount may be
    (:func:`parse_money_input`): not negative, at most ``MAX_AMOUNT_CENTS`` (10.000.000,00). Returns ``cents``;
    raises :class:`MoneyInputError` saying it as a person would, the amount in EUR in the active language
    (``Betrag: -5,00 ist negativ; den Betrag ohne Vorzeichen eingeben.``), never the raw cents."""
    prefix = f"{field}: " if field else ""
    if cents < 0:
        raise MoneyInputError(prefix + _("%(amount)s is negative; enter the amount without a sign.")
                              % {"amount": format_money(cents)})
    if cents > MAX_AMOUNT_CENTS:
        raise MoneyInputError(prefix + _("The amount is too large (at most %(max)s).")
                              % {"max": format_money(MAX_AMOUNT_CENTS)})
    return cents


def format_money(value: object, *, language: str | None = None, grouping: bool = True) -> str:
    """An amount as the language writes it, two decimals: ``int`` is cents (``123450 -> "1.234,50"`` in
    German, ``"1,234.50"`` in English), a ``Decimal`` or decimal text is EUR (``Decimal("60") -> "60,00"``).
    ``None``/``""`` give ``""``; text that is no amount comes back unchanged. ``language``: default the active one."""
    if value is None or value == "":
        return ""
    cents = getattr(value, "cents", None)  # rules.engines.messages.Amount: text that keeps its cents
    if cents is not None:
        amount = from_cents(cents)
    elif isinstance(value, int) and not isinstance(value, bool):
        amount = from_cents(value)
    elif isinstance(value, Decimal):
        amount = value
    else:
        try:
            amount = from_cents(to_cents(str(value), allow_negative=True))
        except InvalidAmount:
            return str(value)
    if language is None:
        return number_format(amount, decimal_pos=2, use_l10n=True, force_grouping=grouping)
    with translation.override(language):
        return number_format(amount, decimal_pos=2, use_l10n=True, force_grouping=grouping)
