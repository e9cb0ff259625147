"""The printed pages as Chromium prints them (issue 23, "Paper"): the result slips and
the pairings to PDF in A4 and Letter; one slip per table, none split across pages."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser import scenes

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def test_slips_and_pairings_print_to_pdf(make_context: Any) -> None:
    scene = scenes.running_tournament(players=16)
    page = make_context("desktop").new_page()
    page.goto(f"/tournaments/{scene.tournament.pk}/print/slips/")
    assert page.locator("[data-slip]").count() == 4
    a4 = page.pdf(format="A4", prefer_css_page_size=True)
    assert a4.startswith(b"%PDF") and 1 <= _pages(a4) <= 4
    page.goto(f"/tournaments/{scene.tournament.pk}/print/pairings/?paper=letter")
    assert page.locator("[data-player]").count() == 16
    letter = page.pdf(prefer_css_page_size=True)
    assert letter.startswith(b"%PDF") and _pages(letter) >= 2  # tables, then names
