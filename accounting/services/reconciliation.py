"""Reconciliation: every closed hand checked again by replay, every gaming day checked as a whole.

Long module: the per-hand and the gaming-day runs share the one idempotency and locking contract below and
its private helpers (the pure check, the locked loading, the run and discrepancy writes); the pure check
could stand alone, and stays here while the day run's batching is being reworked (issue 19).

DESIGN.md "accounting/": a machine that did not log the hand replays its stored events through the
engine with the frozen limit snapshot and compares the resulting :class:`~rules.engines.base.Settlement`
with the ledger entry the hand posted (ledger convention in the Django brief: players / pot / tax / fee
accounts per table, ``house:bonus_expense``). A difference becomes a :class:`Discrepancy` row (what,
expected, found, hand); nothing is ever corrected here.

Idempotency and concurrency (STYLE.md rule 8):

* a hand is checked under ``SELECT ... FOR UPDATE`` on its row; the run is keyed by what it checks
  (``hand:{id}:c{content}``: a hash of the hand's header, events, stored digests and ledger legs,
  :func:`accounting.services.tamper.hand_content_key`), so a second run of the same version, concurrent
  or later, finds the stored :class:`ReconciliationRun` and does nothing; a correction (a reversing
  entry and a new one), or any change made behind the service's back, is a new version and is checked
  again;
* besides the replay, every check recomputes the hand's digest chain and the day run the ledger's
  (:mod:`accounting.services.tamper`): a stored digest that does not match is a discrepancy;
* a discrepancy's ``check_key`` is unique (``hand:{id}:{kind}:{subject}``) and written with
  ``ON CONFLICT DO NOTHING``, so re-runs never duplicate rows;
* a gaming day run is claimed with a unique :class:`ReconciliationRun` row
  (``day:{date}:{fingerprint}``, the fingerprint a hash of all the day's content) and processes the
  day's hands in chunks, each chunk one transaction with its hands locked in id order, using the same
  pure check as the per-hand run.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import gc
import json
import operator
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, NamedTuple

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, F, IntegerField, Q, Sum
from django.db.models.functions import Cast, Round
from django.utils import timezone

from accounting.findings import (
    A_COMPLETE_HAND,
    ACCOUNT_WORDS,
    CLOSED_OR_VOID,
    NO_SUCH_LEG,
    NONE,
    OPEN,
    ROLE_WORDS,
    Finding,
)
from accounting.models import Account, Discrepancy, JournalEntry, Posting, ReconciliationRun
from accounting.services.parallel import run_in_threads
from accounting.services.settlement import settlement_moves_money
from accounting.services.tamper import (
    LEDGER_WINDOW,
    LEG_REPR_FORMATS,
    EventRow,
    day_content_fingerprint,
    event_rows_by_hand,
    exact_event_rows,
    hand_content_key,
    hand_digest_findings,
    id_array,
    ledger_span,
    ledger_window_check,
)
from casino.digests import canonical_json, epoch_microseconds_sql, from_epoch_microseconds
from casino.errors import ApplicationError, ConflictError
from casino.gaming_day import gaming_day_of
from casino.i18n import gettext_noop
from casino.status import status_transition
from rules.engines.base import Settlement
from rules.engines.errors import RuleViolation
from rules.engines.messages import Amount, Message
from rules.replay import hand_config
from rules.replay import replay_settlement as rules_replay_settlement
from tables.models import Hand

#: Entry kinds whose legs make up a closed hand's money result (a reversal cancels an entry it reverses).
SETTLEMENT_KINDS = (JournalEntry.Kind.HAND_SETTLEMENT, JournalEntry.Kind.REVERSAL, JournalEntry.Kind.ADJUSTMENT)
#: Hands per transaction in the gaming-day run (memory and lock time bounded).
DAY_CHUNK = 2000
#: Threads of the in-process day run (one checks while another waits for the database).
DAY_THREADS = 2
#: Roles a leg on a players account may carry (ledger convention).
PLAYER_ROLES = ("contribution", "award", "returned", "fee", "bonus")
HALF_CENT = Decimal("0.005")


class Leg(NamedTuple):
    """One posted leg as the check sees it: ``cents`` signed (into the account > 0).

    A named tuple (cheap to build by the hundred thousand); its ``repr`` is the text the run keys hash
    (:func:`~accounting.services.tamper.hand_content_key`), the same as when it was a dataclass."""

    entry_id: int
    entry_kind: str
    account_code: str
    account_table_id: int | None
    cents: int
    role: str
    seat: int | None
    pot_index: int | None

    @property
    def purpose(self) -> str:
        """``players`` / ``pot`` / ``tax`` / ``fee`` / ``bonus_expense`` (the last part of the account code)."""
        return _PURPOSES.get(self.account_code) or _purpose(self.account_code)


#: Account code -> purpose, filled as codes are met (a code's purpose never changes; a room has a few
#: hundred accounts). Read by the per-leg loops instead of splitting the code on every leg.
_PURPOSES: dict[str, str] = {}


def _purpose(code: str) -> str:
    """The purpose of account ``code`` (its last part), remembered in :data:`_PURPOSES`."""
    purpose = _PURPOSES[code] = code.rsplit(":", 1)[-1]
    return purpose


#: ``repr`` of a :class:`Leg` as one C-level ``%`` format (``_LEG_REPR % leg == repr(leg)``, the named
#: tuple's own ``repr``), for the run keys (:func:`~accounting.services.tamper.hand_content_key`).
_LEG_REPR = "Leg(" + ", ".join(f"{name}=%r" for name in Leg._fields) + ")"
LEG_REPR_FORMATS[Leg] = _LEG_REPR


@dataclass(frozen=True)
class HandFacts:
    """What the check needs of a hand, loaded in bulk (no ORM instance needed)."""

    id: int
    table_id: int
    number: int
    game: str
    status: str
    button_seat: int
    limit_snapshot: Mapping[str, Any]
    seats: Mapping[str, Any]
    gaming_day: dt.date
    event_count: int
    opened_at: dt.datetime | None = None
    digest: str = ""
    #: The engine config of ``(game, limit_snapshot)`` when the loader built it once for many hands
    #: (:func:`rules.replay.hand_config`); None: the replay builds or finds it.
    config: Any = field(default=None, compare=False, repr=False)
    #: The canonical JSON text of ``limit_snapshot`` when the loader encoded it once for many hands
    #: (:func:`accounting.services.tamper.limits_json`); empty: encoded when needed.
    limits_json: str = field(default="", compare=False, repr=False)
    #: The canonical JSON text of ``seats`` when the loader wrote it (read by the hand's header digest and its run
    #: key: both encode the seats the same way, JSON values only); empty: encoded when needed.
    seats_json: str = field(default="", compare=False, repr=False)


# --------------------------------------------------------------------------------------------- pure check

_HAND_SETTLEMENT = JournalEntry.Kind.HAND_SETTLEMENT.value
_ENTRY_KIND = operator.itemgetter(1)  # a Leg's entry_kind


def replay_settlement(facts: HandFacts, events: Sequence[Mapping[str, Any]]) -> Settlement:
    """Replay ``events`` with the hand's frozen config through the one replay the hand service uses too
    (:func:`rules.replay.replay_settlement`); return the Settlement.

    Raises ``RuleViolation`` (including ``ConfigError``) when the events or the snapshot do not replay,
    and ``ValueError`` when the replayed hand is not complete.
    """
    return rules_replay_settlement(game=facts.game, snapshot=facts.limit_snapshot, seats=facts.seats,
                                   button=facts.button_seat, events=events, config=facts.config)


def _compare(findings: list[Finding], kind: str, subject: str, code: str, params: Mapping[str, Any],
             expected: int, found: int) -> None:
    """A finding of text ``code`` when the two amounts (cents) differ."""
    if expected != found:
        findings.append(Finding(kind, subject, code, params, Amount(expected), Amount(found)))


def settlement_findings(facts: HandFacts, settlement: Settlement, legs: Sequence[Leg]) -> list[Finding]:
    """Compare a replayed Settlement with a hand's posted legs; return the differences (empty = clean).

    Compared (cents): per seat the contribution, the award (and per pot when the ledger carries the
    pot index), the returned bet, the Capsa fee and the Forty-one bonus on the players account; the
    Taxe/tax on the tax account, the fees on the fee account, the bonus on ``house:bonus_expense``; the
    table's pot account must net to zero for the hand; every entry must balance; no leg may sit on
    another table's account or carry a role outside the convention.
    """
    findings: list[Finding] = []
    by_entry: dict[int, int] = {}
    players: dict[tuple[str, int | None], int] = {}
    awards_by_pot: dict[int, int] = {}
    totals: dict[str, int] = {}
    pot_indexed = False
    table_id = facts.table_id
    purposes = _PURPOSES
    # One pass, each leg unpacked once (this loop runs for every leg of a day: plain dicts and .get).
    for entry_id, _kind, code, account_table_id, cents, role, seat, pot_index in legs:
        by_entry[entry_id] = by_entry.get(entry_id, 0) + cents
        purpose = purposes.get(code) or _purpose(code)
        totals[purpose] = totals.get(purpose, 0) + cents
        if account_table_id is not None and account_table_id != table_id:
            findings.append(Finding("foreign_account", f"entry{entry_id}:{code}", "foreign_account",
                                    {"hand": facts.number, "account": code},
                                    gettext_noop("an account of table %(table)s", table=facts.table_id), code))
        if purpose == "players":
            if role not in PLAYER_ROLES:
                findings.append(Finding("unexpected_leg", f"entry{entry_id}:{role}:{seat}", "unexpected_role",
                                        {"hand": facts.number, "role": role}, NO_SUCH_LEG, Amount(cents)))
                continue
            key = (role, seat)
            players[key] = players.get(key, 0) + cents
            if role == "award" and pot_index is not None:
                pot_indexed = True
                awards_by_pot[pot_index] = awards_by_pot.get(pot_index, 0) + cents
    if not findings and _clean_fast(settlement, players, awards_by_pot if pot_indexed else None, totals, by_entry):
        return findings
    for entry_id, total in sorted(by_entry.items()):
        _compare(findings, "unbalanced_entry", f"entry{entry_id}", "hand_entry_unbalanced",
                 {"entry": entry_id, "hand": facts.number}, 0, total)

    seats = sorted({int(s) for s in facts.seats} | {s for (_, s) in players if s is not None}
                   | set(settlement.contributions) | set(settlement.awards))
    expected_by_role = {
        "contribution": {s: -c for s, c in settlement.contributions.items()},
        "award": dict(settlement.awards),
        "returned": dict(settlement.returned),
        "fee": {s: -f for s, f in settlement.fees.items()},
        "bonus": dict(settlement.bonus),
    }
    for role in PLAYER_ROLES:
        for seat in seats:
            expected = expected_by_role[role].get(seat, 0)
            found = players.get((role, seat), 0)
            _compare(findings, role, f"seat{seat}", "seat_leg",
                     {"hand": facts.number, "seat": seat, "role": ROLE_WORDS[role]}, expected, found)
        if players.get((role, None)):
            findings.append(Finding("unexpected_leg", f"{role}:noseat", "leg_without_seat",
                                    {"hand": facts.number, "role": ROLE_WORDS[role]}, NONE,
                                    Amount(players[(role, None)])))
    if pot_indexed and settlement.pot_awards:
        expected_pots: dict[int, int] = defaultdict(int)
        for pot_index, _seat, cents in settlement.pot_awards:
            expected_pots[pot_index] += cents
        for pot_index in sorted(set(expected_pots) | set(awards_by_pot)):
            _compare(findings, "pot", f"pot{pot_index}", "pot_award", {"hand": facts.number, "pot": pot_index},
                     expected_pots.get(pot_index, 0), awards_by_pot.get(pot_index, 0))
    hand = {"hand": facts.number}
    _compare(findings, "tax", "tax", "tax", hand, settlement.tax, totals.get("tax", 0))
    _compare(findings, "fee", "fee", "fee", hand, sum(settlement.fees.values()), totals.get("fee", 0))
    _compare(findings, "bonus", "bonus", "bonus", hand, -sum(settlement.bonus.values()), totals.get("bonus_expense", 0))
    _compare(findings, "pot_not_cleared", "pot", "pot_not_cleared", hand, 0, totals.get("pot", 0))
    return findings


def _clean_fast(settlement: Settlement, players: Mapping[tuple[str, int | None], int],
                awards_by_pot: Mapping[int, int] | None, totals: Mapping[str, int], by_entry: Mapping[int, int]) -> bool:
    """True when everything matches (the common case), decided with a few dict comparisons."""
    if any(by_entry.values()) or totals.get("pot", 0):
        return False
    expected = {}
    for role, values, sign in (("contribution", settlement.contributions, -1), ("award", settlement.awards, 1),
                               ("returned", settlement.returned, 1), ("fee", settlement.fees, -1),
                               ("bonus", settlement.bonus, 1)):
        for seat, cents in values.items():
            if cents:
                expected[(role, seat)] = sign * cents
    if expected != {key: cents for key, cents in players.items() if cents}:
        return False
    if awards_by_pot is not None and settlement.pot_awards:
        pots: dict[int, int] = defaultdict(int)
        for pot_index, _seat, cents in settlement.pot_awards:
            pots[pot_index] += cents
        if {k: v for k, v in pots.items() if v} != {k: v for k, v in awards_by_pot.items() if v}:
            return False
    return (totals.get("tax", 0) == settlement.tax and totals.get("fee", 0) == sum(settlement.fees.values())
            and totals.get("bonus_expense", 0) == -sum(settlement.bonus.values()))


def hand_findings(facts: HandFacts, events: Sequence[Mapping[str, Any]], legs: Sequence[Leg]) -> list[Finding]:
    """All differences for one hand (closed or void); the pure core of both reconciliation runs."""
    if facts.status == Hand.Status.VOID:
        findings: list[Finding] = []
        totals: dict[str, int] = defaultdict(int)
        for leg in legs:
            totals[leg.purpose] += leg.cents
        for purpose in ("tax", "fee", "bonus_expense", "pot"):
            _compare(findings, f"void_{purpose}", purpose, "void_net",
                     {"hand": facts.number, "account": ACCOUNT_WORDS[purpose]}, 0, totals.get(purpose, 0))
        return findings
    try:
        settlement = replay_settlement(facts, events)
    except (RuleViolation, ValueError, KeyError, TypeError) as exc:
        why = exc.message if isinstance(exc, RuleViolation) and isinstance(exc.message, Message) else str(exc)[:250]
        return [Finding("replay_failed", "replay", "replay_failed", {"hand": facts.number}, A_COMPLETE_HAND, why)]
    if _HAND_SETTLEMENT not in map(_ENTRY_KIND, legs):
        if not settlement_moves_money(settlement):
            return []  # nothing changed hands: hand_settlement_post rightly posted no entry
        return [Finding("missing_entry", "settlement", "missing_entry", {"hand": facts.number},
                        gettext_noop("entry %(key)s", key=f"hand:{facts.id}:settlement"), NONE)]
    return settlement_findings(facts, settlement, legs)


# --------------------------------------------------------------------------------------------- loading


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a batch is read and checked (and restore it).

    A batch allocates some hundred thousand small objects (parsed events, legs, findings), freed by
    reference counting as soon as the batch is done; meanwhile the collector would walk the whole heap
    again and again, which cost more than parsing the events themselves (measured: bench/reconcile.py).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _facts(hand: Hand) -> HandFacts:
    return HandFacts(id=hand.id, table_id=hand.table_id, number=hand.number, game=hand.game, status=hand.status,
                     button_seat=hand.button_seat, limit_snapshot=hand.limit_snapshot, seats=hand.seats,
                     gaming_day=hand.gaming_day, event_count=hand.event_count, opened_at=hand.opened_at,
                     digest=hand.digest)


_FACT_FIELDS = ("id", "table_id", "number", "game", "status", "button_seat", "limit_snapshot", "seats", "gaming_day",
                "event_count", "opened_at", "digest")
#: ``opened_at`` is read as integer microseconds since the epoch (exact: ``extract`` gives a numeric) and made a
#: datetime here, instead of by the driver's Python time-zone loader for every hand; the JSON columns as text.
_FACTS_SQL = (f"SELECT id, table_id, number, game, status, button_seat, limit_snapshot::text, seats::text, gaming_day, "
              f"event_count, {epoch_microseconds_sql('opened_at')}, digest FROM {Hand._meta.db_table} "
              f"WHERE {{where}} ORDER BY id{{limit}} FOR UPDATE")


def hands_lock(*, day: dt.date | None = None, ids: Sequence[int] | None = None, after_id: int = 0,
               through_id: int | None = None, limit: int | None = None) -> list[HandFacts]:
    """Lock hands (``SELECT ... FOR UPDATE``, in id order) and return what the check reads of them.

    Select by ``ids``, or by gaming ``day`` with ids in ``(after_id, through_id]``, at most ``limit``.
    Call inside a transaction. On PostgreSQL the JSON columns come as text and every distinct limit
    snapshot is parsed, and its engine config built, once per call (a table's hands share one).
    """
    if connection.vendor != "postgresql":
        query = Hand.objects.select_for_update().order_by("id")
        query = query.filter(id__in=list(ids)) if ids is not None else query.filter(gaming_day=day, id__gt=after_id)
        if through_id is not None:
            query = query.filter(id__lte=through_id)
        rows = query.values_list(*_FACT_FIELDS)
        return [HandFacts(*row) for row in (rows[:limit] if limit else rows)]
    if ids is not None:
        where, params = "id = ANY(%s::bigint[])", [id_array(ids)]
    else:
        where, params = "gaming_day = %s AND id > %s", [day, after_id]
    if through_id is not None:
        where, params = f"{where} AND id <= %s", [*params, through_id]
    with connection.cursor() as cursor:
        cursor.execute(_FACTS_SQL.format(where=where, limit=f" LIMIT {int(limit)}" if limit else ""), params)
        rows = cursor.fetchall()
    snapshots: dict[str, tuple[Any, str]] = {}
    configs: dict[tuple[str, str], Any] = {}
    out = []
    for hand_id, table_id, number, game, status, button, snapshot_text, seats_text, day_, count, opened, digest in rows:
        known = snapshots.get(snapshot_text)
        if known is None:
            parsed = json.loads(snapshot_text)
            known = snapshots[snapshot_text] = (parsed, canonical_json(parsed))
        snapshot, snapshot_json = known
        config = configs.get((game, snapshot_text), _UNBUILT)
        if config is _UNBUILT:
            try:
                config = hand_config(game, snapshot)
            except Exception:  # noqa: BLE001 - the replay meets the same error and handles it as before
                config = None
            configs[(game, snapshot_text)] = config
        seats = json.loads(seats_text)
        out.append(HandFacts(hand_id, table_id, number, game, status, button, snapshot, seats, day_,
                             count, from_epoch_microseconds(opened), digest, config,
                             snapshot_json, canonical_json(seats)))
    return out


_UNBUILT = object()


def _legs_by_hand(hand_ids: Iterable[int]) -> dict[int, list[Leg]]:
    """Each hand's ledger legs (entries of any kind that name the hand), one query."""
    out: dict[int, list[Leg]] = defaultdict(list)
    ids = list(hand_ids)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT e.hand_id, p.entry_id, e.kind, a.code, a.table_id, round(p.amount * 100)::integer, p.role, "
                f"p.seat, p.pot_index FROM {Posting._meta.db_table} p "
                f"JOIN {JournalEntry._meta.db_table} e ON e.id = p.entry_id "
                f"JOIN {Account._meta.db_table} a ON a.id = p.account_id WHERE e.hand_id = ANY(%s::bigint[])",
                [id_array(ids)])
            rows = cursor.fetchall()
    else:
        rows = list(Posting.objects.filter(entry__hand_id__in=ids)
                    .annotate(cents=Cast(Round(F("amount") * 100), IntegerField()))
                    .values_list("entry__hand_id", "entry_id", "entry__kind", "account__code", "account__table_id",
                                 "cents", "role", "seat", "pot_index"))
    make = _NEW_LEG
    for row in rows:
        out[row[0]].append(make(row[1:]))
    return out


