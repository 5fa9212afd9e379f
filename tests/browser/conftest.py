"""Browser tests: Debian's Chromium driven by Selenium against pytest-django's live server.

Every page flow a person does is tested here end to end (STYLE.md 15). The browser is the system's
``/usr/bin/chromium`` with ``/usr/bin/chromedriver`` (``.ci/run`` installs both); outside CI a missing
browser skips these tests with the reason, in CI it fails them. Screenshots go to
``var/screenshots/`` (``BROWSER_SCREENSHOTS`` overrides), one per ``shot(...)`` call and one for every
failed test; ``.ci/run`` prints the folder.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM_BINARY", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
SCREENSHOT_DIR = Path(os.environ.get("BROWSER_SCREENSHOTS", Path(__file__).resolve().parents[2] / "var" / "screenshots"))
DEMO_PASSWORD = "pw-for-tests-only"


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call" and report.failed:
        driver = item.funcargs.get("browser")
        if driver is not None:
            SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
            name = re.sub(r"[^A-Za-z0-9_.-]+", "-", item.nodeid.split("::", 1)[-1])
            try:
                driver.save_screenshot(str(SCREENSHOT_DIR / f"FAILED-{name}.png"))
            except Exception as exc:  # the browser itself may be gone; the test's own error is what matters
                report.sections.append(("screenshot", f"could not save a screenshot: {exc}"))
    return report


def _make_driver(width: int, height: int, language: str):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
                 "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 f"--window-size={width},{height}", f"--lang={language}"):
        opts.add_argument(flag)
    opts.add_experimental_option("prefs", {"intl.accept_languages": language})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)


@pytest.fixture(scope="session")
def _browser_session():
    if not (shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER)):
        message = f"Chromium ({CHROMIUM}) or ChromeDriver ({CHROMEDRIVER}) is not installed (apt-get install chromium chromium-driver)"
        if _in_ci():
            pytest.fail(message + ": .ci/run installs them", pytrace=False)
        pytest.skip(message)
    driver = _make_driver(1280, 800, "en")
    # Pages load under a loaded 2-core CI machine: lookups wait up to 10 s for an element to appear.
    driver.implicitly_wait(10)
    yield driver
    driver.quit()


@pytest.fixture
def browser(_browser_session, live_server):
    """A tablet-sized (1280x800) headless Chromium on the live server; cookies cleared before each test.

    ``browser.base`` is the live server's URL. Resize with ``browser.set_window_size(800, 1280)``.
    """
    driver = _browser_session
    driver.set_window_size(1280, 800)
    driver.get(live_server.url + "/accounts/login/")
    driver.delete_all_cookies()
    driver.base = live_server.url
    yield driver


@pytest.fixture
def login(browser):
    """``login(user, language="en")``: sign ``user`` in through the login form (password ``pw-for-tests-only``,
    as ``role_user`` sets it) and choose the page language by its cookie."""
    from django.conf import settings
    from selenium.webdriver.common.by import By

    def do(user, language: str = "en", password: str = DEMO_PASSWORD):
        browser.get(browser.base + "/accounts/login/")
        browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "path": "/"})
        browser.get(browser.base + "/accounts/login/")
        browser.find_element(By.NAME, "username").send_keys(user.get_username())
        browser.find_element(By.NAME, "password").send_keys(password)
        browser.find_element(By.CSS_SELECTOR, "form [type=submit].primary").click()
        return browser

    return do


@pytest.fixture
def shot(browser, request):
    """``shot("final")`` saves ``<test name>-final.png`` under the screenshot folder and returns its path."""

    def do(label: str) -> Path:
        SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
        name = re.sub(r"[^A-Za-z0-9_.-]+", "-", f"{request.node.name}-{label}")
        path = SCREENSHOT_DIR / f"{name}.png"
        browser.save_screenshot(str(path))
        return path

    return do
