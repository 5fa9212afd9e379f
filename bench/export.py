"""Hand-level audit export of 1,000,000 hands vs PostgreSQL's own COPY of the same rows (issue 9).

Run: ``DATABASE_URL=postgres://... .venv/bin/python bench/export.py [--hands 1000000] [--days 30]``.
Targets: the export takes at most 3 times as long as ``COPY (SELECT ...) TO STDOUT`` of the same
SELECT in the same run, and the process's peak memory stays under 300 MB.

The bench creates its own database, generates the hands and their ledger entries inside PostgreSQL
(``generate_series``; the per-row ledger triggers are skipped for the bulk load), then times
:func:`accounting.selectors.hand_export_rows` + :func:`accounting.exports.hand_export_csv` (the code
behind ``GET /api/v1/reports/hands/``), encoding to UTF-8 and writing to ``/dev/null``, and then COPY of
the exact SELECT (:func:`accounting.selectors.hand_export_sql`) streamed to the client and discarded.
"""

from __future__ import annotations

import argparse
import datetime as dt
import time

from _acct_bench import bench_database, peak_rss_mb

TARGET_RATIO = 3.0
TARGET_PEAK_MB = 300
FIRST_DAY = dt.date(2026, 3, 1)

LOAD_SQL = """
SET LOCAL session_replication_role = replica;
CREATE TEMP TABLE bench_tables ON COMMIT DROP AS
SELECT t.id AS table_id, row_number() OVER (ORDER BY t.id) - 1 AS slot, t.game, lp.id AS profile_id,
       max(a.id) FILTER (WHERE a.code LIKE '%%:players') AS players,
       max(a.id) FILTER (WHERE a.code LIKE '%%:pot') AS pot,
       max(a.id) FILTER (WHERE a.code LIKE '%%:tax') AS tax,
       max(a.id) FILTER (WHERE a.code LIKE '%%:fee') AS fee
FROM tables_table t JOIN tables_limitprofile lp ON lp.table_id = t.id JOIN accounting_account a ON a.table_id = t.id
GROUP BY t.id, t.game, lp.id;

INSERT INTO tables_hand (id, table_id, number, game, button_seat, limit_profile_id, limit_snapshot, seats, status,
                         reconciliation, event_count, opened_at, closed_at, gaming_day, void_reason, source, digest)
SELECT g, bt.table_id, g, bt.game, 1, bt.profile_id, '{}'::jsonb,
       '{"1": {"stack": 20000, "player_ref": null}, "2": {"stack": 20000, "player_ref": null},
         "3": {"stack": 20000, "player_ref": null}}'::jsonb,
       'closed', 'reconciled', 20,
       %(start)s::timestamptz + (g - 1) * %(step)s * interval '1 second',
       %(start)s::timestamptz + (g - 1) * %(step)s * interval '1 second' + interval '90 seconds',
       %(first_day)s::date + ((g - 1) / %(per_day)s)::int, '', 'bench', ''
FROM generate_series(1, %(hands)s) g JOIN bench_tables bt ON bt.slot = g %% %(n_tables)s;

INSERT INTO accounting_journalentry (id, idempotency_key, kind, memo, hand_id, table_id, gaming_day, posted_at, reason,
                                     digest)
SELECT h.id, 'hand:' || h.id || ':settlement', 'hand_settlement', '', h.id, h.table_id, h.gaming_day, h.closed_at, '',
       ''
FROM tables_hand h;

INSERT INTO accounting_posting (entry_id, account_id, amount, role, seat, player_ref, pot_index)
SELECT h.id, leg.account_id, leg.amount, leg.role, leg.seat, '', leg.pot_index
FROM (SELECT h.id, h.table_id, ((h.id * 7919) %% 4000 + 100) / 100.0 AS c1, ((h.id * 104729) %% 3000 + 100) / 100.0 AS c2,
             CASE WHEN h.game = 'capsa_susun' THEN 0 ELSE 2.00 END AS tax,
             CASE WHEN h.game = 'capsa_susun' THEN 0.50 ELSE 0 END AS fee
      FROM tables_hand h) h
JOIN bench_tables bt ON bt.table_id = h.table_id
CROSS JOIN LATERAL (VALUES
    (bt.players, -h.c1, 'contribution', 1, NULL::int), (bt.pot, h.c1, 'contribution', 1, NULL),
    (bt.players, -h.c2, 'contribution', 2, NULL), (bt.pot, h.c2, 'contribution', 2, NULL),
    (bt.pot, -(h.c1 + h.c2 - h.tax), 'award', 1, 0), (bt.players, h.c1 + h.c2 - h.tax, 'award', 1, 0),
    (bt.pot, -h.tax, 'tax', NULL, NULL), (bt.tax, h.tax, 'tax', NULL, NULL),
    (bt.players, -h.fee, 'fee', 1, NULL), (bt.fee, h.fee, 'fee', 1, NULL)
) AS leg(account_id, amount, role, seat, pot_index)
WHERE leg.amount <> 0;
"""


