"""A croupier deals a Forty-one hand on the table page only (issue 15): antes, the forehand's blind (the
Spitz marked), two deals face down logged as unseen (``??``), two betting rounds, each seat exposing two
of its four cards (named then, picked among the unseen cards), the showdown naming the other two with a
41 (A♥ K♥ Q♥ J♥) paid the 41 bonus by the house, the tax; then the hand's ledger entry. At a table that
records every card the deals name the cards and the exposure offers only the seat's own four."""

from __future__ import annotations

from decimal import Decimal

import pytest
from selenium.webdriver.common.by import By

from accounting.models import JournalEntry
from tables.models import Hand
from tests.browser.croupier_support import deal_round, log_cards, open_hand, sign_in, tap, wait_text
from tests.tables.hands_support import croupier_on_duty, table_make

pytestmark = pytest.mark.django_db(transaction=True)

FIRST = {1: ["7s", "8d"], 2: ["Ah", "Kh"], 3: ["Js", "Qd"]}
SECOND = {1: ["9c", "Th"], 2: ["Qh", "Jh"], 3: ["Ks", "9h"]}
EXPOSED = {1: ["7s", "Th"], 2: ["Ah", "Qh"], 3: ["Js", "9h"]}
SHOWN = {1: ["8d", "9c"], 2: ["Kh", "Jh"], 3: ["Qd", "Ks"]}   # the two cards each seat did not expose
UNSEEN = {1: [], 2: [], 3: []}                                 # dealt face down: preset as ??


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
    assert browser.find_element(By.CSS_SELECTOR, "form.cards.active .slot").text == "??"
    assert not browser.find_element(By.ID, "picker").is_displayed()  # nothing to pick: the cards were not seen
    deal_round(browser, UNSEEN)
    tap(browser, "call")
    tap(browser, "call")
    tap(browser, "check")
    deal_round(browser, UNSEEN)
    deal_round(browser, EXPOSED, keyboard=True)     # the exposure names two cards, picked among the unseen
    assert "A♥" in browser.find_element(By.CSS_SELECTOR, ".seat[data-seat='2']").text
    for _ in range(3):
        tap(browser, "check")
    shot("showdown")
    for _ in range(3):
        log_cards(browser, SHOWN)                   # the exposed two preset; the other two entered now
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


def test_a_forty_one_table_that_records_every_card_names_them_on_the_deal(browser, login, shot):
    from tables.services.floor import table_update

    table = table_make(game="forty_one", name="Forty-one camera", seats=5)
    table_update(table=table, record_down_cards=True, reason="camera at this table")
    croupier = croupier_on_duty(table, "f41-camera")
    sign_in(login, browser, croupier)
    open_hand(browser, table, {1: "100.00", 2: "100.00", 3: "100.00"})
    for _ in range(3):
        tap(browser, "ante")
    tap(browser, "blind", 1)
    deal_round(browser, FIRST)
    tap(browser, "call")
    tap(browser, "call")
    tap(browser, "check")
    deal_round(browser, SECOND, keyboard=True)
    form = browser.find_element(By.CSS_SELECTOR, "form.cards.active")
    assert form.get_attribute("data-kind") == "expose"
    seat = int(form.get_attribute("data-seat"))
    offered = {b.get_attribute("data-rank") for b in browser.find_elements(By.CSS_SELECTOR, "#picker [data-rank]")
               if b.is_enabled()}
    assert offered == {c[0] for c in FIRST[seat] + SECOND[seat]}  # only the seat's own four cards
    deal_round(browser, EXPOSED)
    for _ in range(3):
        tap(browser, "check")
    for _ in range(3):
        tap(browser, "show")                        # every card is recorded: one tap
    wait_text(browser, "Settlement")
    shot("final-recorded")
    assert "Seat 2 is paid the 41 bonus" in browser.find_element(By.ID, "hand").text
