"""Reconcile a gaming day of generated hands in PostgreSQL and print hands per second (issues 9 and 19).

Long module: one self-contained benchmark run as a script, whose steps (the hand pool, the day's bulk load,
the floors, the one-process run, the rerun, the worker run) run in order on one set of options.

Run: ``DATABASE_URL=postgres://... REDIS_URL=redis://.../N .venv/bin/python bench/reconcile.py [--hands 150000]``.
Targets (issue 19, this 2-core machine): at least 2,000 hands/s in one process and 3,000 hands/s with
two worker processes (a day of 150,000 hands in under a minute), under 300 MB RSS, a rerun a no-op.

The bench creates its own database, generates a pool of random legal hands per game with the real
engines (Seven Card Stud, Forty-one, Capsa Susun), bulk-loads ``--hands`` hands of one gaming day
(events, and the ledger entry each hand posts, with the real posting convention) with COPY, tampers
``--tamper`` of them, and then, in one run:

1. the floors: the bare engine replay of a sample of the day's hands (no database, no digests) and a
   ``COPY ... TO STDOUT`` of the day's event rows (reading them, nothing else);
2. one process: :func:`accounting.services.reconciliation.gaming_day_reconcile` in a fresh child
   process (its wall time, CPU time and peak RSS): every hand replayed and compared with its entry,
   both digest chains recomputed, the day's ledger checks, the run rows;
3. the rerun of the same day (a no-op: the same run answers);
4. worker processes: the reconciliation state reset, ``--workers`` real Celery workers (default two;
   ``--pool=solo``, one process each, as on separate hosts) on Redis (``REDIS_URL``, flushed first) and the
   same database; the day task fans the day's parts out (hand id ranges, ledger windows) and a chord closes
   the run. ``--workers 1,2`` runs the day once with one worker and once with two, to show how it grows.

Each run must flag exactly the tampered hands.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path

from _acct_bench import (
    ROOT,
    SpeedProbe,
    backend_cpu_counter,
    bench_database,
    copy_rows,
    peak_rss_mb,
    processes_stop,
    set_sequences,
    steal_meter,
)

GAMES = ("seven_card_stud", "forty_one", "capsa_susun")
TARGET_ONE_PROCESS = 2000
TARGET_TWO_WORKERS = 3000
TARGET_RSS_MB = 300
DAY = dt.date(2026, 3, 28)  # a 23-hour gaming day (spring clock change)


def build_pool(per_game: int, seed: int):
    """Random hands per game: (seats, events, legs); legs (account purpose, cents, role, seat, pot index)
    exactly as the real posting service lays them out (:func:`settlement_lines`)."""
    from types import SimpleNamespace

    from accounting.services.settlement import settlement_lines
    from rules.registry import get_engine
    from tables.models import Table
    from tests.accounting.helpers import RAW, STACK, random_events

    rng = random.Random(seed)
    pool = {}
    for game in GAMES:
        engine = get_engine(game)
        config = engine.build_config(RAW[game])
        table = Table.objects.create(name=f"pool {game}", game=game, seats=6)
        hands = []
        for _ in range(per_game):
            seats = tuple(sorted(rng.sample(range(1, 7), rng.randint(3, 4))))
            stacks = {s: STACK for s in seats}
            events = random_events(game, config, stacks, seats[0], rng)
            settlement = engine.settlement(engine.replay(config, stacks, events, button=seats[0]))
            hand = SimpleNamespace(table=table, number=0, seats={str(s): {"stack": STACK} for s in seats})
            legs = [(line.account.code.rsplit(":", 1)[-1], int(line.amount * 100), line.role, line.seat, line.pot_index)
                    for line in settlement_lines(hand=hand, settlement=settlement)]
            seats_json = json.dumps({str(s): {"stack": STACK, "player_ref": None} for s in seats})
            hands.append((seats, [json.dumps(e) for e in events], legs, seats_json))
        pool[game] = (engine.config_to_dict(config), hands)
    return pool


def load_day(n_hands: int, pool, tables_per_game: int, tamper: int, seed: int) -> list[int]:
    """Load ``n_hands`` hands of DAY (cycling through the pool) with events, entries and postings.

    The hands are COPYed; their events and entries are streamed with COPY carrying the digests the
    services write (:mod:`casino.digests`: each hand's event chain, the ledger's entry chain), and the
    ledger legs are expanded inside PostgreSQL from the pool (INSERT ... SELECT), so the bench's own
    memory stays small.
    """
    from django.db import connection, transaction
    from django.utils import timezone

    from accounting.services.ledger import account_for_house, account_for_table
    from casino.gaming_day import gaming_day_bounds
    from tables.models import LimitProfile, Table
    from tests.accounting.helpers import LABEL

    rng = random.Random(seed)
    tables = []
    for game in GAMES:
        for i in range(tables_per_game):
            table = Table.objects.create(name=f"{game} {i + 1}", game=game, seats=6, status=Table.Status.OPEN)
            profile = LimitProfile.objects.create(table=table, version=1, game=game, limit_label=LABEL[game],
                                                  config=pool[game][0], effective_from=timezone.now() - dt.timedelta(days=9))
            accounts = {p: account_for_table(table, p).id for p in ("players", "pot", "tax", "fee")}
            accounts["bonus_expense"] = account_for_house("bonus_expense").id
            tables.append((table.id, game, profile.id, accounts))
    start, end = gaming_day_bounds(DAY)
    span = (end - start).total_seconds()
    tampered = set(rng.sample(range(n_hands), tamper))
    table_by_id = {t[0]: t for t in tables}
    hands, hand_pool, tampered_postings, meta = [], [], [], []
    numbers: dict[int, int] = {}
    snapshot_json = {game: json.dumps(pool[game][0]) for game in GAMES}
    for index in range(n_hands):
        table_id, game, profile_id, accounts = tables[index % len(tables)]
        pool_index = (index // len(tables)) % len(pool[game][1])
        seats, hand_events, legs, seats_json = pool[game][1][pool_index]
        hand_id = index + 1
        numbers[table_id] = numbers.get(table_id, 0) + 1
        opened = start + dt.timedelta(seconds=span * index / n_hands)
        hands.append((hand_id, table_id, numbers[table_id], game, seats[0], profile_id, snapshot_json[game], seats_json,
                      "closed", "awaiting", len(hand_events), opened, opened + dt.timedelta(seconds=1), DAY, "", "bench", ""))
        changed = _tamper(legs) if index in tampered else None
        if index in tampered and changed is None:
            tampered.discard(index)  # a hand that moves no money has no award to inflate: it stays honest
        hand_pool.append((hand_id, game, pool_index, index in tampered))
        meta.append((hand_id, table_id, numbers[table_id], game, seats, opened, pool_index, changed))
        if changed is not None:  # the croupier paid 1.00 more on an award, taken from the pot: the pot does not clear
            for purpose, cents, role, seat, pot_index in changed:
                tampered_postings.append((hand_id, accounts[purpose], EUR[cents], role, seat, "", pot_index))
    pool_legs = [(game, k, purpose, EUR[cents], role, seat, pot_index) for game in GAMES
                 for k, hand in enumerate(pool[game][1]) for purpose, cents, role, seat, pot_index in hand[2]]
    accounts = [(table_id, purpose, account_id) for table_id, t in table_by_id.items() for purpose, account_id in t[3].items()]
    with transaction.atomic(), connection.cursor() as cursor:
        raw = cursor.cursor if hasattr(cursor, "cursor") else cursor
        cursor.execute("SET LOCAL session_replication_role = replica")  # bulk load: skip the per-row ledger triggers
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN ('accounting_posting', "
                       "'tables_handevent') AND indexdef NOT LIKE 'CREATE UNIQUE%%'")
        indexes = cursor.fetchall()  # secondary indexes are built once after the load
        for name, _ in indexes:
            cursor.execute(f'DROP INDEX "{name}"')
        cursor.execute("CREATE TEMP TABLE bench_hand_pool (hand_id int, game text, pool_index int, tampered bool) "
                       "ON COMMIT DROP")
        cursor.execute("CREATE TEMP TABLE bench_pool_legs (game text, pool_index int, purpose text, amount numeric, "
                       "role text, seat int, pot_index int) ON COMMIT DROP")
        cursor.execute("CREATE TEMP TABLE bench_accounts (table_id int, purpose text, account_id int) ON COMMIT DROP")
        copy_rows(raw, "tables_hand", ["id", "table_id", "number", "game", "button_seat", "limit_profile_id",
                                       "limit_snapshot", "seats", "status", "reconciliation", "event_count",
                                       "opened_at", "closed_at", "gaming_day", "void_reason", "source", "digest"],
                  hands)
        copy_rows(raw, "bench_hand_pool", ["hand_id", "game", "pool_index", "tampered"], hand_pool)
        copy_rows(raw, "bench_pool_legs", ["game", "pool_index", "purpose", "amount", "role", "seat", "pot_index"],
                  pool_legs)
        copy_rows(raw, "bench_accounts", ["table_id", "purpose", "account_id"], accounts)
        heads: dict[int, str] = {}
        copy_rows(raw, "tables_handevent", ["hand_id", "seq", "payload", "idempotency_key", "created_at", "digest"],
                  _event_rows(meta, pool, heads))
        cursor.execute("CREATE TEMP TABLE bench_heads (hand_id int, digest text) ON COMMIT DROP")
        copy_rows(raw, "bench_heads", ["hand_id", "digest"], heads.items())
        cursor.execute("UPDATE tables_hand h SET digest = b.digest FROM bench_heads b WHERE h.id = b.hand_id")
        copy_rows(raw, "accounting_journalentry", ["id", "idempotency_key", "kind", "memo", "hand_id", "table_id",
                                                   "gaming_day", "posted_at", "reason", "digest"],
                  _entry_rows(meta, pool))
        cursor.execute("CREATE TEMP TABLE bench_tampered_legs (entry_id int, account_id int, amount numeric, role text, "
                       "seat int, player_ref text, pot_index int) ON COMMIT DROP")
        copy_rows(raw, "bench_tampered_legs", ["entry_id", "account_id", "amount", "role", "seat", "player_ref",
                                               "pot_index"], tampered_postings)
        # An entry's legs are stored together, in entry order, as the posting service writes them (one entry at
        # a time): the planner reads a hand's legs by the entry index, as it does on a real day.
        cursor.execute("""
            INSERT INTO accounting_posting (entry_id, account_id, amount, role, seat, player_ref, pot_index)
            SELECT * FROM (
                SELECT hp.hand_id AS entry_id, a.account_id, pl.amount, pl.role, pl.seat, '' AS player_ref, pl.pot_index
                FROM bench_hand_pool hp JOIN tables_hand h ON h.id = hp.hand_id
                JOIN bench_pool_legs pl ON pl.game = hp.game AND pl.pool_index = hp.pool_index
                JOIN bench_accounts a ON a.table_id = h.table_id AND a.purpose = pl.purpose
                WHERE NOT hp.tampered
                UNION ALL SELECT * FROM bench_tampered_legs) AS legs
            ORDER BY entry_id""")
        set_sequences(raw, ["tables_hand", "tables_handevent", "accounting_journalentry", "accounting_posting"])
        for _, definition in indexes:
            cursor.execute(definition)
        cursor.execute("SELECT (SELECT count(*) FROM tables_handevent), (SELECT count(*) FROM accounting_posting)")
        n_events, n_postings = cursor.fetchone()
    with connection.cursor() as cursor:
        # A day's rows are written over the day and autovacuum keeps up with them; the bench writes them
        # at once, so it vacuums them before measuring (else autovacuum's pass over the fresh tables
        # would run, uncounted, beside the measured reconciliation).
        cursor.execute("VACUUM ANALYZE")
    print(f"loaded {len(hands):,} hands, {n_events:,} events, {n_hands:,} entries, {n_postings:,} postings")
    return sorted(i + 1 for i in tampered)


def _event_rows(meta, pool, heads: dict[int, str]):
    """Each hand's event rows with the digest chain the hand service writes; fills ``heads`` (hand -> head)."""
    from casino.digests import hand_chain, hand_header_record

    parsed = {game: [[json.loads(e) for e in hand[1]] for hand in pool[game][1]] for game in GAMES}
    for hand_id, table_id, number, game, seats, opened, pool_index, _changed in meta:
        seats_map = json.loads(pool[game][1][pool_index][3])  # the hand's seats as stored
        header = hand_header_record(table_id=table_id, number=number, game=game, button_seat=seats[0],
                                    limit_snapshot=pool[game][0], seats=seats_map, gaming_day=DAY, opened_at=opened)
        events = parsed[game][pool_index]
        digests = hand_chain(header, [(seq, payload, f"b{seq}") for seq, payload in enumerate(events, start=1)])
        heads[hand_id] = digests[-1]
        closed = opened + dt.timedelta(seconds=1)
        for seq, payload in enumerate(pool[game][1][pool_index][1], start=1):
            yield hand_id, seq, payload, f"b{seq}", closed, digests[seq]


