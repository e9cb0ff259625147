"""A referee on a phone: opens the tournament's referee list, taps the game with an open
knock, says who knocked, reads the engine's verdict and confirms it (issue 12)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import scenes
from tests.browser.conftest import fits_width
from tournaments.models import Role, Ruling
from tournaments.permissions import SYSTEM
from tournaments.services import game_record_log, tournament_role_add

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_referee_on_a_phone_knocks_reads_the_verdict_and_confirms(
    make_context: Any, log_in: Any, shot
) -> None:
    from playwright.sync_api import expect

    scene = scenes.running_tournament(players=8)
    referee = scenes.user_with_password("ref")
    tournament_role_add(
        tournament=scene.tournament, member=referee, role=Role.REFEREE, user=scene.organizer
    )
    game = scene.game(2)
    first, second, *_ = scenes.seat_order(game)
    start = {"type": "start", "game": "tock", "players": scenes.seat_order(game), "first": first}
    # the first player puts a drawn 1 on their own discard: a wrong discard
    game_record_log(
        game=game,
        log=[start, {"type": "draw", "player": first, "card": 1, "to": first}],
        user=SYSTEM,
    )
    context = make_context("phone")
    log_in(context, referee)
    page = context.new_page()
    page.goto(f"/tournaments/{scene.tournament.pk}/referee/")
    assert fits_width(page)
    shot(page, "referee-list")
    page.locator(".referee-games li.open-knock a.button").first.tap()
    expect(page.locator("h1")).to_contain_text(str(game.pk))
    page.locator(f"input[name=by][value={second}]").check()
    page.get_by_role("button", name="Ask the engine").tap()
    verdict = page.locator("#verdict")
    expect(verdict).to_contain_text("Correct knock")
    expect(verdict).to_contain_text("wrong discard")
    assert fits_width(page)
    shot(page, "verdict")
    page.get_by_role("button", name="Record the ruling").tap()
    expect(page.locator("body")).to_contain_text("Ruling recorded.")
    shot(page, "recorded")
    ruling = Ruling.objects.get()
    assert (ruling.knocker, ruling.against, ruling.applied) == (second, first, "correct")
    assert ruling.referee == referee
