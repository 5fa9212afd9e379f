"""Issue 17 in a real browser: two accountants close the demo gaming day from /accounting/.

The demo day (``accounting.demo``: hands of the previous gaming day at ``Stud 2`` and a planted
discrepancy of 80.00) is counted by one accountant (drop and tronc), confirmed by a second, the
discrepancy is resolved by the first and approved by the second, the second closes the day and the
signed PDF is downloaded. Screenshots at each step.
"""

from __future__ import annotations

import datetime as dt
import io

from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from accounting.models import Approval, Discrepancy, GamingDay
from accounting.selectors import drop_logged
from casino.gaming_day import gaming_day_of
from tables.models import Table


def _seed_demo_day(role_user):
    from accounting.demo import seed_demo as accounting_demo
    from tables.demo import seed_demo as floor_demo
    from tables.demo_day_before import seed_demo as day_before

    role_user("floor_manager", username="floor")
    floor_demo(stdout=io.StringIO())
    day_before(stdout=io.StringIO())
    accounting_demo(stdout=io.StringIO())
    return gaming_day_of(timezone.now()) - dt.timedelta(days=1), Table.objects.get(name="Stud 2")


def _click_and_wait(browser, element):
    """Click a submit button and wait for the next page (the form posts and redirects back)."""
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    page = browser.find_element(By.TAG_NAME, "html")
    element.click()
    WebDriverWait(browser, 15).until(expected_conditions.staleness_of(page))


def _post(browser, button_css):
    _click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, button_css))


def _count(browser, box, table, amount):
    Select(browser.find_element(By.ID, f"{box}-table")).select_by_visible_text(str(table))
    browser.find_element(By.ID, f"{box}-counted").send_keys(amount)
    _post(browser, f"#{box} .count-form button[type=submit]")


def _as(browser, login, user, url):
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    browser.delete_all_cookies()
    login(user)
    WebDriverWait(browser, 10).until(expected_conditions.text_to_be_present_in_element(
        (By.CSS_SELECTOR, ".session .who"), user.get_username()))
    browser.get(url)


def test_two_accountants_close_the_demo_day_and_download_the_signed_pdf(browser, login, role_user, shot):
    day, table = _seed_demo_day(role_user)
    anna = role_user("accountant", username="anna")
    bernd = role_user("accountant", username="bernd")
    url = f"{browser.base}/accounting/days/{day.isoformat()}/"
    _as(browser, login, anna, browser.base + "/accounting/")
    assert f"{day.day} {day:%b %Y}" in browser.find_element(By.CSS_SELECTOR, "table.days").text  # 30 Nov 2026
    browser.get(url)
    blockers = browser.find_element(By.CSS_SELECTOR, ".blockers").text
    assert "discrepancy is not resolved" in blockers and "drop box of Stud 2 is not counted" in blockers
    assert browser.find_element(By.ID, "close-day").get_attribute("disabled")
    shot("1-blocked")

    _count(browser, "drop", table, f"{drop_logged(table_id=table.id, gaming_day=day):.2f}")
    _count(browser, "tronc", table, "48.50")
    discrepancy = Discrepancy.objects.get(gaming_day=day)
    browser.find_element(By.ID, f"note-{discrepancy.id}").send_keys("envelope re-booked to Stud 1, slip 12")
    _post(browser, f"#discrepancy-{discrepancy.id} button[type=submit]")
    assert "Waiting for a second person" in browser.find_element(By.CSS_SELECTOR, ".messages").text
    _post(browser, "#drop tbody button[type=submit]")  # anna tries to confirm her own count
    assert "another accountant" in browser.find_element(By.CSS_SELECTOR, ".messages").text
    shot("2-counted-by-anna")

    _as(browser, login, bernd, url)
    _post(browser, "#drop tbody button[type=submit]")
    _post(browser, "#tronc tbody button[type=submit]")
    approval = Approval.objects.get(gaming_day=day)
    _post(browser, f"#approval-{approval.id} button.primary")
    assert "ready to close" in browser.find_element(By.ID, "day-state").text
    shot("3-ready")
    _post(browser, "#close-day")
    assert "The gaming day is closed." in browser.find_element(By.CSS_SELECTOR, ".messages").text
    closed = GamingDay.objects.get(day=day)
    assert closed.closed_by == bernd and closed.checksum in browser.find_element(By.CSS_SELECTOR, ".checksum").text
    shot("4-closed")

    href = browser.find_element(By.ID, "download-pdf").get_attribute("href")
    head = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(arguments[0]).then(r => r.arrayBuffer()).then(b => done(String.fromCharCode(...new Uint8Array(b.slice(0, 5)))));",
        href)
    assert head == "%PDF-"
    browser.set_window_size(800, 1280)
    browser.get(url)
    shot("5-closed-portrait")
