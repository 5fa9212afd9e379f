"""Reconciliation: every closed hand checked again by replay, every gaming day checked as a whole.

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

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, IntegerField, Q, Sum
from django.db.models.functions import Cast, Round
from django.utils import timezone

from accounting.models import Discrepancy, JournalEntry, Posting, ReconciliationRun
from accounting.services.settlement import settlement_moves_money
from accounting.services.tamper import (
    day_content_fingerprint,
    event_rows_by_hand,
    hand_content_key,
    hand_digest_findings,
    ledger_chain_findings,
)
from casino.errors import ApplicationError, ConflictError
from casino.gaming_day import gaming_day_of
from casino.i18n import gettext_noop
from casino.status import status_transition
from rules.engines.base import Settlement
from rules.engines.errors import RuleViolation
from rules.engines.money import format_cents
from rules.replay import replay_settlement as rules_replay_settlement
from tables.models import Hand

#: Entry kinds whose legs make up a closed hand's money result (a reversal cancels an entry it reverses).
SETTLEMENT_KINDS = (JournalEntry.Kind.HAND_SETTLEMENT, JournalEntry.Kind.REVERSAL, JournalEntry.Kind.ADJUSTMENT)
#: Hands per transaction in the gaming-day run (memory and lock time bounded).
DAY_CHUNK = 2000
#: Roles a leg on a players account may carry (ledger convention).
PLAYER_ROLES = ("contribution", "award", "returned", "fee", "bonus")
HALF_CENT = Decimal("0.005")


@dataclass(frozen=True)
class Leg:
    """One posted leg as the check sees it: ``cents`` signed (into the account > 0)."""

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
        return self.account_code.rsplit(":", 1)[-1]


@dataclass(frozen=True)
class Finding:
    """One difference: ``kind`` (award, tax, missing_entry...), readable ``what``, both sides as text."""

    kind: str
    subject: str
    what: str
    expected: str = ""
    found: str = ""


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


# --------------------------------------------------------------------------------------------- pure check


def replay_settlement(facts: HandFacts, events: Sequence[Mapping[str, Any]]) -> Settlement:
    """Replay ``events`` with the hand's frozen config through the one replay the hand service uses too
    (:func:`rules.replay.replay_settlement`); return the Settlement.

    Raises ``RuleViolation`` (including ``ConfigError``) when the events or the snapshot do not replay,
    and ``ValueError`` when the replayed hand is not complete.
    """
    return rules_replay_settlement(game=facts.game, snapshot=facts.limit_snapshot, seats=facts.seats,
                                   button=facts.button_seat, events=events)


def _fmt(cents: int | None) -> str:
    return "none" if cents is None else format_cents(cents)


def _compare(findings: list[Finding], kind: str, subject: str, what: str, expected: int, found: int) -> None:
    if expected != found:
        findings.append(Finding(kind, subject, what, _fmt(expected), _fmt(found)))


def settlement_findings(facts: HandFacts, settlement: Settlement, legs: Sequence[Leg]) -> list[Finding]:
    """Compare a replayed Settlement with a hand's posted legs; return the differences (empty = clean).

    Compared (cents): per seat the contribution, the award (and per pot when the ledger carries the
    pot index), the returned bet, the Capsa fee and the Forty-one bonus on the players account; the
    Taxe/tax on the tax account, the fees on the fee account, the bonus on ``house:bonus_expense``; the
    table's pot account must net to zero for the hand; every entry must balance; no leg may sit on
    another table's account or carry a role outside the convention.
    """
    findings: list[Finding] = []
    by_entry: dict[int, int] = defaultdict(int)
    players: dict[tuple[str, int | None], int] = defaultdict(int)
    awards_by_pot: dict[int, int] = defaultdict(int)
    totals: dict[str, int] = defaultdict(int)
    pot_indexed = False
    for leg in legs:
        by_entry[leg.entry_id] += leg.cents
        purpose = leg.purpose
        totals[purpose] += leg.cents
        if leg.account_table_id is not None and leg.account_table_id != facts.table_id:
            findings.append(Finding("foreign_account", f"entry{leg.entry_id}:{leg.account_code}",
                                    f"hand #{facts.number} posts to {leg.account_code} of another table",
                                    f"an account of table {facts.table_id}", leg.account_code))
        if purpose == "players":
            if leg.role not in PLAYER_ROLES:
                findings.append(Finding("unexpected_leg", f"entry{leg.entry_id}:{leg.role}:{leg.seat}",
                                        f"hand #{facts.number}: a players leg with role {leg.role!r}",
                                        "no such leg", _fmt(leg.cents)))
                continue
            players[(leg.role, leg.seat)] += leg.cents
            if leg.role == "award" and leg.pot_index is not None:
                pot_indexed = True
                awards_by_pot[leg.pot_index] += leg.cents
    if not findings and _clean_fast(settlement, players, awards_by_pot if pot_indexed else None, totals, by_entry):
        return findings
    for entry_id, total in sorted(by_entry.items()):
        _compare(findings, "unbalanced_entry", f"entry{entry_id}", f"entry {entry_id} of hand #{facts.number} "
                 "does not balance (legs must sum to zero)", 0, total)

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
            _compare(findings, role, f"seat{seat}", f"hand #{facts.number} seat {seat}: {role} on the players account",
                     expected, found)
        if players.get((role, None)):
            findings.append(Finding("unexpected_leg", f"{role}:noseat", f"hand #{facts.number}: a {role} leg "
                                    "without a seat", "none", _fmt(players[(role, None)])))
    if pot_indexed and settlement.pot_awards:
        expected_pots: dict[int, int] = defaultdict(int)
        for pot_index, _seat, cents in settlement.pot_awards:
            expected_pots[pot_index] += cents
        for pot_index in sorted(set(expected_pots) | set(awards_by_pot)):
            _compare(findings, "pot", f"pot{pot_index}", f"hand #{facts.number}: awarded from pot {pot_index}",
                     expected_pots.get(pot_index, 0), awards_by_pot.get(pot_index, 0))
    _compare(findings, "tax", "tax", f"hand #{facts.number}: Taxe/tax posted to the tax account",
             settlement.tax, totals.get("tax", 0))
    _compare(findings, "fee", "fee", f"hand #{facts.number}: house fee posted to the fee account",
             sum(settlement.fees.values()), totals.get("fee", 0))
    _compare(findings, "bonus", "bonus", f"hand #{facts.number}: 41 bonus charged to house:bonus_expense",
             -sum(settlement.bonus.values()), totals.get("bonus_expense", 0))
    _compare(findings, "pot_not_cleared", "pot", f"hand #{facts.number}: the table's pot account nets to zero",
             0, totals.get("pot", 0))
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
            _compare(findings, f"void_{purpose}", purpose, f"void hand #{facts.number}: {purpose} must net to zero",
                     0, totals.get(purpose, 0))
        return findings
    try:
        settlement = replay_settlement(facts, events)
    except (RuleViolation, ValueError, KeyError, TypeError) as exc:
        return [Finding("replay_failed", "replay", f"hand #{facts.number}: the stored events do not replay",
                        "a complete hand", str(exc)[:250])]
    if not any(leg.entry_kind == JournalEntry.Kind.HAND_SETTLEMENT for leg in legs):
        if not settlement_moves_money(settlement):
            return []  # nothing changed hands: hand_settlement_post rightly posted no entry
        return [Finding("missing_entry", "settlement", f"closed hand #{facts.number} has no settlement entry",
                        f"entry hand:{facts.id}:settlement", "none")]
    return settlement_findings(facts, settlement, legs)


# --------------------------------------------------------------------------------------------- loading


def _facts(hand: Hand) -> HandFacts:
    return HandFacts(id=hand.id, table_id=hand.table_id, number=hand.number, game=hand.game, status=hand.status,
                     button_seat=hand.button_seat, limit_snapshot=hand.limit_snapshot, seats=hand.seats,
                     gaming_day=hand.gaming_day, event_count=hand.event_count, opened_at=hand.opened_at,
                     digest=hand.digest)


_FACT_FIELDS = ("id", "table_id", "number", "game", "status", "button_seat", "limit_snapshot", "seats", "gaming_day",
                "event_count", "opened_at", "digest")


def _legs_by_hand(hand_ids: Iterable[int]) -> dict[int, list[Leg]]:
    out: dict[int, list[Leg]] = defaultdict(list)
    rows = (Posting.objects.filter(entry__hand_id__in=list(hand_ids))
            .annotate(cents=Cast(Round(F("amount") * 100), IntegerField()))
            .values_list("entry__hand_id", "entry_id", "entry__kind", "account__code", "account__table_id", "cents",
                         "role", "seat", "pot_index"))
    for hand_id, entry_id, kind, code, table_id, cents, role, seat, pot_index in rows:
        out[hand_id].append(Leg(entry_id, kind, code, table_id, cents, role, seat, pot_index))
    return out


def hand_run_key(facts: HandFacts, content: str) -> str:
    """The run key of a hand: ``content`` is :func:`~accounting.services.tamper.hand_content_key` of what
    the check reads."""
    return f"hand:{facts.id}:c{content}"


def _discrepancies_write(facts: HandFacts, findings: Sequence[Finding]) -> None:
    rows = [Discrepancy(check_key=f"hand:{facts.id}:{f.kind}:{f.subject}"[:160], kind=f.kind, what=f.what[:255],
                        expected=f.expected[:255], found=f.found[:255], hand_id=facts.id, table_id=facts.table_id,
                        gaming_day=facts.gaming_day) for f in findings]
    if rows:
        Discrepancy.objects.bulk_create(rows, ignore_conflicts=True)


def _check_locked_hands(hands: Sequence[HandFacts]) -> tuple[dict[str, int], dict[int, str]]:
    """Check hands already locked by the caller's transaction; skip versions already run.

    Returns the counts and each hand's run key. The check is the replay (:func:`hand_findings`) plus
    the hand's digest chain (:func:`~accounting.services.tamper.hand_digest_findings`).
    """
    ids = [h.id for h in hands]
    rows, hashes = event_rows_by_hand(ids)
    legs = _legs_by_hand(ids)
    keys = {h.id: hand_run_key(h, hand_content_key(h, hashes.get(h.id, ""), legs.get(h.id, ()))) for h in hands}
    done = set(ReconciliationRun.objects.filter(key__in=list(keys.values())).values_list("key", flat=True))
    todo = [h for h in hands if keys[h.id] not in done]
    counts = {"checked": 0, "skipped": len(hands) - len(todo), "reconciled": 0, "discrepancy": 0}
    if not todo:
        return counts, keys
    now = timezone.now()
    runs, clean, dirty, findings_all = [], [], [], []
    for facts in todo:
        hand_rows = rows.get(facts.id, ())
        findings = [Finding(*f) for f in hand_digest_findings(facts, hand_rows)]
        findings += hand_findings(facts, [row[1] for row in hand_rows], legs.get(facts.id, ()))
        status = ReconciliationRun.Status.DISCREPANCY if findings else ReconciliationRun.Status.OK
        (dirty if findings else clean).append(facts.id)
        findings_all.append((facts, findings))
        runs.append(ReconciliationRun(key=keys[facts.id], scope="hand", hand_id=facts.id, gaming_day=facts.gaming_day,
                                      status=status, finished_at=now,
                                      summary={"findings": [f.kind for f in findings]}))
    for facts, findings in findings_all:
        _discrepancies_write(facts, findings)
    ReconciliationRun.objects.bulk_create(runs, ignore_conflicts=True)
    if clean:
        Hand.objects.filter(id__in=clean).update(reconciliation=Hand.Reconciliation.RECONCILED)
    if dirty:
        Hand.objects.filter(id__in=dirty).update(reconciliation=Hand.Reconciliation.DISCREPANCY)
    counts.update(checked=len(todo), reconciled=len(clean), discrepancy=len(dirty))
    return counts, keys


# --------------------------------------------------------------------------------------------- services


def hand_reconcile(*, hand_id: int) -> ReconciliationRun | None:
    """Reconcile one closed or void hand; return its run (None for a hand still open).

    Locks the hand row, so a concurrent run of the same hand waits and then finds this run's result.
    Sets ``Hand.reconciliation`` to ``reconciled`` or ``discrepancy`` and writes one
    :class:`Discrepancy` per difference (never twice). Raises ``Hand.DoesNotExist`` for an unknown id.
    """
    with transaction.atomic():
        hand = Hand.objects.select_for_update().get(id=hand_id)
        if hand.status == Hand.Status.OPEN:
            return None
        facts = _facts(hand)
        _, keys = _check_locked_hands([facts])
        return ReconciliationRun.objects.get(key=keys[facts.id])


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


def _day_ledger_findings(day: dt.date) -> list[tuple[str, Finding, int | None]]:
    """Ledger checks of a day: every entry balanced, each table's pot account at zero."""
    out: list[tuple[str, Finding, int | None]] = []
    nonzero = Q(total__gte=HALF_CENT) | Q(total__lte=-HALF_CENT)  # SQLite sums decimals as floats
    unbalanced = (Posting.objects.filter(entry__gaming_day=day).values("entry_id").annotate(total=Sum("amount"))
                  .filter(nonzero).values_list("entry_id", "total"))
    for entry_id, total in unbalanced:
        out.append((f"entry:{entry_id}:unbalanced", Finding("unbalanced_entry", f"entry{entry_id}",
                    f"journal entry {entry_id} does not balance", "0.00", f"{Decimal(str(total)):.2f}"), None))
    pots = (Posting.objects.filter(entry__gaming_day=day, account__code__endswith=":pot")
            .values("account__code", "account__table_id").annotate(total=Sum("amount")).filter(nonzero)
            .values_list("account__code", "account__table_id", "total"))
    for code, table_id, total in pots:
        out.append((f"day:{day.isoformat()}:{code}", Finding("pot_not_zero", code,
                    f"{code} does not net to zero for gaming day {day.isoformat()}", "0.00", f"{Decimal(str(total)):.2f}"),
                    table_id))
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


