"""Working-time rules for dealers: pure Python, no database (the rotation grid is checked against them).

Two families of rules, both configuration:

* **The house's deal/break rhythm** (per plan): a dealer deals at most ``max_deal_minutes`` in a row
  (the plan's ``period_minutes`` x ``periods_before_break``, 2 x 30 min by default), then takes a break of
  at least ``min_break_minutes`` (one period) [rule ``H2``].
* **The working-time law** (settings ``WORKING_TIME_BREAK_AFTER_MINUTES`` and
  ``WORKING_TIME_BREAK_MINUTES``): by default the Austrian rule (Arbeitszeitgesetz § 11): once a working
  day exceeds six hours, the work is interrupted by a rest break of at least 30 minutes, taken before
  six hours of work [rule ``AZG11``]. Breaks do not count as working time.

:func:`working_time_violations` returns every breach (dealer, slot, rule, a sentence), so a plan is
refused with all of them at once, however it was made (generated, edited slot by slot, published).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class WorkingTimeRules:
    """The rules a dealer's day is checked against (minutes).

    ``max_deal_minutes``: longest dealing stretch without a break (house rhythm, H2).
    ``min_break_minutes``: shortest break that ends a dealing stretch (house rhythm, H2).
    ``long_break_after_minutes``: working time after which a long break is due (AZG § 11: 360).
    ``long_break_minutes``: length of that break in one piece (AZG § 11: 30).
    """

    max_deal_minutes: int = 60
    min_break_minutes: int = 30
    long_break_after_minutes: int = 360
    long_break_minutes: int = 30


@dataclass(frozen=True)
class Stint:
    """One piece of a dealer's day: dealing at ``table`` (a display name) or a break (``table`` None)."""

    dealer: str
    start: dt.datetime
    end: dt.datetime
    table: str | None = None

    @property
    def minutes(self) -> float:
        return (self.end - self.start).total_seconds() / 60


@dataclass(frozen=True)
class Violation:
    """A breach: which dealer, the slot (start, end, table) where it happens, the rule and why."""

    dealer: str
    start: dt.datetime
    end: dt.datetime
    table: str | None
    rule: str
    minutes: int
    limit: int


def _runs(stints: Sequence[Stint]) -> list[tuple[Stint, list[Stint]]]:
    """One dealer's stints joined into alternating runs of dealing (any table) and breaks; a gap between
    slots is a break. Each run comes with the slots it is made of."""
    runs: list[tuple[Stint, list[Stint]]] = []
    for s in sorted(stints, key=lambda s: s.start):
        if runs and runs[-1][0].end < s.start:
            last, parts = runs[-1]
            gap = Stint(s.dealer, last.end, s.start, None)
            if last.table is None:
                runs[-1] = (Stint(s.dealer, last.start, s.start, None), [*parts, gap])
            else:
                runs.append((gap, [gap]))
        if runs and (runs[-1][0].table is None) == (s.table is None):
            last, parts = runs[-1]
            runs[-1] = (Stint(s.dealer, last.start, max(last.end, s.end), last.table), [*parts, s])
        else:
            runs.append((s, [s]))
    return runs


def _slot_at(parts: Sequence[Stint], moment: dt.datetime) -> Stint:
    for part in parts:
        if part.start <= moment < part.end:
            return part
    return parts[-1]


def working_time_violations(*, stints: Sequence[Stint], rules: WorkingTimeRules) -> list[Violation]:
    """Every breach of ``rules`` in the stints of one or more dealers, ordered by dealer and time.

    ``H2`` (house rhythm): a dealing run longer than ``max_deal_minutes`` (reported at the slot where the
    limit is passed); ``H2-break``: a break shorter than ``min_break_minutes`` between two dealing runs.
    ``AZG11``: working time passing ``long_break_after_minutes`` before a break of at least
    ``long_break_minutes`` in one piece (reported once per stretch, at the slot where it is passed).
    A dealer's breaks before the first and after the last deal are not checked.
    """
    by_dealer: dict[str, list[Stint]] = {}
    for s in stints:
        by_dealer.setdefault(s.dealer, []).append(s)
    out: list[Violation] = []
    for dealer in sorted(by_dealer):
        runs = _runs(by_dealer[dealer])
        while runs and runs[0][0].table is None:
            runs.pop(0)
        while runs and runs[-1][0].table is None:
            runs.pop()
        worked = 0.0
        reported = False
        for i, (run, parts) in enumerate(runs):
            if run.table is None:
                if run.minutes < rules.min_break_minutes and 0 < i < len(runs) - 1:
                    out.append(Violation(dealer, run.start, run.end, None, "H2-break", round(run.minutes),
                                         rules.min_break_minutes))
                if run.minutes >= rules.long_break_minutes:
                    worked, reported = 0.0, False
                continue
            if run.minutes > rules.max_deal_minutes:
                slot = _slot_at(parts, run.start + dt.timedelta(minutes=rules.max_deal_minutes))
                out.append(Violation(dealer, slot.start, slot.end, slot.table, "H2", round(run.minutes),
                                     rules.max_deal_minutes))
            if not reported and worked + run.minutes > rules.long_break_after_minutes:
                slot = _slot_at(parts, run.start + dt.timedelta(minutes=rules.long_break_after_minutes - worked))
                total = worked + run.minutes
                for later, _ in runs[i + 1:]:
                    if later.table is None and later.minutes >= rules.long_break_minutes:
                        break
                    if later.table is not None:
                        total += later.minutes
                out.append(Violation(dealer, slot.start, slot.end, slot.table, "AZG11", round(total),
                                     rules.long_break_after_minutes))
                reported = True
            worked += run.minutes
    return out