#: ``Leg._make`` without its Python frame (the query's rows always carry the eight fields).
_NEW_LEG = functools.partial(tuple.__new__, Leg)


def hand_run_key(facts: HandFacts, content: str) -> str:
    """The run key of a hand: ``content`` is :func:`~accounting.services.tamper.hand_content_key` of what
    the check reads."""
    return f"hand:{facts.id}:c{content}"


def _discrepancy_rows(facts: HandFacts, findings: Sequence[Finding]) -> list[Discrepancy]:
    return [Discrepancy(check_key=f"hand:{facts.id}:{f.kind}:{f.subject}"[:160], kind=f.kind, what=str(f.what)[:255],
                        expected=str(f.expected)[:255], found=str(f.found)[:255], what_code=f.code,
                        what_params=f.stored_params(), hand_id=facts.id, table_id=facts.table_id,
                        gaming_day=facts.gaming_day) for f in findings]


def _discrepancies_write(facts: HandFacts, findings: Sequence[Finding]) -> None:
    rows = _discrepancy_rows(facts, findings)
    if rows:
        Discrepancy.objects.bulk_create(rows, ignore_conflicts=True)


def _runs_write(runs: Sequence[tuple[str, HandFacts, str, list[str]]], now: dt.datetime) -> None:
    """Insert the hand runs ``(key, facts, status, finding kinds)``; a key already stored is left alone."""
    if not runs:
        return
    if connection.vendor != "postgresql":
        ReconciliationRun.objects.bulk_create([
            ReconciliationRun(key=key, scope="hand", hand_id=facts.id, gaming_day=facts.gaming_day, status=status,
                              finished_at=now, summary={"findings": kinds}) for key, facts, status, kinds in runs],
            ignore_conflicts=True)
        return
    rows = json.dumps([{"k": key, "h": facts.id, "d": facts.gaming_day.isoformat(), "s": status, "f": {"findings": kinds}}
                       for key, facts, status, kinds in runs])
    with connection.cursor() as cursor:  # one statement for the batch, its rows one JSON text (no model instances)
        cursor.execute(
            f"INSERT INTO {ReconciliationRun._meta.db_table} (key, scope, hand_id, gaming_day, status, started_at, "
            "finished_at, summary) SELECT r.k, 'hand', r.h, r.d, r.s, %s, %s, r.f "
            "FROM json_to_recordset(%s::json) AS r(k text, h bigint, d date, s text, f jsonb) "
            "ON CONFLICT (key) DO NOTHING", [now, now, rows])