def gaming_day_reconcile(*, day: dt.date, chunk: int = DAY_CHUNK, run_id: int | None = None) -> ReconciliationRun:
    """Reconcile a whole gaming day; return its run (an existing one if this version was already done).

    Checks: every hand of the day closed (an open hand is a ``hand_not_closed`` discrepancy), every
    closed or void hand reconciled (checked here in bulk if its per-hand run has not happened), every
    entry of the day balanced and each table's pot account at zero. With ``run_id`` (a run claimed by
    :func:`gaming_day_reconcile_request`) that run is taken, once: a second delivery finds it taken.

    ``run.summary`` counts: ``hands`` of the day, ``open`` (still open: a discrepancy each),
    ``already_checked`` (closed hands whose check had already run for their present events and
    entries, e.g. one by one as they closed), ``reconciled_now`` / ``discrepancy_now`` (checked by this
    run), ``reconciled`` / ``with_discrepancies`` (every hand of the day in that state after the run),
    ``ledger_findings`` and ``open_discrepancies`` (of the day, not yet resolved).
    """
    if run_id is not None:
        won = ReconciliationRun.objects.filter(pk=run_id, status=ReconciliationRun.Status.RUNNING,
                                               summary__queued=True).update(summary={}, started_at=timezone.now())
        run = ReconciliationRun.objects.get(pk=run_id)
        if not won:
            return run
    else:
        key = f"day:{day.isoformat()}:{_day_fingerprint(day)}"
        run, owned = _run_claim(key=key, scope="day", day=day)
        if not owned:
            return run
    try:
        counts = _day_hands_check(day, chunk)
        with transaction.atomic():
            ledger = _day_ledger_findings(day)
            if ledger:
                Discrepancy.objects.bulk_create([
                    Discrepancy(check_key=check_key[:160], kind=f.kind, what=f.what, expected=f.expected,
                                found=f.found, table_id=table_id, gaming_day=day)
                    for check_key, f, table_id in ledger], ignore_conflicts=True)
            chain = ledger_chain_findings(day)
            if chain:
                Discrepancy.objects.bulk_create([
                    Discrepancy(check_key=f"entry:{entry['id']}:{kind}"[:160], kind=kind, what=what[:255],
                                expected=expected, found=found, hand_id=entry["hand_id"], table_id=entry["table_id"],
                                gaming_day=entry["gaming_day"])
                    for kind, _subject, what, expected, found, entry in chain], ignore_conflicts=True)
            day_hands = Hand.objects.filter(gaming_day=day)
            counts["reconciled"] = day_hands.filter(reconciliation=Hand.Reconciliation.RECONCILED).count()
            counts["with_discrepancies"] = day_hands.filter(reconciliation=Hand.Reconciliation.DISCREPANCY).count()
            counts["ledger_findings"] = len(ledger) + len(chain)
            counts["open_discrepancies"] = Discrepancy.objects.filter(
                gaming_day=day, status=Discrepancy.Status.OPEN).count()
            bad = (counts["open"] or ledger or chain or counts["discrepancy_now"]
                   or counts["with_discrepancies"])
            ReconciliationRun.objects.filter(pk=run.pk).update(
                status=ReconciliationRun.Status.DISCREPANCY if bad else ReconciliationRun.Status.OK,
                finished_at=timezone.now(), summary=counts)
    except Exception:
        ReconciliationRun.objects.filter(pk=run.pk).update(status=ReconciliationRun.Status.FAILED,
                                                          finished_at=timezone.now())
        raise
    run.refresh_from_db()
    return run