def _entry_rows(meta, pool):
    """Each hand's settlement entry with the ledger's digest chain (entries in id order = hand order)."""
    from casino.digests import GENESIS, chain_digest, journal_entry_record

    previous = GENESIS
    for hand_id, table_id, _number, game, _seats, opened, pool_index, changed in meta:
        legs = changed if changed is not None else pool[game][1][pool_index][2]
        posted = opened + dt.timedelta(seconds=1)
        key = f"hand:{hand_id}:settlement"
        record = journal_entry_record(
            idempotency_key=key, kind="hand_settlement", memo="", hand_id=hand_id, table_id=table_id, gaming_day=DAY,
            posted_at=posted, created_by_id=None, reverses_id=None, reason="",
            legs=[("house:bonus_expense" if purpose == "bonus_expense" else f"table:{table_id}:{purpose}", EUR[cents],
                   role, seat, "", pot_index) for purpose, cents, role, seat, pot_index in legs])
        previous = chain_digest(previous, record)
        yield hand_id, key, "hand_settlement", "", hand_id, table_id, DAY, posted, "", previous


class _Eur(dict):
    """cents -> Decimal EUR, memoised (the bench cycles a pool, so amounts repeat)."""

    def __missing__(self, cents):
        self[cents] = value = Decimal(cents).scaleb(-2)
        return value


