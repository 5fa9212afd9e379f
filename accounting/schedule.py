"""The Celery beat schedule of the accounting app (nightly gaming-day reconciliation, the sweep).

Settings use it with one line: ``CELERY_BEAT_SCHEDULE = accounting_beat_schedule(GAMING_DAY_START)``
(``from accounting.schedule import accounting_beat_schedule``). This module imports nothing from Django.
"""

from __future__ import annotations

from celery.schedules import crontab

#: Minutes after the gaming day ends before its reconciliation runs (late hands are closed by then).
RECONCILE_DELAY_MINUTES = 30
#: Seconds between two runs of the reconciliation sweep (closed hands no task took).
SWEEP_INTERVAL_SECONDS = 30


def accounting_beat_schedule(gaming_day_start: str = "06:00", delay_minutes: int = RECONCILE_DELAY_MINUTES,
                             sweep_seconds: int = SWEEP_INTERVAL_SECONDS) -> dict:
    """Beat entries: reconcile the previous gaming day every day ``delay_minutes`` after it ends, and run
    the reconciliation sweep every ``sweep_seconds`` seconds.

    ``gaming_day_start`` is ``"HH:MM"`` local time; beat runs in ``CELERY_TIMEZONE`` (= ``TIME_ZONE``), so
    the run follows the wall clock across the clock changes.
    """
    hours, minutes = (int(part) for part in gaming_day_start.split(":"))
    total = (hours * 60 + minutes + delay_minutes) % (24 * 60)
    return {
        "accounting.reconcile-previous-gaming-day": {
            "task": "accounting.reconcile_gaming_day",
            "schedule": crontab(hour=total // 60, minute=total % 60),
            "args": (),
        },
        "accounting.reconcile-sweep": {
            "task": "accounting.reconcile_sweep",
            "schedule": float(sweep_seconds),
            "args": (),
        },
    }
