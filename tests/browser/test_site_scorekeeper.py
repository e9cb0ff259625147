"""A scorekeeper on a phone records a TOCK game live with the move buttons of the score
page (``/games/<pk>/score/``: a target per move the engine offers, each carrying its
event as ``data-event``), and the
public tournament page open on a big screen updates its standings when the game ends.

The game is a real one (the engine's bots, ``scenes.played_log``, started with the
score page's own start button: real cards, no seed); at each step the scorekeeper
presses the button of the move the log says was played. The opening and
the end are pressed in the browser; the middle of the game (some 400 events) is
recorded through the service, as by a second scorekeeper's phone, and reaches the
first phone live."""

from __future__ import annotations

from typing import Any

import pytest

import games.engine as engine
from tests.browser import scenes
from tests.browser.conftest import LIVE_TIMEOUT_MS, fits_width
from tests.browser.score_pad import tap_event
from tournaments.models import Role
from tournaments.services import game_record_log, tournament_role_add

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Events pressed in the browser at the start and at the end of the game.
OPENING = 4
ENDING = 5


def press(page: Any, event: dict[str, Any], sequence: int) -> None:
    """Tap ``event`` (the move at ``sequence``) by the target whose data-event it is (a
    pad key's choice or "Something else" opened first) and wait for the page to ask for
    the next one."""
    from playwright.sync_api import expect

    moves = page.locator("#score-moves .score-moves")
    expect(moves).to_have_attribute("data-sequence", str(sequence))
    tap_event(page, event)
    expect(moves).to_have_attribute("data-sequence", str(sequence + 1))


def test_a_scorekeeper_records_a_game_with_the_buttons_and_the_standings_follow(
    make_context: Any, log_in: Any, shot
) -> None:
    from playwright.sync_api import expect

    scene = scenes.running_tournament(players=8, placements=1)
    keeper = scenes.user_with_password("keeper")
    tournament_role_add(
        tournament=scene.tournament, member=keeper, role=Role.SCOREKEEPER, user=scene.organizer
    )
    game = scene.game(2)
    log = scenes.played_log(game, real_cards=True)
    places = engine.replay(log).placements()
    winner_handle = next(h for h, place in places.items() if place == 1)
    winner = next(p for p in scene.players if p.handle == winner_handle)

    # The big screen shows the public page: table 2 still playing, standings provisional.
    screen = make_context("desktop").new_page()
    screen.goto(f"/tournaments/{scene.tournament.pk}/")
    expect(screen.locator(".live-indicator")).to_have_text("● Live")
    expect(screen.locator("#standings .badge.provisional")).to_have_count(1)
    winner_row = screen.locator("#standings tbody tr", has_text=winner.display_name)
    expect(winner_row.locator("td.num.strong")).to_have_text("0")
    screen.evaluate("window.__sameDocument = true")

    # The scorekeeper's phone: the opening moves with the buttons.
    phone = make_context("phone")
    log_in(phone, keeper)
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"/games/{game.pk}/score/")
    expect(page.locator(".move-button[data-group=start]").first).to_be_visible()
    assert fits_width(page)
    shot(page, "score-start")
    for sequence in range(1, OPENING + 1):
        press(page, log[sequence - 1], sequence)
    shot(page, f"score-after-{OPENING}")

    # The middle of the game arrives from another phone (through the service), live.
    middle = len(log) - ENDING
    game_record_log(game=game, log=log[:middle], user=keeper)
    expect(page.locator("#score-moves .score-moves")).to_have_attribute(
        "data-sequence", str(middle + 1), timeout=LIVE_TIMEOUT_MS
    )

    # The end of the game with the buttons; the last one finishes it.
    for sequence in range(middle + 1, len(log) + 1):
        press(page, log[sequence - 1], sequence)
    expect(page.locator("#score-moves [data-event]")).to_have_count(0)
    assert fits_width(page)
    shot(page, "score-finished")

    # The big screen: the round is complete, the winner of table 2 has their points.
    expect(screen.locator("#standings .badge.provisional")).to_have_count(
        0, timeout=LIVE_TIMEOUT_MS
    )
    expect(winner_row.locator("td.num.strong")).not_to_have_text("0")
    card = screen.locator("#rounds li.card", has=screen.locator("a.card-title", has_text="Table 2"))
    expect(card.locator(".place-1")).to_contain_text("#1")
    assert screen.evaluate("window.__sameDocument === true")
    shot(screen, "standings-after")
    assert errors == []