EUR = _Eur()


def _tamper(legs):
    """The legs with 1.00 more paid on the first award (the pot then does not clear), or None if nothing is awarded."""
    legs = list(legs)
    award = next((i for i, leg in enumerate(legs) if leg[2] in ("award", "returned") and leg[0] == "players"), None)
    if award is None:
        return None
    purpose, cents, role, seat, pot_index = legs[award]
    legs[award] = (purpose, cents + 100, role, seat, pot_index)
    for i, leg in enumerate(legs):  # take it from the pot's other side so the entry still balances
        if leg[0] == "pot" and leg[2] == role and leg[3] == seat:
            legs[i] = (leg[0], leg[1] - 100, *leg[2:])
            break
    return legs


def _child_run(profile: bool, threads: int) -> None:
    """In a fresh process (the database set up by the parent): reconcile DAY once, print one JSON line."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    import django

    django.setup()
    import accounting.services.reconciliation as reconciliation

    replay_seconds = [0.0]
    real_replay = reconciliation.replay_settlement

    def timed_replay(facts, events):
        t0 = time.perf_counter()
        try:
            return real_replay(facts, events)
        finally:
            replay_seconds[0] += time.perf_counter() - t0

    reconciliation.replay_settlement = timed_replay
    database_cpu = backend_cpu_counter()
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    started, cpu_started = time.perf_counter(), time.process_time()
    run = reconciliation.gaming_day_reconcile(day=DAY, threads=threads)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    db_cpu = database_cpu()
    if profiler is not None:
        import pstats

        profiler.disable()
        stats = pstats.Stats(profiler, stream=sys.stderr)
        stats.sort_stats("tottime").print_stats(25)
        stats.sort_stats("cumulative").print_stats(25)
    print(json.dumps({"seconds": seconds, "cpu": cpu, "db_cpu": db_cpu, "replay": replay_seconds[0], "rss": peak_rss_mb(),
                      "run": run.pk, "status": run.status, "summary": run.summary}))


def _child(env: dict[str, str], profile: bool, threads: int) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child-run", "--threads", str(threads),
                          *(["--profile"] if profile else [])], env=env,
                         check=True, stdout=subprocess.PIPE, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _db_cpu_text(seconds: float | None, hands: int) -> str:
    if seconds is None:
        return "not readable (the server is not on this host)"
    return f"{seconds:.2f} s ({seconds / hands * 1e6:.0f} us/hand, its backends' CPU from /proc)"


def _flagged_ok(tampered: list[int]) -> str:
    from accounting.models import Discrepancy

    flagged = sorted(set(Discrepancy.objects.exclude(hand=None).values_list("hand_id", flat=True)))
    return (f"tampered hands flagged: {len(flagged)} of {len(tampered)} "
            f"({'all found, no other' if flagged == tampered else 'MISMATCH'})")


def _reset() -> None:
    """Forget every reconciliation result (as the database owner, the guards off): the day is due again."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
        cursor.execute("DELETE FROM accounting_discrepancy")
        cursor.execute("DELETE FROM accounting_reconciliationrun")
        cursor.execute("UPDATE tables_hand SET reconciliation = 'awaiting'")
        cursor.execute("SET session_replication_role = origin")
        cursor.execute("VACUUM ANALYZE tables_hand, accounting_discrepancy, accounting_reconciliationrun")


