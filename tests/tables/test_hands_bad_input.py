"""Bad input from a terminal: every case is a 400 (409 for a stale sequence) with a message the croupier
can act on, and the hand, its events and the ledger are exactly as before."""

from __future__ import annotations

import pytest

from accounting.models import JournalEntry, Posting
from tables.models import Hand, HandEvent
from tests.tables.hands_support import FORTY_ONE_CONFIG, Terminal, croupier_on_duty, table_make

pytestmark = pytest.mark.django_db

#: Stud 5/10 (ante 1.00), seats 1, 3, 5 with 100.00 each: antes and 3rd street dealt; seat 5 (3c door) brings in.
STUD_TO_BRING_IN = [
    {"type": "ante", "seat": 1}, {"type": "ante", "seat": 3}, {"type": "ante", "seat": 5},
    {"type": "deal", "seat": 3, "cards": "9s 9c 8d"}, {"type": "deal", "seat": 5, "cards": "3d 3h 3c"},
    {"type": "deal", "seat": 1, "cards": "As Kc Qs"},
]
#: ... the bring-in (the bet) and three raises: 3rd street is capped at 20.00.
CAPPED = STUD_TO_BRING_IN + [
    {"type": "bring_in", "seat": 5}, {"type": "raise", "seat": 1, "to": "10.00"},
    {"type": "raise", "seat": 3, "to": "15.00"}, {"type": "raise", "seat": 5, "to": "20.00"},
]
#: ... seats 1 and 3 fold to the bring-in: seat 5 wins, the hand closes itself.
CLOSED = STUD_TO_BRING_IN + [{"type": "bring_in", "seat": 5}, {"type": "fold", "seat": 1}, {"type": "fold", "seat": 3}]


def _snapshot(hand_id: int) -> tuple:
    hand = Hand.objects.get(pk=hand_id)
    return (hand.status, hand.event_count, HandEvent.objects.filter(hand_id=hand_id).count(),
            list(HandEvent.objects.filter(hand_id=hand_id).values_list("payload", flat=True)),
            JournalEntry.objects.count(), Posting.objects.count(), hand.table.button_seat)


def _stud_hand(api_client, prefix):
    table = table_make(game="seven_card_stud")
    terminal = Terminal(api_client, croupier_on_duty(table))
    hand_id = terminal.open(table, {1: 10000, 3: 10000, 5: 10000}).json()["id"]
    for seq, event in enumerate(prefix):
        response = terminal.post(hand_id, event, seq=seq)
        assert response.status_code == 201, (event, response.json())
    return terminal, hand_id, len(prefix)


