"""Break-test finding 5: amounts and counts at the API are exact.

An amount with a space or a line break around it (``" 10.00"``, ``"10.00\\n"``) was read as 10.00, and
``expected_seq`` sent as the text ``"6"`` or the float ``8.0`` was read as a number, while ``"seat": "5"`` in an
event was refused. Now each is refused with a clear message in the request's language (``invalid_amount`` for an
amount, ``invalid`` naming the field for a count) and nothing is written.
"""

from __future__ import annotations

import datetime as dt
import random

import pytest

from accounting.models import DropCount
from tables.models import Hand, HandEvent, RotationPlan, Table
from tests.accounting.helpers import make_hand
from tests.accounting.helpers import make_table as accounting_table
from tests.tables.hands_support import Terminal, croupier_on_duty, floor_manager, seats_payload, table_make

pytestmark = pytest.mark.django_db

PADDED = [" 10.00", "10.00 ", "10.00\n", "\t10.00", "10.00\r\n", "\u00a010.00"]
NOT_INTEGERS = ["6", "6 ", 6.0, 8.5, True, None, [6]]


@pytest.fixture
def stud_hand(api_client):
    """An open stud hand at seats 1-3, nothing logged yet; the terminal and the hand's id."""
    table = table_make()
    terminal = Terminal(api_client, croupier_on_duty(table))
    opened = terminal.open(table, {1: 20000, 2: 20000, 3: 20000})
    assert opened.status_code == 201, opened.json()
    return terminal, opened.json()["id"]


def _events(hand_id: int) -> int:
    return HandEvent.objects.filter(hand_id=hand_id).count()


@pytest.mark.parametrize("amount", PADDED)
def test_an_amount_with_a_space_or_line_break_is_refused_and_nothing_is_logged(stud_hand, amount):
    terminal, hand_id = stud_hand
    answer = terminal.post(hand_id, {"type": "raise", "seat": 1, "to": amount}, seq=0)
    assert answer.status_code == 400, answer.json()
    body = answer.json()
    assert body["code"] == "invalid_amount" and repr(amount) in body["message"] and "event.to" in body["message"]
    assert _events(hand_id) == 0


def test_the_refusal_is_in_the_requests_language(stud_hand):
    terminal, hand_id = stud_hand
    body = {"idempotency_key": "de-1", "expected_seq": 0, "event": {"type": "raise", "seat": 1, "to": " 10.00"}}
    german = terminal.client.post(f"/api/v1/hands/{hand_id}/events/", body, format="json", HTTP_ACCEPT_LANGUAGE="de-AT")
    assert german.status_code == 400 and german.json()["code"] == "invalid_amount"
    assert "ist kein Betrag" in german.json()["message"] and "' 10.00'" in german.json()["message"]
    assert _events(hand_id) == 0


@pytest.mark.parametrize("seq", NOT_INTEGERS)
def test_expected_seq_must_be_a_json_integer(stud_hand, seq):
    terminal, hand_id = stud_hand
    answer = terminal.post(hand_id, {"type": "ante", "seat": 1}, seq=seq)
    assert answer.status_code == 400, answer.json()
    assert answer.json()["code"] == "invalid" and "expected_seq" in answer.json()["message"]
    assert _events(hand_id) == 0
    # the same event with the number as a number is logged
    assert terminal.post(hand_id, {"type": "ante", "seat": 1}, seq=0).status_code == 201


def test_expected_seq_in_words_in_german(stud_hand):
    terminal, hand_id = stud_hand
    body = {"idempotency_key": "de-2", "expected_seq": "0", "event": {"type": "ante", "seat": 1}}
    german = terminal.client.post(f"/api/v1/hands/{hand_id}/events/", body, format="json", HTTP_ACCEPT_LANGUAGE="de-AT")
    assert german.status_code == 400 and "JSON-Ganzzahl" in german.json()["message"]


def test_a_hand_opened_with_a_padded_stack_or_a_seat_as_text_is_not_opened(api_client):
    table = table_make()
    terminal = Terminal(api_client, croupier_on_duty(table))
    stacks = seats_payload({1: 20000, 2: 20000})
    padded = [stacks[0], {**stacks[1], "stack": "200.00\n"}]
    answer = terminal.client.post("/api/v1/hands/", {"table": table.pk, "seats": padded}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "invalid_amount"
    as_text = [stacks[0], {**stacks[1], "seat": "2"}]
    answer = terminal.client.post("/api/v1/hands/", {"table": table.pk, "seats": as_text}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "invalid"
    assert not Hand.objects.exists()


def test_a_batch_with_a_padded_amount_logs_nothing(stud_hand):
    terminal, hand_id = stud_hand
    events = [{"type": "ante", "seat": 1}, {"type": "raise", "seat": 2, "to": "10.00 "}]
    answer = terminal.client.post(f"/api/v1/hands/{hand_id}/events/batch/", {"idempotency_key": "b-1", "events": events},
                                  format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "invalid_amount"
    assert _events(hand_id) == 0


def test_a_drop_count_with_a_padded_amount_is_not_recorded(api_client, role_user):
    table = accounting_table("forty_one")
    make_hand(table, rng=random.Random(5), opened_at=dt.datetime(2026, 5, 4, 18, 0, tzinfo=dt.UTC))
    api_client.force_authenticate(role_user("accountant"))
    answer = api_client.post("/api/v1/drop-counts/", {"table": table.id, "gaming_day": "2026-05-04",
                                                      "counted": " 42.50"}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "invalid_amount"
    assert not DropCount.objects.exists()


def test_floor_counts_are_json_integers_too(api_client):
    api_client.force_authenticate(floor_manager())
    answer = api_client.post("/api/v1/tables/", {"name": "Stud 9", "game": "seven_card_stud", "seats": "6",
                                                 "reason": "new table"}, format="json")
    assert answer.status_code == 400 and "seats" in answer.json()["message"]
    assert not Table.objects.filter(name="Stud 9").exists()
    assert not RotationPlan.objects.exists()