def _runs_done(keys: list[str]) -> set[str]:
    """Which of the run ``keys`` are stored (on PostgreSQL the keys passed as one JSON text)."""
    if connection.vendor != "postgresql":
        return set(ReconciliationRun.objects.filter(key__in=keys).values_list("key", flat=True))
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT key FROM {ReconciliationRun._meta.db_table} "
                       "WHERE key IN (SELECT json_array_elements_text(%s::json))", [json.dumps(keys)])
        return {row[0] for row in cursor.fetchall()}


def _states_write(clean: Sequence[int], dirty: Sequence[int]) -> None:
    """Set ``Hand.reconciliation`` of the ``clean`` hands to reconciled and of the ``dirty`` ones to discrepancy.

    On PostgreSQL one statement for the batch (the ids as two arrays), and only rows whose state changes
    are rewritten; with the hand table's free page space (tables 0011) the new row versions stay on their
    pages and no index of the table is touched."""
    if not clean and not dirty:
        return
    if connection.vendor != "postgresql":
        if clean:
            Hand.objects.filter(id__in=clean).update(reconciliation=Hand.Reconciliation.RECONCILED)
        if dirty:
            Hand.objects.filter(id__in=dirty).update(reconciliation=Hand.Reconciliation.DISCREPANCY)
        return
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Hand._meta.db_table} h SET reconciliation = s.state "
            "FROM (SELECT unnest(%s::bigint[]) AS id, %s AS state UNION ALL "
            "SELECT unnest(%s::bigint[]), %s) AS s WHERE h.id = s.id AND h.reconciliation IS DISTINCT FROM s.state",
            [id_array(clean), Hand.Reconciliation.RECONCILED.value, id_array(dirty),
             Hand.Reconciliation.DISCREPANCY.value])


