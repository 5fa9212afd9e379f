"""Posting a hand's result: the legs follow the ledger convention exactly (contribution, award per pot,
returned, tax, fee, bonus), zero amounts are left out, every entry and every pot account nets to zero."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounting.models import JournalEntry
from accounting.services.settlement import hand_settlement_post, hand_void_post, settlement_lines
from casino.errors import ApplicationError
from rules.engines.base import PairTransfer, Pot, Settlement
from tables.services.hands import SeatInput, hand_open
from tests.tables.hands_support import floor_manager, table_make

pytestmark = pytest.mark.django_db


@pytest.fixture
def hand():
    table = table_make(game="seven_card_stud")
    seats = [SeatInput(seat=1, stack=10000, player_ref="P-1"), SeatInput(seat=3, stack=10000),
             SeatInput(seat=5, stack=800)]
    return hand_open(table=table, seats=seats, actor=floor_manager())


def _legs(lines) -> list[tuple[str, str, str, int | None, int | None]]:
    return sorted((line.account.code.split(":")[-1], f"{line.amount:.2f}", line.role, line.seat, line.pot_index)
                  for line in lines)


def test_side_pot_hand_with_an_uncalled_bet_and_taxe(hand):
    # seat 5 all in for 8.00; seat 1's last 10.00 bet is uncalled and comes back; Taxe 2.00 from the main pot
    result = Settlement(contributions={1: 3100, 3: 2100, 5: 800}, awards={5: 2200, 3: 2600}, returned={1: 1000},
                        tax=200, pots=(Pot(2200, (1, 3, 5)), Pot(2600, (1, 3))),
                        pot_awards=((0, 5, 2200), (1, 3, 2600)))
    assert _legs(settlement_lines(hand=hand, settlement=result)) == sorted([
        ("players", "-31.00", "contribution", 1, None), ("pot", "31.00", "contribution", 1, None),
        ("players", "-21.00", "contribution", 3, None), ("pot", "21.00", "contribution", 3, None),
        ("players", "-8.00", "contribution", 5, None), ("pot", "8.00", "contribution", 5, None),
        ("pot", "-22.00", "award", 5, 0), ("players", "22.00", "award", 5, 0),
        ("pot", "-26.00", "award", 3, 1), ("players", "26.00", "award", 3, 1),
        ("pot", "-10.00", "returned", 1, None), ("players", "10.00", "returned", 1, None),
        ("pot", "-2.00", "tax", None, None), ("tax", "2.00", "tax", None, None),
    ])


def test_player_reference_goes_on_the_seat_legs_never_a_name(hand):
    result = Settlement(contributions={1: 100, 3: 100}, awards={1: 200}, pot_awards=((0, 1, 200),))
    refs = {(line.seat, line.player_ref) for line in settlement_lines(hand=hand, settlement=result)}
    assert refs == {(1, "P-1"), (3, "")}


def test_forty_one_bonus_is_a_house_expense_paid_to_the_seat(hand):
    result = Settlement(contributions={1: 700, 3: 700}, awards={3: 1330}, tax=70, bonus={3: 5000},
                        pot_awards=((0, 3, 1330),))
    legs = _legs(settlement_lines(hand=hand, settlement=result))
    assert ("bonus_expense", "-50.00", "bonus", 3, None) in legs and ("players", "50.00", "bonus", 3, None) in legs


def test_capsa_payments_and_the_fee_without_pots(hand):
    # seat 5 pays 8.00 to seat 1 and 12.00 to seat 3; seat 3 pays the 5 % fee on its 12.00 win
    result = Settlement(contributions={1: 0, 3: 0, 5: 2000}, awards={1: 800, 3: 1200}, fees={3: 60},
                        transfers=(PairTransfer(5, 1, 4, 800), PairTransfer(5, 3, 6, 1200)))
    assert _legs(settlement_lines(hand=hand, settlement=result)) == sorted([
        ("players", "-20.00", "contribution", 5, None), ("pot", "20.00", "contribution", 5, None),
        ("pot", "-8.00", "award", 1, None), ("players", "8.00", "award", 1, None),
        ("pot", "-12.00", "award", 3, None), ("players", "12.00", "award", 3, None),
        ("players", "-0.60", "fee", 3, None), ("fee", "0.60", "fee", 3, None),
    ])


def test_an_unbalanced_settlement_is_never_posted(hand):
    with pytest.raises(ApplicationError, match="unbalanced"):
        hand_settlement_post(hand=hand, settlement=Settlement(contributions={1: 100, 3: 100}, awards={1: 150}))
    assert not JournalEntry.objects.exists()


def test_per_pot_awards_that_disagree_with_the_awards_are_refused(hand):
    bad = Settlement(contributions={1: 100, 3: 100}, awards={1: 200}, pot_awards=((0, 3, 200),))
    with pytest.raises(ApplicationError, match="per-pot awards"):
        hand_settlement_post(hand=hand, settlement=bad)


def test_posting_a_hand_twice_posts_one_entry(hand):
    result = Settlement(contributions={1: 100, 3: 100}, awards={1: 200}, pot_awards=((0, 1, 200),))
    first = hand_settlement_post(hand=hand, settlement=result)
    assert hand_settlement_post(hand=hand, settlement=result) == first
    assert JournalEntry.objects.count() == 1 and first.idempotency_key == f"hand:{hand.pk}:settlement"


def test_a_hand_where_no_money_moved_posts_nothing(hand):
    assert hand_settlement_post(hand=hand, settlement=Settlement(contributions={1: 0, 3: 0}, awards={})) is None
    assert hand_void_post(hand=hand, contributions={1: 0}, reason="misdeal") is None
    assert not JournalEntry.objects.exists()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_balanced_settlement_posts_a_balanced_entry_that_clears_the_pot(hand, data):
    seats = [1, 3, 5]
    contributions = {s: data.draw(st.integers(0, 50_000), label=f"c{s}") for s in seats}
    total = sum(contributions.values())
    tax = data.draw(st.integers(0, total), label="tax")
    returned_seat = data.draw(st.sampled_from(seats), label="returned seat")
    returned = data.draw(st.integers(0, total - tax), label="returned")
    rest = total - tax - returned
    winner_share = data.draw(st.integers(0, rest), label="split")
    awards = {1: winner_share, 3: rest - winner_share}
    fees = {s: data.draw(st.integers(0, 500), label=f"f{s}") for s in seats}
    bonus = {s: data.draw(st.sampled_from([0, 5000]), label=f"b{s}") for s in seats}
    result = Settlement(contributions=contributions, awards=awards, returned={returned_seat: returned}, tax=tax,
                        fees=fees, bonus=bonus)
    lines = settlement_lines(hand=hand, settlement=result)
    assert sum(line.amount for line in lines) == 0
    assert sum(line.amount for line in lines if line.account.code.endswith(":pot")) == 0
    assert all(line.amount != 0 for line in lines)
    players = sum(line.amount for line in lines if line.account.code.endswith(":players"))
    assert players * 100 == sum(result.net.values())


def test_void_refunds_every_contribution_in_one_balanced_entry(hand):
    entry = hand_void_post(hand=hand, contributions={"1": 600, "3": 600, "5": 0}, reason="misdeal")
    assert entry.kind == JournalEntry.Kind.HAND_VOID and entry.reason == "misdeal"
    legs = sorted((p.account.code.split(":")[-1], p.amount, p.role, p.seat) for p in entry.postings.all())
    assert legs == sorted([("players", Decimal("-6.00"), "contribution", 1), ("pot", Decimal("6.00"), "contribution", 1),
                           ("players", Decimal("-6.00"), "contribution", 3), ("pot", Decimal("6.00"), "contribution", 3),
                           ("pot", Decimal("-6.00"), "refund", 1), ("players", Decimal("6.00"), "refund", 1),
                           ("pot", Decimal("-6.00"), "refund", 3), ("players", Decimal("6.00"), "refund", 3)])
