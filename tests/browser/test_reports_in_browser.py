"""Players run their table's result (issue 23) on four phones: one reports the
placements on the table's page, the others see it arrive live and confirm; the result
is stored once every player has. At another table two players disagree: the dispute
reaches the referee's list live, with both versions and who said what."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import scenes
from tests.browser.conftest import fits_width
from tournaments.models import Role
from tournaments.services import tournament_role_add

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _phones(make_context: Any, log_in: Any, game: Any, scene: Any) -> dict[str, Any]:
    """A signed-in phone on the table's report page for each player of ``game``."""
    pages = {}
    for player in scene.players:
        if player.handle not in game.players:
            continue
        player.user = scenes.user_with_password(f"u-{player.handle}")
        player.save(update_fields=["user"])
        context = make_context("phone")
        log_in(context, player.user)
        page = context.new_page()
        page.goto(f"/games/{game.pk}/report/")
        pages[player.handle] = page
    return pages


def _pick(page: Any, places: list[int]) -> None:
    """Tap each seat's place (the radio's big label) and send."""
    for seat, place in enumerate(places):
        page.locator(f"input[name='place-{seat}'][value='{place}'] + span").tap()
    page.locator("[data-report-send]").tap()


def test_four_phones_report_and_confirm_live(make_context: Any, log_in: Any, shot: Any) -> None:
    from playwright.sync_api import expect

    scene = scenes.running_tournament(players=8)
    game = scene.game(1)
    phones = _phones(make_context, log_in, game, scene)
    reporter, *others = list(game.players)
    first = phones[reporter]
    assert fits_width(first)
    shot(first, "en-report-form")
    _pick(first, [1, 2, 3, 4])
    expect(first.locator("#report")).to_have_attribute("data-report-status", "pending")
    for handle in others:  # the report arrives on the other phones without a reload
        expect(phones[handle].locator("[data-report-confirm]")).to_be_visible()
    shot(phones[others[0]], "en-confirm")
    for handle in others:
        phones[handle].locator("[data-report-confirm]").tap()
        expect(phones[handle].locator("body")).to_contain_text("You confirmed")
    expect(first.locator(".report-result")).to_contain_text("confirmed by the players")
    game.refresh_from_db()
    assert game.placements == {h: i + 1 for i, h in enumerate(game.players)}
    assert game.players_confirmed


def test_a_dispute_reaches_the_referee_list_live(make_context: Any, log_in: Any, shot: Any) -> None:
    from playwright.sync_api import expect

    scene = scenes.running_tournament(players=8)
    referee = scenes.user_with_password("ref")
    tournament_role_add(
        tournament=scene.tournament, member=referee, role=Role.REFEREE, user=scene.organizer
    )
    ref_context = make_context("phone")
    log_in(ref_context, referee)
    ref_page = ref_context.new_page()
    ref_page.goto(f"/tournaments/{scene.tournament.pk}/referee/")

    game = scene.game(2)
    phones = _phones(make_context, log_in, game, scene)
    first, second = list(game.players)[:2]
    _pick(phones[first], [1, 2, 3, 4])
    expect(phones[second].locator("[data-report-confirm]")).to_be_visible()
    form = phones[second].locator(".report-form")
    if not form.evaluate("d => d.open"):  # (it stays as the reader left it across a swap)
        form.locator("summary").tap()  # "That is not what happened"
    _pick(phones[second], [2, 1, 3, 4])
    expect(phones[second].locator("#report")).to_have_attribute("data-report-status", "disputed")
    item = ref_page.locator(f"#proposal-{game.pk}")
    expect(item.locator("[data-report-status=disputed]")).to_be_visible()  # live
    expect(item.locator(".report-version")).to_have_count(2)
    assert fits_width(ref_page)
    shot(ref_page, "en-dispute-on-referee-list")
