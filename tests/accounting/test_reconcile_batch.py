"""Reconciliation in batches (issue 19): many hands read, checked and written together, one transaction
a batch, with exactly the findings of the hand-by-hand check; a gaming day split into parts that
separate workers check side by side finds what one pass finds."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import random

import pytest
from django.db import connection

import accounting.services.reconciliation as reconciliation
from accounting.models import Discrepancy, ReconciliationRun
from accounting.services.reconciliation import (
    gaming_day_finish,
    gaming_day_part_check,
    gaming_day_parts,
    gaming_day_reconcile,
    hand_reconcile,
    hands_reconcile,
)
from accounting.services.reconciliation_sweep import reconciliation_sweep
from accounting.services.settlement import hand_settlement_post
from rules.registry import get_engine
from tables.models import Hand, HandEvent
from tests.accounting.helpers import make_hand, make_table
from tests.accounting.tamper import behind_the_service

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 6, 9)
IN_DAY = dt.datetime(2026, 6, 9, 17, 0, tzinfo=dt.UTC)


def _hands(per_game: int = 3) -> list[Hand]:
    rng = random.Random(19)
    hands = []
    for game in ("seven_card_stud", "forty_one", "capsa_susun"):
        table = make_table(game)
        hands += [make_hand(table, rng=rng, opened_at=IN_DAY + dt.timedelta(minutes=i)) for i in range(per_game)]
    return hands


def _skimmed_hand(table) -> Hand:
    """A Forty-one hand whose settlement entry paid the tax back to the first seat (a discrepancy)."""
    assert table.game == "forty_one"
    hand = make_hand(table, rng=random.Random(5), opened_at=IN_DAY, post=False)
    engine = get_engine("forty_one")
    events = list(hand.events.order_by("seq").values_list("payload", flat=True))
    stacks = {int(s): v["stack"] for s, v in hand.seats.items()}
    true = engine.settlement(engine.replay(engine.build_config(hand.limit_snapshot), stacks, events,
                                           button=hand.button_seat))
    assert true.tax > 0
    hand_settlement_post(hand=hand, settlement=dataclasses.replace(true, tax=0, returned={1: true.tax}))
    return hand


def _tamper_an_event(hand: Hand) -> None:
    """Change a stored event's payload behind the service's back (its digest no longer matches)."""
    event = HandEvent.objects.filter(hand=hand).order_by("seq").first()
    payload = dict(event.payload, note="changed")
    with behind_the_service() as cursor:
        cursor.execute("UPDATE tables_handevent SET payload = %s WHERE id = %s", [json.dumps(payload), event.id])


def _state() -> tuple:
    """Everything reconciliation writes, to compare two runs."""
    return (sorted(Hand.objects.values_list("id", "reconciliation")),
            sorted(Discrepancy.objects.values_list("check_key", "kind", "expected", "found", "hand_id")),
            sorted(ReconciliationRun.objects.filter(scope="hand").values_list("key", "status", "hand_id")))


def test_a_batch_flags_the_tampered_hand_and_the_discrepancy_and_reconciles_the_rest():
    hands = _hands()
    skimmed = _skimmed_hand(hands[3].table)
    tampered = hands[1]
    _tamper_an_event(tampered)
    ids = [h.id for h in Hand.objects.all()]

    counts = hands_reconcile(hand_ids=ids)

    assert counts == {"hands": len(ids), "checked": len(ids), "skipped": 0, "reconciled": len(ids) - 2,
                      "discrepancy": 2}
    states = dict(Hand.objects.values_list("id", "reconciliation"))
    assert states.pop(tampered.id) == states.pop(skimmed.id) == Hand.Reconciliation.DISCREPANCY
    assert set(states.values()) == {Hand.Reconciliation.RECONCILED}
    assert set(Discrepancy.objects.filter(hand=tampered).values_list("kind", flat=True)) == {"event_digest"}
    assert "tax" in set(Discrepancy.objects.filter(hand=skimmed).values_list("kind", flat=True))
    assert ReconciliationRun.objects.filter(scope="hand").count() == len(ids)


def test_a_batch_finds_exactly_what_the_hand_by_hand_check_finds():
    hands = _hands(per_game=2)
    _skimmed_hand(hands[2].table)
    _tamper_an_event(hands[0])
    ids = sorted(Hand.objects.values_list("id", flat=True))
    for hand_id in ids:
        hand_reconcile(hand_id=hand_id)
    one_by_one = _state()
    with behind_the_service() as cursor:  # forget the results: the hands are due again
        cursor.execute("DELETE FROM accounting_discrepancy")
        cursor.execute("DELETE FROM accounting_reconciliationrun")
        cursor.execute("UPDATE tables_hand SET reconciliation = 'awaiting'")

    hands_reconcile(hand_ids=ids)

    assert _state() == one_by_one


def test_a_second_run_of_the_batch_is_a_no_op():
    hands = _hands(per_game=2)
    _tamper_an_event(hands[0])
    ids = [h.id for h in hands]
    hands_reconcile(hand_ids=ids)
    before = _state()

    again = hands_reconcile(hand_ids=ids)

    assert again == {"hands": len(ids), "checked": 0, "skipped": len(ids), "reconciled": 0, "discrepancy": 0}
    assert _state() == before


def test_a_batch_that_fails_midway_writes_nothing_and_the_sweep_goes_on_hand_by_hand(monkeypatch):
    hands = _hands(per_game=2)
    _tamper_an_event(hands[0])
    broken = hands[3]
    real = reconciliation.hand_findings

    def failing(facts, events, legs):  # a fault in the middle of the batch (the worker's database gone, a bug)
        if facts.id == broken.id:
            raise RuntimeError("the check failed in the middle of the batch")
        return real(facts, events, legs)

    monkeypatch.setattr(reconciliation, "hand_findings", failing)
    with pytest.raises(RuntimeError):
        hands_reconcile(hand_ids=[h.id for h in hands])
    assert set(Hand.objects.values_list("reconciliation", flat=True)) == {Hand.Reconciliation.AWAITING}
    assert not Discrepancy.objects.exists() and not ReconciliationRun.objects.exists()

    result = reconciliation_sweep(older_than=dt.timedelta(0))

    assert result == {"due": len(hands), "reconciled": len(hands) - 1, "failed": 1}
    assert Hand.objects.get(id=broken.id).reconciliation == Hand.Reconciliation.AWAITING
    assert Hand.objects.get(id=hands[0].id).reconciliation == Hand.Reconciliation.DISCREPANCY
    assert Hand.objects.filter(reconciliation=Hand.Reconciliation.RECONCILED).count() == len(hands) - 2


def test_a_day_checked_in_parts_in_any_order_finds_what_one_pass_finds(monkeypatch):
    hands = _hands(per_game=3)
    _skimmed_hand(hands[4].table)
    _tamper_an_event(hands[0])
    open_hand = make_hand(hands[1].table, rng=random.Random(3), opened_at=IN_DAY, post=False)
    Hand.objects.filter(id=open_hand.id).update(status=Hand.Status.OPEN)
    with behind_the_service() as cursor:  # an entry's leg changed behind the service's back: the chain breaks
        cursor.execute("UPDATE accounting_posting SET player_ref = 'x' WHERE id = "
                       "(SELECT min(p.id) FROM accounting_posting p JOIN accounting_journalentry e "
                       "ON e.id = p.entry_id WHERE e.hand_id = %s)", [hands[5].id])
    one_pass = gaming_day_reconcile(day=DAY)
    expected = (_state(), one_pass.status, one_pass.summary)
    with behind_the_service() as cursor:
        cursor.execute("DELETE FROM accounting_discrepancy")
        cursor.execute("DELETE FROM accounting_reconciliationrun")
        cursor.execute("UPDATE tables_hand SET reconciliation = 'awaiting'")
    monkeypatch.setattr(reconciliation, "LEDGER_WINDOW", 3)

    parts = gaming_day_parts(day=DAY, chunk=2)
    assert len([p for p in parts if p.kind == "hands"]) == (Hand.objects.filter(gaming_day=DAY).count() + 1) // 2
    assert len([p for p in parts if p.kind == "ledger"]) > 1
    run = ReconciliationRun.objects.create(key="day:parts", scope="day", gaming_day=DAY)
    results = [gaming_day_part_check(day=DAY, part=part, run_id=run.pk) for part in reversed(parts)]
    finished = gaming_day_finish(day=DAY, run_id=run.pk, parts=results)

    assert (_state(), finished.status, finished.summary) == expected
    kinds = set(Discrepancy.objects.values_list("kind", flat=True))
    assert {"event_digest", "tax", "hand_not_closed", "entry_digest"} <= kinds


def test_a_failed_part_marks_the_day_run_failed_and_the_next_run_takes_the_day_over(monkeypatch):
    _hands(per_game=1)
    run = ReconciliationRun.objects.create(key="day:failing", scope="day", gaming_day=DAY)

    def failing(facts, events, legs):
        raise RuntimeError("the worker lost its database")

    monkeypatch.setattr(reconciliation, "hand_findings", failing)
    part = gaming_day_parts(day=DAY)[0]
    with pytest.raises(RuntimeError):
        gaming_day_part_check(day=DAY, part=part, run_id=run.pk)
    run.refresh_from_db()
    assert run.status == ReconciliationRun.Status.FAILED
    assert not ReconciliationRun.objects.filter(scope="hand").exists()
    monkeypatch.undo()

    again = gaming_day_reconcile(day=DAY)

    assert again.status == ReconciliationRun.Status.OK and again.summary["reconciled_now"] == 3


@pytest.mark.skipif(connection.vendor != "postgresql", reason="threads with connections of their own writing at once: "
                    "SQLite locks its whole database")
@pytest.mark.django_db(transaction=True)
def test_the_day_run_in_two_threads_finds_what_one_thread_finds():
    hands = _hands(per_game=3)
    _skimmed_hand(hands[4].table)
    _tamper_an_event(hands[0])
    one_thread = gaming_day_reconcile(day=DAY, chunk=2, threads=1)
    expected = (_state(), one_thread.status, one_thread.summary)
    with behind_the_service() as cursor:
        cursor.execute("DELETE FROM accounting_discrepancy")
        cursor.execute("DELETE FROM accounting_reconciliationrun")
        cursor.execute("UPDATE tables_hand SET reconciliation = 'awaiting'")

    two_threads = gaming_day_reconcile(day=DAY, chunk=2, threads=2)

    assert (_state(), two_threads.status, two_threads.summary) == expected
    assert two_threads.summary["discrepancy_now"] == 2


@pytest.mark.skipif(connection.vendor != "postgresql", reason="parts and row versions (xmin) are PostgreSQL's")
@pytest.mark.django_db(transaction=True)
def test_the_day_fingerprint_hashed_in_parts_by_two_connections_is_the_one_of_one_connection(monkeypatch):
    """The day is hashed in parts (hand ranges with their events, entry windows with their legs) side by
    side; however many threads, the same fingerprint, and a change in any part changes it."""
    from accounting.services import tamper

    monkeypatch.setattr(tamper, "FINGERPRINT_HANDS", 2)
    monkeypatch.setattr(tamper, "FINGERPRINT_ENTRIES", 3)
    hands = _hands(per_game=3)
    one = tamper.day_content_fingerprint(DAY, threads=1)
    assert tamper.day_content_fingerprint(DAY, threads=2) == one
    with behind_the_service() as cursor:  # a leg in the last ledger window, then an event of the last hands
        cursor.execute("UPDATE accounting_posting SET seat = seat WHERE id = (SELECT max(id) FROM accounting_posting)")
    changed = tamper.day_content_fingerprint(DAY, threads=2)
    assert changed != one
    _tamper_an_event(hands[-1])
    assert tamper.day_content_fingerprint(DAY, threads=2) not in (one, changed)
    assert tamper.day_content_fingerprint(DAY, threads=1) == tamper.day_content_fingerprint(DAY, threads=2)


def test_jobs_in_threads_keep_their_order_and_hand_back_the_first_error():
    from accounting.services.parallel import run_in_threads

    assert run_in_threads([lambda i=i: i * i for i in range(7)], 3) == [i * i for i in range(7)]

    def fails():
        raise ValueError("part 3 failed")

    with pytest.raises(ValueError, match="part 3 failed"):
        run_in_threads([lambda: 1, fails, lambda: 2], 2)
