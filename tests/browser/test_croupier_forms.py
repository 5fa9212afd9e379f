"""The croupier's table page, through the page only (issue 15): a card exposed by accident (stud R12.2: the
seat's card dealt face up; Forty-one B.4b: a misdeal), a refused next-hand form that keeps the input and
lists every problem, and the spread-limit amount picker (chip steps, quick amounts, the keyboard)."""

from __future__ import annotations

import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tables.models import Hand, HandEvent
from tests.browser.croupier_support import (
    active_card_form,
    event_count,
    open_hand,
    pick,
    sign_in,
    tap,
    wait_count,
    wait_text,
)
from tests.tables.hands_support import croupier_on_duty, table_make

pytestmark = pytest.mark.django_db(transaction=True)


def _log_exposed(browser, card: str) -> None:
    before = event_count(browser)
    browser.find_element(By.CSS_SELECTOR, "details.exposure summary").click()
    pick(browser, card)
    browser.find_element(By.CSS_SELECTOR, "form.exposed button[type=submit]").click()
    wait_count(browser, before + 1)


def test_a_stud_down_card_exposed_on_the_deal(browser, login, shot):
    table = table_make(game="seven_card_stud", name="Stud exposed", seats=8)
    sign_in(login, browser, croupier_on_duty(table, "exposed-croupier"))
    open_hand(browser, table, {1: "50.00", 2: "50.00", 3: "50.00"})
    hand = Hand.objects.get(table=table)
    for seat in (1, 2, 3):
        tap(browser, "ante", seat)
    seat = int(active_card_form(browser).get_attribute("data-seat"))
    _log_exposed(browser, "As")
    shot("exposed")
    assert "A♠" in browser.find_element(By.CSS_SELECTOR, f".seat[data-seat='{seat}']").text
    form = active_card_form(browser)
    assert form.get_attribute("data-seat") == str(seat)
    assert [s.text for s in form.find_elements(By.CSS_SELECTOR, ".slot")] == ["??", "??"]  # the third comes down
    event = HandEvent.objects.get(hand=hand, payload__face="up")
    assert event.payload["seat"] == seat and event.payload["cards"] == "As"


def test_a_forty_one_card_exposed_on_the_first_deal_is_a_misdeal(browser, login, shot):
    table = table_make(game="forty_one", name="Forty-one exposed", seats=5)
    sign_in(login, browser, croupier_on_duty(table, "f41-exposed-croupier"))
    open_hand(browser, table, {1: "100.00", 2: "100.00", 3: "100.00"})
    hand = Hand.objects.get(table=table)
    for _ in range(3):
        tap(browser, "ante")
    tap(browser, "blind", 1)
    _log_exposed(browser, "Ah")
    wait_text(browser, "Hand void")
    shot("misdeal")
    hand.refresh_from_db()
    assert hand.status != Hand.Status.OPEN
    assert HandEvent.objects.get(hand=hand, payload__type="misdeal").payload["reason"] == "card exposed on the deal: Ah"


def test_a_refused_next_hand_keeps_the_input_and_lists_every_problem(browser, login, shot):
    table = table_make(game="forty_one", name="Forty-one next hand", seats=5)
    sign_in(login, browser, croupier_on_duty(table, "next-hand-croupier"))
    browser.get(f"{browser.base}/croupier/tables/{table.pk}/")
    for seat, stack in ((1, "abc"), (2, "-5")):
        browser.find_element(By.NAME, f"seat_{seat}").click()
        browser.find_element(By.NAME, f"stack_{seat}").send_keys(stack)
    browser.find_element(By.CSS_SELECTOR, ".next-hand button[type=submit]").click()
    wait_text(browser, "3 problems")
    shot("refused")
    problems = [li.text for li in browser.find_elements(By.CSS_SELECTOR, ".refusal .problems li")]
    assert len(problems) == 3 and any("players" in p for p in problems)
    assert browser.find_element(By.NAME, "stack_1").get_attribute("value") == "abc"
    assert browser.find_element(By.NAME, "seat_2").is_selected()
    for seat, stack in ((1, "100.00"), (2, "100.00"), (3, "100.00")):  # fix the form in place and start
        if not browser.find_element(By.NAME, f"seat_{seat}").is_selected():
            browser.find_element(By.NAME, f"seat_{seat}").click()
        field = browser.find_element(By.NAME, f"stack_{seat}")
        field.clear()
        field.send_keys(stack)
    browser.find_element(By.CSS_SELECTOR, ".next-hand button[type=submit]").click()
    wait_text(browser, "Hand #1")
    assert Hand.objects.get(table=table).seats["3"]["stack"] == 10000


