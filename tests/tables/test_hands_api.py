"""End to end through the API (PostgreSQL and the real Celery worker in CI): a croupier logs a whole hand
of each game event by event; closing it posts ONE balanced ledger entry whose amounts are the engine's
result (worked out by hand in each story), and the reconciliation task runs after commit."""

from __future__ import annotations

import time
from decimal import Decimal

import pytest

from accounting.models import JournalEntry
from tables.models import Hand, HandEvent, Table
from tests.tables.hands_support import (
    CAPSA_CONFIG,
    Terminal,
    accountant,
    assert_ledger_balanced,
    croupier_on_duty,
    seat_sums,
    table_make,
)

pytestmark = pytest.mark.django_db(transaction=True)


def _wait_reconciliation_due(hand_id: int, timeout: float = 20.0) -> str:
    """The reconciliation task runs after commit (on the worker): wait until it moved the hand."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = Hand.objects.get(pk=hand_id).reconciliation
        if value != Hand.Reconciliation.NOT_DUE:
            return value
        time.sleep(0.1)
    raise AssertionError("the reconciliation task did not run")


def _legs(entry: JournalEntry) -> list[tuple[str, str, str, int | None, int | None]]:
    return sorted((p.account.code.split(":")[-1], f"{p.amount:.2f}", p.role, p.seat, p.pot_index)
                  for p in entry.postings.select_related("account"))


def _show_all(terminal: Terminal, hand_id: int, answer) -> object:
    """Showdown: each seat shows when the service says it is its turn."""
    while answer.json()["state"]["expect"] in ("show", "showdown"):
        state = answer.json()["state"]
        answer = terminal.post(hand_id, {"type": "show", "seat": state["to_act"]}, seq=state["event_count"])
        assert answer.status_code == 201, answer.json()
    return answer


def test_stud_hand_with_a_side_pot_posts_one_balanced_entry_equal_to_the_engine_result(api_client, live_worker):
    # Stud 5/10, ante 1.00, flat Taxe 2.00. Seat 5 (8.00) goes all in on 4th street: main pot 22.00 after
    # the Taxe (won by its trip threes), side pot 26.00 between seats 1 and 3 (won by seat 3's nines).
    table = table_make(game="seven_card_stud")
    terminal = Terminal(api_client, croupier_on_duty(table))
    opened = terminal.open(table, {1: 10000, 3: 10000, 5: 800}, refs={3: "P-0003"})
    assert opened.status_code == 201, opened.json()
    hand_id = opened.json()["id"]
    assert opened.json()["button_seat"] == 1 and opened.json()["number"] == 1
    assert opened.json()["state"]["expect"] == "ante"
    events = [
        {"type": "ante", "seat": 1}, {"type": "ante", "seat": 3}, {"type": "ante", "seat": 5},
        {"type": "deal", "seat": 3, "cards": "9s 9c 8d"}, {"type": "deal", "seat": 5, "cards": "3d 3h 3c"},
        {"type": "deal", "seat": 1, "cards": "As Kc Qs"},
        {"type": "bring_in", "seat": 5}, {"type": "call", "seat": 1}, {"type": "call", "seat": 3},
        {"type": "deal", "seat": 3, "cards": "7c"}, {"type": "deal", "seat": 5, "cards": "4d"},
        {"type": "deal", "seat": 1, "cards": "Jd"},
        {"type": "bet", "seat": 1, "to": "5.00"}, {"type": "call", "seat": 3}, {"type": "call", "seat": 5},
        {"type": "deal", "seat": 3, "cards": "Kd"}, {"type": "deal", "seat": 5, "cards": "5h"},
        {"type": "deal", "seat": 1, "cards": "9d"},
        {"type": "bet", "seat": 3, "to": "10.00"}, {"type": "call", "seat": 1},
        {"type": "deal", "seat": 3, "cards": "6s"}, {"type": "deal", "seat": 5, "cards": "Qh"},
        {"type": "deal", "seat": 1, "cards": "8h"},
        {"type": "check", "seat": 3}, {"type": "check", "seat": 1},
        {"type": "deal", "seat": 3, "cards": "2h"}, {"type": "deal", "seat": 5, "cards": "Jh"},
        {"type": "deal", "seat": 1, "cards": "2d"},
        {"type": "check", "seat": 3}, {"type": "check", "seat": 1},
    ]
    answer = None
    for seq, event in enumerate(events):
        answer = terminal.post(hand_id, event, seq=seq)
        assert answer.status_code == 201, (seq, event, answer.json())
        if seq == 11:  # the Taxe is taken when the last 4th-street card is dealt (R8.1)
            assert answer.json()["state"]["tax"] == "2.00"
    answer = _show_all(terminal, hand_id, answer)
    state = answer.json()["state"]
    assert state["complete"] is True and state["status"] == "closed"
    assert [p["amount"] for p in state["settlement"]["pots"]] == ["22.00", "26.00"]

    hand = Hand.objects.get(pk=hand_id)
    assert hand.status == Hand.Status.CLOSED and hand.closed_at is not None
    assert HandEvent.objects.filter(hand=hand).count() == hand.event_count == len(events) + 3
    entry = JournalEntry.objects.get(hand=hand)
    assert entry.kind == JournalEntry.Kind.HAND_SETTLEMENT and entry.idempotency_key == f"hand:{hand_id}:settlement"
    assert _legs(entry) == sorted([
        ("players", "-21.00", "contribution", 1, None), ("pot", "21.00", "contribution", 1, None),
        ("players", "-21.00", "contribution", 3, None), ("pot", "21.00", "contribution", 3, None),
        ("players", "-8.00", "contribution", 5, None), ("pot", "8.00", "contribution", 5, None),
        ("pot", "-22.00", "award", 5, 0), ("players", "22.00", "award", 5, 0),
        ("pot", "-26.00", "award", 3, 1), ("players", "26.00", "award", 3, 1),
        ("pot", "-2.00", "tax", None, None), ("tax", "2.00", "tax", None, None),
    ])
    assert set(entry.postings.filter(seat=3).values_list("player_ref", flat=True)) == {"P-0003"}
    assert_ledger_balanced()
    assert Table.objects.get(pk=table.pk).button_seat == 3  # the button moved one occupied seat clockwise
    assert _wait_reconciliation_due(hand_id) in (Hand.Reconciliation.AWAITING, Hand.Reconciliation.RECONCILED)

    # accountants read the hand and its entry; a new hand at the table starts from the moved button
    api_client.force_authenticate(accountant())
    assert api_client.get(f"/api/v1/hands/{hand_id}/").json()["journal_entries"] == [entry.pk]
    listed = api_client.get(f"/api/v1/ledger/entries/?hand={hand_id}").json()["results"]
    assert [e["id"] for e in listed] == [entry.pk] and len(listed[0]["postings"]) == 12


def test_forty_one_hand_with_the_41_bonus_posts_tax_and_a_house_bonus_expense(api_client, live_worker):
    # Forty-one 5/10, ante 2.00, forehand (seat 1) blind 5.00: pot 21.00, 5 % tax = 1.05 (B.5), seat 2 wins
    # 19.95 with A K Q J of hearts (41 points) and the house pays it the 41 bonus of 50.00 (B.6).
    table = table_make(game="forty_one")
    terminal = Terminal(api_client, croupier_on_duty(table))
    opened = terminal.open(table, {1: 10000, 2: 10000, 4: 10000})
    hand_id = opened.json()["id"]
    events = [
        {"type": "ante", "seat": 1}, {"type": "ante", "seat": 2}, {"type": "ante", "seat": 4},
        {"type": "blind", "seat": 1},
        {"type": "deal", "seat": 2, "cards": "Ah Kh"}, {"type": "deal", "seat": 4, "cards": "7s 8s"},
        {"type": "deal", "seat": 1, "cards": "7c 8d"},
        {"type": "call", "seat": 2}, {"type": "call", "seat": 4}, {"type": "check", "seat": 1},
        {"type": "deal", "seat": 2, "cards": "Qh Jh"}, {"type": "deal", "seat": 4, "cards": "Tc Jc"},
        {"type": "deal", "seat": 1, "cards": "9s Th"},
        {"type": "expose", "seat": 2, "cards": "Ah Kh"}, {"type": "expose", "seat": 4, "cards": "7s 8s"},
        {"type": "expose", "seat": 1, "cards": "7c 8d"},
        {"type": "check", "seat": 2}, {"type": "check", "seat": 4}, {"type": "check", "seat": 1},
    ]
    answer = terminal.play(hand_id, events)
    answer = _show_all(terminal, hand_id, answer)
    settlement = answer.json()["state"]["settlement"]
    assert settlement["tax"] == "1.05" and settlement["bonus"] == {"2": "50.00"}

    entry = JournalEntry.objects.get(hand_id=hand_id)
    assert _legs(entry) == sorted([
        ("players", "-7.00", "contribution", 1, None), ("pot", "7.00", "contribution", 1, None),
        ("players", "-7.00", "contribution", 2, None), ("pot", "7.00", "contribution", 2, None),
        ("players", "-7.00", "contribution", 4, None), ("pot", "7.00", "contribution", 4, None),
        ("pot", "-19.95", "award", 2, 0), ("players", "19.95", "award", 2, 0),
        ("pot", "-1.05", "tax", None, None), ("tax", "1.05", "tax", None, None),
        ("bonus_expense", "-50.00", "bonus", 2, None), ("players", "50.00", "bonus", 2, None),
    ])
    assert_ledger_balanced()
    assert Table.objects.get(pk=table.pk).button_seat == 2  # the Spitz moves clockwise
    assert _wait_reconciliation_due(hand_id) in (Hand.Reconciliation.AWAITING, Hand.Reconciliation.RECONCILED)


def test_capsa_deal_with_a_foul_and_a_per_pair_stake_posts_transfers_and_the_fee(api_client, live_worker):
    # Capsa 2-4 method, 1.00 a unit, but seats 1 and 2 play at 10.00 a unit. Seat 3 fouls (trips in front):
    # it pays 4 units (3 rows + scoop) to each of seats 1 and 2 at 1.00; seat 2 beats seat 1 on 2 rows
    # (2 units at 10.00 = 20.00). Seat 2 wins 24.00 net and pays the 5 % commission: 1.20 (A.11).
    table = table_make(game="capsa_susun", config={**CAPSA_CONFIG, "pair_stakes": {"1-2": "10.00"}})
    terminal = Terminal(api_client, croupier_on_duty(table))
    opened = terminal.open(table, {1: 100000, 2: 100000, 3: 100000})
    hand_id = opened.json()["id"]
    rows = {1: ("3h 4d 5c", "Ah Ad Kc Kd 2c", "As Ks Qs Js 9s"),
            2: ("Jh Jd 3c", "Th Td 6c 6d 2d", "8h 8d 8c 7h 7d"),
            3: ("Qh Qd Qc", "9h 9d 4h 4c 5d", "Tc Ts 6h 6s 2h")}
    events = [{"type": "deal", "seat": s, "cards": " ".join(r)} for s, r in rows.items()]
    events += [{"type": "set", "seat": s, "front": f, "middle": m, "back": b} for s, (f, m, b) in rows.items()]
    answer = terminal.play(hand_id, events)
    while answer.json()["state"]["expect"] == "surrender":
        state = answer.json()["state"]
        answer = terminal.post(hand_id, {"type": "play", "seat": state["to_act"]}, seq=state["event_count"])
        assert answer.status_code == 201, answer.json()
    answer = terminal.post(hand_id, {"type": "reveal"}, seq=answer.json()["state"]["event_count"])
    assert answer.status_code == 201, answer.json()
    state = answer.json()["state"]
    assert state["fouled"] == [3] and state["status"] == "closed"

    entry = JournalEntry.objects.get(hand_id=hand_id)
    assert seat_sums(entry, "contribution") == {1: -2000, 3: -800}
    assert seat_sums(entry, "award") == {1: 400, 2: 2400}
    assert seat_sums(entry, "fee") == {2: -120}
    assert entry.postings.get(account__code=f"table:{table.pk}:fee").amount == Decimal("1.20")
    assert not entry.postings.filter(role="tax").exists()
    assert_ledger_balanced()
    assert _wait_reconciliation_due(hand_id) in (Hand.Reconciliation.AWAITING, Hand.Reconciliation.RECONCILED)
