"""Live pages in a real browser: a change committed through a service reaches the open
pages over their WebSocket (``static/js/live.js``) and shows without a reload.

This is also the check of the live server itself (``tests/browser/conftest.py``):
daphne serving HTTP and ``/ws/`` on the test database, the test's commits reaching
the server's sockets through the channel layer.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.browser import scenes
from tests.browser.conftest import LIVE_TIMEOUT_MS
from tournaments.services import game_record_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def open_live(context: Any, path: str) -> Any:
    """A page at ``path`` once its socket is open (the indicator says "Live"), marked so
    that a reload would show: a reload loses ``window.__sameDocument``."""
    from playwright.sync_api import expect

    page = context.new_page()
    page.goto(path)
    expect(page.locator(".live-indicator")).to_have_text("● Live")
    page.evaluate("window.__sameDocument = true")
    return page


def not_reloaded(page: Any) -> bool:
    return page.evaluate("window.__sameDocument === true")


def test_two_open_tournament_pages_show_a_result_recorded_through_the_service(
    desktop: Any, phone: Any, shot
) -> None:
    from playwright.sync_api import expect

    scene = scenes.running_tournament(players=8)
    path = f"/tournaments/{scene.tournament.pk}/"
    big_screen = open_live(desktop, path)
    player = open_live(phone, path)
    leader = big_screen.locator("#standings tbody tr").first
    expect(leader.locator("td.num.strong")).to_have_text("0")
    shot(big_screen, "desktop-before")
    shot(player, "phone-before")

    # The scorekeeper of table 2 enters its result (places in seat order).
    game = scene.game(2)
    winner = scene.players[[p.handle for p in scene.players].index(game.players[0])]
    scenes.record_placements(game, scene.organizer)

    for page in (big_screen, player):
        first = page.locator("#standings tbody tr").first
        expect(first.locator("th")).to_contain_text(winner.display_name, timeout=LIVE_TIMEOUT_MS)
        expect(first.locator("td.num.strong")).not_to_have_text("0")
        # The table's card in the round shows the places and its new state.
        card = page.locator("#rounds li.card", has=page.locator("a.card-title", has_text="Table 2"))
        expect(card.locator(".place-1")).to_have_count(1)
        assert not_reloaded(page)
    shot(big_screen, "desktop-after")
    shot(player, "phone-after")


def test_a_game_page_shows_a_new_event_live_from_the_message_alone(desktop: Any, shot) -> None:
    from playwright.sync_api import expect

    scene = scenes.running_tournament(players=4)
    game = scene.game(1)
    log = scenes.played_log(game)
    for sequence, event in enumerate(log[:5], start=1):
        game_record_event(game=game, event=event, expected_sequence=sequence, user=scene.organizer)
    path = f"/games/{game.pk}/"
    page = open_live(desktop, path)
    expect(page.locator(".replay-position")).to_contain_text("Event 5 of 5")
    expect(page.locator("#event-6")).to_have_count(0)
    shot(page, "five-events")
    # The page's own address fetched again (live.js's refetch) would show here.
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(urlsplit(request.url).path))

    game.refresh_from_db()
    game_record_event(game=game, event=log[5], expected_sequence=6, user=scene.organizer)

    expect(page.locator(".replay-position")).to_contain_text(
        "Event 6 of 6", timeout=LIVE_TIMEOUT_MS
    )
    expect(page.locator("#event-6")).to_have_count(1)
    expect(page.locator("#event-log")).to_have_attribute("data-live-version", "6")
    assert not_reloaded(page)
    # From the socket's message alone: the regions came with it, no fetch of the page
    # (a refetch would have been requested before the page changed).
    assert path not in fetched, fetched
    shot(page, "six-events")


def test_a_spectators_game_page_shows_the_new_status_with_the_places(desktop: Any) -> None:
    """The status badge and the verified badge are part of what is swapped: a result
    arriving live must not leave "Not started" next to the places (issue "Trust, round
    three")."""
    from playwright.sync_api import expect

    scene = scenes.running_tournament(players=4)
    game = scene.game(1)
    page = open_live(desktop, f"/games/{game.pk}/")
    expect(page.locator("#game-meta .badge.status-pending")).to_have_text("Not started")

    scenes.record_placements(game, scene.organizer)

    expect(page.locator("table.players .place-1")).to_have_count(1, timeout=LIVE_TIMEOUT_MS)
    expect(page.locator("#game-meta .badge.status-pending")).to_have_count(0)
    expect(page.locator("#game-meta .badge.status-finished")).to_have_text("Finished")
    expect(page.locator("#game-meta .badge.unverified")).to_have_count(1)
    assert not_reloaded(page)


def test_a_players_home_page_shows_their_next_table_when_the_round_is_seated(
    phone: Any, log_in: Any, shot
) -> None:
    """A seated player keeps the home page open on their phone: when the organizer seats
    the next round, *my table now* shows the new table without a reload (``/ws/me/``)."""
    from playwright.sync_api import expect

    from tournaments.services import round_create_next

    scene = scenes.running_tournament(players=8)
    ana = scene.players[0]
    ana.user = scenes.user_with_password("ana-phone")
    ana.save(update_fields=["user"])
    log_in(phone, ana.user)
    page = open_live(phone, "/")
    mine = page.locator("#my-tables .my-table")
    expect(mine).to_have_count(1)
    expect(mine).to_contain_text("Round 1:")
    shot(page, "round-1")

    for table in scene.tables:
        scenes.record_placements(table.game, scene.organizer)
    round_create_next(tournament=scene.tournament, user=scene.organizer)

    expect(mine).to_contain_text("Round 2:", timeout=LIVE_TIMEOUT_MS)
    expect(mine).to_have_count(1)
    assert not_reloaded(page)
    shot(page, "round-2")
