"""The lock of a closed gaming day (issue 17), kept apart so the ledger service can call it without cycles.

A gaming day is closed when its :class:`~accounting.models.GamingDay` row says so; nothing may be
posted into it (PostgreSQL refuses it too: migration ``0005_closed_day_guard``). Corrections of a
closed day go into the next open day (:func:`next_open_day`) as reversals pointing to the original.
"""

from __future__ import annotations

import datetime as dt

from django.utils.translation import gettext as _

from accounting.models import GamingDay
from casino.errors import ConflictError
from casino.i18n import local_date_text


def gaming_day_is_closed(day: dt.date) -> bool:
    """True if gaming day ``day`` is closed."""
    return GamingDay.objects.filter(day=day, status=GamingDay.Status.CLOSED).exists()


def gaming_day_open_check(day: dt.date) -> None:
    """Refuse a posting dated in a closed gaming day.

    Raises ``ConflictError(code="gaming_day_closed")`` (409) naming the day; corrections go into the
    next open day as reversals.
    """
    if gaming_day_is_closed(day):
        raise gaming_day_closed_error(day)


def gaming_day_closed_error(day: dt.date) -> ConflictError:
    """The refusal of a posting dated in the closed gaming day ``day`` (409 ``gaming_day_closed``)."""
    return ConflictError(
        _("gaming day %(day)s is closed: nothing may be posted into it; post a correction as a reversal "
          "in the next open day") % {"day": local_date_text(day)},
        code="gaming_day_closed", extra={"gaming_day": day.isoformat()})


def next_open_day(day: dt.date) -> dt.date:
    """The first gaming day on or after ``day`` that is not closed (where corrections are posted)."""
    closed = set(GamingDay.objects.filter(day__gte=day, status=GamingDay.Status.CLOSED).values_list("day", flat=True))
    while day in closed:
        day += dt.timedelta(days=1)
    return day