def _check_locked_hands(hands: Sequence[HandFacts]) -> tuple[dict[str, int], dict[int, str]]:
    """Check hands already locked by the caller's transaction, as one batch; skip versions already run.

    Reads the batch's events, legs and run rows in three queries, checks each hand (the replay,
    :func:`hand_findings`, plus its digest chain,
    :func:`~accounting.services.tamper.hand_digest_findings`) and writes the batch's discrepancies, run
    rows and reconciliation states in a few statements: all in the caller's transaction, so a failure
    anywhere in the batch writes nothing. Returns the counts and each hand's run key.
    """
    ids = [h.id for h in hands]
    if not ids:
        return {"checked": 0, "skipped": 0, "reconciled": 0, "discrepancy": 0}, {}
    rows, hashes = event_rows_by_hand(ids)
    legs = _legs_by_hand(ids)
    keys = {h.id: hand_run_key(h, hand_content_key(h, hashes.get(h.id, ""), legs.get(h.id, ()))) for h in hands}
    done = _runs_done(list(keys.values()))
    todo = [h for h in hands if keys[h.id] not in done]
    counts = {"checked": 0, "skipped": len(hands) - len(todo), "reconciled": 0, "discrepancy": 0}
    if not todo:
        return counts, keys
    now = timezone.now()
    runs, clean, dirty, discrepancies = [], [], [], []
    ok, found = ReconciliationRun.Status.OK.value, ReconciliationRun.Status.DISCREPANCY.value
    no_rows: tuple[EventRow, ...] = ()
    for facts in todo:
        hand_legs = legs.get(facts.id, ())
        try:
            findings = _hand_check(facts, rows.get(facts.id, no_rows), hand_legs)
        except Exception:
            exact = exact_event_rows(rows, facts.id)
            if exact is None:
                raise
            findings = _hand_check(facts, exact, hand_legs)  # json's rows decide (and raise as before if they do)
        else:  # rows read by orjson: a hand with a finding is checked again from json's rows, which decide it
            if findings and (exact := exact_event_rows(rows, facts.id)) is not None:
                findings = _hand_check(facts, exact, hand_legs)
        if findings:
            dirty.append(facts.id)
            discrepancies += _discrepancy_rows(facts, findings)
            runs.append((keys[facts.id], facts, found, [f.kind for f in findings]))
        else:
            clean.append(facts.id)
            runs.append((keys[facts.id], facts, ok, []))
    if discrepancies:
        Discrepancy.objects.bulk_create(discrepancies, ignore_conflicts=True)
    _runs_write(runs, now)
    _states_write(clean, dirty)
    counts.update(checked=len(todo), reconciled=len(clean), discrepancy=len(dirty))
    return counts, keys




