"""The site as a player sees it on a phone: headless Chromium against a live server.

Needs Debian's ``chromium`` and ``chromium-driver`` (the ``chromium`` fixture skips
without them, or fails under ``REQUIRE_SERVICES=1``).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = (390, 844)  # CSS pixels of a common phone


@pytest.fixture
def browser(chromium: dict[str, str]) -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    if not chromium["driver"]:
        pytest.fail("chromedriver is missing (Debian: apt-get install chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium["browser"]
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--window-size={PHONE[0]},{PHONE[1]}",
    ):
        options.add_argument(flag)
    profile = tempfile.TemporaryDirectory()
    options.add_argument(f"--user-data-dir={profile.name}")
    driver = webdriver.Chrome(service=Service(executable_path=chromium["driver"]), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        profile.cleanup()


@pytest.fixture
def demo_site(live_server: Any) -> str:
    call_command("demo", verbosity=0)
    return live_server.url


def _fits_phone(driver: Any) -> bool:
    """Nothing wider than the screen: no sideways scrolling at the venue."""
    return driver.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth + 1"
    )


def test_player_finds_standings_and_seat_on_a_phone(browser: Any, demo_site: str) -> None:
    from selenium.webdriver.common.by import By

    # Given the demo league, when a player opens the home page on a phone
    browser.get(demo_site + "/")
    assert "TOCK" in browser.title
    assert _fits_phone(browser)

    # then one tap on the running tournament shows where they sit and the standings
    running = browser.find_element(By.XPATH, "//h2[contains(., 'Running now')]/following::a[1]")
    running.click()
    seats = browser.find_element(By.ID, "seats")
    assert seats.find_elements(By.TAG_NAME, "li") or seats.find_elements(By.TAG_NAME, "tr")
    standings = browser.find_element(By.CSS_SELECTOR, "#standings table")
    rows = standings.find_elements(By.CSS_SELECTOR, "tbody tr")
    assert len(rows) == 24
    assert _fits_phone(browser) or browser.execute_script(
        # a wide standings table may scroll inside its own box, never the page
        "return document.body.scrollWidth <= window.innerWidth + 1"
    )

    # and a tap on a player shows their rating
    rows[0].find_element(By.TAG_NAME, "a").click()
    assert "/players/" in browser.current_url
    assert "1" in browser.find_element(By.TAG_NAME, "main").text


def test_login_form_works_with_csrf(browser: Any, demo_site: str) -> None:
    from selenium.webdriver.common.by import By

    browser.get(demo_site + "/accounts/login/")
    browser.find_element(By.NAME, "username").send_keys("demo")
    browser.find_element(By.NAME, "password").send_keys("demo")
    # The login form in the page body (the header also holds the language switcher form).
    browser.find_element(By.CSS_SELECTOR, "main form [type=submit]").click()
    # Logged in: the logout form (a POST with its CSRF token) is in the navigation.
    logout = browser.find_element(By.CSS_SELECTOR, "form[action$='/accounts/logout/']")
    assert logout.find_element(By.NAME, "csrfmiddlewaretoken").get_attribute("value")
    assert "/accounts/login/" not in browser.current_url
