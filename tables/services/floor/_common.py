"""What the floor services share: amounts in EUR, times with their zone, a time as the floor reads it."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.utils import timezone

from casino.errors import ApplicationError
from casino.i18n import gettext_noop
from rules.engines.errors import RuleViolation
from rules.engines.money import from_cents, to_cents


def _hm(moment: dt.datetime) -> str:
    return timezone.localtime(moment).strftime("%H:%M")


def _amount(value: Any, field: str) -> Decimal:
    """An EUR amount (string/Decimal) >= 0 with at most two decimals, as ``Decimal``; 400 otherwise."""
    try:
        return from_cents(to_cents(value, field=field))
    except RuleViolation as err:
        raise ApplicationError(err.message, code="invalid_amount", extra={"field": field}) from None


def _aware(moment: dt.datetime | None, field: str) -> dt.datetime | None:
    if moment is not None and timezone.is_naive(moment):
        raise ApplicationError(gettext_noop("%(field)s: give a time with its time zone", field=field), extra={"field": field})
    return moment
