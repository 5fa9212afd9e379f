"""The floor manager's evening in a real browser: the floor, a players' limit request approved through the
generated form, a dealer push with the no-dealer confirmation, a rotation grid built, edited and
published, three players on the list and one seated. Screenshots go to var/screenshots/."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.ui import WebDriverWait

from tables.models import DealerPush, LimitChangeRequest, RotationPlan, Table, WaitingListEntry
from tables.services.dealer_push import dealer_push
from tests.factories import floor_manager, make_dealer, make_table


@pytest.fixture
def evening(role_user):
    boss = role_user("floor_manager", username="franz")
    stud = make_table(status=Table.Status.OPEN, name="Stud 1")
    forty = make_table(game="forty_one", status=Table.Status.OPEN, name="Forty-one 1")
    dealers = [make_dealer(n) for n in ("anna", "bert", "cleo", "dora")]
    dealer_push(dealer=dealers[0], kind="assign", table=stud, reason="shift start", actor=floor_manager())
    return boss, stud, forty, dealers


def sign_in(browser, login, user):
    """Log in and wait until the front door shows (a navigation right after the click could cancel it)."""
    login(user)
    WebDriverWait(browser, 10).until(EC.presence_of_element_located((By.CSS_SELECTOR, ".session .who")))


def wait_text(browser, css, text, timeout=10):
    # A form post navigates (and /floor/ re-swaps its cards every 3 s): while the old document goes away the
    # driver may answer "Node ... does not belong to the document"; keep polling until the text is there.
    WebDriverWait(browser, timeout, ignored_exceptions=(StaleElementReferenceException, WebDriverException)).until(
        EC.text_to_be_present_in_element((By.CSS_SELECTOR, css), text))


def test_floor_manager_approves_a_limit_request_and_sees_the_card_change(browser, login, evening, shot):
    boss, stud, _forty, _dealers = evening
    sign_in(browser, login, boss)
    browser.get(browser.base + "/floor/")
    card = f"#table-{stud.pk}"
    assert "5/10" in browser.find_element(By.CSS_SELECTOR, card).text
    shot("floor")
    browser.find_element(By.CSS_SELECTOR, f"{card} h2 a").click()
    browser.find_element(By.XPATH, "//summary[contains(., \"Enter a players' request\")]").click()
    form = browser.find_element(By.CSS_SELECTOR, "form.limit-form:has(input[name=as_request])")
    for name, value in (("request-lower", "10.00"), ("request-higher", "20.00"), ("request-ante", "2.00")):
        field = form.find_element(By.NAME, name)
        field.clear()
        field.send_keys(value)
    form.find_element(By.NAME, "request-reason").send_keys("seats 1 and 3 ask for 10/20")
    shot("request-form")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait_text(browser, ".messages", "request is recorded")
    assert LimitChangeRequest.objects.filter(status="pending").count() == 1
    browser.find_element(By.CSS_SELECTOR, "button[name=approve]").click()
    wait_text(browser, ".messages", "Approved")
    browser.get(browser.base + "/floor/")
    wait_text(browser, f"{card} .limit", "10/20")
    shot("card-changed")


def test_the_limit_form_shows_every_error_at_once(browser, login, evening, shot):
    boss, stud, _forty, _dealers = evening
    sign_in(browser, login, boss)
    browser.get(browser.base + f"/floor/tables/{stud.pk}/")
    browser.find_element(By.XPATH, "//summary[contains(., 'Open the limit form')]").click()
    form = browser.find_element(By.CSS_SELECTOR, "form.limit-form:not(:has(input[name=as_request]))")
    for name in ("limits-lower", "limits-ante", "limits-taxe_amount"):
        form.find_element(By.NAME, name).clear()
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    errors = WebDriverWait(browser, 10).until(EC.presence_of_element_located((By.CSS_SELECTOR, ".form-errors"))).text
    assert "Lower limit is required" in errors and "Ante is required" in errors and "Taxe amount is required" in errors
    shot("all-errors")


def test_floor_manager_pushes_a_dealer_and_confirms_the_open_table_left_without_one(browser, login, evening, shot):
    boss, stud, _forty, dealers = evening
    sign_in(browser, login, boss)
    browser.get(browser.base + f"/floor/tables/{stud.pk}/")
    browser.find_element(By.ID, "relieve-reason").send_keys("tired after 60 minutes")
    browser.find_element(By.CSS_SELECTOR, "button[name=kind][value=break]").click()
    wait_text(browser, "#confirm-msg", "Stud 1")
    shot("confirm")
    browser.find_element(By.CSS_SELECTOR, ".confirm button.danger").click()
    wait_text(browser, ".messages", "tired after 60 minutes")
    assert DealerPush.objects.filter(kind="break", uncovered_table=stud).exists()
    Select(browser.find_element(By.ID, "push-dealer")).select_by_visible_text("bert")
    browser.find_element(By.ID, "push-reason").send_keys("relief")
    browser.find_element(By.XPATH, "//button[normalize-space()='Assign']").click()
    wait_text(browser, f"#table-{stud.pk}", "bert")
    shot("pushed")


def test_floor_manager_builds_reviews_edits_and_publishes_a_rotation_grid(browser, login, evening, shot):
    boss, stud, forty, dealers = evening
    sign_in(browser, login, boss)
    browser.get(browser.base + "/floor/rotation/")
    start = timezone.localtime() + dt.timedelta(hours=2)
    browser.execute_script("document.getElementById('plan-day').value = arguments[0];", start.date().isoformat())
    for field, value in (("plan-start", start.strftime("%H:00")), ("plan-end", (start + dt.timedelta(hours=3)).strftime("%H:00"))):
        browser.execute_script("document.getElementById(arguments[0]).value = arguments[1];", field, value)
    browser.find_element(By.XPATH, "//button[normalize-space()='Make a proposal']").click()
    wait_text(browser, ".messages", "Proposal ready")
    plan = RotationPlan.objects.get()
    shot("proposal")
    cell = Select(browser.find_element(By.ID, f"cell-{stud.pk}-0"))
    current = cell.first_selected_option.text
    other = next(o.text for o in cell.options if o.text not in (current, "–")
                 and o.text not in [Select(browser.find_element(By.ID, f"cell-{forty.pk}-0")).first_selected_option.text])
    cell.select_by_visible_text(other)
    browser.find_element(By.ID, "grid-reason").send_keys("swap at the start")
    browser.find_element(By.XPATH, "//button[normalize-space()='Save the grid']").click()
    wait_text(browser, ".messages", "Grid saved")
    assert plan.slots.get(table=stud, start=plan.shift_start).dealer.user.username == other
    browser.find_element(By.ID, "publish").click()
    wait_text(browser, ".messages", "Published")
    plan.refresh_from_db()
    assert plan.status == "published"
    shot("published")


def test_floor_manager_adds_three_players_to_the_list_and_seats_one(browser, login, evening, shot):
    boss, stud, _forty, _dealers = evening
    sign_in(browser, login, boss)
    browser.get(browser.base + "/floor/list/")
    for ref in ("JD", "MK", "12345678"):
        Select(browser.find_element(By.ID, "wl-game")).select_by_value("seven_card_stud")
        browser.find_element(By.ID, "wl-limit").send_keys("5/10")
        browser.find_element(By.ID, "wl-ref").send_keys(ref)
        browser.find_element(By.XPATH, "//button[normalize-space()='Add']").click()
        wait_text(browser, ".messages", ref)
    entries = browser.find_elements(By.CSS_SELECTOR, ".wl-entry .ref")
    assert [e.text for e in entries] == ["JD", "MK", "12345678"]
    first = WaitingListEntry.objects.get(player_ref="JD")
    browser.find_element(By.ID, f"s{first.pk}").send_keys("4")
    browser.find_element(By.CSS_SELECTOR, f"#s{first.pk} ~ button.primary").click()
    wait_text(browser, ".messages", "seat 4")
    first.refresh_from_db()
    assert (first.status, first.table, first.seat) == ("seated", stud, 4)
    shot("list")
    browser.delete_all_cookies()
    browser.get(browser.base + "/floor/board/")
    board = browser.find_element(By.ID, "board").text
    assert "MK" in board and "••78" in board and "12345678" not in board and "JD" not in board
    shot("board")


def touch_tap(browser, element):
    """Tap ``element`` with a finger (a W3C touch pointer: pointerdown/up of type "touch", as on a tablet)."""
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput

    actions = ActionBuilder(browser, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
    actions.pointer_action.move_to(element).pointer_down().pause(0.05).pointer_up()
    actions.perform()


def test_the_rotation_grid_is_edited_by_touch_on_a_portrait_tablet(browser, login, evening, shot):
    from tables.services.floor import rotation_plan_generate

    boss, stud, forty, dealers = evening
    start = (timezone.localtime() + dt.timedelta(hours=2)).replace(minute=0, second=0, microsecond=0)
    plan = rotation_plan_generate(name="Touch", shift_start=start, shift_end=start + dt.timedelta(hours=8),
                                  tables=[stud, forty], dealers=dealers, actor=boss)
    browser.set_window_size(800, 1280)
    sign_in(browser, login, boss)
    browser.get(browser.base + f"/floor/rotation/{plan.pk}/")
    grid = browser.find_element(By.CSS_SELECTOR, ".rotation-grid")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 800  # no sideways scroll
    browser.execute_script("window.kinds = []; document.addEventListener('pointerdown', "
                           "(e) => window.kinds.push(e.pointerType), true);")
    at_stud, at_forty = (Select(browser.find_element(By.ID, f"cell-{t.pk}-1")) for t in (stud, forty))
    before = (at_stud.first_selected_option.text, at_forty.first_selected_option.text)
    touch_tap(browser, browser.find_element(By.ID, "tap-mode"))
    assert "tap-mode" in grid.get_attribute("class")
    stud_cell = browser.find_element(By.XPATH, f"//td[select[@id='cell-{stud.pk}-1']]")
    forty_cell = browser.find_element(By.XPATH, f"//td[select[@id='cell-{forty.pk}-1']]")
    touch_tap(browser, stud_cell.find_element(By.CSS_SELECTOR, "button.tap"))
    assert "picked" in stud_cell.get_attribute("class") and "target" in forty_cell.get_attribute("class")
    assert f"{before[0]} picked" in browser.find_element(By.ID, "tap-status").text
    shot("rotation-touch-picked")
    touch_tap(browser, forty_cell.find_element(By.CSS_SELECTOR, "button.tap"))
    assert "swapped" in browser.find_element(By.ID, "tap-status").text
    # the swapped grid is not saved yet: Publish (of the saved grid) waits, and the page says why
    assert not browser.find_element(By.ID, "publish").is_enabled()
    assert browser.find_element(By.ID, "publish-note").is_displayed()
    assert set(browser.execute_script("return window.kinds")) == {"touch"}
    assert (stud_cell.find_element(By.CSS_SELECTOR, "button.tap").text,
            forty_cell.find_element(By.CSS_SELECTOR, "button.tap").text) == (before[1], before[0])
    touch_tap(browser, browser.find_element(By.ID, "grid-reason"))
    browser.find_element(By.ID, "grid-reason").send_keys("swapped by touch")
    touch_tap(browser, browser.find_element(By.XPATH, "//button[normalize-space()='Save the grid']"))
    wait_text(browser, ".messages", "Grid saved")
    second = plan.shift_start + dt.timedelta(minutes=plan.period_minutes)
    assert plan.slots.get(table=stud, start=second).dealer.user.username == before[1]
    assert plan.slots.get(table=forty, start=second).dealer.user.username == before[0]
    shot("rotation-touch-saved")


def test_the_rotation_grid_fits_1280_pixels_and_shows_dates_in_the_language(browser, login, evening, shot):
    from tables.services.floor import rotation_plan_generate

    boss, stud, forty, dealers = evening
    start = (timezone.localtime() + dt.timedelta(hours=2)).replace(minute=0, second=0, microsecond=0)
    plan = rotation_plan_generate(name="Long", shift_start=start, shift_end=start + dt.timedelta(hours=10),
                                  tables=[stud, forty], dealers=dealers, actor=boss)
    from django.conf import settings

    sign_in(browser, login, boss)
    # one date form per language (casino/formats, issue 18): German 02.12.2026, English 2 Dec 2026
    for language, day, other in (("en", f"{start.day} {start:%b %Y}", f"{start:%d.%m.%Y}"),
                                 ("de", f"{start:%d.%m.%Y}", f"{start:%b %Y}")):
        browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "path": "/"})
        browser.get(browser.base + f"/floor/rotation/{plan.pk}/")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 1280
        header = browser.find_element(By.CSS_SELECTOR, "h1 + p").text
        assert day in header and other not in header, header
        shot(f"rotation-1280-{language}")