def _hand_check(facts: HandFacts, rows: Sequence[EventRow], legs: Sequence[Leg]) -> list[Finding]:
    """Everything a hand's check finds: its digest chain (:func:`~accounting.services.tamper.hand_digest_findings`)
    and its replay compared with its legs (:func:`hand_findings`)."""
    findings = hand_digest_findings(facts, rows)
    findings += hand_findings(facts, [row[1] for row in rows], legs)
    return findings


def hand_reconcile(*, hand_id: int) -> ReconciliationRun | None:
    """Reconcile one closed or void hand; return its run (None for a hand still open).

    Locks the hand row, so a concurrent run of the same hand waits and then finds this run's result.
    Sets ``Hand.reconciliation`` to ``reconciled`` or ``discrepancy`` and writes one
    :class:`Discrepancy` per difference (never twice). Raises ``Hand.DoesNotExist`` for an unknown id.
    """
    with transaction.atomic():
        hands = hands_lock(ids=[hand_id])
        if not hands:
            raise Hand.DoesNotExist(f"no hand with id {hand_id}")
        facts = hands[0]
        if facts.status == Hand.Status.OPEN:
            return None
        _, keys = _check_locked_hands([facts])
        return ReconciliationRun.objects.get(key=keys[facts.id])


def hands_reconcile(*, hand_ids: Sequence[int]) -> dict[str, int]:
    """Reconcile the closed or void hands among ``hand_ids`` as one batch: one transaction, the hands
    locked in id order, their rows read and the results written a few statements per batch (the sweep's
    and the live queue's path for many hands at once; open or unknown ids are left alone).

    The same check and the same writes as :func:`hand_reconcile` hand by hand: a version already
    checked is skipped, and an error anywhere rolls the whole batch back (nothing half-written).
    Returns ``{"hands", "checked", "skipped", "reconciled", "discrepancy"}``.
    """
    with transaction.atomic(), collector_paused():
        hands = [f for f in hands_lock(ids=sorted(set(hand_ids))) if f.status != Hand.Status.OPEN]
        counts, _ = _check_locked_hands(hands)
    return {"hands": len(hands), **counts}


def _day_fingerprint(day: dt.date) -> str:
    return day_content_fingerprint(day)


