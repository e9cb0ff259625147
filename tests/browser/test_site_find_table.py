"""A player finds their table by name on a phone: the "find my table" box of the
tournament page (``#find-table``, results in ``#find-table-results``) filters the seat
list as they type, and one tap opens their table's game."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import scenes
from tests.browser.conftest import fits_width
from tournaments.models import Seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_finds_their_table_by_name_on_a_phone(phone: Any, shot) -> None:
    from playwright.sync_api import expect

    scene = scenes.running_tournament(players=12)
    gia = next(p for p in scene.players if p.handle == "gia")
    seat = Seat.objects.select_related("table").get(player=gia, table__round=scene.round)

    page = phone.new_page()
    page.goto(f"/tournaments/{scene.tournament.pk}/")
    results = page.locator("#find-table-results")
    rows = results.locator("li[data-search]")
    expect(rows).to_have_count(12)
    shot(page, "tournament")

    # Typing part of the name, in any case and without the accent-free exact spelling.
    page.locator("#find-table").tap()
    page.locator("#find-table").press_sequentially("gIa h")
    shown = results.locator("li[data-search]:visible")
    expect(shown).to_have_count(1)
    expect(shown.locator(".who")).to_have_text("Gia Hale")
    where = shown.locator("a.where")
    expect(where).to_have_text(f"Table {seat.table.number} · seat {seat.position + 1}")
    expect(results.locator(".find-status")).to_contain_text("1")
    assert fits_width(page)
    shot(page, "found")

    # Nobody by that name: the list says so.
    page.locator("#find-table").fill("nobody-here")
    expect(results.locator("li[data-search]:visible")).to_have_count(0)
    expect(results.locator(".find-status")).to_contain_text("nobody-here")

    # Back to Gia, then the submit button (a phone's "Go"), and one tap to the table.
    page.locator("#find-table").fill("Gia")
    page.locator("#find-table").press("Enter")
    expect(results.locator("li[data-search]:visible")).to_have_count(1)
    where.tap()
    page.wait_for_url(f"**/games/{seat.table.game_id}/")
    expect(page.locator("table.players")).to_contain_text("Gia Hale")
    assert fits_width(page)
    shot(page, "her-table")


#: Names where a naive lower-casing and Python's casefold part ways, or where accents
#: are marks outside the common combining block.
TRICKY_NAMES = [
    "José Müller",
    "WEISS Weiß ẞtraße",
    "ΟΔΥΣΣΕΥΣ Σίσυφος",
    "Đorđe Ǆukić",
    "Nguyễn Thị Minh Khai",
    "  Ana   María  ",
    "İlkay Işık",
    "ﬁnn ﬂoyd",
    "अनु शर्मा",
]


def test_the_script_folds_names_as_the_server_does(phone: Any) -> None:
    """What a visitor types is folded by the page's script and matched against the
    server's folded names: the two folds must agree, or a name the server lists is
    never found."""
    from tournaments.selectors.tournament_page import fold

    scene = scenes.running_tournament(players=4)
    page = phone.new_page()
    page.goto(f"/tournaments/{scene.tournament.pk}/")
    folded = page.evaluate("names => names.map(n => window.TockFindTable.fold(n))", TRICKY_NAMES)
    assert folded == [fold(name) for name in TRICKY_NAMES]