def load(hands: int, days: int) -> None:
    from django.db import connection, transaction
    from django.utils import timezone

    from accounting.services.ledger import account_for_table
    from casino.gaming_day import gaming_day_bounds
    from tables.models import LimitProfile, Table

    with transaction.atomic():
        for game in ("seven_card_stud", "forty_one", "capsa_susun"):
            for i in range(10):
                table = Table.objects.create(name=f"{game} {i + 1}", game=game, seats=6, status=Table.Status.OPEN)
                LimitProfile.objects.create(table=table, version=1, game=game, limit_label="5/10", config={},
                                            effective_from=timezone.now())
                for purpose in ("players", "pot", "tax", "fee"):
                    account_for_table(table, purpose)
    per_day = -(-hands // days)
    start, _ = gaming_day_bounds(FIRST_DAY)
    params = {"hands": hands, "n_tables": 30, "per_day": per_day, "first_day": FIRST_DAY, "start": start,
              "step": 86400 * days / hands * 0.95}
    with transaction.atomic(), connection.cursor() as cursor:
        # Bulk load: build the postings' secondary indexes once at the end instead of row by row.
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'accounting_posting' "
                       "AND indexname NOT LIKE '%%pkey'")
        indexes = cursor.fetchall()
        for name, _ in indexes:
            cursor.execute(f'DROP INDEX "{name}"')
        for statement in LOAD_SQL.split(";\n"):
            if statement.strip():
                cursor.execute(statement, params)
        for _, definition in indexes:
            cursor.execute(definition)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
        cursor.execute("SELECT (SELECT count(*) FROM tables_hand), (SELECT count(*) FROM accounting_posting)")
        n_hands, n_postings = cursor.fetchone()
    print(f"generated {n_hands:,} hands over {days} gaming days with {n_postings:,} postings")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--profile", action="store_true", help="print a cProfile of the export")
    args = parser.parse_args()

    with bench_database("export"):
        started = time.perf_counter()
        load(args.hands, args.days)
        print(f"load in {time.perf_counter() - started:.1f} s; peak RSS so far {peak_rss_mb():.0f} MB")

        from django.db import connection

        from accounting.exports import hand_export_csv
        from accounting.selectors import HAND_EXPORT_COLUMNS, hand_export_rows, hand_export_sql

        date_to = FIRST_DAY + dt.timedelta(days=args.days)
        rss_before = peak_rss_mb()
        profiler = None
        if args.profile:
            import cProfile

            profiler = cProfile.Profile()
            profiler.enable()
        started = time.perf_counter()
        size = lines = 0
        with open("/dev/null", "wb") as sink:
            for chunk in hand_export_csv(hand_export_rows(date_from=FIRST_DAY, date_to=date_to), HAND_EXPORT_COLUMNS):
                data = chunk.encode("utf-8")
                size += len(data)
                lines += chunk.count("\r\n")
                sink.write(data)
        export_seconds = time.perf_counter() - started
        if profiler is not None:
            import pstats

            profiler.disable()
            pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
        export_peak = peak_rss_mb()

        sql, params = hand_export_sql(date_from=FIRST_DAY, date_to=date_to)
        copy_runs = []
        for _ in range(2):  # once before the export is timed again below, once after: the faster one counts
            started = time.perf_counter()
            copy_size = 0
            connection.ensure_connection()
            with connection.connection.cursor() as cursor:
                with cursor.copy(f"COPY ({sql}) TO STDOUT WITH (FORMAT csv)", params) as copy:
                    for block in copy:
                        copy_size += len(block)
            copy_runs.append(time.perf_counter() - started)
        copy_seconds = min(copy_runs)

        ratio = export_seconds / copy_seconds
        print(f"export: {lines - 1:,} hands, {size / 1e6:.0f} MB CSV in {export_seconds:.2f} s "
              f"({(lines - 1) / export_seconds:,.0f} rows/s)")
        print(f"COPY (same SELECT) TO STDOUT: {copy_size / 1e6:.0f} MB in {copy_seconds:.2f} s "
              f"(runs: {', '.join(f'{t:.2f}' for t in copy_runs)} s)")
        print(f"ratio export/COPY = {ratio:.2f} (target <= {TARGET_RATIO}) -> {'OK' if ratio <= TARGET_RATIO else 'ABOVE TARGET'}")
        print(f"peak RSS {export_peak:.0f} MB (before the export {rss_before:.0f} MB; target < {TARGET_PEAK_MB}) -> "
              f"{'OK' if export_peak < TARGET_PEAK_MB else 'ABOVE TARGET'}")


if __name__ == "__main__":
    main()
