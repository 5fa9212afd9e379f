"""Form fields shared by the pages: :class:`MoneyField` (an amount typed in the person's language)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext as _

from casino.money import MoneyInputError, format_money, parse_money_input


class MoneyInput(forms.TextInput):
    """A text box for money: ``inputmode="decimal"`` brings up the number pad, and unlike
    ``<input type=number>`` the browser keeps a German decimal comma (de-AT Chromium drops it)."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__({"inputmode": "decimal", "autocomplete": "off", "class": "num", **(attrs or {})})

    def format_value(self, value: Any) -> str | None:
        if isinstance(value, int) and not isinstance(value, bool):
            value = Decimal(value)  # EUR here, not cents
        if isinstance(value, Decimal | str):  # a stored amount ("2.00") in the language's way; typed text as typed
            return format_money(value, grouping=False) or None
        return super().format_value(value)


class MoneyField(forms.Field):
    """An amount in EUR typed in the active language (:func:`casino.money.parse_money_input`); cleans to a
    ``Decimal`` with two places (or ``None`` when empty and not required). ``min_value``/``max_value``: EUR
    bounds (``Decimal``); ``allow_negative``: whether a sign may be typed. Initial values (``Decimal``/int
    EUR) are shown the language's way (``60,00``)."""

    widget = MoneyInput

    def __init__(self, *, min_value: Decimal | None = Decimal("0"), max_value: Decimal | None = None,
                 allow_negative: bool = False, **kwargs: Any) -> None:
        self.min_value, self.max_value, self.allow_negative = min_value, max_value, allow_negative
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> Decimal | None:
        if value in self.empty_values or (isinstance(value, str) and not value.strip()):
            return None
        if isinstance(value, Decimal):
            return value
        try:
            return parse_money_input(value, allow_negative=self.allow_negative)
        except MoneyInputError as exc:
            raise forms.ValidationError(exc.message, code="invalid") from None

    def validate(self, value: Decimal | None) -> None:
        super().validate(value)
        if value is None:
            return
        if self.min_value is not None and value < self.min_value:
            raise forms.ValidationError(_("At least %(min)s, please.") % {"min": format_money(self.min_value)},
                                        code="min_value")
        if self.max_value is not None and value > self.max_value:
            raise forms.ValidationError(_("At most %(max)s, please.") % {"max": format_money(self.max_value)},
                                        code="max_value")