def _to_the_bring_in(hand, croupier, key: str) -> None:
    """Log a two-seat stud hand up to the bring-in by seat 1 (antes, the third-street deals), through the service."""
    from tables.services.hands import hand_event_append

    for n, event in enumerate(({"type": "ante", "seat": 1}, {"type": "ante", "seat": 3},
                               {"type": "deal", "seat": 1, "cards": "?? ?? 3c"},
                               {"type": "deal", "seat": 3, "cards": "?? ?? Kd"}, {"type": "bring_in", "seat": 1})):
        hand_event_append(hand=hand.pk, event=event, idempotency_key=f"{key}-{n}", expected_seq=n, actor=croupier)


def test_the_spread_limit_amount_picker(browser, login, shot):

    table = table_make(game="seven_card_stud", name="Stud spread", seats=8, config={
        "limit_type": "spread", "spread_min": "10.00", "spread_max": "50.00", "ante": "1.00", "taxe_amount": "2.00"})
    croupier = croupier_on_duty(table, "spread-browser-croupier")
    sign_in(login, browser, croupier)
    open_hand(browser, table, {1: "200.00", 3: "200.00"})
    hand = Hand.objects.get(table=table)
    _to_the_bring_in(hand, croupier, "setup")
    browser.get(f"{browser.base}/croupier/tables/{table.pk}/")
    form = browser.find_element(By.CSS_SELECTOR, "form.spread[data-kind=raise]")
    label = form.find_element(By.CSS_SELECTOR, "button[type=submit] [data-to-label]")
    assert label.text == "20.00"                                  # the minimum: bring-in 10.00 + 10.00
    form.find_element(By.CSS_SELECTOR, "button[data-delta='5']").click()
    form.find_element(By.CSS_SELECTOR, "button[data-delta='1']").click()
    assert label.text == "26.00"
    form.find_element(By.CSS_SELECTOR, ".quick button:last-child").click()
    assert label.text == "60.00"                                  # the maximum: 10.00 + 50.00
    form.find_element(By.CSS_SELECTOR, "button[data-delta='1']").click()
    assert label.text == "60.00"                                  # bounded
    slider = form.find_element(By.CSS_SELECTOR, "input[name=to_cents]")
    slider.send_keys(Keys.HOME, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.PAGE_UP)
    assert label.text == "27.00" and form.find_element(By.CSS_SELECTOR, "[data-add-label]").text == "27.00"
    shot("spread")
    before = event_count(browser)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait_count(browser, before + 1)
    assert HandEvent.objects.filter(hand=hand, payload__type="raise", payload__to=2700).count() == 1


def test_the_spread_picker_groups_thousands_the_german_way_as_it_moves(browser, login):
    """Issue 18: the picker's moving label wrote ``12345,00`` beside the page's ``12.345,00``."""
    from tables.services.hands import SeatInput, hand_open

    table = table_make(game="seven_card_stud", name="Stud spread de", seats=8, config={
        "limit_type": "spread", "spread_min": "1000.00", "spread_max": "20000.00", "ante": "1.00", "taxe_amount": "2.00"})
    croupier = croupier_on_duty(table, "spread-german-croupier")
    hand_stacks = {1: 5_000_000, 3: 5_000_000}
    sign_in(login, browser, croupier, "de-at")
    hand = hand_open(table=table, seats=[SeatInput(seat=s, stack=c) for s, c in hand_stacks.items()], actor=croupier)
    _to_the_bring_in(hand, croupier, "setup-de")
    browser.get(f"{browser.base}/croupier/tables/{table.pk}/")
    form = browser.find_element(By.CSS_SELECTOR, "form.spread[data-kind=raise]")
    label = form.find_element(By.CSS_SELECTOR, "button[type=submit] [data-to-label]")
    first = label.text
    form.find_element(By.CSS_SELECTOR, "button[data-delta='5']").click()
    moved = label.text
    form.find_element(By.CSS_SELECTOR, ".quick button:last-child").click()
    highest = label.text
    for text in (first, moved, highest):
        assert re.fullmatch(r"[0-9]{1,3}(\.[0-9]{3})+,[0-9]{2}", text), (first, moved, highest)
    assert highest in form.find_element(By.CSS_SELECTOR, ".quick button:last-child").text  # as the page wrote it
