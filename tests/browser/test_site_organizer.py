"""An organizer runs the start of an event in a real browser while a player watches.

The organizer logs in, creates an event from the league page, registers 12 players by
pasting a CSV on the dashboard, checks them in and starts the event. Meanwhile a
second browser (a phone) has the public tournament page open: the registrations and
then the seating appear there without a reload (live updates)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest

from tests.browser import scenes
from tests.browser.conftest import LIVE_TIMEOUT_MS, ServeOnce

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = scenes.NAMES[:12]
CSV = "handle,name\n" + "\n".join(f"{n.split()[0].lower()},{n}" for n in PLAYERS) + "\n"


def test_an_organizer_starts_an_event_and_the_public_page_shows_the_seating_live(
    desktop: Any, phone: Any, shot
) -> None:
    from playwright.sync_api import expect

    league, _organizer = scenes.league()

    # The organizer logs in and lands back on the league page.
    org = desktop.new_page()
    org.goto(f"/accounts/login/?next=/leagues/{league.slug}/")
    org.fill("main [name=username]", "organizer")
    org.fill("main [name=password]", scenes.PASSWORD)
    org.locator("main form [type=submit]").click()
    org.wait_for_url(f"**/leagues/{league.slug}/")

    # A new event from the league page: one form.
    org.locator("#new-tournament").click()
    org.wait_for_url(f"**/leagues/{league.slug}/tournaments/new/")
    org.fill("#id_name", "Friday Night")
    org.fill("#id_venue", "Café Tock")
    org.fill("#id_table_sizes", "4")
    org.fill("#id_rounds", "3")
    # Cut and advance show only for the formats that use them.
    expect(org.locator("#id_cut")).to_be_hidden()
    org.select_option("#id_format", "swiss_cut")
    expect(org.locator("#id_cut")).to_be_visible()
    expect(org.locator("#id_advance")).to_be_visible()
    org.select_option("#id_format", "swiss")
    expect(org.locator("#id_advance")).to_be_hidden()
    shot(org, "create-form")
    org.locator("#tournament-create-submit").click()
    org.wait_for_url(re.compile(r"/tournaments/\d+/organize/$"))
    pk = int(re.search(r"/tournaments/(\d+)/organize/", org.url).group(1))
    expect(org.locator("h1")).to_contain_text("Friday Night")

    # A player opens the public page on a phone and keeps it open.
    public = phone.new_page()
    public.goto(f"/tournaments/{pk}/")
    expect(public.locator(".live-indicator")).to_have_text("● Live")
    public.evaluate("window.__sameDocument = true")
    expect(public.locator("#standings")).to_contain_text("No players registered yet.")
    expect(public.locator("#seats")).to_have_count(0)
    shot(public, "public-before")

    # Twelve players pasted as CSV (new handles become players).
    register = org.locator("details#register")
    if register.get_attribute("open") is None:
        register.locator("summary").click()
    org.locator("#id_csv_text").fill(CSV)
    shot(org, "csv-pasted")
    org.locator("#players-csv-submit").click()
    rows = org.locator("#registration-list li.registration")
    expect(rows).to_have_count(12)
    expect(org.locator("#csv-errors")).to_have_count(0)
    # ... and the public page lists them, live.
    expect(public.locator("#standings tbody tr")).to_have_count(12, timeout=LIVE_TIMEOUT_MS)

    # Check-in: one by one with the toggle, the rest all at once.
    first = org.locator("#reg-ada button.toggle")
    first.click()
    expect(org.locator("#reg-ada")).to_have_class(re.compile(r"\bis-in\b"))
    org.locator("#check-in-all").click()
    expect(org.locator("#registration-list li.registration.is-in")).to_have_count(12)
    expect(org.locator("#overview .counts")).to_contain_text("12 of 12")
    shot(org, "checked-in")

    # Start: round 1 is seated, three tables of four.
    org.locator("#start-event").click()
    expect(org.locator("#round .organize-tables > li")).to_have_count(3)
    shot(org, "started")

    # The phone shows where everybody sits, without a reload.
    seats = public.locator("#find-table-results li[data-search]")
    expect(seats).to_have_count(12, timeout=LIVE_TIMEOUT_MS)
    expect(public.locator("#rounds li.card")).to_have_count(3)
    expect(public.locator("#seats")).to_contain_text("Ada Berg")
    assert public.evaluate("window.__sameDocument === true")
    shot(public, "public-seated")


def registered_event(league: Any, organizer: Any, name: str, *, players: dict[str, str]) -> Any:
    """A Swiss event of 3 rounds at tables of 4 starting today, with ``players``
    (handle: name) registered and not checked in."""
    from django.utils.text import slugify

    from tournaments.services import player_create, registration_create, tournament_create

    tournament = tournament_create(
        league=league,
        name=name,
        slug=slugify(name),
        starts_on=dt.date.today(),
        rounds=3,
        table_sizes=[4],
        user=organizer,
    )
    for handle, display_name in players.items():
        player = player_create(handle=handle, display_name=display_name, user=scenes.SYSTEM)
        registration_create(tournament=tournament, player=player, user=scenes.SYSTEM)
    return tournament


def test_the_player_search_finds_a_player_on_another_page(phone: Any, log_in, shot) -> None:
    """150 players: the dashboard shows 100; typing the name of one on page 2 asks the
    server and shows their row, ready to check in, without leaving the page."""
    from playwright.sync_api import expect

    league, organizer = scenes.league()
    players = {f"zz{i:03d}": f"Zed Number {i:03d}" for i in range(150)}
    tournament = registered_event(league, organizer, "Big Saturday", players=players)
    log_in(phone, organizer)
    page = phone.new_page()
    page.goto(f"/tournaments/{tournament.pk}/organize/")
    rows = page.locator("#registration-list li[data-search]")
    expect(rows).to_have_count(100)
    expect(page.locator("#reg-zz149")).to_have_count(0)
    page.evaluate("window.__sameDocument = true")

    page.locator("#player-filter").fill("number 149")
    expect(page.locator("#reg-zz149")).to_be_visible()
    expect(page.locator("#registration-list li[data-search]:visible")).to_have_count(1)
    shot(page, "found-on-page-2")
    page.locator("#reg-zz149 button.toggle").tap()
    expect(page.locator("#reg-zz149")).to_have_class(re.compile(r"\bis-in\b"))
    expect(page).to_have_url(re.compile(r"/organize/\?q=number(\+|%20)149"))  # a reload keeps it

    # Someone else checks a player in: the live refresh keeps the search's list.
    from tournaments.models import Registration
    from tournaments.services import registration_check_in

    other = Registration.objects.get(tournament=tournament, player__handle="zz000")
    registration_check_in(registration=other, user=organizer)
    expect(page.locator("#overview .counts")).to_contain_text("2 of 150", timeout=LIVE_TIMEOUT_MS)
    expect(page.locator("#reg-zz149")).to_be_visible()
    expect(page.locator("#registration-list li[data-search]:visible")).to_have_count(1)
    page.locator("#player-filter").fill("")  # cleared: the first page again
    expect(rows).to_have_count(100)
    expect(page).to_have_url(re.compile(r"/organize/$"))
    assert page.evaluate("window.__sameDocument") is True  # no reload on the way


def test_a_check_in_is_not_undone_by_a_live_copy_fetched_before_it(
    phone: Any, log_in, shot
) -> None:
    """The dashboard's regions are swapped by two scripts: organize.js with the answer
    to a check-in toggle, live.js when the socket says the event changed. A copy of the
    dashboard fetched before the toggle (its answer crossing the toggle's) must not
    show the player as absent again: data-live-version (the audit log's length) says
    which copy is newer."""
    from playwright.sync_api import expect

    from tournaments.models import Registration
    from tournaments.services import registration_check_in

    league, organizer = scenes.league()
    players = {handle: handle.title() for handle in ("ada", "bob", "cai")}
    tournament = registered_event(league, organizer, "Crossing Cup", players=players)
    log_in(phone, organizer)
    dashboard = f"/tournaments/{tournament.pk}/organize/"
    page = phone.new_page()
    page.goto(dashboard)
    expect(page.locator(".live-indicator")).to_have_text("● Live")
    older_html = phone.request.get(dashboard).text()  # nobody checked in
    # whether Ada shows as checked in, each time the registrations are swapped
    page.evaluate(
        """() => { window.__adaIn = [];
        new MutationObserver(() => { const a = document.getElementById('reg-ada');
          if (a) window.__adaIn.push(a.classList.contains('is-in')); })
        .observe(document.getElementById('registrations'), {childList: true, subtree: true}); }"""
    )

    page.locator("#reg-ada button.toggle").tap()
    expect(page.locator("#reg-ada")).to_have_class(re.compile(r"\bis-in\b"))
    stale_once = ServeOnce(older_html)
    page.route(f"**{dashboard}", stale_once)

    def check_in(handle: str) -> None:
        registration = Registration.objects.get(tournament=tournament, player__handle=handle)
        registration_check_in(registration=registration, user=organizer)

    check_in("bob")  # live.js refreshes: one answer (this or the one before) is the old copy
    stale_once.wait(page)
    check_in("cai")  # and the next refresh is answered normally
    expect(page.locator("#reg-cai")).to_have_class(
        re.compile(r"\bis-in\b"), timeout=LIVE_TIMEOUT_MS
    )
    expect(page.locator("#reg-bob")).to_have_class(re.compile(r"\bis-in\b"))
    assert page.evaluate("window.__adaIn") and all(page.evaluate("window.__adaIn"))
    shot(page, "after-a-crossing")
