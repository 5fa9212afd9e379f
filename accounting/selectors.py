"""Reads of the accounting app (HackSoft selectors): querysets with their joins, report aggregates.

Every money figure here is read from the ledger (the postings), never from the hands, so the tax
report and the hand-level export agree with the books by construction. Account purposes follow the
ledger convention: ``table:{id}:players|pot|tax|fee`` and ``house:bonus_expense``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, F, Q, QuerySet, Sum

from accounting.models import Discrepancy, DropCount, JournalEntry, Posting, ReconciliationRun, ReportJob
from accounting.services.ledger import eur_sum

#: Entry kinds that carry a hand's money result (a reversal cancels the entry it reverses).
RESULT_KINDS = (JournalEntry.Kind.HAND_SETTLEMENT, JournalEntry.Kind.REVERSAL, JournalEntry.Kind.ADJUSTMENT)
ZERO = Decimal("0.00")


def discrepancy_list() -> QuerySet[Discrepancy]:
    """Discrepancies, newest first, with hand and table joined."""
    return Discrepancy.objects.select_related("hand", "table", "resolved_by").order_by("-found_at", "-id")


def reconciliation_run_list() -> QuerySet[ReconciliationRun]:
    """Reconciliation runs, newest first."""
    return ReconciliationRun.objects.select_related("hand").order_by("-started_at", "-id")


def drop_count_list() -> QuerySet[DropCount]:
    """Drop counts with table and people joined."""
    return (DropCount.objects.select_related("table", "counted_by", "confirmed_by", "signed_off_by")
            .order_by("-gaming_day", "table__name"))


def report_job_list() -> QuerySet[ReportJob]:
    """Report jobs, newest first."""
    return ReportJob.objects.select_related("requested_by").order_by("-requested_at", "-id")


def drop_logged(*, table_id: int, gaming_day: dt.date, start: dt.datetime | None = None,
                end: dt.datetime | None = None) -> Decimal:
    """What the log says went into a table's drop box (EUR): Taxe/tax plus house fees of a gaming day.

    With ``start``/``end`` only what was taken in ``[start, end)`` counts (a shift). A hand's tax goes
    into the box of the shift in which the hand was opened, as the tax report counts it on the hand's
    gaming day (issue 17: a hand opened before the gaming-day start and settled after it stays on the
    night shift); an entry without a hand counts at its posting time.
    """
    qs = Posting.objects.filter(entry__gaming_day=gaming_day, account__table_id=table_id).filter(
        Q(account__code__endswith=":tax") | Q(account__code__endswith=":fee"))
    if start is not None or end is not None:
        by_hand, by_posting = Q(entry__hand__isnull=False), Q(entry__hand__isnull=True)
        if start is not None:
            by_hand &= Q(entry__hand__opened_at__gte=start)
            by_posting &= Q(entry__posted_at__gte=start)
        if end is not None:
            by_hand &= Q(entry__hand__opened_at__lt=end)
            by_posting &= Q(entry__posted_at__lt=end)
        qs = qs.filter(by_hand | by_posting)
    return eur_sum(qs.aggregate(total=Sum("amount"))["total"])


def tax_report_rows(*, date_from: dt.date, date_to: dt.date) -> list[dict[str, Any]]:
    """Tax report lines per gaming day, table, game and limit level, from the ledger (EUR Decimals).

    Each dict: ``gaming_day, table, game, limit, hands, pots, tax, fees, bonus, ggr`` where ``pots`` is
    what players put into pots net of returned bets, ``tax`` the Taxe/tax, ``fees`` the Capsa house
    fees, ``bonus`` the Forty-one bonuses paid by the house and ``ggr = tax + fees - bonus``; every amount
    has exactly two decimals (:func:`~accounting.services.ledger.eur_sum`). One query.
    """
    players = Q(account__code__endswith=":players")
    rows = (
        Posting.objects.filter(entry__gaming_day__gte=date_from, entry__gaming_day__lte=date_to,
                               entry__hand__isnull=False, entry__kind__in=RESULT_KINDS)
        .values(day=F("entry__gaming_day"), table_id=F("entry__hand__table_id"),
                table_name=F("entry__hand__table__name"), game=F("entry__hand__game"),
                limit=F("entry__hand__limit_profile__limit_label"))
        .annotate(
            hands=Count("entry__hand_id", distinct=True, filter=Q(entry__kind=JournalEntry.Kind.HAND_SETTLEMENT)),
            contributions=Sum("amount", filter=players & Q(role="contribution")),
            returned=Sum("amount", filter=players & Q(role="returned")),
            tax=Sum("amount", filter=Q(account__code__endswith=":tax")),
            fees=Sum("amount", filter=Q(account__code__endswith=":fee")),
            bonus_expense=Sum("amount", filter=Q(account__code="house:bonus_expense")),
        )
        .order_by("day", "table_name", "game", "limit")
    )
    out = []
    for row in rows:  # each SUM quantized once (SQLite sums decimals as floats: ledger.SUM_ROUNDING)
        tax, fees = eur_sum(row["tax"]), eur_sum(row["fees"])
        bonus = -eur_sum(row["bonus_expense"])
        pots = -eur_sum(row["contributions"]) - eur_sum(row["returned"])
        out.append({
            "gaming_day": row["day"], "table": row["table_name"], "game": row["game"], "limit": row["limit"],
            "hands": row["hands"], "pots": pots + ZERO, "tax": tax, "fees": fees, "bonus": bonus + ZERO,
            "ggr": tax + fees - bonus + ZERO,
        })
    return out


#: Columns of the hand-level audit export, in order (the SELECT below yields exactly these).
HAND_EXPORT_COLUMNS = ("hand_id", "gaming_day", "table", "hand_number", "game", "limit", "status", "reconciliation",
                       "opened_at", "closed_at", "pots", "tax", "fees", "bonus", "house_result")


def hand_export_sql(*, date_from: dt.date, date_to: dt.date, vendor: str | None = None) -> tuple[str, list[Any]]:
    """The SELECT of the hand-level export (one row per hand, ordered by id) and its parameters.

    Shared by :func:`hand_export_rows` and the benchmark's ``COPY (...) TO STDOUT`` so both read the
    same rows. Money columns are EUR with two decimals; ``house_result = tax + fees - bonus``. On
    PostgreSQL the database already renders dates (ISO 8601, UTC) and amounts as text, so Python only
    quotes and neutralizes; elsewhere (SQLite) the values are native and formatted in Python.
    """
    kinds = ", ".join(["%s"] * len(RESULT_KINDS))
    if (vendor or connection.vendor) == "postgresql":
        day = "h.gaming_day::text"
        opened = """to_char(h.opened_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')"""
        closed = """to_char(h.closed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')"""

        def money(expression: str) -> str:
            return f"COALESCE({expression}, 0)::numeric(14, 2)::text"
    else:
        day, opened, closed = "h.gaming_day", "h.opened_at", "h.closed_at"

        def money(expression: str) -> str:
            return f"COALESCE({expression}, 0)"
    players = "a.code LIKE '%%:players'"
    sql = f"""
        SELECT h.id, {day}, t.name, h.number, h.game, lp.limit_label, h.status, h.reconciliation, {opened}, {closed},
               {money(f"SUM(CASE WHEN {players} AND p.role IN ('contribution', 'returned') THEN -p.amount END)")},
               {money("SUM(CASE WHEN a.code LIKE '%%:tax' THEN p.amount END)")},
               {money("SUM(CASE WHEN a.code LIKE '%%:fee' THEN p.amount END)")},
               {money("SUM(CASE WHEN a.code = 'house:bonus_expense' THEN -p.amount END)")},
               {money("SUM(CASE WHEN a.code LIKE '%%:tax' OR a.code LIKE '%%:fee' OR a.code = 'house:bonus_expense' "
                      "THEN p.amount END)")}
        FROM tables_hand h
        JOIN tables_table t ON t.id = h.table_id
        JOIN tables_limitprofile lp ON lp.id = h.limit_profile_id
        LEFT JOIN accounting_journalentry e ON e.hand_id = h.id AND e.kind IN ({kinds})
        LEFT JOIN accounting_posting p ON p.entry_id = e.id
        LEFT JOIN accounting_account a ON a.id = p.account_id
        WHERE h.gaming_day >= %s AND h.gaming_day <= %s
        GROUP BY h.id, t.name, lp.limit_label
        ORDER BY h.id
    """
    return sql, [*RESULT_KINDS, date_from, date_to]


def hand_export_rows(*, date_from: dt.date, date_to: dt.date, batch: int = 5000) -> Iterator[tuple]:
    """Yield the hand-level export rows (see :data:`HAND_EXPORT_COLUMNS`) without loading the range.

    Uses a server-side cursor on PostgreSQL (``connection.chunked_cursor``), so memory stays flat
    for any number of hands. Money comes back as two-decimal text on PostgreSQL (native numbers elsewhere).
    """
    sql, params = hand_export_sql(date_from=date_from, date_to=date_to)
    # Inside a transaction the server-side cursor is not WITH HOLD, so rows stream as PostgreSQL
    # produces them instead of being materialized first; plan for the whole result like COPY does.
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as setup:
                setup.execute("SET LOCAL cursor_tuple_fraction = 1.0")
        with connection.chunked_cursor() as cursor:
            cursor.execute(sql, params)
            while True:
                rows = cursor.fetchmany(batch)
                if not rows:
                    return
                yield from rows
