"""An organizer imports a list in which a stranger has an existing player's handle: the
browser shows the confirmation step (on a phone), the list travels along in the page
with its line numbers, and choosing "a new player" registers the stranger under the
proposed handle."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from tests.browser import scenes
from tests.browser.conftest import fits_width

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_conflicting_line_is_decided_in_the_browser(phone: Any, log_in, shot) -> None:
    from playwright.sync_api import expect

    from tournaments.models import Player, Registration
    from tournaments.permissions import SYSTEM
    from tournaments.services import player_create, tournament_create

    league, organizer = scenes.league()
    tournament = tournament_create(
        league=league, name="Club Night", starts_on=dt.date.today(), user=organizer
    )
    player_create(handle="hugo", display_name="Hugo Ives", user=SYSTEM)
    log_in(phone, organizer)
    page = phone.new_page()
    page.goto(f"/tournaments/{tournament.pk}/organize/")
    register = page.locator("details#register")
    if register.get_attribute("open") is None:
        register.locator("summary").click()
    # a blank first line: the step must keep the line numbers
    page.locator("#id_csv_text").fill("\nana,Ana Berg\nhugo,Hugo Brandt\n")
    page.locator("#players-csv-submit").click()

    conflict = page.locator("#conflict-3")
    expect(conflict).to_contain_text("Line 3: @hugo")
    expect(conflict).to_contain_text("Hugo Ives")
    expect(page.locator("#handle-3")).to_have_value("hugo-brandt")
    assert fits_width(page)
    shot(page, "conflict-step")
    assert not Registration.objects.exists()

    conflict.locator("input[value=new]").check()
    page.locator("#csv-confirm").click()
    expect(page.locator("#registration-list li.registration")).to_have_count(2)
    expect(page.locator("#reg-hugo-brandt")).to_contain_text("Hugo Brandt")
    assert Player.objects.get(handle="hugo").display_name == "Hugo Ives"
    assert set(
        Registration.objects.filter(tournament=tournament).values_list("player__handle", flat=True)
    ) == {"ana", "hugo-brandt"}