BAD_STUD_EVENTS = [
    # (behaviour, set-up, event, status, code, words the message must contain)
    ("action_by_a_seat_not_in_turn", STUD_TO_BRING_IN, {"type": "call", "seat": 1}, 400, "out_of_turn", "seat 1"),
    ("bring_in_by_the_wrong_seat", STUD_TO_BRING_IN, {"type": "bring_in", "seat": 3}, 400, None, "seat 3"),
    ("amount_off_the_limit", STUD_TO_BRING_IN + [{"type": "bring_in", "seat": 5}],
     {"type": "raise", "seat": 1, "to": "12.00"}, 400, None, "10.00"),
    ("fourth_raise", CAPPED, {"type": "raise", "seat": 1, "to": "25.00"}, 400, "illegal_action", "seat 1"),
    ("a_card_twice_in_one_deal", STUD_TO_BRING_IN[:3], {"type": "deal", "seat": 3, "cards": "9s 9s 8d"}, 400,
     "duplicate_card", "9s"),
    ("a_card_not_in_the_deck", STUD_TO_BRING_IN[:3], {"type": "deal", "seat": 3, "cards": "9s 9c 1x"}, 400,
     "invalid_card", "1x"),
    ("a_card_already_dealt_to_another_seat", STUD_TO_BRING_IN[:4], {"type": "deal", "seat": 5, "cards": "3d 3h 9s"},
     400, "duplicate_card", "9s"),
    ("amount_nan", STUD_TO_BRING_IN + [{"type": "bring_in", "seat": 5}],
     {"type": "raise", "seat": 1, "to": "NaN"}, 400, "invalid_amount", "event.to"),
    ("amount_infinity", STUD_TO_BRING_IN + [{"type": "bring_in", "seat": 5}],
     {"type": "raise", "seat": 1, "to": "Infinity"}, 400, "invalid_amount", "event.to"),
    ("amount_1e400", STUD_TO_BRING_IN + [{"type": "bring_in", "seat": 5}],
     {"type": "raise", "seat": 1, "to": "1e400"}, 400, "invalid_amount", "not an amount"),
    ("amount_negative", STUD_TO_BRING_IN + [{"type": "bring_in", "seat": 5}],
     {"type": "raise", "seat": 1, "to": "-5"}, 400, "invalid_amount", "negative"),
    ("amount_with_three_decimals", STUD_TO_BRING_IN + [{"type": "bring_in", "seat": 5}],
     {"type": "raise", "seat": 1, "to": "1.005"}, 400, "invalid_amount", "two decimals"),
    ("amount_as_a_json_float", STUD_TO_BRING_IN + [{"type": "bring_in", "seat": 5}],
     {"type": "raise", "seat": 1, "to": 10.0}, 400, "invalid_amount", "decimal string"),
    ("amount_as_a_json_integer", STUD_TO_BRING_IN + [{"type": "bring_in", "seat": 5}],
     {"type": "raise", "seat": 1, "to": 10}, 400, "invalid_amount", "decimal string"),
    ("amount_not_a_number", STUD_TO_BRING_IN + [{"type": "bring_in", "seat": 5}],
     {"type": "raise", "seat": 1, "to": "ten"}, 400, "invalid_amount", "not an amount"),
    ("event_after_the_hand_closed", CLOSED, {"type": "check", "seat": 5}, 400, "hand_closed", "closed"),
    ("unknown_event_type", STUD_TO_BRING_IN, {"type": "dance", "seat": 5}, 400, "unknown_event", "dance"),
    ("event_without_a_type", STUD_TO_BRING_IN, {"seat": 5}, 400, "unknown_event", "type"),
    ("event_that_is_not_an_object", STUD_TO_BRING_IN, "fold", 400, "unknown_event", "JSON object"),
]


@pytest.mark.parametrize(("behaviour", "prefix", "event", "status", "code", "words"), BAD_STUD_EVENTS,
                         ids=[case[0] for case in BAD_STUD_EVENTS])
def test_bad_event_is_refused_and_the_hand_is_unchanged(api_client, behaviour, prefix, event, status, code, words):
    terminal, hand_id, seq = _stud_hand(api_client, prefix)
    before = _snapshot(hand_id)
    response = terminal.post(hand_id, event, seq=seq)
    body = response.json()
    assert response.status_code == status, body
    assert set(body) == {"message", "code", "extra"}
    if code:
        assert body["code"] == code, body
    assert words in body["message"], body["message"]
    assert _snapshot(hand_id) == before


def test_engine_refusal_carries_the_unchanged_state_for_the_terminal(api_client):
    terminal, hand_id, seq = _stud_hand(api_client, STUD_TO_BRING_IN)
    body = terminal.post(hand_id, {"type": "call", "seat": 1}, seq=seq).json()
    assert body["extra"]["state"]["to_act"] == 5
    assert body["extra"]["state"]["event_count"] == seq
    assert {"type": "bring_in", "seat": 5, "min": "5.00", "max": "5.00"} in body["extra"]["state"]["legal_actions"]


def test_stale_sequence_is_a_409_with_the_current_state(api_client):
    terminal, hand_id, seq = _stud_hand(api_client, STUD_TO_BRING_IN)
    before = _snapshot(hand_id)
    response = terminal.post(hand_id, {"type": "bring_in", "seat": 5}, seq=seq - 1)
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "stale_sequence" and f"has {seq} events" in body["message"]
    assert body["extra"]["event_count"] == seq and body["extra"]["state"]["to_act"] == 5
    assert _snapshot(hand_id) == before


def test_sequence_from_the_future_is_refused_too(api_client):
    terminal, hand_id, seq = _stud_hand(api_client, STUD_TO_BRING_IN)
    before = _snapshot(hand_id)
    assert terminal.post(hand_id, {"type": "bring_in", "seat": 5}, seq=seq + 3).status_code == 409
    assert _snapshot(hand_id) == before


