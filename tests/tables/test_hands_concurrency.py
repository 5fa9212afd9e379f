"""Two terminals posting to one hand at the same moment are serialized by the row lock on the hand:
nothing lost, nothing doubled. Runs on PostgreSQL (SQLite has no row locks; it serializes whole writes)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from tables.models import Hand, HandEvent
from tests.tables.hands_support import croupier_on_duty, table_make

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs it)"),
]


def _race(user, hand_id: int, bodies: list[dict]) -> list:
    """Post each body from its own thread (own client, own connection) at the same moment."""
    barrier = threading.Barrier(len(bodies))
    results: list = [None] * len(bodies)

    def run(index: int, body: dict) -> None:
        client = APIClient()
        client.force_authenticate(user)
        try:
            barrier.wait(timeout=10)
            results[index] = client.post(f"/api/v1/hands/{hand_id}/events/", body, format="json")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, b)) for i, b in enumerate(bodies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


def _open(api_client, user, table) -> int:
    api_client.force_authenticate(user)
    seats = [{"seat": s, "stack": "100.00"} for s in (1, 3, 5)]
    return api_client.post("/api/v1/hands/", {"table": table.pk, "seats": seats}, format="json").json()["id"]


def test_the_same_event_from_two_terminals_is_stored_once(api_client):
    table = table_make(game="seven_card_stud")
    user = croupier_on_duty(table)
    hand_id = _open(api_client, user, table)
    for round_no, seat in enumerate((1, 3, 5)):
        body = {"idempotency_key": f"ante-{seat}", "expected_seq": round_no, "event": {"type": "ante", "seat": seat}}
        responses = _race(user, hand_id, [body, body])
        assert sorted(r.status_code for r in responses) == [200, 201], [r.json() for r in responses]
        assert {r.json()["seq"] for r in responses} == {round_no + 1}
        assert responses[0].json()["state"] == responses[1].json()["state"]
    hand = Hand.objects.get(pk=hand_id)
    assert hand.event_count == 3
    assert list(HandEvent.objects.filter(hand=hand).values_list("seq", flat=True).order_by("seq")) == [1, 2, 3]


def test_different_events_from_two_terminals_one_wins_the_other_is_told_to_look_again(api_client):
    table = table_make(game="seven_card_stud")
    user = croupier_on_duty(table)
    hand_id = _open(api_client, user, table)
    bodies = [{"idempotency_key": f"ante-{s}", "expected_seq": 0, "event": {"type": "ante", "seat": s}} for s in (1, 3)]
    responses = _race(user, hand_id, bodies)
    codes = sorted(r.status_code for r in responses)
    assert codes == [201, 409], [r.json() for r in responses]
    loser = next(i for i, r in enumerate(responses) if r.status_code == 409)
    assert responses[loser].json()["extra"]["event_count"] == 1
    # the losing terminal looks at the state it was sent and logs again: nothing lost
    retry = dict(bodies[loser], expected_seq=responses[loser].json()["extra"]["event_count"])
    client = APIClient()
    client.force_authenticate(user)
    assert client.post(f"/api/v1/hands/{hand_id}/events/", retry, format="json").status_code == 201
    stored = HandEvent.objects.filter(hand_id=hand_id).order_by("seq")
    assert [e.seq for e in stored] == [1, 2]
    assert sorted(e.payload["seat"] for e in stored) == [1, 3]
    assert Hand.objects.get(pk=hand_id).event_count == 2
