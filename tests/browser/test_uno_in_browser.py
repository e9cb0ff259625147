"""UNO's game page on a phone: a spectator sees the top card, the colour in force and
how many cards each player holds; the organizer sees the cards; the replay viewer steps
the UNO table; nothing scrolls sideways. Screenshots under ``tests/artifacts/``."""

from __future__ import annotations

from typing import Any

import pytest

import games.engine as engine
from tests.browser.conftest import fits_width, table_fits
from tests.tournaments.factories import PlayerFactory, RoundFactory, seat_table
from tests.web.kind_fixtures import kind_tournament, staff
from tournaments import services
from tournaments.models import Role
from tournaments.permissions import SYSTEM

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HANDLES = ["ann", "bob", "cat", "dan"]


def test_an_uno_game_on_a_phone(phone: Any, live_site: str, shot: Any, log_in: Any) -> None:
    from playwright.sync_api import expect

    tournament = kind_tournament("uno", name="Uno Cup")
    organizer = staff(tournament, Role.ORGANIZER, "uno-org")
    players = [PlayerFactory(handle=h, display_name=h.title()) for h in HANDLES]
    game = seat_table(RoundFactory(tournament=tournament, number=1), players).game
    log = engine.simulate(game="uno", players=HANDLES, seed=8, target=200, deck="2018")
    for n, event in enumerate(log[:40], start=1):
        services.game_record_event(game=game.pk, event=event, expected_sequence=n, user=SYSTEM)
    summary = engine.replay(log[:40]).summary()

    page = phone.new_page()
    page.goto(f"{live_site}/games/{game.pk}/")
    table = page.locator(".uno-table")
    expect(table.locator("[data-top]")).to_have_attribute("data-top", summary["top"])
    expect(table.locator("[data-turn]")).to_have_attribute("data-turn", summary["turn"] or "")
    for handle, cards in summary["hands"].items():
        item = table.locator(f'li[data-player="{handle}"]')
        expect(item).to_have_attribute("data-cards", str(len(cards)))
    assert table.locator(".uno-hand").count() == 0
    assert fits_width(page)
    assert table_fits(page, "table.players")  # the place column too, on a phone
    shot(page, "spectator")

    page.goto(f"{live_site}/games/{game.pk}/?at=12")
    expect(page.locator(".replay-position")).to_contain_text("Event 12 of 40")
    at12 = engine.replay(log[:12]).summary()
    expect(table.locator("[data-top]")).to_have_attribute("data-top", at12["top"])
    assert fits_width(page)
    shot(page, "replay-at-12")

    log_in(phone, organizer)
    page.goto(f"{live_site}/games/{game.pk}/")
    assert table.locator(".uno-hand").count() == len(HANDLES)
    assert fits_width(page)
    shot(page, "organizer")
    page.goto(f"{live_site}/games/{game.pk}/score/")
    assert page.locator(".move-button").count() > 0
    assert fits_width(page)
    shot(page, "score-page")