def _run_claim(*, key: str, scope: str, day: dt.date) -> tuple[ReconciliationRun, bool]:
    """Claim a run row: (run, True) if this caller owns it now, (run, False) if it is done or being done."""
    stale_after = dt.timedelta(seconds=getattr(settings, "CELERY_TASK_TIME_LIMIT", 600))
    try:
        with transaction.atomic():
            return ReconciliationRun.objects.create(key=key, scope=scope, gaming_day=day), True
    except IntegrityError:
        run = ReconciliationRun.objects.get(key=key)
    if run.status in (ReconciliationRun.Status.OK, ReconciliationRun.Status.DISCREPANCY):
        return run, False
    if run.status == ReconciliationRun.Status.RUNNING and run.started_at > timezone.now() - stale_after:
        return run, False
    # A failed or abandoned run: take it over with a conditional update (one caller wins).
    won = ReconciliationRun.objects.filter(pk=run.pk, status=run.status, started_at=run.started_at).update(
        status=ReconciliationRun.Status.RUNNING, started_at=timezone.now(), summary={})
    run.refresh_from_db()
    return run, bool(won)


def _cents(total: Any) -> int:
    """A summed amount (EUR; SQLite sums decimals as floats) as integer cents, half up (the ledger's own rounding)."""
    return int((Decimal(str(total)) * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def _day_ledger_findings(day: dt.date) -> list[tuple[str, Finding, int | None]]:
    """Ledger checks of a day: every entry balanced, each table's pot account at zero."""
    out: list[tuple[str, Finding, int | None]] = []
    nonzero = Q(total__gte=HALF_CENT) | Q(total__lte=-HALF_CENT)  # SQLite sums decimals as floats
    unbalanced = (Posting.objects.filter(entry__gaming_day=day).values("entry_id").annotate(total=Sum("amount"))
                  .filter(nonzero).values_list("entry_id", "total"))
    for entry_id, total in unbalanced:
        out.append((f"entry:{entry_id}:unbalanced", Finding("unbalanced_entry", f"entry{entry_id}", "entry_unbalanced",
                    {"entry": entry_id}, Amount(0), Amount(_cents(total))), None))
    pots = (Posting.objects.filter(entry__gaming_day=day, account__code__endswith=":pot")
            .values("account__code", "account__table_id").annotate(total=Sum("amount")).filter(nonzero)
            .values_list("account__code", "account__table_id", "total"))
    for code, table_id, total in pots:
        out.append((f"day:{day.isoformat()}:{code}", Finding("pot_not_zero", code, "pot_not_zero",
                    {"account": code, "day": day}, Amount(0), Amount(_cents(total))), table_id))
    return out


def _ledger_sums_findings(day: dt.date, sums: Iterable[Mapping[str, Any]]) -> list[tuple[str, Finding, int | None]]:
    """:func:`_day_ledger_findings` from the ledger windows' sums (:func:`gaming_day_part_check`): the same
    findings, without reading the day's legs once more."""
    out: list[tuple[str, Finding, int | None]] = []
    pots: dict[str, int] = defaultdict(int)
    for part in sums:
        for entry_id, cents in part["unbalanced"]:
            out.append((f"entry:{entry_id}:unbalanced", Finding("unbalanced_entry", f"entry{entry_id}", "entry_unbalanced",
                        {"entry": entry_id}, Amount(0), Amount(cents)), None))
        for code, cents in part["pots"].items():
            pots[code] += cents
    open_pots = {code: cents for code, cents in pots.items() if cents}
    tables = dict(Account.objects.filter(code__in=list(open_pots)).values_list("code", "table_id")) if open_pots else {}
    for code, cents in sorted(open_pots.items()):
        out.append((f"day:{day.isoformat()}:{code}", Finding("pot_not_zero", code, "pot_not_zero",
                    {"account": code, "day": day}, Amount(0), Amount(cents)), tables.get(code)))
    return out


def gaming_day_reconcile_request(*, day: dt.date) -> tuple[ReconciliationRun, bool]:
    """Claim the run of ``day`` as the day stands now, for an accountant who asked; return ``(run, queued)``.

    ``queued`` is True when the caller must queue :func:`accounting.tasks.reconcile_gaming_day` with the
    run's id (the row is marked ``summary={"queued": true}`` until the task takes it); False when a run
    for exactly this state of the day is finished or under way (its counts or progress are the answer).
    """
    key = f"day:{day.isoformat()}:{_day_fingerprint(day)}"
    run, owned = _run_claim(key=key, scope="day", day=day)
    if owned:
        ReconciliationRun.objects.filter(pk=run.pk).update(summary={"queued": True})
        run.refresh_from_db()
    return run, owned


def gaming_day_claim(*, day: dt.date, run_id: int | None = None) -> tuple[ReconciliationRun, bool]:
    """Take the run of ``day`` for this caller: ``(run, True)`` to go ahead, ``(run, False)`` when this
    version of the day is done or under way elsewhere (``run`` is then the answer).

    With ``run_id`` (a run claimed by :func:`gaming_day_reconcile_request`) that run is taken, once: a
    second delivery finds it taken. Without, the run is keyed by the day's content fingerprint.
    """
    if run_id is not None:
        won = ReconciliationRun.objects.filter(pk=run_id, status=ReconciliationRun.Status.RUNNING,
                                               summary__queued=True).update(summary={}, started_at=timezone.now())
        return ReconciliationRun.objects.get(pk=run_id), bool(won)
    key = f"day:{day.isoformat()}:{_day_fingerprint(day)}"
    return _run_claim(key=key, scope="day", day=day)


@dataclass(frozen=True)
class DayPart:
    """One independent part of a gaming-day run: the day's hands with ids in ``(after_id, through_id]``
    (``kind="hands"``, ``through_id`` None: to the end) or the ledger chain over the entries with ids in
    ``[after_id + 1, through_id]`` (``kind="ledger"``)."""

    kind: str
    after_id: int
    through_id: int | None


def gaming_day_parts(*, day: dt.date, chunk: int = DAY_CHUNK) -> list[DayPart]:
    """Split the run of ``day`` into parts that separate worker processes can check side by side: hand
    id ranges of at most ``chunk`` hands and ledger-chain windows of at most ``LEDGER_WINDOW`` entries.

    The parts cover every hand of the day (the last hand range is open-ended) and every entry from the
    day's first to its last; :func:`gaming_day_part_check` checks one, :func:`gaming_day_finish` sums them.
    """
    bounds = _every_nth_id(Hand._meta.db_table, "gaming_day = %s", [day], chunk, first=False)
    parts = [DayPart("hands", low, high) for low, high in zip([0, *bounds], bounds)]
    parts.append(DayPart("hands", bounds[-1] if bounds else 0, None))
    span = ledger_span(day)
    if span is not None:
        starts = _every_nth_id(JournalEntry._meta.db_table, "id >= %s AND id <= %s", list(span), LEDGER_WINDOW,
                               first=True)
        ends = [*(i - 1 for i in starts[1:]), span[1]]
        parts += [DayPart("ledger", first - 1, last) for first, last in zip(starts, ends)]
    return parts


def _every_nth_id(table: str, where: str, params: list[Any], n: int, *, first: bool) -> list[int]:
    """The ids of ``table``'s rows matching ``where``, in id order, at positions ``0, n, 2n, ...`` (``first``) or
    ``n-1, 2n-1, ...`` short of the last row (the upper bounds of parts of ``n`` rows; the last part is
    open-ended). On PostgreSQL picked by the database (a day's ids are not carried to Python to be sliced)."""
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT id FROM {table} WHERE {where} ORDER BY id", params)
            ids = [row[0] for row in cursor.fetchall()]
        return ids[::n] if first else ids[n - 1:-1:n]
    pick = "(s.n - 1) %% %s = 0" if first else "s.n %% %s = 0 AND s.n < s.total"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT s.id FROM (SELECT id, row_number() OVER (ORDER BY id) AS n, count(*) OVER () AS total "
                       f"FROM {table} WHERE {where}) AS s WHERE {pick} ORDER BY s.id", [*params, n])
        return [row[0] for row in cursor.fetchall()]


def gaming_day_part_check(*, day: dt.date, part: DayPart, run_id: int | None = None) -> dict[str, Any]:
    """Check one :class:`DayPart` of ``day`` in its own transaction; return its counts (hand counts as
    :func:`hand_range_reconcile`, or for a ledger window ``{"chain_findings": n, "ledger_sums": ...}``:
    the chain's findings, written as ``entry_digest`` discrepancies, and the window's part of the day's
    ledger sums, :func:`~accounting.services.tamper.ledger_window_check`, which :func:`gaming_day_finish`
    adds up). Plain JSON values: a Celery result.

    With ``run_id``, a failure marks that day run ``failed`` before it is raised (the next run takes the
    day over, :func:`gaming_day_claim`); nothing of the failed part is written.
    """
    try:
        if part.kind == "hands":
            counts = hand_range_reconcile(day=day, after_id=part.after_id, through_id=part.through_id)
            counts.pop("last_id", None)
            return counts
        with transaction.atomic(), collector_paused():
            chain, sums = ledger_window_check(first_id=part.after_id + 1,
                                              last_id=part.through_id or part.after_id + 1, day=day)
            if chain:
                Discrepancy.objects.bulk_create([
                    Discrepancy(check_key=f"entry:{entry['id']}:{f.kind}"[:160], kind=f.kind, what=str(f.what)[:255],
                                expected=str(f.expected), found=str(f.found), what_code=f.code,
                                what_params=f.stored_params(), hand_id=entry["hand_id"], table_id=entry["table_id"],
                                gaming_day=entry["gaming_day"])
                    for f, entry in chain], ignore_conflicts=True)
        return {"chain_findings": len(chain), "ledger_sums": sums}
    except Exception:
        if run_id is not None:
            ReconciliationRun.objects.filter(pk=run_id, status=ReconciliationRun.Status.RUNNING).update(
                status=ReconciliationRun.Status.FAILED, finished_at=timezone.now())
        raise


def gaming_day_finish(*, day: dt.date, run_id: int, parts: Iterable[Mapping[str, Any]]) -> ReconciliationRun:
    """Close the run of ``day`` once every part is checked: the day's ledger sums (every entry balanced,
    each table's pot account at zero: added up from the ledger parts' sums), the counts of
    :func:`gaming_day_reconcile`'s summary, the status."""
    counts = dict.fromkeys(_HAND_COUNTS, 0)
    chain = 0
    sums: list[Mapping[str, Any]] | None = []
    for part in parts:
        for name in _HAND_COUNTS:
            counts[name] += part.get(name, 0)
        chain += part.get("chain_findings", 0)
        if "chain_findings" in part:
            if "ledger_sums" in part and sums is not None:
                sums.append(part["ledger_sums"])
            else:
                sums = None  # a part checked without its sums (by an older worker): the day's legs are read again
    try:
        with transaction.atomic():
            ledger = _day_ledger_findings(day) if sums is None else _ledger_sums_findings(day, sums)
            if ledger:
                Discrepancy.objects.bulk_create([
                    Discrepancy(check_key=check_key[:160], kind=f.kind, what=str(f.what)[:255], expected=str(f.expected),
                                found=str(f.found), what_code=f.code, what_params=f.stored_params(), table_id=table_id,
                                gaming_day=day)
                    for check_key, f, table_id in ledger], ignore_conflicts=True)
            counts.update(Hand.objects.filter(gaming_day=day).aggregate(  # one pass over the day's hands
                reconciled=Count("id", filter=Q(reconciliation=Hand.Reconciliation.RECONCILED)),
                with_discrepancies=Count("id", filter=Q(reconciliation=Hand.Reconciliation.DISCREPANCY))))
            counts["ledger_findings"] = len(ledger) + chain
            counts["open_discrepancies"] = Discrepancy.objects.filter(
                gaming_day=day, status=Discrepancy.Status.OPEN).count()
            bad = (counts["open"] or ledger or chain or counts["discrepancy_now"]
                   or counts["with_discrepancies"])
            ReconciliationRun.objects.filter(pk=run_id).update(
                status=ReconciliationRun.Status.DISCREPANCY if bad else ReconciliationRun.Status.OK,
                finished_at=timezone.now(), summary=counts)
    except Exception:
        ReconciliationRun.objects.filter(pk=run_id).update(status=ReconciliationRun.Status.FAILED,
                                                          finished_at=timezone.now())
        raise
    return ReconciliationRun.objects.get(pk=run_id)


def gaming_day_reconcile(*, day: dt.date, chunk: int = DAY_CHUNK, run_id: int | None = None,
                         threads: int = DAY_THREADS) -> ReconciliationRun:
    """Reconcile a whole gaming day in this process; return its run (an existing one if this version was
    already done). The Celery task runs the same parts on every worker at once
    (:func:`accounting.tasks.reconcile_gaming_day`).

    The parts are checked by ``threads`` threads, each with its own database connection and
    transactions, so that one checks while another waits for the database (called inside a
    transaction, e.g. in a test, they run one after the other in the caller's connection).

    Checks: every hand of the day closed (an open hand is a ``hand_not_closed`` discrepancy), every
    closed or void hand reconciled (checked here in bulk if its per-hand run has not happened), every
    entry of the day balanced and each table's pot account at zero, the ledger's digest chain. With
    ``run_id`` (a run claimed by :func:`gaming_day_reconcile_request`) that run is taken, once: a second
    delivery finds it taken.

    ``run.summary`` counts: ``hands`` of the day, ``open`` (still open: a discrepancy each),
    ``already_checked`` (closed hands whose check had already run for their present events and
    entries, e.g. one by one as they closed), ``reconciled_now`` / ``discrepancy_now`` (checked by this
    run), ``reconciled`` / ``with_discrepancies`` (every hand of the day in that state after the run),
    ``ledger_findings`` and ``open_discrepancies`` (of the day, not yet resolved).
    """
    run, owned = gaming_day_claim(day=day, run_id=run_id)
    if not owned:
        return run
    parts = gaming_day_parts(day=day, chunk=chunk)
    if threads > 1 and len(parts) > 1 and not connection.in_atomic_block:
        with collector_paused():
            results = _parts_in_threads(day, parts, run.pk, threads)
    else:
        results = [gaming_day_part_check(day=day, part=part, run_id=run.pk) for part in parts]
    return gaming_day_finish(day=day, run_id=run.pk, parts=results)


def _parts_in_threads(day: dt.date, parts: Sequence[DayPart], run_id: int, threads: int) -> list[dict[str, Any]]:
    """Check ``parts`` with ``threads`` threads taking them in turn; the first error stops them and is raised."""
    return run_in_threads([functools.partial(gaming_day_part_check, day=day, part=part, run_id=run_id)
                           for part in parts], threads, name=f"reconcile-{day}")


def hand_range_reconcile(*, day: dt.date, after_id: int = 0, through_id: int | None = None,
                         limit: int | None = None) -> dict[str, int]:
    """Check the hands of gaming ``day`` with ids in ``(after_id, through_id]`` (at most ``limit``) as one
    batch in one transaction: each closed or void hand as :func:`hand_reconcile` does, each hand still
    open a ``hand_not_closed`` discrepancy. A part of the day run; the parts of one day are disjoint id
    ranges, so separate worker processes (or hosts) check them side by side.

    Returns the part's counts: ``hands``, ``open``, ``already_checked``, ``reconciled_now``,
    ``discrepancy_now`` and ``last_id`` (the highest id checked, 0 when the range is empty).
    """
    with transaction.atomic(), collector_paused():
        facts = hands_lock(day=day, after_id=after_id, through_id=through_id, limit=limit)
        open_hands = [f for f in facts if f.status == Hand.Status.OPEN]
        if open_hands:
            Discrepancy.objects.bulk_create([row for f in open_hands for row in _discrepancy_rows(f, [
                Finding("hand_not_closed", "status", "hand_not_closed", {"hand": f.number, "id": f.id, "day": day},
                        CLOSED_OR_VOID, OPEN)])], ignore_conflicts=True)
        result, _ = _check_locked_hands([f for f in facts if f.status != Hand.Status.OPEN])
    return {"hands": len(facts), "open": len(open_hands), "already_checked": result["skipped"],
            "reconciled_now": result["reconciled"], "discrepancy_now": result["discrepancy"],
            "last_id": facts[-1].id if facts else 0}


_HAND_COUNTS = ("hands", "open", "already_checked", "reconciled_now", "discrepancy_now")


def previous_gaming_day(now: dt.datetime | None = None) -> dt.date:
    """The gaming day that ended most recently before ``now`` (what the nightly beat run checks)."""
    return gaming_day_of(now or timezone.now()) - dt.timedelta(days=1)


def discrepancy_resolve(*, discrepancy: Discrepancy, actor, note: str) -> Discrepancy:
    """An accountant closes a discrepancy with a note (the ledger fix itself is a reversing entry).

    Raises ``ApplicationError`` without a note and ``ConflictError(code="invalid_transition")`` (409)
    when it is already resolved (the first note stays).
    """
    if not (note or "").strip():
        raise ApplicationError(gettext_noop("a note is required to resolve a discrepancy"), code="note_required")
    try:
        return status_transition(obj=discrepancy, to=Discrepancy.Status.RESOLVED, allowed=Discrepancy.ALLOWED,
                                 actor=actor, reason=note, noun="discrepancy",
                                 extra_updates={"resolved_by": actor, "resolution_note": note})
    except ApplicationError as exc:  # already resolved: the row's state conflicts with the request (409)
        if exc.code != "invalid_transition":
            raise
        raise ConflictError(exc.message, code=exc.code, extra=exc.extra) from None
