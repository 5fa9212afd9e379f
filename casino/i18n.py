"""The edge of the translations: engine and service messages in the reader's language (issue 18).

The engines and services write English ``gettext_noop(template, **params)`` messages
(:mod:`rules.engines.messages`); the API's error handler and the pages render them here through the
project's catalogue (``locale/``) in the active language, amounts in that language's number format
(``40,00`` in German, ``40.00`` in English). The active language comes from :mod:`casino.language`.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext

from rules.engines.messages import Amount, Message, gettext_noop, render

__all__ = ["Amount", "Message", "gettext_noop", "format_amount", "message_text", "local_datetime_text",
           "audit_data_text"]


def format_amount(cents: int) -> str:
    """Integer ``cents`` as the active language writes money: ``4000 -> "40,00"`` (de), ``"40.00"`` (en).

    No thousands grouping (a croupier reads ``1234,00``, as the engines write ``1234.00``); exact, no rounding.
    """
    return number_format(Decimal(int(cents)).scaleb(-2), decimal_pos=2, use_l10n=True, force_grouping=False)


def message_text(text: str) -> str:
    """``text`` (a :class:`Message`, an :class:`Amount` or plain text) in the active language.

    A message's template is looked up in the catalogue (``gettext``), its parameters rendered the same way
    (nested messages translated, amounts formatted by :func:`format_amount`); plain text is returned as is.
    """
    return render(text, translate=gettext, amount=format_amount)


def local_datetime_text(value: dt.datetime | None) -> str:
    """An aware datetime in the card room's time zone (``TIME_ZONE``) and the active language's format
    (``01.12.2026 14:05`` in German, ``Dec. 1, 2026, 2:05 p.m.`` in English); ``""`` for None."""
    if value is None:
        return ""
    if timezone.is_aware(value):
        value = timezone.localtime(value)
    return date_format(value, "SHORT_DATETIME_FORMAT")


def _as_datetime(text: str) -> dt.datetime | None:
    if len(text) < 19 or text[4:5] != "-" or "T" not in text:
        return None
    try:
        value = dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    return value if timezone.is_aware(value) else None


def audit_data_text(data: Any) -> str:
    """An audit row's ``data`` for a person: ``key: value`` pairs, stored ISO timestamps (UTC) shown in the
    card room's time zone and the active language's format, amounts and the rest as stored."""
    if not data:
        return ""
    if not isinstance(data, dict):
        return str(data)

    def show(value: Any) -> str:
        if isinstance(value, str) and (moment := _as_datetime(value)) is not None:
            return local_datetime_text(moment)
        if isinstance(value, list):
            return ", ".join(show(v) for v in value)
        if isinstance(value, dict):
            return "{" + audit_data_text(value) + "}"
        return str(value)

    return "; ".join(f"{key}: {show(value)}" for key, value in data.items())
