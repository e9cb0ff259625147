"""The site as a player sees it on a phone: headless Chromium against the live server,
on a running event of 24 players (``tests/browser/scenes.py``: the demo's shape, made
in a fraction of ``manage.py demo``'s time).

Playwright drives Debian's ``chromium`` (``tests/browser/conftest.py``); without it
these tests skip, or fail under ``REQUIRE_SERVICES=1``.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import scenes
from tests.browser.conftest import PHONE, fits_width

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE_WIDTH = PHONE["viewport"]["width"]


@pytest.fixture
def demo_site(live_site: str) -> str:
    scenes.running_tournament(players=24, placements=2)
    return live_site


def test_player_finds_standings_and_seat_on_a_phone(phone: Any, demo_site: str, shot) -> None:
    from playwright.sync_api import expect

    page = phone.new_page()
    # Given a running event of 24 players, when a player opens the home page on a phone
    page.goto("/")
    assert "TOCK" in page.title()
    assert fits_width(page)
    shot(page, "home")

    # then one tap on the running tournament shows where they sit and the standings
    page.locator("xpath=//h2[contains(., 'Running now')]/following::a[1]").tap()
    page.wait_for_url("**/tournaments/*/")
    seats = page.locator("#seats")
    expect(seats).to_be_visible()
    assert seats.locator("li").count() or seats.locator("tr").count()
    # The event's facts are a closed box here: it shows it opens (a marker), never an
    # empty heading, and a tap opens it.
    about = page.locator("details.event-facts")
    expect(about).not_to_have_attribute("open", "")
    marker = about.locator("summary").evaluate("s => getComputedStyle(s, '::before').content")
    assert "\u25b8" in marker, marker
    about.locator("summary").tap()
    expect(about.locator("dl.facts")).to_be_visible()
    expect(about.locator("dl.facts")).to_contain_text("Format")
    rows = page.locator("#standings table tbody tr")
    expect(rows).to_have_count(24)
    # a wide standings table may scroll inside its own box, never the page
    assert fits_width(page) or page.evaluate("document.body.scrollWidth <= window.innerWidth + 1")
    # Readable on the phone: rank, name and points of every row in view, the other
    # columns scroll inside their own box (with a hint), never the page.
    assert fits_width(page)
    width = PHONE_WIDTH
    for selector in ("td.sticky-1", "th.sticky-2", "td.sticky-3"):
        box = rows.first.locator(selector).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width + 1, selector
    scroller = page.locator(".standings-scroll")
    if scroller.evaluate("box => box.scrollWidth > box.clientWidth"):
        expect(page.locator("#standings .scroll-hint")).to_be_visible()
    shot(page, "tournament")

    # and a tap on a player shows their rating
    rows.first.locator("a").first.tap()
    page.wait_for_url("**/players/**")
    assert "1" in page.locator("main").inner_text()
    shot(page, "player")


def test_login_form_works_with_csrf(phone: Any, live_site: str, shot) -> None:
    from playwright.sync_api import expect

    scenes.user_with_password("demo")
    page = phone.new_page()
    page.goto("/accounts/login/")
    page.fill("[name=username]", "demo")
    page.fill("[name=password]", scenes.PASSWORD)
    shot(page, "login-form")
    # The login form in the page body (the header also holds the language switcher form).
    page.locator("main form [type=submit]").click()
    # Logged in: the logout form (a POST with its CSRF token) is in the navigation.
    logout = page.locator("form[action$='/accounts/logout/']")
    expect(logout).to_have_count(1)
    assert logout.locator("[name=csrfmiddlewaretoken]").get_attribute("value")
    assert "/accounts/login/" not in page.url
    shot(page, "logged-in")