def test_non_json_number_in_the_body_is_a_400(api_client):
    terminal, hand_id, seq = _stud_hand(api_client, STUD_TO_BRING_IN + [{"type": "bring_in", "seat": 5}])
    before = _snapshot(hand_id)
    raw = '{"idempotency_key": "k-nan", "expected_seq": SEQ, "event": {"type": "raise", "seat": 1, "to": NaN}}'
    raw = raw.replace("SEQ", str(seq))
    response = api_client.post(f"/api/v1/hands/{hand_id}/events/", data=raw, content_type="application/json")
    assert response.status_code == 400 and response.json()["message"]
    assert _snapshot(hand_id) == before


@pytest.mark.parametrize(("body", "words"), [
    ({"expected_seq": 0, "event": {"type": "ante", "seat": 1}}, "idempotency_key"),
    ({"idempotency_key": "k", "event": {"type": "ante", "seat": 1}}, "expected_seq"),
    ({"idempotency_key": "k", "expected_seq": -1, "event": {"type": "ante", "seat": 1}}, "expected_seq"),
    ({"idempotency_key": "k", "expected_seq": 0}, "event"),
], ids=["no_key", "no_sequence", "negative_sequence", "no_event"])
def test_malformed_request_is_a_400_naming_the_field(api_client, body, words):
    terminal, hand_id, _ = _stud_hand(api_client, [])
    before = _snapshot(hand_id)
    response = api_client.post(f"/api/v1/hands/{hand_id}/events/", body, format="json")
    assert response.status_code == 400 and words in response.json()["message"]
    assert _snapshot(hand_id) == before


def test_forty_one_card_outside_the_32_card_pack_is_refused(api_client):
    table = table_make(game="forty_one", config=FORTY_ONE_CONFIG)
    terminal = Terminal(api_client, croupier_on_duty(table))
    hand_id = terminal.open(table, {1: 10000, 2: 10000, 4: 10000}).json()["id"]
    prefix = [{"type": "ante", "seat": 1}, {"type": "ante", "seat": 2}, {"type": "ante", "seat": 4},
              {"type": "blind", "seat": 1}]
    terminal.play(hand_id, prefix)
    before = _snapshot(hand_id)
    response = terminal.post(hand_id, {"type": "deal", "seat": 2, "cards": "2c Ah"}, seq=len(prefix))
    assert response.status_code == 400 and response.json()["code"] == "invalid_card"
    assert "2c" in response.json()["message"]
    assert _snapshot(hand_id) == before


@pytest.mark.parametrize(("seats", "code"), [
    ([{"seat": 1, "stack": "100.00"}], "invalid_seats"),
    ([{"seat": 1, "stack": "100.00"}, {"seat": 9, "stack": "100.00"}], None),
    ([{"seat": 1, "stack": "100.00"}, {"seat": 1, "stack": "50.00"}], "invalid_seats"),
    ([{"seat": 1, "stack": "100.00"}, {"seat": 2, "stack": "1.005"}], "invalid_amount"),
    ([{"seat": 1, "stack": "100.00"}, {"seat": 2, "stack": "0.00"}], "invalid_seats"),
    ([{"seat": 1, "stack": "100.00", "player_ref": "Anna Gruber"}, {"seat": 2, "stack": "50.00"}],
     "invalid_player_ref"),
], ids=["one_player", "seat_that_does_not_exist", "seat_twice", "stack_with_three_decimals", "empty_stack",
        "a_name_instead_of_a_player_reference"])
def test_bad_seats_refuse_to_open_a_hand(api_client, seats, code):
    table = table_make(game="seven_card_stud")
    terminal = Terminal(api_client, croupier_on_duty(table))
    response = api_client.post("/api/v1/hands/", {"table": table.pk, "seats": seats}, format="json")
    assert response.status_code == 400, response.json()
    if code:
        assert response.json()["code"] == code
    assert not Hand.objects.exists()
    assert terminal.counter == 0


# --- found by the break-it review ------------------------------------------------------------------------


