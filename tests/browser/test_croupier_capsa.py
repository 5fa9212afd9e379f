"""A croupier logs a Capsa Susun deal on the table page only (issue 15): each player's 13 cards entered as
front / middle / back with the card picker, a Check that shows the foul, the units and the money before
anything is logged, then Confirm; then the deal's ledger entry."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from accounting.models import JournalEntry
from tables.models import Hand, HandEvent
from tests.browser.croupier_support import event_count, open_hand, pick, sign_in, wait_text
from tests.tables.hands_support import croupier_on_duty, table_make

pytestmark = pytest.mark.django_db(transaction=True)

#: Seat 1 fouls (its back, a pair of queens, is weaker than its middle, a pair of kings); seat 2 is set right.
ROWS = {
    1: {"front": ["As", "Ad", "2c"], "middle": ["Kc", "Kd", "3h", "4s", "5d"], "back": ["Qs", "Qh", "6c", "7d", "8h"]},
    2: {"front": ["2d", "3c", "4h"], "middle": ["9c", "9d", "Th", "Js", "6s"], "back": ["Tc", "Td", "Ts", "7c", "8c"]},
}


def test_croupier_logs_a_capsa_deal_with_a_foul(browser, login, shot):
    table = table_make(game="capsa_susun", name="Capsa browser", seats=4)
    croupier = croupier_on_duty(table, "capsa-croupier")
    sign_in(login, browser, croupier)
    open_hand(browser, table, {1: "100.00", 2: "100.00"})
    hand = Hand.objects.get(table=table)

    for seat, rows in ROWS.items():
        for row in ("front", "middle", "back"):
            browser.find_element(By.CSS_SELECTOR, f".capsa-seat[data-seat='{seat}'] [data-row={row}]").click()
            for card in rows[row]:
                pick(browser, card, keyboard=seat == 2)
    browser.find_element(By.CSS_SELECTOR, "form.capsa button[value=preview]").click()
    wait_text(browser, "Before confirming")
    preview = browser.find_element(By.CSS_SELECTOR, ".preview").text
    assert "Seat 1: foul" in preview
    assert "units" in preview
    assert HandEvent.objects.filter(hand=hand).count() == 0 and event_count(browser) == 0
    shot("preview")
    browser.find_element(By.CSS_SELECTOR, "form.capsa button[value=confirm]").click()
    wait_text(browser, "Settlement")
    shot("final")
    text = browser.find_element(By.ID, "hand").text
    assert "Seat 1 pays seat 2" in text
    for seat in (1, 2):  # the felt shows the stacks after the settlement
        now = browser.find_element(By.CSS_SELECTOR, f".outcome tr[data-seat='{seat}'] td:last-child").text
        assert browser.find_element(By.CSS_SELECTOR, f".seat[data-seat='{seat}'] .stack").text == now != "100.00"

    hand.refresh_from_db()
    assert hand.status == Hand.Status.CLOSED
    entry = JournalEntry.objects.get(hand=hand, kind=JournalEntry.Kind.HAND_SETTLEMENT)
    postings = list(entry.postings.all())
    assert sum(p.amount for p in postings) == 0
    assert any(p.role == "transfer" for p in postings) or any(p.role == "award" for p in postings)
