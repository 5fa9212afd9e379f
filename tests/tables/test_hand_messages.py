"""Messages that tell a croupier what happened (issue 13): a stale ``expected_seq`` says what the hand has,
what the terminal expected and who logged in between; errors name a hand by its number and its id."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tables.models import Dealer, DealerAssignment, Hand
from tests.tables.hands_support import Terminal, croupier_on_duty, table_make, user_in
from tests.tables.test_hands_bad_input import CLOSED, STUD_TO_BRING_IN, _stud_hand

pytestmark = pytest.mark.django_db


def test_a_stale_sequence_from_the_same_user_does_not_blame_another_terminal(api_client):
    terminal, hand_id, seq = _stud_hand(api_client, STUD_TO_BRING_IN)
    body = terminal.post(hand_id, {"type": "bring_in", "seat": 5}, seq=seq - 2).json()
    number = Hand.objects.get(pk=hand_id).number
    assert body["message"].startswith(f"hand #{number} (id {hand_id}) has {seq} events; you expected {seq - 2}:")
    assert "another terminal" not in body["message"]
    assert f"events {seq - 1}-{seq} (deal, deal) were logged by croupier" in body["message"]
    assert body["extra"]["hand"] == hand_id and body["extra"]["hand_number"] == number


def test_a_stale_sequence_names_the_other_terminal_that_logged(api_client):
    terminal, hand_id, seq = _stud_hand(api_client, STUD_TO_BRING_IN)
    hand = Hand.objects.get(pk=hand_id)
    croupier = api_client.handler._force_user
    relief = user_in("croupier", "relief")
    relief_dealer = Dealer.objects.create(user=relief, games=[hand.game])
    DealerAssignment.objects.create(dealer=relief_dealer, table=hand.table, start=timezone.now())
    api_client.force_authenticate(relief)
    assert terminal.post(hand_id, {"type": "bring_in", "seat": 5}, seq=seq).status_code == 201
    DealerAssignment.objects.create(dealer=Dealer.objects.get(user=croupier), table=hand.table, start=timezone.now())
    api_client.force_authenticate(croupier)
    body = terminal.post(hand_id, {"type": "fold", "seat": 1}, seq=seq).json()
    assert f"event {seq + 1} (bring_in) was logged by relief from another terminal" in body["message"], body


def test_a_sequence_from_the_future_says_the_hand_has_fewer_events(api_client):
    terminal, hand_id, seq = _stud_hand(api_client, STUD_TO_BRING_IN)
    body = terminal.post(hand_id, {"type": "bring_in", "seat": 5}, seq=seq + 3).json()
    assert f"has {seq} events; you expected {seq + 3}:" in body["message"]
    assert "another terminal" not in body["message"] and "not stored" in body["message"]


def test_a_closed_hand_is_named_by_number_and_id(api_client):
    terminal, hand_id, seq = _stud_hand(api_client, CLOSED)
    body = terminal.post(hand_id, {"type": "fold", "seat": 5}, seq=seq).json()
    number = Hand.objects.get(pk=hand_id).number
    assert body["code"] == "hand_closed" and f"hand #{number} (id {hand_id})" in body["message"]


def test_an_open_hand_blocking_the_next_is_named_by_number_and_id(api_client):
    table = table_make(game="seven_card_stud")
    terminal = Terminal(api_client, croupier_on_duty(table))
    first = terminal.open(table, {1: 10000, 3: 10000}).json()["id"]
    body = terminal.open(table, {1: 10000, 3: 10000}).json()
    assert f"hand #1 (id {first}) is still open" in body["message"]


def test_an_engine_refusal_carries_the_hands_id_and_number(api_client):
    terminal, hand_id, seq = _stud_hand(api_client, STUD_TO_BRING_IN)
    body = terminal.post(hand_id, {"type": "check", "seat": 5}, seq=seq).json()
    assert body["extra"]["hand"] == hand_id and body["extra"]["hand_number"] == Hand.objects.get(pk=hand_id).number