def _day_hands_check(day: dt.date, chunk: int) -> dict[str, int]:
    """Check the hands of ``day`` in chunks of locked rows; return the hand counts of the run's summary."""
    counts = {"hands": 0, "open": 0, "already_checked": 0, "reconciled_now": 0, "discrepancy_now": 0}
    last_id = 0
    while True:
        with transaction.atomic():
            hands = list(Hand.objects.select_for_update().filter(gaming_day=day, id__gt=last_id)
                         .order_by("id").values_list(*_FACT_FIELDS)[:chunk])
            if not hands:
                return counts
            facts = [HandFacts(*row) for row in hands]
            last_id = facts[-1].id
            open_hands = [f for f in facts if f.status == Hand.Status.OPEN]
            for f in open_hands:
                _discrepancies_write(f, [Finding("hand_not_closed", "status",
                                                 f"hand #{f.number} (id {f.id}) of gaming day {day} is still open",
                                                 "closed or void", "open")])
            result, _ = _check_locked_hands([f for f in facts if f.status != Hand.Status.OPEN])
            counts["hands"] += len(facts)
            counts["open"] += len(open_hands)
            counts["already_checked"] += result["skipped"]
            counts["reconciled_now"] += result["reconciled"]
            counts["discrepancy_now"] += result["discrepancy"]


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
