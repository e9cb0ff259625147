"""The site in Spanish and German in a real browser: the browser's language
(``Accept-Language``) decides until the visitor picks one with the switcher, and then
the choice sticks, page after page, whatever the browser says.

Expected texts come from the catalogues (``gettext`` under the language), and each
must differ from the English, so an untranslated heading fails here."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation
from django.utils.translation import gettext

from tests.browser import scenes
from tests.browser.conftest import fits_width

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAVIGATION = ("Home", "Leagues", "Rules")


def translated(language: str, text: str) -> str:
    with translation.override(language):
        result = gettext(text)
    assert result != text, f"{text!r} is not translated to {language}"
    return result


def assert_in_language(page: Any, language: str) -> None:
    """The page is in ``language``: its ``lang``, the navigation, the main heading."""
    from playwright.sync_api import expect

    expect(page.locator("html")).to_have_attribute("lang", language)
    nav = page.locator(".site-nav")
    for text in NAVIGATION:
        expect(nav.get_by_role("link", name=translated(language, text), exact=True)).to_be_visible()
    expect(page.locator(".brand")).to_have_text(translated(language, "TOCK tournaments"))


def test_a_spanish_browser_gets_the_site_in_spanish(make_context: Any, shot) -> None:
    from playwright.sync_api import expect

    scene = scenes.running_tournament(players=4)
    page = make_context("phone", locale="es-ES").new_page()
    page.goto("/")
    assert_in_language(page, "es")
    expect(page.locator("h2", has_text=translated("es", "Running now"))).to_be_visible()
    assert fits_width(page)
    shot(page, "home-es")

    page.locator(".card-title", has_text=scene.tournament.name).tap()
    page.wait_for_url(f"**/tournaments/{scene.tournament.pk}/")
    assert_in_language(page, "es")
    expect(page.locator("#standings-title")).to_contain_text(translated("es", "Standings"))
    expect(page.locator(".quick")).to_contain_text(translated("es", "Where do I sit?"))
    shot(page, "tournament-es")


def test_the_language_switcher_choice_sticks_over_the_browsers_language(
    make_context: Any, shot
) -> None:
    from playwright.sync_api import expect

    scene = scenes.running_tournament(players=4)
    # A Spanish browser: Spanish until the visitor picks German.
    page = make_context("desktop", locale="es-ES").new_page()
    path = f"/tournaments/{scene.tournament.pk}/"
    page.goto(path)
    assert_in_language(page, "es")
    page.locator("#language-select").select_option("de")
    page.locator(".language-switcher [type=submit]").click()
    # Back on the same page, in German.
    page.wait_for_url(f"**{path}")
    assert_in_language(page, "de")
    expect(page.locator("#standings-title")).to_contain_text(translated("de", "Standings"))
    expect(page.locator("#language-select")).to_have_value("de")
    shot(page, "tournament-de")

    # The choice sticks: the next pages, and a new tab, are German too.
    page.locator(".site-nav").get_by_role("link", name=translated("de", "Home")).click()
    page.wait_for_url("**/")
    assert_in_language(page, "de")
    other = page.context.new_page()
    other.goto(f"/games/{scene.game(1).pk}/")
    assert_in_language(other, "de")
    shot(other, "game-de")

    # And English again through the same switcher.
    other.locator("#language-select").select_option("en")
    other.locator(".language-switcher [type=submit]").click()
    expect(other.locator("html")).to_have_attribute("lang", "en")
    expect(other.locator(".site-nav").get_by_role("link", name="Home", exact=True)).to_be_visible()
