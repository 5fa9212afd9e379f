"""When a PHH file's hand was played (its own date, so its gaming day): used by the hand service's PHH
submission and the importer. A module of its own so that neither imports the other (no import loop)."""

from __future__ import annotations

import datetime as dt
import tomllib
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from casino.errors import ApplicationError
from casino.gaming_day import gaming_day_bounds
from casino.i18n import gettext_noop


def phh_recorded_at(text: str) -> dt.datetime | None:
    """When the hand in a PHH file was played, as an aware datetime; None if the file records no date.

    Reads the PHH fields ``year``, ``month``, ``day`` and, if present, ``time`` (a TOML local time) and
    ``time_zone`` (an IANA name; otherwise the card room's ``TIME_ZONE``). A date without a time is the
    start of that date's gaming day, so the hand's gaming day is the recorded date. A date that does
    not exist raises :class:`ApplicationError` (``phh_error``).
    """
    try:
        fields = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None  # the reader reports the syntax error with its line
    year, month, day = fields.get("year"), fields.get("month"), fields.get("day")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (year, month, day)):
        return None
    try:
        date = dt.date(year, month, day)
    except ValueError as exc:
        raise ApplicationError(gettext_noop("the file records no real date (%(year)s-%(month)s-%(day)s): %(exc)s", year=year, month=month, day=day, exc=exc), code="phh_error") from None
    played = fields.get("time")
    if not isinstance(played, dt.time):
        return gaming_day_bounds(date)[0]
    from django.conf import settings

    try:
        zone = ZoneInfo(str(fields.get("time_zone") or settings.TIME_ZONE))
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo(settings.TIME_ZONE)
    return dt.datetime.combine(date, played.replace(tzinfo=None), tzinfo=zone)
