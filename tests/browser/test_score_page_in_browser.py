"""The scorekeeper's page in headless Chromium on a phone-sized viewport (Playwright's
Python package driving the system browser: no separate driver binary).

A scorekeeper logs in and records a TOCK game by clicking the legal-move buttons; with
JavaScript each click goes to the events API (Idempotency-Key) and the page's regions
are swapped without a reload. Then another writer records first: the next click shows
"Someone else recorded an event; reload" and stores nothing, and the reload link brings
the fresh page. The card pad plays a simulated game's stretch at 390 x 844 by its
data-event targets (and the keyboard), nothing to scroll, every target large; taps made
offline wait on the phone and are sent once, in order. Screenshots go to
``tests/artifacts/``. Skips without Chromium (fails under ``REQUIRE_SERVICES=1``)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse

from games.engine import replay, simulate
from games.models import Game, GameEvent
from games.scorekeeping import game_score_moves
from tests.browser.conftest import ServeOnce, wait_until
from tests.browser.score_pad import (
    HeldAnswer,
    OwnRefresh,
    find_target,
    layout_problems,
    tap_event,
)
from tests.tournaments.factories import (
    PlayerFactory,
    RegistrationFactory,
    RoundFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
    seat_table,
)
from tournaments.services import game_record_event, game_record_log

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-password-1"


def tock_table(handles: tuple[str, ...] = ("ann", "bob", "cat")) -> tuple[Game, Any]:
    """A running tournament's TOCK table (three players unless told) and its scorekeeper
    "keeper"."""
    tournament = TournamentFactory(status="running")
    players = [PlayerFactory(handle=h, display_name=h.title()) for h in handles]
    for p in players:
        RegistrationFactory(tournament=tournament, player=p)
    game = seat_table(RoundFactory(tournament=tournament, number=1), players).game
    keeper = UserFactory(username="keeper")
    keeper.set_password(PASSWORD)
    keeper.save()
    TournamentRoleFactory(tournament=tournament, role="scorekeeper", user=keeper)
    return game, keeper


def test_a_scorekeeper_records_tock_live_with_the_move_buttons(live_site, phone, shot):
    game, keeper = tock_table()
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


def record_next(game: Game, user: Any) -> None:
    """Another writer records the game's first legal move (through the service)."""
    fresh = Game.objects.get(pk=game.pk)
    move = game_score_moves(game=fresh).legal[0]
    game_record_event(game=fresh, event=move, expected_sequence=fresh.last_sequence + 1, user=user)


def test_answers_out_of_order_never_drop_a_tap_nor_show_an_older_page(
    live_site, phone, log_in, shot
):
    """Two scripts swap the score page's regions: score.js after its own event, live.js
    when the socket says the game changed. Their answers can arrive in any order. (1)
    While an event is being sent, live.js may already show the next state: its buttons
    stay disabled until the answer is in, so a tap then waits instead of being dropped.
    (2) A copy of the page fetched before the last change is never swapped over it."""
    from playwright.sync_api import expect

    game, keeper = tock_table()
    log_in(phone, keeper)
    score_url = live_site + reverse("tournaments:game-score", args=[game.pk])
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(score_url)
    expect(page.locator(".live-indicator")).to_have_text("● Live")
    page.locator(".move-button[data-group=start]").first.click()
    expect(page.locator("#score-status")).to_contain_text("event 1", timeout=10000)
    # every sequence number the page ever shows, in order
    page.evaluate(
        """() => { window.__shown = [];
        const note = () => { const s = document.querySelector('.sequence');
          if (s) window.__shown.push(Number(s.dataset.sequence)); };
        new MutationObserver(note).observe(document.getElementById('score-head'),
          {childList: true, subtree: true}); }"""
    )

    # (1) The answer to event 2 is held; live.js meanwhile shows event 2 (socket).
    held: list[tuple[Any, Any]] = []

    def hold(route: Any) -> None:
        held.append((route, route.fetch()))  # stored on the server, the answer waits

    page.route("**/api/games/*/events", hold)
    page.locator(".move-button[data-group=legal]").first.click()
    wait_until(page, lambda: held, "the held answer")
    expect(page.locator('.sequence[data-sequence="3"]')).to_have_count(1, timeout=10000)
    buttons = page.locator(".move-button[data-group=legal]")
    expect(buttons.first).to_be_disabled()  # swapped in mid-send: not tappable yet
    route, answer = held.pop()
    assert json.loads(answer.text())["event"]["sequence"] == 2
    route.fulfill(response=answer)
    page.unroute("**/api/games/*/events")
    expect(page.locator("#score-status")).to_contain_text("event 2", timeout=10000)
    expect(buttons.first).to_be_enabled()
    buttons.first.click()
    expect(page.locator("#score-status")).to_contain_text("event 3", timeout=10000)
    assert GameEvent.objects.filter(game=game).count() == 3

    # (2) The next refresh of the page is answered with a copy made before event 3.
    older = phone.request.get(score_url)
    older_html = older.text()
    record_next(game, keeper)  # event 4, by another writer (the page then is older)
    assert 'data-live-version="3"' in older_html
    stale_once = ServeOnce(older_html)
    expect(page.locator('.sequence[data-sequence="5"]')).to_have_count(1, timeout=10000)
    page.route(score_url + "*", stale_once)
    record_next(game, keeper)  # event 5: live.js refreshes and gets the older copy
    stale_once.wait(page)
    record_next(game, keeper)  # event 6: the next refresh is answered normally
    expect(page.locator('.sequence[data-sequence="7"]')).to_have_count(1, timeout=10000)
    shown = page.evaluate("window.__shown")
    assert shown == sorted(shown) and shown[-1] == 7, shown
    assert errors == []
    shot(page, "after-answers-out-of-order")


