"""Two terminals posting to one hand at the same moment are serialized by the row lock on the hand:
nothing lost, nothing doubled. Runs on PostgreSQL (SQLite has no row locks; it serializes whole writes)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from tables.api.hands_serializers import money_out
from tables.api.view_serializers import view_out
from tables.models import Hand, HandEvent
from tables.services.hands import VIEW_KEY
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


def _lock_waiters() -> int:
    """Lock requests of this database's sessions waiting now (``pg_locks``: the service's role is not shown other
    sessions' waits in ``pg_stat_activity``, only their database)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks l INNER JOIN pg_stat_activity a ON a.pid = l.pid "
                       "WHERE NOT l.granted AND a.datname = current_database()")
        return cursor.fetchone()[0]


def _while_another_terminal_holds_the_hand(user, hand_id: int, held: dict, body: dict):
    """Log ``held`` (key ``held-2``, expected_seq 1) in a transaction that keeps the hand's row lock until ``body``,
    posted from another terminal meanwhile, is waiting for that lock; then commit. Returns the waiting post's
    answer and the holder's state. The waiting post's row lock reads the hand's events on the snapshot it
    started with, before the holder committed (issue 19: the lock and the events are one query)."""
    from django.db import transaction

    from tables.services.hands import hand_event_append

    ready, release = threading.Event(), threading.Event()
    holder: dict = {}

    def hold() -> None:
        try:
            with transaction.atomic():
                holder["record"], holder["state"] = hand_event_append(
                    hand=hand_id, event=held, idempotency_key="held-2", expected_seq=1, actor=user)
                ready.set()
                release.wait(timeout=30)
        finally:
            connections.close_all()

    answers: list = []

    def post() -> None:
        client = APIClient()
        client.force_authenticate(user)
        try:
            answers.append(client.post(f"/api/v1/hands/{hand_id}/events/", body, format="json"))
        finally:
            connections.close_all()

    holding = threading.Thread(target=hold)
    holding.start()
    assert ready.wait(timeout=30)
    posting = threading.Thread(target=post)
    posting.start()
    for _ in range(3000):  # until the post waits for the row lock (bounded: 30 s), not a time measurement
        if _lock_waiters():
            break
        threading.Event().wait(0.01)
    waited = _lock_waiters() > 0
    release.set()
    holding.join(timeout=30)
    posting.join(timeout=30)
    assert waited, "the second terminal never waited for the hand's row lock"
    return answers[0], holder["state"]


def _hand_with_the_first_ante(api_client) -> tuple[object, int]:
    """A fresh stud hand whose first ante (seat 1) is logged through the API: ``(croupier, hand id)``."""
    table = table_make(game="seven_card_stud")
    user = croupier_on_duty(table)
    hand_id = _open(api_client, user, table)
    first = {"idempotency_key": "ante-1", "expected_seq": 0, "event": {"type": "ante", "seat": 1}}
    assert api_client.post(f"/api/v1/hands/{hand_id}/events/", first, format="json").status_code == 201
    return user, hand_id


def test_a_retry_that_waited_for_the_row_lock_finds_the_event_the_holder_committed(api_client):
    user, hand_id = _hand_with_the_first_ante(api_client)
    ante = {"type": "ante", "seat": 3}
    retry = {"idempotency_key": "held-2", "expected_seq": 1, "event": ante}
    answer, held_state = _while_another_terminal_holds_the_hand(user, hand_id, ante, retry)
    assert answer.status_code == 200, answer.json()  # the stored event, not a stale 409
    assert answer.json()["replayed"] is True and answer.json()["seq"] == 2
    assert answer.json()["state"]["event_count"] == 2 == held_state["event_count"]
    assert list(HandEvent.objects.filter(hand_id=hand_id).order_by("seq").values_list("seq", flat=True)) == [1, 2]


def test_a_different_event_that_waited_for_the_row_lock_is_told_the_committed_state(api_client):
    user, hand_id = _hand_with_the_first_ante(api_client)
    other = {"idempotency_key": "ante-5-other", "expected_seq": 1, "event": {"type": "ante", "seat": 5}}
    answer, held_state = _while_another_terminal_holds_the_hand(user, hand_id, {"type": "ante", "seat": 3}, other)
    assert answer.status_code == 409 and answer.json()["code"] == "stale_sequence", answer.json()
    extra = answer.json()["extra"]
    assert extra["event_count"] == 2 and extra["state"]["event_count"] == 2
    held_view = held_state[VIEW_KEY]
    held_state = {key: value for key, value in held_state.items() if key not in ("replayed", VIEW_KEY)}
    assert extra["state"] == money_out(held_state)  # the state after the holder's event, not before it
    assert extra["view"] == view_out(held_view)
    assert Hand.objects.get(pk=hand_id).event_count == 2
