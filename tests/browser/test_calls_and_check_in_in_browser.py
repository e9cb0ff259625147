"""On phones (issue 23): a player checks in from the tournament page once the organizer
opens check-in; at the table a player calls a referee, the referee's list (another
phone) shows the call live, the referee claims it (the table's page says someone is on
the way) and closes it. The table's page in Spanish and German."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import scenes
from tests.browser.conftest import fits_width
from tournaments.models import RefereeCall, Registration, Role
from tournaments.services import tournament_role_add

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_check_in_then_a_referee_call_claimed_and_closed(
    make_context: Any, log_in: Any, shot: Any
) -> None:
    from playwright.sync_api import expect

    scene = scenes.running_tournament(players=8)
    game = scene.game(1)
    player = next(p for p in scene.players if p.handle == game.players[0])
    player.user = scenes.user_with_password(f"u-{player.handle}")
    player.save(update_fields=["user"])
    referee = scenes.user_with_password("ref")
    tournament_role_add(
        tournament=scene.tournament, member=referee, role=Role.REFEREE, user=scene.organizer
    )
    Registration.objects.filter(tournament=scene.tournament).update(checked_in=False)
    scene.tournament.check_in_open = True
    scene.tournament.save(update_fields=["check_in_open"])

    phone = make_context("phone")
    log_in(phone, player.user)
    page = phone.new_page()
    page.goto(f"/tournaments/{scene.tournament.pk}/")
    page.locator("[data-check-in]").tap()
    expect(page.locator("body")).to_contain_text("You are checked in")
    assert Registration.objects.get(tournament=scene.tournament, player=player).checked_in

    ref_context = make_context("phone")
    log_in(ref_context, referee)
    ref_page = ref_context.new_page()
    ref_page.goto(f"/tournaments/{scene.tournament.pk}/referee/")

    page.goto(f"/games/{game.pk}/report/")
    page.locator(".call-referee > summary").tap()
    page.locator("#call-reason").fill("a disputed knock")
    page.locator("[data-call-referee]").tap()
    expect(page.locator("[data-call-status=open]")).to_be_visible()
    call = RefereeCall.objects.get()
    expect(ref_page.locator(f"[data-call-claim='{call.pk}']")).to_be_visible()  # live
    assert fits_width(ref_page)
    shot(ref_page, "en-referee-calls")
    ref_page.locator(f"[data-call-claim='{call.pk}']").tap()
    expect(page.locator("[data-call-status=claimed]")).to_be_visible()  # live at the table
    shot(page, "en-table-call-claimed")
    ref_page.locator(f"[data-call-close='{call.pk}']").tap()
    expect(ref_page.locator(f"[data-call-close='{call.pk}']")).to_have_count(0)
    assert RefereeCall.objects.get().status == "closed"
    for locale in ("es-ES", "de-DE"):
        other = make_context("phone", locale=locale)
        log_in(other, player.user)
        seen = other.new_page()
        seen.goto(f"/games/{game.pk}/report/")
        assert fits_width(seen)
        shot(seen, f"{locale[:2]}-report-page")
