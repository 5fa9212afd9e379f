"""A croupier deals a Forty-one hand on the table page only (issue 15): antes, the forehand's blind (the
Spitz marked), two deals, two betting rounds, each seat exposing two of its four cards (picked from its
own cards), the showdown with a 41 (A♥ K♥ Q♥ J♥) paid the 41 bonus by the house, the tax; then the
hand's ledger entry."""

from __future__ import annotations

from decimal import Decimal

import pytest
from selenium.webdriver.common.by import By

from accounting.models import JournalEntry
from tables.models import Hand
from tests.browser.croupier_support import deal_round, open_hand, sign_in, tap, wait_text
from tests.tables.hands_support import croupier_on_duty, table_make

pytestmark = pytest.mark.django_db(transaction=True)

FIRST = {1: ["7s", "8d"], 2: ["Ah", "Kh"], 3: ["Js", "Qd"]}
SECOND = {1: ["9c", "Th"], 2: ["Qh", "Jh"], 3: ["Ks", "9h"]}
EXPOSED = {1: ["7s", "Th"], 2: ["Ah", "Qh"], 3: ["Js", "9h"]}


def test_croupier_deals_a_forty_one_hand_with_the_41_bonus(browser, login, shot):
    table = table_make(game="forty_one", name="Forty-one browser", seats=5)
    croupier = croupier_on_duty(table, "f41-croupier")
    sign_in(login, browser, croupier)
    open_hand(browser, table, {1: "100.00", 2: "100.00", 3: "100.00"})
    hand = Hand.objects.get(table=table)
    assert "forehand (Spitz)" in browser.find_element(By.CSS_SELECTOR, ".seat[data-seat='1']").text

    for _ in range(3):
        tap(browser, "ante")
    tap(browser, "blind", 1)
    deal_round(browser, FIRST)
    tap(browser, "call")
    tap(browser, "call")
    tap(browser, "check")
    deal_round(browser, SECOND, keyboard=True)
    deal_round(browser, EXPOSED)                    # the picker offers only the seat's own four cards
    assert "A♥" in browser.find_element(By.CSS_SELECTOR, ".seat[data-seat='2']").text
    for _ in range(3):
        tap(browser, "check")
    for _ in range(3):
        tap(browser, "show")
    wait_text(browser, "Settlement")
    shot("final")
    text = browser.find_element(By.ID, "hand").text
    assert "Seat 2 is paid the 41 bonus of 50.00 by the house" in text
    assert "Seat 2 wins" in text

    hand.refresh_from_db()
    assert hand.status == Hand.Status.CLOSED
    entry = JournalEntry.objects.get(hand=hand, kind=JournalEntry.Kind.HAND_SETTLEMENT)
    postings = list(entry.postings.all())
    assert sum(p.amount for p in postings) == 0
    assert sum(p.amount for p in postings if p.role == "bonus" and p.seat == 2 and p.amount > 0) == Decimal("50.00")
