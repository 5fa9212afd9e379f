"""The shared staff page frame in a real browser: log in, the role's links, the language switch."""

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def test_croupier_logs_in_and_sees_only_the_table_link(browser, login, role_user, shot):
    user = role_user("croupier", username="anna")
    login(user)
    browser.get(browser.base + "/")
    links = [a.text for a in browser.find_elements(By.CSS_SELECTOR, "nav.roles a")]
    assert links == ["Table"]
    assert browser.find_element(By.CSS_SELECTOR, ".session .who").text == "anna"
    shot("logged-in")


def test_language_switch_turns_the_frame_german(browser, login, role_user):
    user = role_user("floor_manager", username="franz")
    login(user)
    browser.get(browser.base + "/accounts/login/")
    browser.find_element(By.CSS_SELECTOR, "button[name=language][value=de-at]").click()
    german = WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "html[lang='de-at']"))
    assert german
    assert browser.find_element(By.CSS_SELECTOR, "button[name=language][value=de-at]").get_attribute("aria-pressed") == "true"
    assert browser.find_element(By.CSS_SELECTOR, ".session button.link").text == "Abmelden"


def test_wrong_password_is_refused_with_a_message(browser, login, role_user):
    user = role_user("accountant", username="berta")
    login(user, password="wrong")
    assert "did not match" in browser.find_element(By.CSS_SELECTOR, "[role=alert]").text


def test_the_login_forms_submit_is_the_pages_first_submit_and_languages_name_themselves(browser):
    # the shared screenshot tool (and any script) signs in by clicking the first [type=submit]
    browser.get(browser.base + "/accounts/login/")
    first = browser.find_element(By.CSS_SELECTOR, "[type=submit]")
    assert first.get_attribute("class") == "primary"
    names = [b.text for b in browser.find_elements(By.CSS_SELECTOR, "button[name=language]")]
    assert names == ["Deutsch", "English"]