def _floors(sample: int) -> tuple[float, float, int]:
    """(bare replay hands/s over ``sample`` hands, seconds to COPY the day's event rows out, rows)."""
    from django.db import connection, transaction

    from accounting.services.reconciliation import hands_lock, replay_settlement
    from accounting.services.tamper import event_rows_by_hand
    from tables.models import Hand

    with transaction.atomic():
        facts = hands_lock(day=DAY, limit=sample)
        rows, _ = event_rows_by_hand([f.id for f in facts])
    events = [[row[1] for row in rows[f.id]] for f in facts]
    started = time.perf_counter()
    for f, hand_events in zip(facts, events):
        replay_settlement(f, hand_events)
    replay_rate = len(facts) / (time.perf_counter() - started)
    del facts, rows, events
    with connection.cursor() as cursor:
        raw = cursor.cursor if hasattr(cursor, "cursor") else cursor
        started = time.perf_counter()
        n = 0
        with raw.copy(f"COPY (SELECT e.hand_id, e.seq, e.payload, e.idempotency_key, e.digest FROM tables_handevent e "
                      f"JOIN tables_hand h ON h.id = e.hand_id WHERE h.gaming_day = '{DAY.isoformat()}') TO STDOUT") as copy:
            for block in copy:
                n += len(block)
        copy_seconds = time.perf_counter() - started
    assert Hand.objects.filter(gaming_day=DAY).exists()
    return replay_rate, copy_seconds, n


