"""The one function that decides the gaming day (STYLE.md rule 11; DESIGN.md "accounting/").

A gaming day starts at ``GAMING_DAY_START`` local time in ``TIME_ZONE`` (default 06:00
Europe/Vienna) and ends at the same wall-clock time the next day, so the days on which clocks change
are 23 or 25 hours long, and every instant belongs to exactly one gaming day.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from django.conf import settings


def _start_time() -> dt.time:
    hours, minutes = settings.GAMING_DAY_START.split(":")
    return dt.time(int(hours), int(minutes))


def gaming_day_of(moment: dt.datetime) -> dt.date:
    """The gaming day (a local calendar date) an aware instant belongs to.

    The day is named by the local date on which it starts: 2026-03-29 03:00 Vienna belongs to the
    gaming day 2026-03-28. Raises ``ValueError`` for a naive datetime.
    """
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("gaming_day_of needs an aware datetime")
    local = moment.astimezone(ZoneInfo(settings.TIME_ZONE))
    day = local.date()
    if local.time().replace(tzinfo=None) < _start_time():
        day -= dt.timedelta(days=1)
    return day


def gaming_day_bounds(day: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """``[start, end)`` of a gaming day as aware UTC datetimes (23, 24 or 25 hours apart).

    Raises ``OverflowError`` for a day the calendar cannot hold whole (the last date, 9999-12-31, ends on a date
    that does not exist; the first may start before one): :func:`gaming_day_check` refuses such input."""
    zone = ZoneInfo(settings.TIME_ZONE)
    start_local = dt.datetime.combine(day, _start_time(), tzinfo=zone)
    end_local = dt.datetime.combine(day + dt.timedelta(days=1), _start_time(), tzinfo=zone)
    return start_local.astimezone(dt.UTC), end_local.astimezone(dt.UTC)


def gaming_day_check(day: dt.date) -> bool:
    """True when ``day`` is a gaming day the calendar holds whole (:func:`gaming_day_bounds` computes), False for
    the dates at the calendar's two ends. Input checks call it before a day reaches a query or a report."""
    try:
        gaming_day_bounds(day)
    except OverflowError:
        return False
    return True
