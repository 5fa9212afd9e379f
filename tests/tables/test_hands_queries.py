"""Issue 10: logging one event is a handful of SQL queries, however long the hand already is.

A croupier's terminal authenticates with its API token (one query, which reads its roles too), then the
service runs in one transaction: the hand row under its lock with the dealer on duty and the hand's events
(replay and idempotency lookup; one query on PostgreSQL), then the insert with the event count's update
(one statement on PostgreSQL).

Issue 19: the action that completes a hand (and so closes it, posts its entry, moves the button and
enqueues its reconciliation) costs at most twice an ordinary action's queries.
"""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounting.models import JournalEntry
from accounting.services.ledger import accounts_for_table
from casino.models import AuditEntry
from rules.engines.stud_sim import random_hand
from rules.replay import hand_config
from tables.api.hands_serializers import HandEventOutputSerializer, hand_event_out
from tables.models import Hand, HandEvent, Table
from tests.tables.hands_support import assert_ledger_balanced, croupier_on_duty, event_to_api, seats_payload, table_make

pytestmark = pytest.mark.django_db

#: token with roles, SAVEPOINT (BEGIN in production), lock + dealer on duty + events, INSERT + UPDATE, RELEASE (COMMIT);
#: SQLite (no row locks, no data-modifying WITH) reads the events and writes the UPDATE in statements of their own.
MAX_QUERIES_PER_EVENT = 5 if connection.vendor == "postgresql" else 7
EVENTS = [{"type": "ante", "seat": s} for s in (1, 3, 5)] + [
    {"type": "deal", "seat": 3, "cards": "9s 9c 8d"}, {"type": "deal", "seat": 5, "cards": "3d 3h 3c"},
    {"type": "deal", "seat": 1, "cards": "As Kc Qs"}, {"type": "bring_in", "seat": 5}]


@pytest.fixture
def terminal():
    table = table_make(game="seven_card_stud")
    user = croupier_on_duty(table)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    opened = client.post("/api/v1/hands/", {"table": table.pk, "seats": seats_payload({1: 10000, 3: 10000, 5: 10000})},
                         format="json")
    assert opened.status_code == 201, opened.json()
    return client, opened.json()["id"]


def _post(client, hand_id: int, seq: int, key: str | None = None):
    body = {"idempotency_key": key or f"q-{seq + 1}", "expected_seq": seq, "event": EVENTS[seq]}
    return client.post(f"/api/v1/hands/{hand_id}/events/", body, format="json")


def test_logging_one_event_takes_a_fixed_small_number_of_queries(terminal, django_assert_max_num_queries):
    client, hand_id = terminal
    with django_assert_max_num_queries(MAX_QUERIES_PER_EVENT):
        first = _post(client, hand_id, 0)
    assert first.status_code == 201, first.json()
    for seq in range(1, len(EVENTS) - 1):
        assert _post(client, hand_id, seq).status_code == 201
    with django_assert_max_num_queries(MAX_QUERIES_PER_EVENT):  # no growth with the events already stored
        last = _post(client, hand_id, len(EVENTS) - 1)
    assert last.status_code == 201, last.json()
    assert last.json()["seq"] == len(EVENTS) and last.json()["state"]["event_count"] == len(EVENTS)
    assert Hand.objects.get(pk=hand_id).event_count == HandEvent.objects.filter(hand_id=hand_id).count() == len(EVENTS)


def test_a_retried_event_is_answered_from_the_stored_event_with_one_query_more(terminal,
                                                                               django_assert_max_num_queries):
    client, hand_id = terminal
    for seq in range(3):
        assert _post(client, hand_id, seq).status_code == 201
    with django_assert_max_num_queries(MAX_QUERIES_PER_EVENT):  # no INSERT + UPDATE; the stored event is fetched
        retry = _post(client, hand_id, 1, key="q-2")
    assert retry.status_code == 200 and retry.json()["replayed"] is True
    assert retry.json()["seq"] == 2 and retry.json()["state"]["event_count"] == 2
    assert retry.json()["created_by"] == "croupier"


def test_an_unknown_hand_is_404_whether_or_not_the_body_is_valid(terminal):
    client, hand_id = terminal
    missing = hand_id + 1000
    assert _post(client, missing, 0).status_code == 404
    bad = client.post(f"/api/v1/hands/{missing}/events/", {"expected_seq": -1, "event": 3}, format="json")
    assert bad.status_code == 404 and bad.json()["code"] == "not_found"
    assert client.post(f"/api/v1/hands/{hand_id}/events/", {"expected_seq": -1, "event": 3},
                       format="json").status_code == 400


def _queries_per_action(client, hand_id: int, events: list[dict]) -> list[tuple[str, int]]:
    """Post ``events`` one by one; return ``(status of the hand after it, queries)`` per event."""
    out = []
    for seq, event in enumerate(events):
        body = {"idempotency_key": f"c-{hand_id}-{seq + 1}", "expected_seq": seq, "event": event_to_api(event)}
        with CaptureQueriesContext(connection) as queries:
            answer = client.post(f"/api/v1/hands/{hand_id}/events/", body, format="json")
        assert answer.status_code == 201, answer.json()
        out.append((answer.json()["state"]["status"], len(queries.captured_queries)))
    return out


def test_the_action_that_closes_a_hand_costs_at_most_twice_an_ordinary_one(terminal):
    client, hand_id = terminal
    hand = Hand.objects.select_related("table").get(pk=hand_id)
    accounts_for_table(hand.table, ["players", "pot", "tax"])  # made once per table, by its first close
    events = random_hand(hand_config(hand.game, hand.limit_snapshot), {1: 10000, 3: 10000, 5: 10000},
                         hand.button_seat, random.Random(20))
    counts = _queries_per_action(client, hand_id, events)
    *ordinary, (last_status, closing) = counts
    assert last_status == "closed" and all(status == "open" for status, _ in ordinary)
    assert closing <= 2 * max(n for _, n in ordinary) <= 2 * MAX_QUERIES_PER_EVENT
    hand.refresh_from_db()
    assert hand.status == Hand.Status.CLOSED and hand.reconciliation == Hand.Reconciliation.AWAITING
    assert hand.event_count == HandEvent.objects.filter(hand=hand).count() == len(counts)
    assert JournalEntry.objects.filter(hand=hand, kind=JournalEntry.Kind.HAND_SETTLEMENT).count() == 1
    assert list(AuditEntry.objects.filter(subject="tables.hand", subject_id=str(hand.pk)).order_by("id")
                .values_list("action", flat=True)) == ["hand_open", "status_change", "hand_close"]
    assert Table.objects.get(pk=hand.table_id).button_seat != hand.button_seat
    assert_ledger_balanced()


def test_the_logged_event_is_answered_as_the_event_list_shows_it(terminal):
    client, hand_id = terminal
    answer = _post(client, hand_id, 0).json()
    listed = client.get(f"/api/v1/hands/{hand_id}/events/").json()
    assert {k: v for k, v in answer.items() if k not in ("replayed", "state", "view")} == listed[0]
    assert list(answer)[:5] == list(HandEventOutputSerializer(HandEvent.objects.get(hand_id=hand_id, seq=1)).data)
    assert hand_event_out(HandEvent.objects.get(hand_id=hand_id, seq=1)) == dict(
        HandEventOutputSerializer(HandEvent.objects.get(hand_id=hand_id, seq=1)).data)
