"""Casino on a phone: a scorekeeper records a seeded Casino game's first moves with the
score page's buttons (the deal, then captures, builds and trails as offered); a
spectator's game page shows the center's loose cards and builds, how many cards each
player holds (not which) and the captured counts; the replay viewer steps the table;
the round tables and totals of a finished round; nothing scrolls sideways. Screenshots
under ``tests/artifacts/``."""

from __future__ import annotations

from typing import Any

import pytest

import games.engine as engine
from games.models import GameEvent
from tests.browser.conftest import fits_width, table_fits
from tests.browser.score_pad import tap_event
from tests.tournaments.factories import PlayerFactory, RoundFactory, seat_table
from tests.web.kind_fixtures import kind_tournament, staff
from tournaments import services
from tournaments.models import Role
from tournaments.permissions import SYSTEM

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HANDLES = ["ann", "bob", "cat", "dan"]


def test_a_casino_game_scored_and_watched_on_a_phone(
    phone: Any, make_context: Any, live_site: str, shot: Any, log_in: Any
) -> None:
    from playwright.sync_api import expect

    tournament = kind_tournament("casino", name="Casino Cup")
    keeper = staff(tournament, Role.SCOREKEEPER, "casino-sk")
    players = [PlayerFactory(handle=h, display_name=h.title()) for h in HANDLES]
    game = seat_table(RoundFactory(tournament=tournament, number=1), players).game
    start = {"type": "start", "game": "casino", "players": HANDLES, "seed": 7}
    services.game_record_event(game=game.pk, event=start, expected_sequence=1, user=SYSTEM)

    # The scorekeeper: the deal, then ten moves, each the first button offered.
    log_in(phone, keeper)
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_site}/games/{game.pk}/score/")
    deal = page.locator(".move-button[data-group=legal]")
    expect(deal.first).to_contain_text("Deal a new round (the center: ")
    assert fits_width(page)
    shot(page, "score-deal")
    for step in range(2, 13):
        # the engine's first legal move, tapped through the pad (its card key first)
        stored = [e.data for e in GameEvent.objects.filter(game=game).order_by("sequence")]
        now = engine.replay(stored)
        tap_event(page, now.named_event(now.legal_moves()[0]))
        page.wait_for_selector(f'.sequence[data-sequence="{step + 1}"]', timeout=10000)
    assert GameEvent.objects.filter(game=game).count() == 12
    assert fits_width(page)
    # red suits differ without colour too: a double border (the symbol tells the suit)
    # (found and read in one script: a late swap of the region between Playwright's query
    # and its evaluation left detached cards, whose computed styles are empty)
    borders = page.evaluate(
        "() => [...document.querySelectorAll('.casino-card')].map((c) => "
        "[c.getAttribute('aria-label'), getComputedStyle(c).borderTopStyle])"
    )
    assert borders and {
        style for label, style in borders if label.endswith(("Hearts", "Diamonds"))
    } == {"double"}
    assert {style for label, style in borders if label.endswith(("Spades", "Clubs"))} == {"solid"}
    shot(page, "score-after-11-moves")
    log = [e.data for e in GameEvent.objects.filter(game=game).order_by("sequence")]
    summary = engine.replay(log).summary()
    assert summary["turn"] is not None and errors == []

    # A spectator on another phone.
    watcher = make_context("phone")
    view = watcher.new_page()
    view.goto(f"{live_site}/games/{game.pk}/")
    table = view.locator(".casino-table")
    expect(table.locator("[data-turn]")).to_have_attribute("data-turn", summary["turn"])
    center = table.locator(".casino-center")
    expect(center).to_have_attribute("data-loose", ",".join(summary["center"]["cards"]))
    expect(table.locator("[data-build]")).to_have_count(len(summary["center"]["builds"]))
    for handle, cards in summary["hands"].items():
        item = table.locator(f'li[data-player="{handle}"]')
        expect(item).to_have_attribute("data-cards", str(len(cards)))
        expect(item).to_have_attribute("data-captured", str(summary["captured"][handle]))
    assert table.locator(".casino-hand").count() == 0
    # every card chip is an image with words (screen readers), the symbol hidden
    chips = table.locator(".casino-card")
    assert chips.count() >= len(summary["center"]["cards"])
    for i in range(chips.count()):
        label = chips.nth(i).get_attribute("aria-label") or ""
        assert " of " in label and chips.nth(i).get_attribute("role") == "img"
    assert fits_width(view)
    shot(view, "spectator")

    view.goto(f"{live_site}/games/{game.pk}/?at=2")
    expect(view.locator(".replay-position")).to_contain_text("Event 2 of 12")
    at2 = engine.replay(log[:2]).summary()
    expect(center).to_have_attribute("data-loose", ",".join(at2["center"]["cards"]))
    assert fits_width(view)

    # A whole game with four players: the round tables fit the phone too.
    whole = engine.simulate(game="casino", players=HANDLES, seed=3, target=11)
    other = seat_table(RoundFactory(tournament=tournament, number=2), players).game
    for n, event in enumerate(whole, start=1):
        services.game_record_event(game=other.pk, event=event, expected_sequence=n, user=SYSTEM)
    view.goto(f"{live_site}/games/{other.pk}/")
    rounds = engine.replay(whole).summary()["round_scores"]
    expect(view.locator("table.casino-round")).to_have_count(len(rounds))
    assert fits_width(view)
    assert all(table_fits(view, f'table.casino-round[data-round="{n}"]') for n in (1, 2))
    assert table_fits(view, "table.players")  # the place column too, on a phone
    shot(view, "finished-game")
