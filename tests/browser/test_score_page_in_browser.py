"""The scorekeeper's page in headless Chromium on a phone-sized viewport (Playwright's
Python package driving the system browser: no separate driver binary).

A scorekeeper logs in and records a TOCK game by clicking the legal-move buttons; with
JavaScript each click goes to the events API (Idempotency-Key) and the page's regions
are swapped without a reload. Then another writer records first: the next click shows
"Someone else recorded an event; reload" and stores nothing, and the reload link brings
the fresh page. Screenshots go to ``tests/artifacts/``. Skips without Chromium (fails
under ``REQUIRE_SERVICES=1``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from games.models import Game, GameEvent
from games.scorekeeping import game_score_moves
from tests.conftest import missing_service
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

PHONE = {"width": 390, "height": 844}
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
PASSWORD = "a-long-password-1"


@pytest.fixture
def phone(chromium: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Any:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing_service("Playwright's Python package is not installed")
    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls
    # are still plain synchronous code.
    monkeypatch.setitem(os.environ, "DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium["browser"], args=["--no-sandbox"])
        try:
            yield browser.new_page(viewport=PHONE)
        finally:
            browser.close()


def test_a_scorekeeper_records_tock_live_with_the_move_buttons(live_server, phone):
    tournament = TournamentFactory(status="running")
    players = [PlayerFactory(handle=h, display_name=h.title()) for h in ("ann", "bob", "cat")]
    for p in players:
        RegistrationFactory(tournament=tournament, player=p)
    game = seat_table(RoundFactory(tournament=tournament, number=1), players).game
    keeper = UserFactory(username="keeper")
    keeper.set_password(PASSWORD)
    keeper.save()
    TournamentRoleFactory(tournament=tournament, role="scorekeeper", user=keeper)
    ARTIFACTS.mkdir(exist_ok=True)
    errors: list[str] = []
    phone.on("pageerror", lambda exc: errors.append(str(exc)))

    phone.goto(live_server.url + reverse("login"))
    phone.fill("main input[name=username]", "keeper")
    phone.fill("main input[name=password]", PASSWORD)
    phone.click("main button[type=submit]")
    phone.goto(live_server.url + reverse("tournaments:game-score", args=[game.pk]))
    phone.screenshot(path=str(ARTIFACTS / "score-start.png"), full_page=True)

    for step in range(1, 13):
        group = "start" if step == 1 else "legal"
        phone.locator(f".move-button[data-group={group}]").first.click()
        phone.wait_for_selector(f'.sequence[data-sequence="{step + 1}"]', timeout=10000)
        assert f"event {step}" in phone.inner_text("#score-status")
    phone.screenshot(path=str(ARTIFACTS / "score-after-12-events.png"), full_page=True)
    assert GameEvent.objects.filter(game=game).count() == 12
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # Another writer records event 13: this page is stale now.
    fresh = Game.objects.get(pk=game.pk)
    move = game_score_moves(game=fresh).legal[0]
    game_record_event(game=fresh, event=move, expected_sequence=13, user=keeper)
    phone.locator(".move-button[data-group=legal]").first.click()
    phone.wait_for_selector("#score-status .stale", timeout=10000)
    assert "Someone else recorded an event" in phone.inner_text("#score-status")
    phone.screenshot(path=str(ARTIFACTS / "score-stale.png"))
    assert GameEvent.objects.filter(game=game).count() == 13
    phone.click("#score-status a.reload")
    phone.wait_for_selector('.sequence[data-sequence="14"]', timeout=10000)
    assert errors == []