def test_a_raw_event_being_typed_survives_another_scorekeepers_event(live_site, phone, log_in):
    """The raw-event box is in a live region: when someone else records, the page is
    refreshed around what this scorekeeper was typing (text, focus, caret), and the
    form then carries the new sequence number."""
    from playwright.sync_api import expect

    game, keeper = tock_table()
    log_in(phone, keeper)
    page = phone.new_page()
    page.goto(live_site + reverse("tournaments:game-score", args=[game.pk]))
    expect(page.locator(".live-indicator")).to_have_text("● Live")
    page.locator(".move-button[data-group=start]").first.click()
    expect(page.locator("#score-status")).to_contain_text("event 1", timeout=10000)
    page.locator("#score-more > summary").click()  # folded under "More" while playing
    page.locator("details.raw-event summary").click()
    text = '{"type": "end", "reason": "ti'
    page.locator("#raw-event").fill(text)
    page.evaluate("document.getElementById('raw-event').setSelectionRange(5, 9)")

    record_next(game, keeper)  # event 2, by another writer
    expect(page.locator('.sequence[data-sequence="3"]')).to_have_count(1, timeout=10000)
    expect(page.locator("details.raw-event")).to_have_attribute("open", "")
    expect(page.locator("#raw-event")).to_have_value(text)
    assert page.evaluate(
        "(() => { const f = document.activeElement; "
        "return [f.id, f.selectionStart, f.selectionEnd]; })()"
    ) == ["raw-event", 5, 9]
    expect(page.locator("form.raw input[name=sequence]")).to_have_value("3")


def test_a_lost_answer_is_asked_again_with_the_same_key_and_stored_once(live_site, phone, log_in):
    """The server stores the event but its answer never arrives: the connection drops,
    or a proxy answers 502 for a server that is restarting. The page sends the same
    request again with the same Idempotency-Key and is told the event is already
    stored: one event, whatever happened on the way."""
    from playwright.sync_api import expect

    game, keeper = tock_table()
    log_in(phone, keeper)
    page = phone.new_page()
    page.goto(live_site + reverse("tournaments:game-score", args=[game.pk]))
    page.locator(".move-button[data-group=start]").first.click()
    expect(page.locator("#score-status")).to_contain_text("event 1", timeout=10000)

    for sequence, lose in ((2, "connection reset"), (3, "502 from a proxy")):
        stored: list[int] = []

        def lose_the_answer(route: Any, lose: str = lose, stored: list[int] = stored) -> None:
            if stored:
                route.continue_()  # the retry goes through
                return
            stored.append(route.fetch().status)  # the server has stored the event
            if lose == "connection reset":
                route.abort("connectionreset")
            else:
                route.fulfill(status=502, body="Bad Gateway", content_type="text/html")

        page.route("**/api/games/*/events", lose_the_answer)
        page.locator(".move-button[data-group=legal]").first.click()
        expect(page.locator("#score-status")).to_contain_text(
            f"Already recorded as event {sequence}", timeout=10000
        )
        page.unroute("**/api/games/*/events")
        assert stored == [201], lose
        assert GameEvent.objects.filter(game=game).count() == sequence, lose
        expect(page.locator(f'.sequence[data-sequence="{sequence + 1}"]')).to_have_count(1)


# --------------------------------------------------------------------------- the card pad

FOUR = ("ann", "bob", "cat", "dan")
#: How many events of the simulated game the page records in the pad test.
STRETCH = 24


