"""Close a gaming day of 150,000 hands in PostgreSQL (issue 17): the close checks and the report.

Run: ``DATABASE_URL=postgres://... .venv/bin/python bench/gaming_day_close.py [--hands 150000]``.
Target: the close (blockers, snapshot of the figures, checksum) plus the day's report (built, and
rendered as PDF and CSV) in under 30 s on this machine.

The day is loaded as ``bench/reconcile.py`` loads it (random legal hands of the three games from the
real engines, their events and ledger entries, COPYed), then marked reconciled with one UPDATE (the
reconciliation itself is ``bench/reconcile.py``'s figure); every dealing table's drop is counted at
its logged amount and its tronc counted, each confirmed by a second accountant, through the services.
The floor printed beside the figure is one SQL aggregate of the day's postings per table (the least
any close must read), measured in the same run; the ratio says how far the close is above it.
"""

from __future__ import annotations

import argparse
import time

from _acct_bench import bench_database, peak_rss_mb
from reconcile import DAY, build_pool, load_day

TARGET_SECONDS = 30.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=150_000)
    parser.add_argument("--pool", type=int, default=120, help="distinct random hands per game (cycled)")
    parser.add_argument("--tables", type=int, default=10, help="tables per game")
    parser.add_argument("--seed", type=int, default=2017)
    args = parser.parse_args()

    with bench_database("close"):
        started = time.perf_counter()
        pool = build_pool(args.pool, args.seed)
        load_day(args.hands, pool, args.tables, 0, args.seed)
        print(f"generated and loaded in {time.perf_counter() - started:.1f} s")

        from django.contrib.auth import get_user_model
        from django.contrib.auth.models import Group
        from django.db import connection

        from accounting.exports import tax_report_render
        from accounting.models import JournalEntry, Posting
        from accounting.selectors import drop_logged
        from accounting.services.drop import drop_count_confirm, drop_count_record
        from accounting.services.gaming_day import gaming_day_blockers, gaming_day_close
        from accounting.services.reports import tax_report_build
        from accounting.services.tronc import tronc_count_confirm, tronc_count_record
        from tables.models import Hand, Table

        Hand.objects.filter(gaming_day=DAY).update(reconciliation=Hand.Reconciliation.RECONCILED)
        group = Group.objects.get_or_create(name="accountant")[0]
        anna, bernd = (get_user_model().objects.create_user(username=name) for name in ("anna", "bernd"))
        for user in (anna, bernd):
            user.groups.add(group)
        started = time.perf_counter()
        for table in Table.objects.filter(hands__gaming_day=DAY).distinct():
            drop = drop_count_record(table=table, gaming_day=DAY, actor=anna,
                                     counted=str(drop_logged(table_id=table.id, gaming_day=DAY)))
            drop_count_confirm(drop_count=drop, actor=bernd)
            tronc = tronc_count_record(table=table, gaming_day=DAY, counted="100.00", actor=anna)
            tronc_count_confirm(tronc_count=tronc, actor=bernd)
        print(f"drop and tronc of every table counted and confirmed in {time.perf_counter() - started:.1f} s")
        entries = JournalEntry.objects.filter(gaming_day=DAY).count()
        postings = Posting.objects.filter(entry__gaming_day=DAY).count()

        started = time.perf_counter()
        with connection.cursor() as cursor:
            cursor.execute("SELECT e.table_id, SUM(p.amount) FROM accounting_posting p JOIN accounting_journalentry e "
                           "ON e.id = p.entry_id WHERE e.gaming_day = %s GROUP BY e.table_id", [DAY])
            cursor.fetchall()
        floor = time.perf_counter() - started

        started = time.perf_counter()
        blockers = gaming_day_blockers(DAY)
        checks = time.perf_counter() - started
        assert not blockers, blockers
        started = time.perf_counter()
        closed = gaming_day_close(day=DAY, actor=bernd)
        close = time.perf_counter() - started
        started = time.perf_counter()
        report = tax_report_build(date_from=DAY, date_to=DAY)
        report.generated_by = "bench"
        pdf = tax_report_render(report, "pdf")
        csv = tax_report_render(report, "csv", form="excel_de")
        render = time.perf_counter() - started
        total = checks + close + render
        print(f"ledger of gaming day {DAY} (23 hours): {args.hands:,} hands, {entries:,} journal entries, "
              f"{postings:,} postings, {report.totals['hands']:,} settled hands in the report, "
              f"GGR {report.totals['ggr']:,.2f} EUR")
        print(f"close checks {checks:.2f} s + close (locked snapshot, checksum {closed.checksum[:12]}...) {close:.2f} s "
              f"+ report built and rendered (PDF {len(pdf) / 1024:.0f} KiB, CSV {len(csv) / 1024:.0f} KiB) {render:.2f} s")
        print(f"closing a day of {args.hands:,} hands: {total:.2f} s (target < {TARGET_SECONDS:.0f} s) -> "
              f"{'OK' if total < TARGET_SECONDS else 'ABOVE TARGET'}; floor (one SQL aggregate of the day's postings) "
              f"{floor:.2f} s, ratio {total / floor:.1f}x; peak memory {peak_rss_mb():.0f} MB")


if __name__ == "__main__":
    main()
