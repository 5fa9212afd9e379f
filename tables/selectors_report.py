"""The shift report's figures (read only): hands per table per hour, occupancy, waiting times on the list,
dealer pushes and floor calls for a window of time. A fixed number of queries for any window."""

from __future__ import annotations

import datetime as dt
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.utils import timezone

from tables.models import DealerPush, FloorCall, Hand, Table, WaitingListEntry


@dataclass
class ShiftReport:
    """Figures for ``start``..``end`` (aware). ``hours``: local hour starts; ``hands[table][i]`` hands opened
    in hour ``i``; ``occupancy[table]`` = (mean players per hand, seats); waits in minutes."""

    start: dt.datetime
    end: dt.datetime
    hours: list[dt.datetime] = field(default_factory=list)
    hands: dict[str, list[int]] = field(default_factory=dict)
    occupancy: dict[str, tuple[float, int]] = field(default_factory=dict)
    waits: dict[str, list[float]] = field(default_factory=dict)
    pushes: Counter = field(default_factory=Counter)
    push_list: list[DealerPush] = field(default_factory=list)
    calls: Counter = field(default_factory=Counter)
    call_minutes: list[float] = field(default_factory=list)

    @property
    def total_hands(self) -> int:
        return sum(sum(v) for v in self.hands.values())

    @property
    def push_counts(self) -> list[tuple[str, int]]:
        return sorted(self.pushes.items())

    @property
    def call_counts(self) -> list[tuple[str, int]]:
        return sorted(self.calls.items())

    def wait_summary(self) -> list[dict]:
        """Per list: players seated, mean, median and longest wait (minutes)."""
        return [{"list": k, "seated": len(v), "mean": round(statistics.fmean(v)), "median": round(statistics.median(v)),
                 "longest": round(max(v))} for k, v in sorted(self.waits.items()) if v]


def shift_report(*, start: dt.datetime, end: dt.datetime) -> ShiftReport:
    """Collect the report for the window ``[start, end)``."""
    report = ShiftReport(start=start, end=end)
    local_start = timezone.localtime(start).replace(minute=0, second=0, microsecond=0)
    at = local_start
    while at < end:
        report.hours.append(at)
        at += dt.timedelta(hours=1)
    tables = {t.pk: t for t in Table.objects.all()}
    players: dict[int, list[int]] = defaultdict(list)
    for table_id, opened_at, seats in (Hand.objects.filter(opened_at__gte=start, opened_at__lt=end)
                                       .exclude(status=Hand.Status.VOID).values_list("table_id", "opened_at", "seats")):
        name = tables[table_id].name
        row = report.hands.setdefault(name, [0] * len(report.hours))
        i = int((opened_at - local_start).total_seconds() // 3600)
        if 0 <= i < len(row):
            row[i] += 1
        players[table_id].append(len(seats or {}))
    for table_id, counts in players.items():
        report.occupancy[tables[table_id].name] = (statistics.fmean(counts), tables[table_id].seats)
    for e in WaitingListEntry.objects.filter(seated_at__gte=start, seated_at__lt=end):
        report.waits.setdefault(f"{e.get_game_display()} {e.limit_label}", []).append(
            (e.seated_at - e.added_at).total_seconds() / 60)
    report.push_list = list(DealerPush.objects.filter(at__gte=start, at__lt=end)
                            .select_related("dealer__user", "table", "uncovered_table").order_by("at"))
    report.pushes = Counter(p.get_kind_display() for p in report.push_list)
    for call in FloorCall.objects.filter(created_at__gte=start, created_at__lt=end):
        report.calls[call.get_reason_display()] += 1
        if call.resolved_at:
            report.call_minutes.append((call.resolved_at - call.created_at).total_seconds() / 60)
    return report