def how_offered(game: Any, event: dict) -> str:
    """How the page offers ``event`` in the engine's position ``game``: the expected
    move (alone or among its destinations), a pad key (alone or with a choice), an
    infraction, a knock, or not at all (a move the page words otherwise)."""
    legal = game.legal_moves()
    if event in legal:
        if len({(m["type"], m.get("card")) for m in legal}) == 1:
            return "expected" if len(legal) == 1 else "expected-choice"
        same = [m for m in legal if m.get("card") == event.get("card")]
        return "pad" if len(same) == 1 else "pad-choice"
    if event in game.infraction_moves():
        return "infraction"
    return "knock" if event in game.table_moves() else "other"


def simulated_stretch() -> tuple[list[dict], int, list[str]]:
    """A simulated four-player game with real cards (no seed: the pad names each
    drawn card), with mistakes and knocks, and where a stretch of :data:`STRETCH`
    events starts that the page offers exactly and that holds every way of offering:
    the log, the stretch's first index, how each of its events is offered."""
    log = simulate(game="tock", players=list(FOUR), seed=34, mistakes=0.05, knocks=0.3)
    log[0] = {k: v for k, v in log[0].items() if k != "seed"}
    game, ways = replay(log[:1]), []
    for event in log[1:]:
        ways.append(how_offered(game, event))
        game.push(event)
    wanted = {"expected", "expected-choice", "pad", "pad-choice", "infraction", "knock"}
    for start in range(100, len(ways) - STRETCH):
        window = ways[start : start + STRETCH]
        if "other" not in window and set(window) == wanted:
            return log, start + 1, window
    raise AssertionError("no stretch of the simulated game holds every way of offering")


def test_the_card_pad_records_a_simulated_game_at_phone_size(live_site, make_context, log_in, shot):
    """The stretch is tapped through the page at 390 x 844, each event by the element
    whose data-event it is (a pad key's choice and "Something else" opened first), some
    by the keyboard (digits for the pad, Enter for the expected move); at every step
    nothing needs scrolling and every target is at least 44 x 44. The stored log is the
    simulated one; a legal event takes one tap, a choice or an infraction two. Then
    the page in Spanish and German, also without scrolling."""
    from playwright.sync_api import expect

    log, first, ways = simulated_stretch()
    game, keeper = tock_table(FOUR)
    game_record_log(game=game, log=log[:first], user=keeper)
    phone = make_context("phone")
    log_in(phone, keeper)
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(live_site + reverse("tournaments:game-score", args=[game.pk]))
    taps = 0
    shots = {"pad": False, "expected": False, "infraction": False}
    stretch = zip(log[first : first + STRETCH], ways, strict=True)
    for n, (event, way) in enumerate(stretch, start=first + 1):
        expect(page.locator("#score-moves .score-moves")).to_have_attribute("data-sequence", str(n))
        assert layout_problems(page) == [], (n, way)
        if way in shots and not shots[way]:
            shots[way] = True
            if way == "infraction":  # "Something else" open: the infractions instead
                page.locator("#score-something-else > summary").click()
                taps += 1
                assert layout_problems(page) == [], (n, way)
            shot(page, f"en-{way}")
        if way == "pad" and n % 2:  # the keyboard: the card's digits
            page.keyboard.type(str(event["card"]))
            taps += 1
        elif way == "expected" and n % 2:
            page.keyboard.press("Enter")
            taps += 1
        else:
            taps += tap_event(page, event)
    expect(page.locator("#score-moves .score-moves")).to_have_attribute(
        "data-sequence", str(first + STRETCH + 1)
    )
    stored = [e.data for e in GameEvent.objects.filter(game=game).order_by("sequence")]
    assert stored == log[: first + STRETCH]
    two_taps = sum(way in ("pad-choice", "infraction") for way in ways)
    assert taps == STRETCH + two_taps
    assert errors == []

    for locale, language in (("es-ES", "es"), ("de-DE", "de")):
        context = make_context("phone", locale=locale)
        log_in(context, keeper)
        other = context.new_page()
        other.goto(live_site + reverse("tournaments:game-score", args=[game.pk]))
        assert other.locator("html").get_attribute("lang") == language
        assert layout_problems(other) == [], language
        shot(other, f"{language}-play")
        other.locator("#score-something-else > summary").click()  # the infractions
        assert layout_problems(other) == [], language
        shot(other, f"{language}-something-else")


def _score_page_after(
    live_site: str, make_context: Any, log_in: Any, recorded: list[dict]
) -> tuple[Game, Any, OwnRefresh, Any]:
    """A four-player TOCK table with ``recorded`` stored, its score page open on a phone
    with live.js held off (:class:`OwnRefresh`) and showing the next event: the game,
    the page, its swaps and its moves' region."""
    from playwright.sync_api import expect

    game, keeper = tock_table(FOUR)
    game_record_log(game=game, log=recorded, user=keeper)
    phone = make_context("phone")
    log_in(phone, keeper)
    page = phone.new_page()
    url = live_site + reverse("tournaments:game-score", args=[game.pk])
    swaps = OwnRefresh(page, url)
    page.goto(url)
    moves = page.locator("#score-moves .score-moves")
    expect(moves).to_have_attribute("data-sequence", str(len(recorded) + 1))
    return game, page, swaps, moves


