"""A hand's life through the API: who may log it, retries, close, void, whole-hand submission, PHH files,
frozen limits and the moving button."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from accounting.models import JournalEntry
from rules.engines.phh import loads_phh
from tables.models import DealerAssignment, Hand, HandEvent, LimitProfile, Table
from tests.shared_data import PHH_DIR
from tests.tables.hands_support import (
    STUD_CONFIG,
    Terminal,
    accountant,
    assert_ledger_balanced,
    croupier_on_duty,
    floor_manager,
    seats_payload,
    table_make,
)

pytestmark = pytest.mark.django_db

STACKS = {1: 10000, 3: 10000, 5: 10000}
ANTES = [{"type": "ante", "seat": s} for s in (1, 3, 5)]
THIRD_STREET = [{"type": "deal", "seat": 3, "cards": "9s 9c 8d"}, {"type": "deal", "seat": 5, "cards": "3d 3h 3c"},
                {"type": "deal", "seat": 1, "cards": "As Kc Qs"}]
#: Seats 1 and 3 fold to seat 5's bring-in: seat 5 wins 8.00 (antes 3.00 + bring-in 5.00), no Taxe (R8.2).
WON_ON_THIRD = ANTES + THIRD_STREET + [{"type": "bring_in", "seat": 5}, {"type": "fold", "seat": 1},
                                       {"type": "fold", "seat": 3}]


@pytest.fixture
def stud_table():
    return table_make(game="seven_card_stud")


# --- who may log ---------------------------------------------------------------------------------------------


def test_croupier_not_dealing_at_the_table_may_not_open_or_log(api_client, stud_table):
    other = table_make(game="seven_card_stud", name="Stud 2")
    elsewhere = croupier_on_duty(other, username="elsewhere")
    response = Terminal(api_client, elsewhere).open(stud_table, STACKS)
    assert response.status_code == 403 and response.json()["code"] == "not_assigned"
    assert "not dealing at table" in response.json()["message"]
    hand_id = Terminal(api_client, croupier_on_duty(stud_table)).open(stud_table, STACKS).json()["id"]
    response = Terminal(api_client, elsewhere).post(hand_id, ANTES[0], seq=0)
    assert response.status_code == 403
    assert HandEvent.objects.count() == 0


def test_croupier_whose_assignment_ended_may_not_log(api_client, stud_table):
    user = croupier_on_duty(stud_table)
    terminal = Terminal(api_client, user)
    hand_id = terminal.open(stud_table, STACKS).json()["id"]
    DealerAssignment.objects.filter(dealer__user=user).update(end=timezone.now() - dt.timedelta(seconds=1))
    assert terminal.post(hand_id, ANTES[0], seq=0).status_code == 403


def test_floor_manager_may_log_at_any_table(api_client, stud_table):
    terminal = Terminal(api_client, floor_manager())
    hand_id = terminal.open(stud_table, STACKS).json()["id"]
    assert terminal.post(hand_id, ANTES[0], seq=0).status_code == 201
    assert Hand.objects.get(pk=hand_id).dealer is None  # nobody on duty: recorded as such


def test_accountant_reads_hands_but_may_not_log(api_client, stud_table):
    hand_id = Terminal(api_client, croupier_on_duty(stud_table)).open(stud_table, STACKS).json()["id"]
    api_client.force_authenticate(accountant())
    assert api_client.get("/api/v1/hands/").json()["results"][0]["id"] == hand_id
    assert api_client.get(f"/api/v1/hands/{hand_id}/events/").status_code == 200
    body = {"idempotency_key": "a", "expected_seq": 0, "event": ANTES[0]}
    assert api_client.post(f"/api/v1/hands/{hand_id}/events/", body, format="json").status_code == 403
    assert api_client.post("/api/v1/hands/", {"table": stud_table.pk, "seats": seats_payload(STACKS)},
                           format="json").status_code == 403


def test_anonymous_caller_is_refused(api_client):
    assert api_client.get("/api/v1/hands/").status_code in (401, 403)


# --- opening -------------------------------------------------------------------------------------------------


def test_open_takes_number_dealer_button_and_a_frozen_limit_snapshot(api_client, stud_table):
    user = croupier_on_duty(stud_table)
    Table.objects.filter(pk=stud_table.pk).update(button_seat=4)  # seat 4 is empty: next occupied is 5
    terminal = Terminal(api_client, user)
    body = terminal.open(stud_table, STACKS).json()
    hand = Hand.objects.get(pk=body["id"])
    assert (hand.number, hand.button_seat, hand.dealer.user, hand.limit_profile.version) == (1, 5, user, 1)
    assert hand.limit_snapshot["ante"] == "1.00" and hand.limit_snapshot["raise_cap"] == 3  # defaults filled in
    # the floor raises the limits mid-hand: the open hand keeps its snapshot, the next hand takes the new one
    LimitProfile.objects.create(table=stud_table, version=2, game=stud_table.game, limit_label="10/20",
                                config={**STUD_CONFIG, "lower": "10.00", "higher": "20.00"},
                                effective_from=timezone.now())
    terminal.play(hand.pk, WON_ON_THIRD)
    hand.refresh_from_db()
    assert hand.limit_snapshot["lower"] == "5.00" and hand.status == Hand.Status.CLOSED
    award = JournalEntry.objects.get(hand=hand).postings.get(role="award", account__code__endswith=":players")
    assert (award.seat, award.amount) == (5, 8)
    second = Hand.objects.get(pk=terminal.open(stud_table, STACKS).json()["id"])
    assert (second.number, second.limit_profile.version, second.limit_snapshot["lower"]) == (2, 2, "10.00")
    assert second.button_seat == 1  # moved clockwise from 5, wrapping round


def test_hand_cannot_open_at_a_closed_table_or_while_another_is_open(api_client):
    closed = table_make(game="seven_card_stud", status=Table.Status.CLOSED)
    terminal = Terminal(api_client, floor_manager())
    response = terminal.open(closed, STACKS)
    assert response.status_code == 400 and response.json()["code"] == "table_not_open"
    table = table_make(game="seven_card_stud")
    assert terminal.open(table, STACKS).status_code == 201
    response = terminal.open(table, STACKS)
    assert response.status_code == 409 and "still open" in response.json()["message"]
    assert Hand.objects.count() == 1


def test_hand_cannot_open_without_a_limit_profile(api_client):
    table = table_make(game="seven_card_stud")
    LimitProfile.objects.filter(table=table).delete()
    response = Terminal(api_client, floor_manager()).open(table, STACKS)
    assert response.status_code == 400 and response.json()["code"] == "no_limit_profile"


# --- retries -------------------------------------------------------------------------------------------------


def test_retry_with_the_same_key_returns_the_stored_answer_and_changes_nothing(api_client, stud_table):
    terminal = Terminal(api_client, croupier_on_duty(stud_table))
    hand_id = terminal.open(stud_table, STACKS).json()["id"]
    first = terminal.post(hand_id, ANTES[0], seq=0, key="ante-1")
    terminal.post(hand_id, ANTES[1], seq=1, key="ante-3")
    again = terminal.post(hand_id, ANTES[0], seq=0, key="ante-1")  # the terminal never saw the first answer
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["replayed"] is True and first.json()["replayed"] is False
    assert again.json()["seq"] == first.json()["seq"] == 1
    assert again.json()["state"] == first.json()["state"]
    assert Hand.objects.get(pk=hand_id).event_count == 2


def test_same_key_with_a_different_event_is_a_409(api_client, stud_table):
    terminal = Terminal(api_client, croupier_on_duty(stud_table))
    hand_id = terminal.open(stud_table, STACKS).json()["id"]
    terminal.post(hand_id, ANTES[0], seq=0, key="k1")
    response = terminal.post(hand_id, ANTES[1], seq=1, key="k1")
    assert response.status_code == 409 and response.json()["code"] == "idempotency_conflict"
    assert Hand.objects.get(pk=hand_id).event_count == 1


# --- close and void ------------------------------------------------------------------------------------------


def test_explicit_close_of_an_unfinished_hand_names_whose_turn_it_is(api_client, stud_table):
    terminal = Terminal(api_client, croupier_on_duty(stud_table))
    hand_id = terminal.open(stud_table, STACKS).json()["id"]
    terminal.play(hand_id, ANTES + THIRD_STREET)
    response = api_client.post(f"/api/v1/hands/{hand_id}/close/")
    assert response.status_code == 400 and response.json()["code"] == "hand_not_complete"
    assert "seat 5 is to act" in response.json()["message"]
    assert Hand.objects.get(pk=hand_id).status == Hand.Status.OPEN and not JournalEntry.objects.exists()
    german = api_client.post(f"/api/v1/hands/{hand_id}/close/", HTTP_ACCEPT_LANGUAGE="de")
    assert german.status_code == 400 and "Platz 5 ist am Zug" in german.json()["message"], german.json()
    assert "is to act" not in german.json()["message"]


def test_closed_hand_refuses_close_void_and_events(api_client, stud_table):
    terminal = Terminal(api_client, croupier_on_duty(stud_table))
    hand_id = terminal.open(stud_table, STACKS).json()["id"]
    terminal.play(hand_id, WON_ON_THIRD)
    assert api_client.post(f"/api/v1/hands/{hand_id}/close/").json()["code"] == "hand_closed"
    api_client.force_authenticate(floor_manager())
    response = api_client.post(f"/api/v1/hands/{hand_id}/void/", {"reason": "late dispute"}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "hand_closed"
    assert Hand.objects.get(pk=hand_id).status == Hand.Status.CLOSED
    assert JournalEntry.objects.count() == 1


def test_void_needs_a_floor_manager_and_a_reason_and_refunds_every_contribution(api_client, stud_table):
    croupier = croupier_on_duty(stud_table)
    terminal = Terminal(api_client, croupier)
    hand_id = terminal.open(stud_table, STACKS, refs={1: "P-1"}).json()["id"]
    terminal.play(hand_id, ANTES + THIRD_STREET + [{"type": "bring_in", "seat": 5}])
    assert api_client.post(f"/api/v1/hands/{hand_id}/void/", {"reason": "x"}, format="json").status_code == 403
    api_client.force_authenticate(floor_manager())
    response = api_client.post(f"/api/v1/hands/{hand_id}/void/", {"reason": "  "}, format="json")
    assert response.status_code == 400
    response = api_client.post(f"/api/v1/hands/{hand_id}/void/", {"reason": "two cards exposed on the deal"},
                               format="json")
    assert response.status_code == 200 and response.json()["status"] == "void"
    hand = Hand.objects.get(pk=hand_id)
    assert hand.void_reason == "two cards exposed on the deal"
    entry = JournalEntry.objects.get(hand=hand)
    assert entry.kind == JournalEntry.Kind.HAND_VOID and entry.idempotency_key == f"hand:{hand_id}:void"
    refunds = {p.seat: p.amount for p in entry.postings.filter(role="refund", account__code__endswith=":players")}
    assert refunds == {1: 1, 3: 1, 5: 6}  # antes back to all, the bring-in back to seat 5; no Taxe
    assert not entry.postings.filter(role="tax").exists()
    assert Table.objects.get(pk=stud_table.pk).button_seat is None  # the button does not move after a void
    assert_ledger_balanced()


# --- whole hands ---------------------------------------------------------------------------------------------


def test_batch_onto_an_open_hand_is_all_or_nothing(api_client, stud_table):
    terminal = Terminal(api_client, croupier_on_duty(stud_table))
    hand_id = terminal.open(stud_table, STACKS).json()["id"]
    bad = ANTES + THIRD_STREET[:2] + [{"type": "deal", "seat": 1, "cards": "As Kc 3c"}]  # 3c went to seat 5
    response = api_client.post(f"/api/v1/hands/{hand_id}/events/batch/", {"idempotency_key": "b1", "events": bad},
                               format="json")
    assert response.status_code == 400
    assert response.json()["message"].startswith("event 6 (deal): ") and response.json()["extra"]["index"] == 6
    assert Hand.objects.get(pk=hand_id).event_count == 0 and not HandEvent.objects.exists()
    good = {"idempotency_key": "b2", "events": WON_ON_THIRD}
    response = api_client.post(f"/api/v1/hands/{hand_id}/events/batch/", good, format="json")
    assert response.status_code == 200 and response.json()["status"] == "closed"
    assert response.json()["replayed"] is False
    again = api_client.post(f"/api/v1/hands/{hand_id}/events/batch/", good, format="json")
    assert again.status_code == 200 and again.json()["event_count"] == len(WON_ON_THIRD)
    assert again.json()["replayed"] is True and again.json()["state"] == response.json()["state"]
    assert HandEvent.objects.filter(hand_id=hand_id).count() == len(WON_ON_THIRD)
    assert JournalEntry.objects.filter(hand_id=hand_id).count() == 1


def test_whole_hand_submission_opens_logs_and_closes_once(api_client, stud_table):
    Terminal(api_client, croupier_on_duty(stud_table))
    body = {"idempotency_key": "paper-slip-17", "table": stud_table.pk, "seats": seats_payload(STACKS),
            "events": WON_ON_THIRD}
    first = api_client.post("/api/v1/hands/submit/", body, format="json")
    assert first.status_code == 201, first.json()
    assert first.json()["status"] == "closed" and first.json()["source"] == "batch"
    assert first.json()["replayed"] is False
    again = api_client.post("/api/v1/hands/submit/", body, format="json")
    # a retry answers as a retried event does: 200, replayed, the stored hand (break-test F4)
    assert again.status_code == 200 and again.json()["replayed"] is True
    assert again.json()["id"] == first.json()["id"] and again.json()["view"] == first.json()["view"]
    assert Hand.objects.count() == 1 and JournalEntry.objects.count() == 1


def test_whole_hand_submission_with_a_bad_event_stores_nothing(api_client, stud_table):
    Terminal(api_client, croupier_on_duty(stud_table))
    events = [*WON_ON_THIRD[:7], {"type": "raise", "seat": 1, "to": "7.50"}]
    body = {"idempotency_key": "slip-18", "table": stud_table.pk, "seats": seats_payload(STACKS), "events": events}
    response = api_client.post("/api/v1/hands/submit/", body, format="json")
    assert response.status_code == 400 and response.json()["message"].startswith("event 8 (raise): ")
    assert not Hand.objects.exists() and not HandEvent.objects.exists()


def test_phh_file_posts_exactly_the_finishing_stacks_recorded_at_the_table(api_client):
    text = (PHH_DIR / "00-22-43.phh").read_text(encoding="utf-8")
    phh = loads_phh(text)
    table = table_make(game="seven_card_stud", config=phh.config)
    Terminal(api_client, croupier_on_duty(table))
    response = api_client.post("/api/v1/hands/submit/", {"idempotency_key": "wsop-1", "table": table.pk, "phh": text},
                               format="json")
    assert response.status_code == 201, response.json()
    hand = Hand.objects.get(pk=response.json()["id"])
    assert hand.status == Hand.Status.CLOSED and hand.source == "phh"
    entry = JournalEntry.objects.get(hand=hand)
    net = {seat: 0 for seat in phh.seats}
    for posting in entry.postings.filter(account__code__endswith=":players"):
        net[posting.seat] += int(posting.amount * 100)
    assert {seat: phh.seats[seat] + net[seat] for seat in phh.seats} == phh.finishing_stacks
    assert_ledger_balanced()


def test_phh_file_played_under_other_limits_is_refused(api_client, stud_table):
    Terminal(api_client, croupier_on_duty(stud_table))
    text = (PHH_DIR / "00-22-43.phh").read_text(encoding="utf-8")
    response = api_client.post("/api/v1/hands/submit/", {"idempotency_key": "wsop-2", "table": stud_table.pk,
                                                          "phh": text}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "phh_config_mismatch"
    assert "bring_in_mode" in response.json()["extra"]["keys"]
    assert not Hand.objects.exists()


def test_misdeal_logged_by_the_croupier_returns_every_chip_and_the_spitz_stays(api_client):
    table = table_make(game="forty_one")
    Table.objects.filter(pk=table.pk).update(button_seat=2)
    terminal = Terminal(api_client, croupier_on_duty(table))
    hand_id = terminal.open(table, {1: 10000, 2: 10000, 4: 10000}).json()["id"]
    events = [{"type": "ante", "seat": s} for s in (1, 2, 4)] + [{"type": "blind", "seat": 2},
                                                                 {"type": "deal", "seat": 4, "cards": "Ah Kh"},
                                                                 {"type": "misdeal"}]
    answer = terminal.play(hand_id, events)
    assert answer.json()["state"]["status"] == "closed"
    entry = JournalEntry.objects.get(hand_id=hand_id)
    returned = {p.seat: p.amount for p in entry.postings.filter(role="returned", account__code__endswith=":players")}
    assert returned == {1: 2, 2: 7, 4: 2} and not entry.postings.filter(role__in=["award", "tax"]).exists()
    assert Table.objects.get(pk=table.pk).button_seat == 2  # B.4b: the Spitz does not move after a misdeal
    assert_ledger_balanced()


def test_hand_list_does_not_query_per_hand(api_client, stud_table, django_assert_max_num_queries):
    terminal = Terminal(api_client, croupier_on_duty(stud_table))
    for _ in range(3):
        hand_id = terminal.open(stud_table, STACKS).json()["id"]
        terminal.play(hand_id, WON_ON_THIRD)
    api_client.force_authenticate(accountant())
    with django_assert_max_num_queries(8):
        body = api_client.get("/api/v1/hands/").json()
    assert [h["number"] for h in body["results"]] == [3, 2, 1]
    assert all(len(h["journal_entries"]) == 1 for h in body["results"])


def test_event_list_and_hand_detail_do_not_query_per_event(api_client, stud_table, django_assert_max_num_queries):
    terminal = Terminal(api_client, croupier_on_duty(stud_table))
    hand_id = terminal.open(stud_table, STACKS).json()["id"]
    terminal.play(hand_id, WON_ON_THIRD)
    api_client.force_authenticate(accountant())
    with django_assert_max_num_queries(6):
        events = api_client.get(f"/api/v1/hands/{hand_id}/events/").json()
    assert [e["seq"] for e in events] == list(range(1, len(WON_ON_THIRD) + 1))
    with django_assert_max_num_queries(8):
        assert api_client.get(f"/api/v1/hands/{hand_id}/").json()["state"]["complete"] is True
