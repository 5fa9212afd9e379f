"""Reads for the floor pages: the live overview (one card per table) and the list, in bounded queries.

:func:`floor_overview` answers with a fixed number of queries whatever the number of tables (no query
per table; ``tests/tables/test_floor_pages.py`` counts them and ``bench/floor_page.py`` times 250 tables).
"""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, OuterRef, Q, Subquery
from django.utils import timezone

from casino.gaming_day import gaming_day_of
from tables.models import (
    DealerAssignment,
    FloorCall,
    Hand,
    LimitChangeRequest,
    LimitProfile,
    Table,
    WaitingListEntry,
)


@dataclass
class TableCard:
    """What the floor sees of one table (all times aware; the template shows them in local time)."""

    table: Table
    limit: str = ""
    pending_limit: str = ""
    pending_from: dt.datetime | None = None
    pending_requests: list[str] = field(default_factory=list)
    dealer: str | None = None
    dealer_id: int | None = None
    dealer_until: dt.datetime | None = None
    next_dealer: str | None = None
    next_dealer_from: dt.datetime | None = None
    open_hand: int | None = None
    hands_this_hour: int = 0
    seats_taken: int = 0
    floor_calls: list[FloorCall] = field(default_factory=list)
    discrepancies_today: int = 0

    @property
    def seats_free(self) -> int:
        return max(self.table.seats - self.seats_taken, 0)

    @property
    def without_dealer(self) -> bool:
        return self.table.status == Table.Status.OPEN and self.dealer is None

    @property
    def alerts(self) -> int:
        return len(self.floor_calls) + int(self.without_dealer) + int(self.discrepancies_today > 0)


def floor_overview(*, now: dt.datetime | None = None, tables=None) -> list[TableCard]:
    """One :class:`TableCard` per table (default: all tables, open first, then by name) at ``now``.

    Queries: tables with their limits in force and pending and the last hand's seats (1), assignments
    now and next (2), open hands (1), hands this hour (1), open floor calls (1), discrepancies today (1),
    pending requests (1): eight in all, for any number of tables.
    """
    now = now or timezone.now()
    profiles = LimitProfile.objects.filter(table=OuterRef("pk"))
    in_force = profiles.filter(effective_from__lte=now).order_by("-version")
    pending = profiles.filter(effective_from__gt=now).order_by("version")
    last_seats = Hand.objects.filter(table=OuterRef("pk")).order_by("-number").values("seats")[:1]
    qs = tables if tables is not None else Table.objects.all()
    rows = list(qs.annotate(limit_label=Subquery(in_force.values("limit_label")[:1]),
                            pending_label=Subquery(pending.values("limit_label")[:1]),
                            pending_from=Subquery(pending.values("effective_from")[:1]),
                            last_seats=Subquery(last_seats)))
    rows.sort(key=lambda t: (t.status == Table.Status.CLOSED, t.name))
    ids = [t.pk for t in rows]
    # The whole floor needs no id list (a 250-id IN list costs more than it saves); a subset is filtered.
    scope = Q() if tables is None else Q(table_id__in=ids)
    cards = {}
    for t in rows:
        card = cards[t.pk] = TableCard(table=t, limit=t.limit_label or "", pending_limit=t.pending_label or "",
                                       pending_from=t.pending_from)
        seats = t.last_seats
        if isinstance(seats, str):  # some backends hand JSON subqueries back as text
            seats = json.loads(seats)
        card.seats_taken = len(seats or {}) if t.status != Table.Status.CLOSED else 0
    now_q = Q(start__lte=now) & (Q(end__isnull=True) | Q(end__gt=now))
    for table_id, dealer_id, name, end in (DealerAssignment.objects.filter(now_q, scope).order_by("start")
                                           .values_list("table_id", "dealer_id", "dealer__user__username", "end")):
        cards[table_id].dealer, cards[table_id].dealer_id, cards[table_id].dealer_until = name, dealer_id, end
    for table_id, name, start in (DealerAssignment.objects
                                  .filter(scope, start__gt=now, start__lte=now + dt.timedelta(hours=12))
                                  .order_by("-start").values_list("table_id", "dealer__user__username", "start")):
        cards[table_id].next_dealer, cards[table_id].next_dealer_from = name, start
    for table_id, number in Hand.objects.filter(scope, status=Hand.Status.OPEN).values_list("table_id",
                                                                                                        "number"):
        cards[table_id].open_hand = number
    for row in (Hand.objects.filter(scope, opened_at__gte=now - dt.timedelta(hours=1))
                .values("table_id").annotate(n=Count("id"))):
        cards[row["table_id"]].hands_this_hour = row["n"]
    for call in FloorCall.objects.filter(scope, status=FloorCall.Status.OPEN).order_by("created_at"):
        cards[call.table_id].floor_calls.append(call)
    for row in (Hand.objects.filter(scope, gaming_day=gaming_day_of(now),
                                    reconciliation=Hand.Reconciliation.DISCREPANCY)
                .values("table_id").annotate(n=Count("id"))):
        cards[row["table_id"]].discrepancies_today = row["n"]
    for table_id, label in (LimitChangeRequest.objects.filter(scope, status=LimitChangeRequest.Status.PENDING)
                            .values_list("table_id", "limit_label")):
        cards[table_id].pending_requests.append(label)
    return [cards[t.pk] for t in rows]


def floor_summary(cards: list[TableCard]) -> dict[str, int]:
    """Counts for the header: tables open, without a dealer, floor calls, seats free at open tables."""
    counts = Counter()
    for c in cards:
        if c.table.status == Table.Status.OPEN:
            counts["open"] += 1
            counts["seats_free"] += c.seats_free
        counts["without_dealer"] += int(c.without_dealer)
        counts["calls"] += len(c.floor_calls)
        counts["requests"] += len(c.pending_requests)
    return dict(counts)


def waiting_lists(*, public: bool = False) -> list[dict[str, Any]]:
    """The list per game and limit, longest-waiting first: ``[{"game", "game_label", "limit", "entries"}]``.
    One query. ``public`` leaves out called players' tables and notes (the board shows initials only)."""
    groups: dict[tuple[str, str], list[WaitingListEntry]] = defaultdict(list)
    for entry in (WaitingListEntry.objects.select_related("called_table")
                  .filter(status__in=[WaitingListEntry.Status.WAITING, WaitingListEntry.Status.CALLED])
                  .order_by("game", "limit_label", "position", "added_at", "id")):
        groups[(entry.game, entry.limit_label)].append(entry)
    out = []
    for (game, limit), entries in groups.items():
        out.append({"game": game, "game_label": entries[0].get_game_display(), "limit": limit, "entries": entries})
    return out
