"""No dead ends (issue 22) on phones: a scorekeeper stops live scoring and proposes the
placements; a referee confirms them in one tap from the referee list."""

from __future__ import annotations

from typing import Any

import pytest

import games.engine as engine
from tests.browser import scenes
from tests.browser.conftest import fits_width
from tournaments.models import Role, Ruling
from tournaments.permissions import SYSTEM
from tournaments.services import game_record_log, tournament_role_add

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_scorekeeper_proposes_and_a_referee_confirms_in_one_tap(
    make_context: Any, log_in: Any, shot
) -> None:
    from playwright.sync_api import expect

    scene = scenes.running_tournament(players=8)
    keeper = scenes.user_with_password("keeper")
    referee = scenes.user_with_password("ref")
    for user, role in ((keeper, Role.SCOREKEEPER), (referee, Role.REFEREE)):
        tournament_role_add(
            tournament=scene.tournament, member=user, role=role, user=scene.organizer
        )
    game = scene.game(1)
    seats = scenes.seat_order(game)
    log = engine.simulate(game="tock", players=seats, seed=3)[:12]
    game_record_log(game=game, log=log, user=SYSTEM)

    phone = make_context("phone")
    log_in(phone, keeper)
    page = phone.new_page()
    page.goto(f"/games/{game.pk}/score/")
    more = page.locator("#score-more > summary")  # the card pad's page folds it under "More"
    if more.count():
        more.tap()
    page.locator("#stop-live-title").tap()  # folded until asked for
    for i in range(len(seats)):
        page.locator(f"#propose-place-{i}").fill(str(i + 1))
    page.locator("#propose-form input[name=confirm]").check()
    assert fits_width(page)
    shot(page, "stop-live")
    page.get_by_role("button", name="Propose these placements").tap()
    expect(page.locator("#proposal-pending")).to_be_visible()

    other = make_context("phone")
    log_in(other, referee)
    ref_page = other.new_page()
    ref_page.goto(f"/tournaments/{scene.tournament.pk}/referee/")
    expect(ref_page.locator(f"#proposal-{game.pk}")).to_be_visible()
    assert fits_width(ref_page)
    shot(ref_page, "proposed-results")
    ref_page.locator(f"[data-proposal-confirm='{game.pk}']").tap()
    expect(ref_page.locator("body")).to_contain_text("Proposed result confirmed")
    game.refresh_from_db()
    assert game.is_over and game.placements == {h: i + 1 for i, h in enumerate(seats)}
    assert Ruling.objects.get(game=game).ruling == "proposal_ok"