class Workers:
    """``count`` Celery workers (``--pool=solo``: one process each), started and stopped here."""

    def __init__(self, env: dict[str, str], count: int) -> None:
        self.env, self.count, self.procs = env, count, []

    def __enter__(self) -> Workers:
        venv = Path(sys.executable).parent
        for i in range(self.count):
            self.procs.append(subprocess.Popen(
                [str(venv / "celery"), "-A", "casino", "worker", "--loglevel=WARNING", "--pool=solo", "-n",
                 f"reconcile{i + 1}@%h", "--without-heartbeat", "--without-gossip", "--without-mingle"],
                cwd=ROOT, env=self.env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        return self

    def usage(self) -> tuple[float, float]:
        """(CPU seconds of all workers so far, the largest peak RSS of one worker in MB) from /proc."""
        cpu, rss = 0.0, 0.0
        tick = os.sysconf("SC_CLK_TCK")
        for proc in self.procs:
            with open(f"/proc/{proc.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            cpu += (int(fields[11]) + int(fields[12])) / tick
            with open(f"/proc/{proc.pid}/status") as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        rss = max(rss, int(line.split()[1]) / 1024)
        return cpu, rss

    def __exit__(self, *exc) -> None:
        processes_stop(self.procs, timeout=30)


def _celery_run(env: dict[str, str], broker: str, workers: int, hands: int) -> dict:
    """Reconcile DAY with ``workers`` Celery worker processes; wall time from enqueue to the closed run."""
    import redis
    from celery import Celery

    from accounting.models import ReconciliationRun

    redis.Redis.from_url(broker).flushdb()
    app = Celery("bench", broker=broker, backend=broker)
    with Workers(env, workers) as pool:
        deadline = time.monotonic() + 90
        while len(app.control.ping(timeout=1.0)) < workers:
            if time.monotonic() > deadline or any(p.poll() is not None for p in pool.procs):
                raise RuntimeError("the Celery workers did not start")
        cpu_before, _ = pool.usage()
        started = time.perf_counter()
        app.send_task("accounting.reconcile_gaming_day", args=[DAY.isoformat()])
        done = (ReconciliationRun.Status.OK, ReconciliationRun.Status.DISCREPANCY, ReconciliationRun.Status.FAILED)
        while True:
            run = ReconciliationRun.objects.filter(scope="day", gaming_day=DAY).order_by("-id").first()
            if run is not None and run.status in done:
                break
            if time.perf_counter() - started > max(600, hands / 100):
                raise RuntimeError("the day run did not finish")
            time.sleep(0.05)
        seconds = time.perf_counter() - started
        cpu_after, rss = pool.usage()
    return {"seconds": seconds, "cpu": cpu_after - cpu_before, "rss": rss, "status": run.status, "summary": run.summary}


def _verdict(rate: float, target: int) -> str:
    return f"target >= {target:,}: {'OK' if rate >= target else 'BELOW TARGET'}"


def worker_counts(text: str) -> list[int]:
    """``--workers``: a comma list of worker counts, each a whole number of at least 1 (``"1,2"`` -> ``[1, 2]``);
    raises ``argparse.ArgumentTypeError`` otherwise, before the day is built."""
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"expected worker counts of at least 1, e.g. 2 or 1,2 (got {text!r})")
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=150_000)
    parser.add_argument("--pool", type=int, default=300, help="distinct random hands per game (cycled)")
    parser.add_argument("--tables", type=int, default=10, help="tables per game")
    parser.add_argument("--tamper", type=int, default=25, help="hands whose ledger entry is tampered")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=worker_counts, default=[2],
                        help="Celery worker processes of the parallel run; a list (e.g. 1,2) runs the day once per count")
    parser.add_argument("--floor-sample", type=int, default=5000, help="hands of the bare-replay floor")
    parser.add_argument("--threads", type=int, default=2, help="threads of the one-process run (one checks while "
                        "another waits for the database)")
    parser.add_argument("--profile", action="store_true",
                        help="print a cProfile of the one-process run (stderr); that run then checks in one thread")
    parser.add_argument("--child-run", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_run:
        _child_run(args.profile, args.threads)
        return
    broker = os.environ.get("REDIS_URL", "")

    with bench_database("reconcile"):
        started = time.perf_counter()
        pool = build_pool(args.pool, args.seed)
        print(f"generated {args.pool} random hands per game with the engines in {time.perf_counter() - started:.1f} s")
        started = time.perf_counter()
        tampered = load_day(args.hands, pool, args.tables, min(args.tamper, args.hands), args.seed)
        del pool
        print(f"bulk load in {time.perf_counter() - started:.1f} s; host load average {os.getloadavg()[0]:.1f} "
              f"on {os.cpu_count()} cores")
        child_env = {**os.environ, "DJANGO_SETTINGS_MODULE": "casino.settings"}

        replay_rate, copy_seconds, copy_bytes = _floors(min(args.floor_sample, args.hands))
        print(f"floors: bare engine replay {replay_rate:,.0f} hands/s in one process (no database, no digests); "
              f"COPY of the day's event rows out {copy_seconds:.2f} s ({copy_bytes / 1e6:.0f} MB) = "
              f"{args.hands / copy_seconds:,.0f} hands/s")

        # cProfile sees only the thread it runs in: a profiled run checks the parts in that one thread.
        threads = 1 if args.profile else args.threads
        stolen = steal_meter()
        with SpeedProbe() as speed:
            one = _child(child_env, args.profile, threads)
        one_host = "; ".join(filter(None, [stolen(), speed.text()]))
        rate = args.hands / one["seconds"]
        verdict = "not judged: one thread under cProfile" if args.profile else _verdict(rate, TARGET_ONE_PROCESS)
        print(f"one process ({threads} thread{'s' * (threads != 1)}): {args.hands:,} hands in {one['seconds']:.2f} s = "
              f"{rate:,.0f} hands/s ({verdict}); {rate / replay_rate:.2f} x the bare replay")
        print(f"  engine replays (summed over the thread{'s' * (threads != 1)}) {one['replay']:.2f} s ({one['replay'] / args.hands * 1000:.3f} ms/hand), reading, "
              f"digests, comparing and writing {one['seconds'] - one['replay']:.2f} s "
              f"({(one['seconds'] - one['replay']) / args.hands * 1000:.3f} ms/hand); CPU {one['cpu']:.2f} s = "
              f"{args.hands / one['cpu']:,.0f} hands per CPU-second; PostgreSQL's CPU for it "
              f"{_db_cpu_text(one.get('db_cpu'), args.hands)}; peak RSS {one['rss']:.0f} MB (target < "
              f"{TARGET_RSS_MB}) -> {'OK' if one['rss'] < TARGET_RSS_MB else 'ABOVE TARGET'}"
              + (f"; {one_host}" if one_host else ""))
        print(f"  run {one['status']}: {one['summary']}\n  {_flagged_ok(tampered)}")

        from accounting.services.reconciliation import gaming_day_reconcile

        started = time.perf_counter()
        again = gaming_day_reconcile(day=DAY)
        print(f"rerun of the same day: {'a no-op, the same run answers' if again.pk == one['run'] else 'NOT A NO-OP'} "
              f"in {time.perf_counter() - started:.2f} s")

        if not broker.startswith("redis://"):
            print("Celery worker processes: skipped (set REDIS_URL to a Redis database the bench may flush)")
            return
        for workers in args.workers:
            _reset()
            stolen = steal_meter()
            with SpeedProbe() as speed:
                many = _celery_run(child_env | {"REDIS_URL": broker}, broker, workers, args.hands)
            many_host = "; ".join(filter(None, [stolen(), speed.text()]))
            rate2 = args.hands / many["seconds"]
            verdict = _verdict(rate2, TARGET_TWO_WORKERS) if workers == 2 else "no target for this count"
            print(f"{workers} Celery worker process{'es' * (workers != 1)}: {args.hands:,} hands in "
                  f"{many['seconds']:.2f} s = {rate2:,.0f} hands/s ({verdict}); {rate2 / rate:.2f} x one process; "
                  f"workers' CPU {many['cpu']:.2f} s = {args.hands / max(many['cpu'], 1e-9):,.0f} hands per CPU-second; "
                  f"largest worker peak RSS {many['rss']:.0f} MB")
            print(f"  run {many['status']}: {many['summary']}")
            print(f"  {_flagged_ok(tampered)}; host load average {os.getloadavg()[0]:.1f}"
                  + (f"; {many_host}" if many_host else ""))


if __name__ == "__main__":
    main()
