"""The scorekeeper's page in headless Chromium on a phone-sized viewport (Playwright's
Python package driving the system browser: no separate driver binary).

A scorekeeper logs in and records a TOCK game by clicking the legal-move buttons; with
JavaScript each click goes to the events API (Idempotency-Key) and the page's regions
are swapped without a reload. Then another writer records first: the next click shows
"Someone else recorded an event; reload" and stores nothing, and the reload link brings
the fresh page. Screenshots go to ``tests/artifacts/``. Skips without Chromium (fails
under ``REQUIRE_SERVICES=1``)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game, GameEvent
from games.scorekeeping import game_score_moves
from tests.tournaments.factories import (
    PlayerFactory,
    RegistrationFactory,
    RoundFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
    seat_table,
)
from tournaments.services import game_record_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-password-1"


def test_a_scorekeeper_records_tock_live_with_the_move_buttons(live_site, phone, shot):
    tournament = TournamentFactory(status="running")
    players = [PlayerFactory(handle=h, display_name=h.title()) for h in ("ann", "bob", "cat")]
    for p in players:
        RegistrationFactory(tournament=tournament, player=p)
    game = seat_table(RoundFactory(tournament=tournament, number=1), players).game
    keeper = UserFactory(username="keeper")
    keeper.set_password(PASSWORD)
    keeper.save()
    TournamentRoleFactory(tournament=tournament, role="scorekeeper", user=keeper)
    from playwright.sync_api import expect

    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    page.goto(live_site + reverse("login"))
    page.fill("main input[name=username]", "keeper")
    page.fill("main input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.goto(live_site + reverse("tournaments:game-score", args=[game.pk]))
    shot(page, "score-start")

    for step in range(1, 13):
        group = "start" if step == 1 else "legal"
        page.locator(f".move-button[data-group={group}]").first.click()
        page.wait_for_selector(f'.sequence[data-sequence="{step + 1}"]', timeout=10000)
        expect(page.locator("#score-status")).to_contain_text(f"event {step}", timeout=10000)
    shot(page, "score-after-12-events")
    assert GameEvent.objects.filter(game=game).count() == 12
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # Another writer records event 13: this page is stale now. Its live refresh is held
    # (live.js's cancelable "tock:live" event), as when the socket's message is lost.
    page.evaluate("document.addEventListener('tock:live', (e) => e.preventDefault())")
    fresh = Game.objects.get(pk=game.pk)
    move = game_score_moves(game=fresh).legal[0]
    game_record_event(game=fresh, event=move, expected_sequence=13, user=keeper)
    page.locator(".move-button[data-group=legal]").first.click()
    page.wait_for_selector("#score-status .stale", timeout=10000)
    assert "Someone else recorded an event" in page.inner_text("#score-status")
    shot(page, "score-stale")
    assert GameEvent.objects.filter(game=game).count() == 13
    page.click("#score-status a.reload")
    page.wait_for_selector('.sequence[data-sequence="14"]', timeout=10000)
    assert errors == []
