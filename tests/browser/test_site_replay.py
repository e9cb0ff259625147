"""The replay viewer in a real browser: a whole TOCK game stepped through with every
control (buttons, keyboard arrows, the slider, jump to event N), and at each stop the
table on the page says what the engine says: ``GET /api/games/<id>/state?at=N``
(whose turn, the center, each discard's top card and size, stocks, face-down cards)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import scenes

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def engine_state(page: Any, game_id: int, at: int) -> dict[str, Any]:
    response = page.request.get(f"/api/games/{game_id}/state?at={at}")
    assert response.ok, response.text()
    return response.json()


def shows_state(page: Any, game_id: int, at: int, last: int) -> dict[str, Any]:
    """Wait until the viewer stands at event ``at``, then check the table against the
    engine's state at ``at``; returns that state."""
    from playwright.sync_api import expect

    region = page.locator("#replay-region")
    expect(region).to_have_attribute("data-at", str(at))
    expect(page.locator(".replay-position")).to_contain_text(f"Event {at} of {last}")
    state = engine_state(page, game_id, at)
    assert state["events"] == at
    table = region.locator(".tock-table")
    expect(table.locator("[data-turn]")).to_have_attribute("data-turn", state["turn"] or "")
    center = ",".join(str(card) for card in state["center"])
    expect(table.locator("[data-center]")).to_have_attribute("data-center", center)
    face_down = "" if state["table"] is None else str(state["table"])
    expect(table.locator("[data-face-down]")).to_have_attribute("data-face-down", face_down)
    # The players table, one row per seat: discard size, its top card, stock size.
    rows = region.locator("table.players tbody tr")
    expect(rows).to_have_count(len(state["players"]))
    for row, handle in zip(rows.all(), state["players"], strict=True):
        pile = state["piles"].get(handle) or []
        stock = state["stocks"].get(handle) or []
        cells = row.locator("td.num").all_inner_texts()
        # seat, pile, top, stock, place
        assert cells[1:4] == [str(len(pile)), str(pile[-1]) if pile else "–", str(len(stock))]
    # The event log marks where the viewer stands.
    expect(page.locator(f"#event-{at}")).to_have_class("current")
    return state


def test_the_replay_viewer_steps_to_event_n_and_shows_the_engines_state(desktop: Any, shot) -> None:
    from playwright.sync_api import expect

    scene = scenes.running_tournament(players=4)
    game = scene.game(1)
    log = scenes.record_log(game, scene.organizer)
    last = len(log)
    page = desktop.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"/games/{game.pk}/")
    page.evaluate("window.__sameDocument = true")  # the steps below swap, never reload
    final = shows_state(page, game.pk, last, last)
    assert final["status"] == "finished"
    expect(page.locator("[data-turn]")).to_have_attribute("data-turn", "")
    shot(page, f"event-{last}-the-end")

    # Buttons: first, next.
    page.get_by_role("link", name="First").click()
    shows_state(page, game.pk, 1, last)
    page.get_by_role("link", name="Next").click()
    shows_state(page, game.pk, 2, last)
    shot(page, "event-2")

    # Keyboard arrows (focus on the page, not in a field): one press per shown step, then
    # three quick presses, which count from the event asked for, not from the one shown.
    page.locator("h1").click()
    for at in (3, 4, 5):
        page.keyboard.press("ArrowRight")
        shows_state(page, game.pk, at, last)
    page.keyboard.press("ArrowLeft")
    shows_state(page, game.pk, 4, last)
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    shows_state(page, game.pk, 7, last)

    # The slider.
    slider = page.locator(".replay-slider input[type=range]")
    expect(slider).to_be_visible()
    slider.fill("40")
    shows_state(page, game.pk, 40, last)
    shot(page, "event-40-slider")

    # Jump to event N, then one back.
    n = last // 2
    page.locator(".replay-jump input[name=at]").fill(str(n))
    page.locator(".replay-jump button[type=submit]").click()
    state = shows_state(page, game.pk, n, last)
    assert state["status"] == "in_progress"
    # A discard's top card as the engine has it, shown at its seat.
    handle, pile = next((h, p) for h, p in state["piles"].items() if p)
    name = next(p.display_name for p in scene.players if p.handle == handle)
    seat = page.locator(".tock-table .discards li", has_text=name)
    expect(seat.locator(".discard-top")).to_have_text(str(pile[-1]))
    shot(page, f"event-{n}-jump")
    page.get_by_role("link", name="Previous").click()
    shows_state(page, game.pk, n - 1, last)

    # The address follows the viewer (a link to this point), and it never reloaded.
    assert page.url.endswith(f"?at={n - 1}")
    assert page.evaluate("window.__sameDocument === true")
    page.get_by_role("link", name="Last").click()
    shows_state(page, game.pk, last, last)
    assert errors == []