def test_a_key_typed_while_the_event_before_is_sent_acts_once_its_answer_is_in(
    live_site, make_context, log_in
):
    """A knock is tapped; its answer is slow, and live.js shows the next position first.
    The card typed there (a digit) is kept while the knock is being sent and taps its
    key once the answer is in. The page's targets are disabled while sending, and the
    typed key was dropped: the event was never recorded (the pad test failed that way
    under load)."""
    from playwright.sync_api import expect

    log, first, ways = simulated_stretch()
    k = next(
        i
        for i in range(len(ways) - 1)
        if ways[i] == "knock"
        and ways[i + 1] == "pad"
        and 3 <= log[first + i + 1]["card"] <= 9  # one digit, no longer key after it
    )
    knock, draw = log[first + k], log[first + k + 1]
    game, page, swaps, moves = _score_page_after(live_site, make_context, log_in, log[: first + k])
    answers = HeldAnswer(page)
    tap_event(page, knock)
    answers.wait()  # stored; the page still sending
    assert swaps.show_live_copy() == str(first + k + 2)  # live.js first
    page.keyboard.type(str(draw["card"]))
    answers.release()
    expect(moves).to_have_attribute("data-sequence", str(first + k + 3))
    stored = [e.data for e in GameEvent.objects.filter(game=game).order_by("sequence")]
    assert stored == log[: first + k + 2]


def test_a_tap_pressed_before_a_swap_and_released_after_it_is_recorded(
    live_site, make_context, log_in
):
    """A live copy of the position shown lands between a tap's press and its release (a
    phone's tap lasts a tenth of a second): the tap is recorded. The copy replaced the
    pressed button, the release fell on another element and the browser fired no click:
    the tap was lost (the scorekeeper's test lost event 407 that way, under load)."""
    from playwright.sync_api import expect

    log, first, ways = simulated_stretch()
    k = ways.index("knock")  # a button of its own, in view
    game, page, swaps, moves = _score_page_after(live_site, make_context, log_in, log[: first + k])
    found = find_target(page, log[first + k])
    assert not found["opener"]
    box = page.locator(found["selector"]).locator("visible=true").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    assert swaps.show_live_copy() == str(first + k + 1)  # the same position, swapped in
    page.mouse.up()
    expect(moves).to_have_attribute("data-sequence", str(first + k + 2))
    stored = [e.data for e in GameEvent.objects.filter(game=game).order_by("sequence")]
    assert stored == log[: first + k + 1]


def test_taps_made_offline_wait_and_are_sent_once_in_order(live_site, phone, log_in):
    """Offline, two knocks are tapped: the page says "2 waiting" and sends nothing; back
    online, both are stored once, in order. A tap made offline that the server refuses
    when it comes (another scorekeeper was first: 409) is shown, not lost."""
    from playwright.sync_api import expect

    log, first, _ways = simulated_stretch()
    game, keeper = tock_table(FOUR)
    game_record_log(game=game, log=log[:first], user=keeper)
    log_in(phone, keeper)
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(live_site + reverse("tournaments:game-score", args=[game.pk]))
    knocks = page.locator("#score-moves button[data-group=table]")
    expect(knocks.first).to_be_visible()
    wanted = [json.loads(knocks.nth(i).get_attribute("data-event")) for i in (0, 1)]

    phone.set_offline(True)
    knocks.nth(0).click()
    knocks.nth(1).click()
    knocks.nth(1).click()  # a double tap: one event
    expect(page.locator("#score-queue [data-waiting]")).to_contain_text("2 waiting")
    assert GameEvent.objects.filter(game=game).count() == first
    phone.set_offline(False)
    expect(page.locator("#score-queue [data-waiting]")).to_have_count(0)
    expect(page.locator("#score-moves .score-moves")).to_have_attribute(
        "data-sequence", str(first + 3)
    )
    stored = [e.data for e in GameEvent.objects.filter(game=game).order_by("sequence")]
    assert stored == log[:first] + wanted

    # Offline again: a tap waits; meanwhile another scorekeeper records the next event.
    phone.set_offline(True)
    page.locator("#score-moves button[data-group=table]").first.click()
    expect(page.locator("#score-queue [data-waiting]")).to_contain_text("1 waiting")
    record_next(game, keeper)
    phone.set_offline(False)
    expect(page.locator("#score-queue [data-refused]")).to_contain_text("knocks")
    assert GameEvent.objects.filter(game=game).count() == first + 3
    assert errors == []
