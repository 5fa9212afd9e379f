"""Logging does not depend on the broker (issue 20): with Redis down, closing a hand answers success,
the hand is recorded as due for reconciliation in its own transaction, and the sweep reconciles it."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from accounting.models import JournalEntry, ReconciliationRun
from accounting.schedule import accounting_beat_schedule
from accounting.services.reconciliation_sweep import reconciliation_due_hands, reconciliation_sweep
from accounting.tasks import reconcile_publish_wait
from tables.models import Hand
from tests.faults.support import celery_app_on
from tests.tables.hands_support import Terminal, croupier_on_duty, floor_manager, table_make
from tests.tables.test_hands_lifecycle import STACKS, WON_ON_THIRD

pytestmark = pytest.mark.django_db(transaction=True)


def _play_hand(terminal: Terminal, table) -> tuple[int, object]:
    opened = terminal.open(table, STACKS)
    assert opened.status_code == 201, opened.json()
    hand_id = opened.json()["id"]
    return hand_id, terminal.play(hand_id, WON_ON_THIRD)


def test_hand_closed_while_the_broker_is_down_answers_success_and_the_sweep_reconciles_it(api_client, private_redis):
    table = table_make(game="seven_card_stud")
    terminal = Terminal(api_client, croupier_on_duty(table))
    with celery_app_on(private_redis.url):
        first_id, _ = _play_hand(terminal, table)
        assert reconcile_publish_wait()  # published by this process's background thread, after the answer
        assert private_redis.client().llen("celery") == 1  # broker up: the close enqueued its reconciliation
        private_redis.stop()
        hand_id, last = _play_hand(terminal, table)
    assert last.status_code == 201 and last.json()["state"]["status"] == "closed"
    hand = Hand.objects.get(pk=hand_id)
    assert hand.status == Hand.Status.CLOSED and hand.reconciliation == Hand.Reconciliation.AWAITING
    assert JournalEntry.objects.filter(hand_id=hand_id).count() == 1
    # Nobody reconciled either hand (the first one's task waits in the stopped broker): the sweep takes both.
    assert set(reconciliation_due_hands(older_than=dt.timedelta(0))) == {first_id, hand_id}
    assert reconciliation_sweep(older_than=dt.timedelta(0)) == {"due": 2, "reconciled": 2, "failed": 0}
    assert set(Hand.objects.values_list("reconciliation", flat=True)) == {Hand.Reconciliation.RECONCILED}
    assert ReconciliationRun.objects.filter(scope="hand", hand_id=hand_id).count() == 1
    assert reconciliation_sweep(older_than=dt.timedelta(0))["due"] == 0


def test_voided_hand_is_due_in_its_own_transaction_even_without_a_broker(api_client, private_redis):
    table = table_make(game="seven_card_stud")
    terminal = Terminal(api_client, croupier_on_duty(table))
    hand_id = terminal.open(table, STACKS).json()["id"]
    terminal.play(hand_id, WON_ON_THIRD[:3])
    api_client.force_authenticate(floor_manager())
    private_redis.stop()
    with celery_app_on(private_redis.url):
        voided = api_client.post(f"/api/v1/hands/{hand_id}/void/", {"reason": "misdeal: card exposed"}, format="json")
    assert voided.status_code == 200, voided.json()
    assert Hand.objects.get(pk=hand_id).reconciliation == Hand.Reconciliation.AWAITING
    reconciliation_sweep(older_than=dt.timedelta(0))
    assert Hand.objects.get(pk=hand_id).reconciliation == Hand.Reconciliation.RECONCILED


def test_sweep_leaves_hands_due_for_less_than_its_delay_and_open_hands_alone(api_client, settings):
    settings.RECONCILE_SWEEP_AFTER = 60
    table = table_make(game="seven_card_stud")
    terminal = Terminal(api_client, croupier_on_duty(table))
    hand_id, _ = _play_hand(terminal, table)
    Hand.objects.filter(pk=hand_id).update(reconciliation=Hand.Reconciliation.AWAITING, closed_at=timezone.now())
    open_id = terminal.open(table, STACKS).json()["id"]
    assert reconciliation_sweep() == {"due": 0, "reconciled": 0, "failed": 0}
    Hand.objects.filter(pk=hand_id).update(closed_at=timezone.now() - dt.timedelta(seconds=61))
    assert reconciliation_sweep() == {"due": 1, "reconciled": 1, "failed": 0}
    assert Hand.objects.get(pk=open_id).reconciliation == Hand.Reconciliation.NOT_DUE


def test_beat_runs_the_sweep_every_interval():
    entry = accounting_beat_schedule("06:00", sweep_seconds=30)["accounting.reconcile-sweep"]
    assert entry["task"] == "accounting.reconcile_sweep" and entry["schedule"] == 30.0