@pytest.mark.parametrize(("behaviour", "prefix", "event", "words"), [
    ("bring_in_with_an_amount_it_does_not_post", STUD_TO_BRING_IN,
     {"type": "bring_in", "seat": 5, "amount": "2.00"}, "amount"),
    ("call_with_a_total_it_ignores", STUD_TO_BRING_IN + [{"type": "bring_in", "seat": 5}],
     {"type": "call", "seat": 1, "to": "99.00"}, "to"),
    ("a_misspelt_key", STUD_TO_BRING_IN[:2], {"type": "ante", "seat": 5, "amout": "1.00"}, "amout"),
], ids=lambda v: v if isinstance(v, str) and "_" in v else None)
def test_stud_event_with_a_key_the_event_does_not_take_is_refused(api_client, behaviour, prefix, event, words):
    """A key the stud event ignores would be stored as if it counted (a bring-in 'of 2.00' that posted 5.00)."""
    terminal, hand_id, seq = _stud_hand(api_client, prefix)
    before = _snapshot(hand_id)
    response = terminal.post(hand_id, event, seq=seq)
    body = response.json()
    assert response.status_code == 400, body
    assert body["code"] == "unknown_event" and words in body["message"] and event["type"] in body["message"]
    assert _snapshot(hand_id) == before


def test_stud_event_may_carry_a_note(api_client):
    terminal, hand_id, seq = _stud_hand(api_client, STUD_TO_BRING_IN)
    response = terminal.post(hand_id, {"type": "bring_in", "seat": 5, "note": "slow to post"}, seq=seq)
    assert response.status_code == 201, response.json()


@pytest.mark.parametrize("stack", [150.5, 100, True], ids=["json_float", "json_int", "json_bool"])
def test_a_stack_that_is_not_a_decimal_string_is_refused(api_client, stack):
    table = table_make(game="seven_card_stud")
    Terminal(api_client, croupier_on_duty(table))
    seats = [{"seat": 1, "stack": "100.00"}, {"seat": 2, "stack": stack}]
    response = api_client.post("/api/v1/hands/", {"table": table.pk, "seats": seats}, format="json")
    # A whole JSON number too: amounts travel as decimal strings (README), and 100 could be meant as cents.
    assert response.status_code == 400, response.json()
    assert "seat 2" in response.json()["message"] and "decimal string" in response.json()["message"]
    assert not Hand.objects.exists()


def test_a_batch_key_reused_for_other_events_is_a_409_and_nothing_is_stored(api_client):
    terminal, hand_id, _ = _stud_hand(api_client, [])
    url = f"/api/v1/hands/{hand_id}/events/batch/"
    first = api_client.post(url, {"idempotency_key": "b-1", "events": STUD_TO_BRING_IN[:2]}, format="json")
    assert first.status_code == 200, first.json()
    again = api_client.post(url, {"idempotency_key": "b-1", "events": STUD_TO_BRING_IN[:2]}, format="json")
    assert again.status_code == 200 and again.json()["event_count"] == 2
    before = _snapshot(hand_id)
    other = api_client.post(url, {"idempotency_key": "b-1", "events": STUD_TO_BRING_IN[2:3]}, format="json")
    assert other.status_code == 409, other.json()
    assert other.json()["code"] == "idempotency_conflict" and "b-1" in other.json()["message"]
    assert _snapshot(hand_id) == before


def test_a_whole_hand_key_reused_for_another_hand_is_a_409(api_client):
    table = table_make(game="seven_card_stud")
    Terminal(api_client, croupier_on_duty(table))
    seats = [{"seat": 1, "stack": "100.00"}, {"seat": 3, "stack": "100.00"}, {"seat": 5, "stack": "100.00"}]
    body = {"idempotency_key": "whole-1", "table": table.pk, "seats": seats, "events": CLOSED}
    assert api_client.post("/api/v1/hands/submit/", body, format="json").status_code == 201
    assert api_client.post("/api/v1/hands/submit/", body, format="json").status_code == 200  # a retry: same hand, replayed
    assert Hand.objects.count() == 1
    changed = body | {"events": CLOSED[:-1] + [{"type": "call", "seat": 3}]}
    response = api_client.post("/api/v1/hands/submit/", changed, format="json")
    assert response.status_code == 409 and response.json()["code"] == "idempotency_conflict"
    assert Hand.objects.count() == 1
