"""Gaming-day reconciliation (Celery beat): every hand closed and reconciled, the ledger balanced,
each table's pot account at zero; the run is keyed by what it checks and runs once."""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from decimal import Decimal

import pytest
from celery.schedules import crontab
from django.test import override_settings

from accounting.models import Discrepancy, JournalEntry, ReconciliationRun
from accounting.schedule import accounting_beat_schedule
from accounting.services.ledger import LedgerLine, account_for_table, journal_entry_post
from accounting.services.reconciliation import gaming_day_reconcile, previous_gaming_day
from accounting.services.settlement import hand_settlement_post
from accounting.tasks import reconcile_gaming_day
from rules.engines.registry import get_engine
from tables.models import Hand
from tests.accounting.helpers import make_hand, make_table

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 3, 28)  # the 23-hour gaming day of the spring clock change
IN_DAY = dt.datetime(2026, 3, 28, 23, 0, tzinfo=dt.UTC)


def _day_of_hands(per_game: int = 4):
    rng = random.Random(2026)
    hands = []
    for game in ("seven_card_stud", "forty_one", "capsa_susun"):
        table = make_table(game)
        hands += [make_hand(table, rng=rng, opened_at=IN_DAY + dt.timedelta(minutes=i)) for i in range(per_game)]
    return hands


def test_a_clean_day_reconciles_every_hand_in_bulk():
    hands = _day_of_hands()
    run = gaming_day_reconcile(day=DAY)
    assert run.status == ReconciliationRun.Status.OK
    assert run.summary["hands"] == len(hands) and run.summary["reconciled_now"] == len(hands)
    assert set(Hand.objects.values_list("reconciliation", flat=True)) == {Hand.Reconciliation.RECONCILED}
    assert ReconciliationRun.objects.filter(scope="hand").count() == len(hands)
    assert not Discrepancy.objects.exists()


def test_the_day_run_flags_an_open_hand_a_tampered_hand_and_a_pot_account_not_at_zero():
    hands = _day_of_hands(per_game=2)
    open_hand = make_hand(hands[0].table, rng=random.Random(1), opened_at=IN_DAY, post=False)
    Hand.objects.filter(id=open_hand.id).update(status=Hand.Status.OPEN)
    # A forty-one hand whose tax was not posted (given back to the first seat instead).
    table = hands[2].table
    tampered = make_hand(table, rng=random.Random(5), opened_at=IN_DAY, post=False)
    engine = get_engine("forty_one")
    config = engine.build_config(tampered.limit_snapshot)
    events = list(tampered.events.order_by("seq").values_list("payload", flat=True))
    true = engine.settlement(engine.replay(config, {1: 20000, 2: 20000, 3: 20000}, events, button=1))
    assert true.tax > 0
    hand_settlement_post(hand=tampered, settlement=dataclasses.replace(true, tax=0, returned={1: true.tax}))
    # A stray adjustment leaves 3.00 in a table's pot account.
    pot, players = account_for_table(table, "pot"), account_for_table(table, "players")
    journal_entry_post(lines=[LedgerLine(pot, Decimal("3.00")), LedgerLine(players, Decimal("-3.00"))],
                       idempotency_key="stray", gaming_day=DAY)

    run = gaming_day_reconcile(day=DAY)

    assert run.status == ReconciliationRun.Status.DISCREPANCY
    kinds = set(Discrepancy.objects.values_list("kind", flat=True))
    assert {"hand_not_closed", "tax", "pot_not_zero"} <= kinds
    assert Discrepancy.objects.get(kind="hand_not_closed").hand_id == open_hand.id
    pot_row = Discrepancy.objects.get(kind="pot_not_zero")
    assert (pot_row.found, pot_row.table_id) == ("3.00", table.id)
    assert run.summary["open"] == 1 and run.summary["discrepancy_now"] == 1


def test_running_the_day_twice_gives_one_run_and_a_changed_day_a_new_one():
    _day_of_hands(per_game=1)
    first = gaming_day_reconcile(day=DAY)
    count = Discrepancy.objects.count()
    assert reconcile_gaming_day.apply(args=(DAY.isoformat(),)).get()["key"] == first.key
    assert ReconciliationRun.objects.filter(scope="day").count() == 1
    assert Discrepancy.objects.count() == count
    make_hand(make_table("forty_one"), rng=random.Random(9), opened_at=IN_DAY)
    second = gaming_day_reconcile(day=DAY)
    assert second.key != first.key
    assert second.summary["already_checked"] == 3 and second.summary["reconciled_now"] == 1


