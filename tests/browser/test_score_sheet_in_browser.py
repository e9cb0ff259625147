"""The score sheet's pad on a phone (issue 22): UNO hands and a Casino round entered in
taps on one screen (a player, the digits, Record; on a desktop keyboard digits and
Enter), each line stored as the engine checks it; nothing to scroll at 390 x 844 in
English, Spanish and German; every target at least 44 x 44."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games.models import GameEvent
from tests.browser.score_pad import OwnRefresh, layout_problems
from tests.web.kind_fixtures import kind_tournament, record, seated_game, staff
from tournaments.models import Role

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOUR = {"alba": "Alba Ruiz", "bruno": "Bruno Díaz", "clara": "Clara Vidal", "dario": "Darío Gil"}

#: Visible pad targets smaller than 44 x 44 (the choices' labels, the digit keys).
_SMALL = """() => [...document.querySelectorAll(
  '.sheet-form label > input + span, .digit-pad button, .sheet-form select')]
  .filter((el) => el.checkVisibility())
  .map((el) => el.getBoundingClientRect())
  .filter((r) => r.width < 44 || r.height < 44).length"""


#: Swaps #score-moves with a fresh copy of the page as live.js does for a late message
#: (same position); with an argument, that copy has the winner ``arg`` chosen already.
_SAME_POSITION_SWAP = """async (winner) => {
  const html = await (await fetch(location.pathname + "?copy=1")).text();
  const doc = new DOMParser().parseFromString(html, "text/html");
  const chosen = winner && doc.querySelector(`input[name='winner'][value='${winner}']`);
  if (chosen) chosen.setAttribute("checked", "");
  return window.TockRegions.swapIn(doc, ["#score-moves"]).length;
}"""


def _sheet(kind: str) -> tuple[Any, Any]:
    tournament = kind_tournament(kind, name=f"{kind} sheet")
    game = seated_game(tournament, FOUR)
    record(game, [{"type": "start", "game": kind, "players": list(FOUR), "sheet": True}])
    return game, staff(tournament, Role.SCOREKEEPER, f"{kind}-pad-keeper")


def _stored(game) -> list[dict]:
    return [e.data for e in GameEvent.objects.filter(game=game).order_by("sequence")][1:]


def _choose(page: Any, name: str, value: str) -> None:
    page.locator(f"input[name='{name}'][value='{value}'] + span").click()


def test_uno_hands_on_the_pad(live_site, make_context, log_in, shot) -> None:
    from playwright.sync_api import expect

    game, keeper = _sheet("uno")
    phone = make_context("phone")
    log_in(phone, keeper)
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    url = live_site + reverse("tournaments:game-score", args=[game.pk])
    swaps = OwnRefresh(page, url)
    page.goto(url)
    moves = page.locator("#score-moves .score-moves")
    _choose(page, "winner", "bruno")
    for digit in "125":
        page.locator(f".digit-pad [data-digit='{digit}']").click()
    record_button = page.locator("[data-sheet-record]")
    expect(record_button).to_have_attribute(
        "data-event", '{"type":"hand","winner":"bruno","points":125}'
    )
    assert layout_problems(page) == [] and page.evaluate(_SMALL) == 0
    shot(page, "en-uno-line")
    swaps.hold()
    record_button.click()
    swaps.wait()
    assert swaps.show_live_copy() == "3"  # live.js shows the line first
    # the line sent goes from the pad (live.js's copy keeps what is typed)
    expect(page.locator("[data-pad-target]")).to_have_value("")
    expect(page.locator("input[name='winner']:checked")).to_have_count(0)
    # the keyboard: a player, digits, Enter
    _choose(page, "winner", "dario")
    # A late live message about the line just recorded swaps in a copy of the same
    # position: the winner just tapped stays chosen (it was cleared before).
    assert page.evaluate(_SAME_POSITION_SWAP, None) == 1
    expect(page.locator("input[name='winner'][value='dario']")).to_be_checked()
    # a copy in which the group starts from another answer (someone else's) wins
    assert page.evaluate(_SAME_POSITION_SWAP, "alba") == 1
    expect(page.locator("input[name='winner'][value='alba']")).to_be_checked()
    assert page.evaluate(_SAME_POSITION_SWAP, None) == 1  # the server's copy again
    _choose(page, "winner", "dario")
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.type("40")
    page.keyboard.press("Backspace")
    # score.js's own refresh of the line recorded, late: what was typed and chosen since
    # is the next line's and stays (it cleared the winner before)
    swaps.release()
    expect(page.locator("input[name='winner'][value='dario']")).to_be_checked()
    page.keyboard.type("7")
    page.keyboard.press("Enter")
    expect(moves).to_have_attribute("data-sequence", "4")
    assert _stored(game) == [
        {"type": "hand", "winner": "bruno", "points": 125},
        {"type": "hand", "winner": "dario", "points": 47},
    ]
    assert layout_problems(page) == []
    assert errors == []
    for locale, language in (("es-ES", "es"), ("de-DE", "de")):
        other = make_context("phone", locale=locale)
        log_in(other, keeper)
        seen = other.new_page()
        seen.goto(live_site + reverse("tournaments:game-score", args=[game.pk]))
        assert seen.locator("html").get_attribute("lang") == language
        assert layout_problems(seen) == [] and seen.evaluate(_SMALL) == 0, language
        shot(seen, f"{language}-uno-sheet")


def test_a_casino_round_on_the_pad(live_site, make_context, log_in, shot) -> None:
    from playwright.sync_api import expect

    game, keeper = _sheet("casino")
    phone = make_context("phone")
    log_in(phone, keeper)
    page = phone.new_page()
    page.goto(live_site + reverse("tournaments:game-score", args=[game.pk]))
    _choose(page, "cards", "alba")
    _choose(page, "spades", "")  # a tie
    _choose(page, "big_casino", "clara")
    _choose(page, "little_casino", "alba")
    for i, aces in enumerate((1, 2, 0, 1)):
        page.locator(f"select[name='aces-{i}']").select_option(str(aces))
    assert layout_problems(page) == [] and page.evaluate(_SMALL) == 0
    shot(page, "en-casino-line")
    page.locator("[data-sheet-record]").click()
    expect(page.locator("#score-moves .score-moves")).to_have_attribute("data-sequence", "3")
    (line,) = _stored(game)
    assert line["type"] == "round"
    assert line["scores"]["alba"] == {
        "cards": 3, "spades": 0, "big_casino": 0, "little_casino": 1, "aces": 1
    }  # fmt: skip
    for locale, language in (("es-ES", "es"), ("de-DE", "de")):
        other = make_context("phone", locale=locale)
        log_in(other, keeper)
        seen = other.new_page()
        seen.goto(live_site + reverse("tournaments:game-score", args=[game.pk]))
        assert layout_problems(seen) == [], language
        shot(seen, f"{language}-casino-sheet")
