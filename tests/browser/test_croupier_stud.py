"""A croupier deals a full Seven Card Stud hand on the table page only (issue 15): antes, down cards as
``??``, the bring-in, three raises and a refused fourth (R6.2, the rule linked), a short stack all in
(a side pot), an open pair on 4th street, a double tap that logs once, the Taxe, the showdown with the
down cards named, the settlement; then the hand's ledger entry."""

from __future__ import annotations

from decimal import Decimal

import pytest
from selenium.webdriver.common.by import By

from accounting.models import JournalEntry
from tables.models import Hand, HandEvent
from tests.browser.croupier_support import (
    deal_round,
    double_tap,
    event_count,
    log_cards,
    open_hand,
    sign_in,
    tap,
    wait_count,
    wait_text,
)
from tests.tables.hands_support import croupier_on_duty, table_make

pytestmark = pytest.mark.django_db(transaction=True)

UP = {3: {1: ["3c"], 2: ["Kd"], 3: ["9h"]}, 4: {1: ["4d"], 2: ["Kh"], 3: ["9s"]},
      5: {1: ["7s"], 2: ["5c"], 3: ["Tc"]}, 6: {1: ["8h"], 2: ["6d"], 3: ["Td"]}}
SHOWN = {1: ["As", "Ah", "2c"], 2: ["Qs", "Js", "2d"], 3: ["2h", "3d", "4s"]}


def test_croupier_deals_a_stud_hand_to_showdown_with_a_side_pot(browser, login, shot):
    table = table_make(game="seven_card_stud", name="Stud browser", seats=8)
    croupier = croupier_on_duty(table, "stud-croupier")
    sign_in(login, browser, croupier)
    browser.get(f"{browser.base}/croupier/")
    browser.find_element(By.PARTIAL_LINK_TEXT, "Stud browser").click()
    open_hand(browser, table, {1: "100.00", 2: "100.00", 3: "12.00"})
    hand = Hand.objects.get(table=table)

    for seat in (1, 2, 3):
        tap(browser, "ante", seat)
    deal_round(browser, UP[3])                      # the down cards are preset as ?? (not seen)
    assert "3♣" in browser.find_element(By.CSS_SELECTOR, ".seat[data-seat='1']").text
    tap(browser, "bring_in", 1)
    tap(browser, "raise", 2, "10.00")
    tap(browser, "call", 3)
    tap(browser, "raise", 1, "15.00")
    tap(browser, "raise", 2, "20.00")
    tap(browser, "call", 3)                          # all in for the last 1.00: a side pot
    assert "ALL IN" in browser.find_element(By.CSS_SELECTOR, ".seat[data-seat='3']").text.upper()

    # Seat 1 declares a fourth raise: refused with the rule, nothing logged.
    before = event_count(browser)
    browser.find_element(By.CSS_SELECTOR, "details.declare summary").click()
    browser.find_element(By.CSS_SELECTOR, "#declare-type option[value=raise]").click()
    browser.find_element(By.CSS_SELECTOR, ".declare-form input[name=to]").send_keys("25.00")
    browser.find_element(By.CSS_SELECTOR, ".declare-form button[type=submit]").click()
    wait_text(browser, "Refused")
    refusal = browser.find_element(By.CSS_SELECTOR, ".refusal")
    assert "R6.2" in refusal.find_element(By.CSS_SELECTOR, "a.rule").text
    assert event_count(browser) == before == HandEvent.objects.filter(hand=hand).count()
    shot("refused-fourth-raise")
    tap(browser, "call", 1, "5.00")                  # the call shows what the player adds
    pots = browser.find_element(By.CSS_SELECTOR, ".pots").text
    assert "Main pot 36.00" in pots and "Side pot 1 18.00" in pots

    deal_round(browser, UP[4], keyboard=True)        # keyboard: rank key, suit key
    assert "Taxe 2.00" in browser.find_element(By.CSS_SELECTOR, ".pots").text
    assert browser.find_elements(By.XPATH, "//form[@data-kind='bet']//button[contains(., '10.00')]")  # open pair
    shot("fourth-street")
    before = event_count(browser)
    double_tap(browser, "check", 2)
    wait_count(browser, before + 1)
    tap(browser, "check", 1)
    assert HandEvent.objects.filter(hand=hand, payload__type="check").count() == 2
    for street in (5, 6):                            # the high board acts first (6th: seat 3 is all in)
        deal_round(browser, UP[street])
        tap(browser, "check")
        tap(browser, "check")
    deal_round(browser, {1: [], 2: [], 3: []})       # 7th street: face down, logged as ??
    tap(browser, "check")
    tap(browser, "check")
    for _ in range(3):                               # the showdown: each hand's down cards named
        log_cards(browser, SHOWN)
    wait_text(browser, "Settlement")
    shot("final")
    text = browser.find_element(By.ID, "hand").text
    assert "Seat 3 wins 34.00 from the main pot" in text
    assert "Seat 1 wins 18.00 from the side pot 1" in text
    assert "House take (Taxe): 2.00" in text

    hand.refresh_from_db()
    assert hand.status == Hand.Status.CLOSED
    entry = JournalEntry.objects.get(hand=hand, kind=JournalEntry.Kind.HAND_SETTLEMENT)
    postings = list(entry.postings.all())
    assert sum(p.amount for p in postings) == 0
    assert sum(p.amount for p in postings if p.role == "tax" and p.amount > 0) == Decimal("2.00")
    # The next hand starts from the carried stacks: seat 3 won 34.00 (12.00 in), seat 1 18.00.
    assert browser.find_element(By.NAME, "stack_3").get_attribute("value") == "34.00"