def test_a_failed_run_is_taken_over_by_the_next_one():
    _day_of_hands(per_game=1)
    run = gaming_day_reconcile(day=DAY)
    ReconciliationRun.objects.filter(pk=run.pk).update(status=ReconciliationRun.Status.FAILED)
    again = gaming_day_reconcile(day=DAY)
    assert again.pk == run.pk and again.status == ReconciliationRun.Status.OK


def test_hands_of_other_gaming_days_are_not_touched():
    _day_of_hands(per_game=1)
    other = make_hand(make_table("capsa_susun"), rng=random.Random(3), opened_at=IN_DAY + dt.timedelta(hours=6))
    assert other.gaming_day == DAY + dt.timedelta(days=1)
    gaming_day_reconcile(day=DAY)
    assert Hand.objects.get(id=other.id).reconciliation == Hand.Reconciliation.AWAITING


def test_the_beat_schedule_reconciles_the_previous_gaming_day_half_an_hour_after_it_ends():
    schedule = accounting_beat_schedule("06:00")
    entry = schedule["accounting.reconcile-previous-gaming-day"]
    assert entry["task"] == reconcile_gaming_day.name == "accounting.reconcile_gaming_day"
    assert entry["schedule"] == crontab(hour=6, minute=30)
    assert accounting_beat_schedule("23:45")["accounting.reconcile-previous-gaming-day"]["schedule"] == crontab(
        hour=0, minute=15)
    assert previous_gaming_day(dt.datetime(2026, 3, 29, 4, 30, tzinfo=dt.UTC)) == DAY  # 06:30 CEST


@override_settings(GAMING_DAY_START="06:00")
def test_the_scheduled_task_without_a_date_checks_the_previous_gaming_day(monkeypatch):
    import accounting.services.reconciliation as reconciliation

    monkeypatch.setattr(reconciliation, "previous_gaming_day", lambda now=None: DAY)
    _day_of_hands(per_game=1)
    result = reconcile_gaming_day.apply().get()
    assert result["day"] == DAY.isoformat() and result["status"] == ReconciliationRun.Status.OK


def test_void_hands_with_their_refund_entry_reconcile():
    table = make_table("seven_card_stud")
    hand = make_hand(table, rng=random.Random(4), opened_at=IN_DAY, post=False)
    Hand.objects.filter(id=hand.id).update(status=Hand.Status.VOID)
    from accounting.services.settlement import hand_void_post

    hand_void_post(hand=hand, contributions={1: 100, 2: 100, 3: 100}, reason="misdeal")
    run = gaming_day_reconcile(day=DAY)
    assert run.status == ReconciliationRun.Status.OK
    assert JournalEntry.objects.get(hand=hand).kind == JournalEntry.Kind.HAND_VOID


def test_the_ledger_windows_sums_add_up_to_the_days_ledger_findings(monkeypatch):
    """Each ledger part sums its window's entries (from the rows its chain check reads); the finish adds
    them up: the same findings as summing the day's legs in one query."""
    import accounting.services.reconciliation as reconciliation
    from accounting.models import Posting
    from tests.accounting.tamper import behind_the_service

    hands = _day_of_hands(per_game=2)
    table = hands[0].table
    pot, players = account_for_table(table, "pot"), account_for_table(table, "players")
    journal_entry_post(lines=[LedgerLine(pot, Decimal("3.00")), LedgerLine(players, Decimal("-3.00"))],
                       idempotency_key="stray", gaming_day=DAY)
    entry = JournalEntry.objects.filter(hand=hands[3]).first()
    with behind_the_service() as cursor:  # a leg of 0.01 more on one entry: it no longer balances
        cursor.execute("INSERT INTO accounting_posting (entry_id, account_id, amount, role, player_ref) "
                       "VALUES (%s, %s, 0.01, '', '')", [entry.id, players.id])
    assert Posting.objects.filter(entry=entry).count() > 2
    monkeypatch.setattr(reconciliation, "LEDGER_WINDOW", 2)
    parts = [part for part in reconciliation.gaming_day_parts(day=DAY) if part.kind == "ledger"]
    assert len(parts) > 2
    sums = [reconciliation.gaming_day_part_check(day=DAY, part=part)["ledger_sums"] for part in parts]

    expected = reconciliation._day_ledger_findings(DAY)
    assert sorted(reconciliation._ledger_sums_findings(DAY, sums)) == sorted(expected)
    assert {f.kind for _key, f, _table in expected} == {"unbalanced_entry", "pot_not_zero"}
    assert (f"entry:{entry.id}:unbalanced", "0.01") in {(key, f.found) for key, f, _table in expected}
