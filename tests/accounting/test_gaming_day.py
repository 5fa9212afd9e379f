"""The gaming day: 06:00 to 06:00 Europe/Vienna by default, 23 or 25 hours on the clock-change days.

Tests ``casino.gaming_day`` (the one function that decides the gaming day, STYLE.md rule 11). No
database needed.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.test import override_settings
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.gaming_day import gaming_day_bounds, gaming_day_of

VIENNA = ZoneInfo("Europe/Vienna")
UTC = dt.UTC


def vienna(*args, fold=0):
    return dt.datetime(*args, tzinfo=VIENNA).replace(fold=fold)


@pytest.mark.parametrize(("moment", "day"), [
    (vienna(2026, 5, 4, 6, 0), dt.date(2026, 5, 4)),               # the first instant of the day
    (vienna(2026, 5, 4, 5, 59, 59, 999999), dt.date(2026, 5, 3)),  # the last instant of the day before
    (vienna(2026, 5, 4, 23, 30), dt.date(2026, 5, 4)),
    (vienna(2026, 5, 5, 2, 0), dt.date(2026, 5, 4)),                # after midnight: still yesterday's gaming day
    (dt.datetime(2026, 5, 4, 4, 0, tzinfo=UTC), dt.date(2026, 5, 4)),  # 06:00 CEST given in UTC
    (dt.datetime(2026, 5, 4, 3, 59, tzinfo=UTC), dt.date(2026, 5, 3)),
    (dt.datetime(2026, 1, 10, 5, 0, tzinfo=UTC), dt.date(2026, 1, 10)),  # 06:00 CET (winter, UTC+1)
    (dt.datetime(2026, 1, 10, 4, 59, tzinfo=UTC), dt.date(2026, 1, 9)),
    (vienna(2026, 12, 31, 23, 59), dt.date(2026, 12, 31)),
    (vienna(2027, 1, 1, 5, 0), dt.date(2026, 12, 31)),              # new year's night belongs to Dec 31
])
def test_an_instant_belongs_to_the_gaming_day_that_started_before_it(moment, day):
    assert gaming_day_of(moment) == day


def test_an_ordinary_gaming_day_is_24_hours_from_0600_to_0600_local():
    start, end = gaming_day_bounds(dt.date(2026, 5, 4))
    assert (start, end) == (dt.datetime(2026, 5, 4, 4, 0, tzinfo=UTC), dt.datetime(2026, 5, 5, 4, 0, tzinfo=UTC))
    winter = gaming_day_bounds(dt.date(2026, 1, 10))
    assert winter == (dt.datetime(2026, 1, 10, 5, 0, tzinfo=UTC), dt.datetime(2026, 1, 11, 5, 0, tzinfo=UTC))


def test_the_spring_clock_change_day_is_23_hours_long():
    # 2026-03-29 02:00 CET -> 03:00 CEST: the gaming day of March 28 runs 05:00 UTC -> 04:00 UTC.
    start, end = gaming_day_bounds(dt.date(2026, 3, 28))
    assert start == dt.datetime(2026, 3, 28, 5, 0, tzinfo=UTC)
    assert end == dt.datetime(2026, 3, 29, 4, 0, tzinfo=UTC)
    assert end - start == dt.timedelta(hours=23)
    assert gaming_day_of(vienna(2026, 3, 29, 1, 59)) == dt.date(2026, 3, 28)
    assert gaming_day_of(vienna(2026, 3, 29, 3, 0)) == dt.date(2026, 3, 28)   # the first instant after the jump
    assert gaming_day_of(vienna(2026, 3, 29, 5, 59)) == dt.date(2026, 3, 28)
    assert gaming_day_of(vienna(2026, 3, 29, 6, 0)) == dt.date(2026, 3, 29)
    assert gaming_day_bounds(dt.date(2026, 3, 29))[0] == end


def test_the_autumn_clock_change_day_is_25_hours_long_and_the_repeated_hour_counts_once_per_instant():
    # 2026-10-25 03:00 CEST -> 02:00 CET: the gaming day of October 24 runs 04:00 UTC -> 05:00 UTC next day.
    start, end = gaming_day_bounds(dt.date(2026, 10, 24))
    assert start == dt.datetime(2026, 10, 24, 4, 0, tzinfo=UTC)
    assert end == dt.datetime(2026, 10, 25, 5, 0, tzinfo=UTC)
    assert end - start == dt.timedelta(hours=25)
    first_230 = vienna(2026, 10, 25, 2, 30, fold=0)   # 00:30 UTC (CEST)
    second_230 = vienna(2026, 10, 25, 2, 30, fold=1)  # 01:30 UTC (CET)
    assert first_230.astimezone(UTC) != second_230.astimezone(UTC)
    assert gaming_day_of(first_230) == gaming_day_of(second_230) == dt.date(2026, 10, 24)
    assert gaming_day_of(dt.datetime(2026, 10, 25, 4, 59, tzinfo=UTC)) == dt.date(2026, 10, 24)
    assert gaming_day_of(dt.datetime(2026, 10, 25, 5, 0, tzinfo=UTC)) == dt.date(2026, 10, 25)


def test_consecutive_gaming_days_tile_time_without_gap_or_overlap_across_a_whole_year():
    day = dt.date(2026, 1, 1)
    lengths = set()
    while day.year == 2026:
        start, end = gaming_day_bounds(day)
        assert gaming_day_bounds(day + dt.timedelta(days=1))[0] == end
        lengths.add((end - start).total_seconds() / 3600)
        day += dt.timedelta(days=1)
    assert lengths == {23.0, 24.0, 25.0}


@settings(max_examples=300, deadline=None)
@given(st.datetimes(min_value=dt.datetime(2020, 1, 1), max_value=dt.datetime(2035, 12, 31), timezones=st.just(UTC)))
def test_every_instant_lies_inside_the_bounds_of_exactly_its_own_gaming_day(moment):
    day = gaming_day_of(moment)
    start, end = gaming_day_bounds(day)
    assert start <= moment < end
    for other in (day - dt.timedelta(days=1), day + dt.timedelta(days=1)):
        other_start, other_end = gaming_day_bounds(other)
        assert not (other_start <= moment < other_end)


@override_settings(GAMING_DAY_START="04:00", TIME_ZONE="America/New_York")
def test_the_start_time_and_the_time_zone_come_from_settings():
    assert gaming_day_of(dt.datetime(2026, 7, 1, 7, 59, tzinfo=UTC)) == dt.date(2026, 6, 30)  # 03:59 EDT
    assert gaming_day_of(dt.datetime(2026, 7, 1, 8, 0, tzinfo=UTC)) == dt.date(2026, 7, 1)
    start, end = gaming_day_bounds(dt.date(2026, 10, 31))  # US clocks fall back at 02:00 on Nov 1, inside it
    assert end - start == dt.timedelta(hours=25)


def test_a_naive_datetime_is_refused():
    with pytest.raises(ValueError, match="aware"):
        gaming_day_of(dt.datetime(2026, 5, 4, 12, 0))
