"""A portrait tablet (800x1280) and a landscape one (1280x800) see every column and every card's border, in
German as in English (break-test finding: at 800 wide the gaming day's drop-count table lost its last column,
"Differenz abgezeichnet von accountant3", and the tables' right borders on the day page and on
``/floor/dealers/`` were cut off).

The pages carry the long cases: a drop count signed off by a third accountant, one waiting for its
confirmation, the open discrepancy with its note box, a tronc count, and on the dealers page a dealer with a
long user name at a table with a long name, and a push with a long reason. No element may reach past the viewport, and no box that
clips or scrolls (a table's ``.scroll`` wrapper) may hide part of its content.
"""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from accounting.selectors import drop_logged
from accounting.services.drop import drop_count_confirm, drop_count_record, drop_count_sign_off
from accounting.services.tronc import tronc_count_confirm, tronc_count_record
from tables.models import Table
from tables.services.dealer_push import dealer_push
from tests.browser.test_accounting_close import _seed_demo_day
from tests.factories import make_dealer, make_table

#: Every element past the viewport's right edge, every clipping/scrolling box whose content is wider than it
#: (visually hidden labels aside), and a page that scrolls sideways.
_OVERFLOWS = """
const vw = document.documentElement.clientWidth, bad = [];
const name = el => el.tagName.toLowerCase() + (el.getAttribute('id') ? '#' + el.getAttribute('id') : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().replace(/\\s+/g, '.') : '');
for (const el of document.querySelectorAll('body *')) {
  if (el.closest('.sr-only')) continue;
  const box = el.getBoundingClientRect();
  if (box.width > 0 && box.right > vw + 0.5) bad.push(name(el) + ' reaches ' + Math.round(box.right) + ' px');
  if (getComputedStyle(el).overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1)
    bad.push(name(el) + ' hides ' + (el.scrollWidth - el.clientWidth) + ' px of its content');
}
if (document.documentElement.scrollWidth > vw) bad.push('the page scrolls sideways');
return [vw, bad.slice(0, 12)];
"""


@pytest.fixture
def long_evening(role_user, django_user_model):
    """The demo's previous gaming day with its counts in every state, and a dealers page with long names."""
    day, stud2 = _seed_demo_day(role_user)  # also makes accountant2 and accountant3 (the demo's four eyes)
    first = role_user("accountant", username="accountant")
    second, third = (django_user_model.objects.get(username=name) for name in ("accountant2", "accountant3"))
    over = drop_logged(table_id=stud2.id, gaming_day=day) + 75  # a variance over the threshold: signed off
    signed = drop_count_record(table=stud2, gaming_day=day, counted=f"{over:.2f}", actor=first)
    drop_count_confirm(drop_count=signed, actor=second)
    drop_count_sign_off(drop_count=signed, actor=third, note="mistyped count, recounted with the pit boss")
    drop_count_record(table=Table.objects.get(name="Stud 1"), gaming_day=day, counted="0.00", actor=first)
    tronc = tronc_count_record(table=stud2, gaming_day=day, counted="48.50", actor=first)
    tronc_count_confirm(tronc_count=tronc, actor=second)

    floor = django_user_model.objects.get(username="floor")
    hi_lo = make_table(game="seven_card_stud_hi_lo", name="Seven Card Stud Hi-Lo Turniertisch 12", status=Table.Status.OPEN)
    long_name = make_dealer("dealer_maximiliane_oberhuber_2026",
                            games=["seven_card_stud", "seven_card_stud_hi_lo", "forty_one", "capsa_susun"])
    dealer_push(dealer=long_name, kind="assign", table=hi_lo, actor=floor,
                reason="Schichtbeginn nach Krankenstandsrückmeldung, Ablöse für die Pausenregelung laut "
                       "Dienstplan_der_Woche_48_mit_Zusatzvereinbarung", confirm_uncovered=True)
    return day, first, floor


def _overflows(browser, url, width, height):
    browser.set_window_size(width, height)
    browser.get(url)
    WebDriverWait(browser, 10).until(expected_conditions.presence_of_element_located((By.TAG_NAME, "h1")))
    return browser.execute_script(_OVERFLOWS)


def _sign_in(browser, login, user, language):
    browser.delete_all_cookies()
    login(user, language=language)
    WebDriverWait(browser, 10).until(expected_conditions.text_to_be_present_in_element(
        (By.CSS_SELECTOR, ".session .who"), user.get_username()))


@pytest.mark.parametrize("language", ["de", "en"])
def test_day_page_and_dealers_page_fit_a_tablet_both_ways(browser, login, long_evening, shot, language):
    day, accountant, floor = long_evening
    pages = [(accountant, f"/accounting/days/{day.isoformat()}/", "day"), (floor, "/floor/dealers/", "dealers")]
    found = {}
    for user, path, label in pages:
        _sign_in(browser, login, user, language)
        for width, height in ((800, 1280), (1280, 800)):
            found[(label, width)] = _overflows(browser, browser.base + path, width, height)
            shot(f"{label}-{width}x{height}")
            if label == "day":  # the long cells are there: the third accountant's sign-off, the note box
                assert "accountant3" in browser.find_element(By.ID, "drop").text
                assert browser.find_elements(By.CSS_SELECTOR, "#discrepancies input[name=note]")
            else:
                assert "dealer_maximiliane_oberhuber_2026" in browser.find_element(By.CSS_SELECTOR, "table.grid").text
    # The viewport is the window less its scrollbar; nothing reaches past it, nothing is cut inside a card.
    assert {key: bad for key, (_vw, bad) in found.items() if bad} == {}
