"""A tap that cannot reach the server is shown as "not yet sent" and retried with the same idempotency
key until it lands: the action is logged once (issue 15). The network is cut with Chromium's own
network emulation, then restored."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tables.models import Hand, HandEvent
from tests.browser.croupier_support import open_hand, sign_in, wait_count
from tests.tables.hands_support import croupier_on_duty, table_make

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_tap_sent_while_offline_is_retried_with_the_same_key_and_logged_once(browser, login, shot):
    table = table_make(game="seven_card_stud", name="Stud offline", seats=8)
    croupier = croupier_on_duty(table, "offline-croupier")
    sign_in(login, browser, croupier)
    open_hand(browser, table, {1: "50.00", 2: "50.00"})
    hand = Hand.objects.get(table=table)
    browser.set_network_conditions(offline=True, latency=0, download_throughput=0, upload_throughput=0)
    try:
        browser.find_element(By.CSS_SELECTOR, "form.act[data-kind=ante][data-seat='2'] button").click()
        WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.ID, "pending"))
        assert "Not yet sent" in browser.find_element(By.ID, "pending").text
        key = browser.find_element(By.CSS_SELECTOR, "form.act[data-kind=ante][data-seat='2'] input[name=idempotency_key]"
                                   ).get_attribute("value")
        shot("not-yet-sent")
        assert HandEvent.objects.filter(hand=hand).count() == 0
    finally:
        browser.set_network_conditions(offline=False, latency=0, download_throughput=-1, upload_throughput=-1)
    wait_count(browser, 1)
    assert list(HandEvent.objects.filter(hand=hand).values_list("idempotency_key", "payload__seat")) == [(key, 2)]
    assert not browser.find_elements(By.ID, "pending")
