"""What a croupier does on the table page, as browser steps (Selenium): tap a button, pick cards, wait for
the hand to move on. Shared by the browser tests of the three games."""

from __future__ import annotations

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

WAIT = 10


def event_count(browser) -> int:
    return int(browser.execute_script("var h = document.getElementById('hand'); return h ? h.dataset.eventCount : 0")
               or 0)


def _settled(browser) -> bool:
    return not browser.execute_script("return document.querySelector('.htmx-request, #pending') !== null")


def wait_count(browser, count: int) -> None:
    WebDriverWait(browser, WAIT).until(lambda d: event_count(d) == count and _settled(d))


def wait_text(browser, text: str) -> None:
    WebDriverWait(browser, WAIT).until(
        lambda d: _settled(d) and text in d.execute_script("return document.getElementById('hand').innerText"))


def tap(browser, kind: str, seat: int | None = None, label: str | None = None, *, expect_logged: bool = True) -> None:
    """Tap the button of ``kind`` (for ``seat``; the one whose text contains ``label``) and wait for it to land."""
    before = event_count(browser)
    selector = f"form.act[data-kind={kind}]" + (f"[data-seat='{seat}']" if seat is not None else "")
    buttons = [b for b in browser.find_elements(By.CSS_SELECTOR, selector + " button[type=submit]")
               if label is None or label in b.text]
    assert buttons, f"no {kind} button for seat {seat} ({label}) on the page: {browser.find_element(By.ID, 'hand').text}"
    buttons[0].click()
    if expect_logged:
        wait_count(browser, before + 1)


def pick(browser, card: str, *, keyboard: bool = False) -> None:
    """Pick one card with the picker: tap its rank, then its suit (or type them)."""
    rank, suit = card[0], card[1]
    if keyboard:
        ActionChains(browser).send_keys(rank.lower()).send_keys(suit).perform()
        return
    browser.find_element(By.CSS_SELECTOR, f"#picker [data-rank='{rank}']").click()
    browser.find_element(By.CSS_SELECTOR, f"#picker [data-suit='{suit}']").click()


def active_card_form(browser):
    return browser.find_element(By.CSS_SELECTOR, "form.cards.active")


def log_cards(browser, cards_by_seat: dict[int, list[str]], *, keyboard: bool = False) -> int:
    """Fill the active card form with the cards of its seat and log it; returns the seat."""
    before = event_count(browser)
    form = active_card_form(browser)
    seat = int(form.get_attribute("data-seat"))
    for card in cards_by_seat.get(seat, []):
        pick(browser, card, keyboard=keyboard)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait_count(browser, before + 1)
    return seat


def deal_round(browser, cards_by_seat: dict[int, list[str]], *, keyboard: bool = False) -> None:
    """Log one card form per seat in ``cards_by_seat`` (in the order the page asks for them)."""
    for _ in cards_by_seat:
        log_cards(browser, cards_by_seat, keyboard=keyboard)


def double_tap(browser, kind: str, seat: int) -> None:
    """Tap a button twice in quick succession (a double tap)."""
    button = browser.find_element(By.CSS_SELECTOR, f"form.act[data-kind={kind}][data-seat='{seat}'] button[type=submit]")
    ActionChains(browser).double_click(button).perform()


def open_hand(browser, table, stacks: dict[int, str]) -> None:
    """On the table page: tick the seats in ``stacks`` (others unticked), set the stacks, start the hand."""
    browser.get(f"{browser.base}/croupier/tables/{table.pk}/")
    for n in range(1, table.seats + 1):
        box = browser.find_element(By.NAME, f"seat_{n}")
        if box.is_selected() != (n in stacks):
            box.click()
        if n in stacks:
            field = browser.find_element(By.NAME, f"stack_{n}")
            field.clear()
            field.send_keys(stacks[n])
    browser.find_element(By.CSS_SELECTOR, ".next-hand button[type=submit]").click()
    WebDriverWait(browser, WAIT).until(
        lambda d: d.execute_script("return document.getElementById('hand').dataset.status") == "open" and _settled(d))


def sign_in(login, browser, user, language: str = "en") -> None:
    """Log ``user`` in through the form and wait until the login has landed."""
    login(user, language)
    WebDriverWait(browser, WAIT).until(lambda d: "/accounts/login/" not in d.current_url)
