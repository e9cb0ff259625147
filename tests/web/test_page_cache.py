"""The page cache (tock_site/page_cache.py): anonymous visitors of the public read pages
share one render until something shown changes; signed-in users, API tokens, CSRF
tokens and cookies never cross from one visitor to another."""

from __future__ import annotations

import threading

import pytest
from django.conf import settings
from django.db import connection, connections, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.authtoken.models import Token

import games.engine as engine
from tests.tournaments.factories import (
    PlayerFactory,
    RegistrationFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    seat_table,
)
from tock_site import page_cache
from tock_site.page_cache import HIT_HEADER, page_version
from tournaments.models import Player
from tournaments.permissions import SYSTEM
from tournaments.services import game_record_event, game_record_placements
from tournaments.services.players import player_set_hidden


@pytest.fixture
def event(db):
    """A running public tournament: four players at one table of round 1 (pending)."""
    tournament = TournamentFactory(status="running")
    players = [
        PlayerFactory(handle=h, display_name=f"Name {h}") for h in ("ann", "bob", "cy", "di")
    ]
    for player in players:
        RegistrationFactory(tournament=tournament, player=player)
    table = seat_table(RoundFactory(tournament=tournament, number=1, status="running"), players)
    return {"tournament": tournament, "players": players, "game": table.game_id}


def _pages(event) -> list[str]:
    pk = event["tournament"].pk
    return [
        reverse("home"),
        reverse("tournaments:tournament-detail", args=[pk]),
        reverse("tournaments:tournament-detail", args=[pk]) + "?round=1&tables=all",
        reverse("tournaments:player-detail", args=["ann"]),
        reverse("api:tournament-standings", args=[pk]),
    ]


def _get(client: Client, url: str, **extra):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, **extra)
    assert response.status_code == 200, (url, response.status_code)
    return response, len(queries.captured_queries)


def _hit(response) -> bool:
    return response.get(HIT_HEADER) == "hit"


def test_anonymous_visitors_share_one_render_without_token_or_cookie(client, event):
    for url in _pages(event):
        first, cold = _get(client, url)
        second, warm = _get(Client(), url)  # another visitor
        assert not _hit(first) and cold > 0
        assert _hit(second) and warm == 0, url  # neither the view nor the database
        assert second.content == first.content
        for header in ("Content-Type", "Content-Language"):
            assert second[header] == first[header], (url, header)
        assert {v.strip() for v in second["Vary"].split(",")} >= {"Accept-Language", "Cookie"}
        assert set(first["Vary"].split(", ")) == set(second["Vary"].split(", "))
        for response in (first, second):
            assert not response.cookies, (url, response.cookies)  # no csrftoken, no session
            assert b"csrfmiddlewaretoken" not in response.content
    assert "csrftoken" not in client.cookies


@pytest.mark.django_db(transaction=True)
def test_a_recorded_result_shows_on_the_next_request():
    """Committed for real: the version moves on once the result commits (not before:
    a page rendered meanwhile cannot show it); the next request renders afresh."""
    tournament = TournamentFactory(status="running")
    players = [PlayerFactory(handle=h) for h in ("ann", "bob", "cy", "di")]
    for player in players:
        RegistrationFactory(tournament=tournament, player=player)
    game = seat_table(RoundFactory(tournament=tournament, number=1, status="running"), players)
    page = reverse("tournaments:tournament-detail", args=[tournament.pk])
    standings = reverse("api:tournament-standings", args=[tournament.pk])
    player_page = reverse("tournaments:player-detail", args=["bob"])
    client = Client()
    for url in (page, standings, player_page):
        _get(client, url)
        assert _hit(_get(client, url)[0])
    before = _get(client, page)[0].content.decode()
    assert 'class="place place-1"' not in before

    before_version = page_version()
    with transaction.atomic():  # the caller's transaction: what follows waits for it
        game_record_placements(
            game=game.game_id,
            placements={"bob": 1, "ann": 2, "cy": 3, "di": 4},
            user=SYSTEM,
            within=True,
        )
        assert page_version() == before_version
    assert page_version() > before_version  # moved on after commit

    response, queries = _get(client, page)
    assert not _hit(response) and queries > 0
    assert 'class="place place-1"' in response.content.decode()
    rows = _get(client, standings)[0].json()
    assert rows[0]["handle"] == "bob" and rows[0]["points"] > 0
    assert _hit(_get(client, page)[0])  # and cached again


def test_a_signed_in_visitor_neither_gets_nor_leaves_a_cached_page(client, event):
    page = reverse("tournaments:tournament-detail", args=[event["tournament"].pk])
    user = UserFactory(username="casey")
    signed_in = Client()
    signed_in.force_login(user)
    for _ in range(2):
        response, queries = _get(signed_in, page)
        assert not _hit(response) and queries > 0
        html = response.content.decode()
        assert "Log out casey" in html and "csrfmiddlewaretoken" in html
    # Nothing of theirs was stored: the public's first visit renders, the second is shared.
    response, queries = _get(client, page)
    assert not _hit(response) and queries > 0
    response, _ = _get(Client(), page)
    assert _hit(response)
    html = response.content.decode()
    assert "casey" not in html and "csrfmiddlewaretoken" not in html
    # And a cached public page is never what a signed-in visitor gets.
    response, _ = _get(signed_in, page)
    assert not _hit(response) and "Log out casey" in response.content.decode()


def test_api_token_callers_are_answered_afresh(client, event):
    url = reverse("api:tournament-standings", args=[event["tournament"].pk])
    _get(client, url)
    assert _hit(_get(client, url)[0])
    token = Token.objects.create(user=UserFactory(username="keeper"))
    response, queries = _get(Client(), url, HTTP_AUTHORIZATION=f"Token {token.key}")
    assert not _hit(response) and queries > 0


def test_each_language_has_its_own_entry(client, event):
    page = reverse("tournaments:tournament-detail", args=[event["tournament"].pk])
    for language, word in (("de", "Tabelle"), ("es", "Clasificación"), ("en", "Standings")):
        _get(Client(), page, HTTP_ACCEPT_LANGUAGE=language)
        response, _ = _get(Client(), page, HTTP_ACCEPT_LANGUAGE=language)
        assert _hit(response)
        assert response["Content-Language"] == language
        assert f'<html lang="{language}">' in response.content.decode()
        assert word in response.content.decode()
    # The switcher's cookie chooses the entry too.
    chooser = Client()
    chooser.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    response, _ = _get(chooser, page, HTTP_ACCEPT_LANGUAGE="en")
    assert _hit(response) and response["Content-Language"] == "de"


def test_searches_other_parameters_or_values_and_message_or_session_cookies_render_afresh(
    client, event
):
    page = reverse("tournaments:tournament-detail", args=[event["tournament"].pk])
    odd = ("?find=ann", "?utm=x", "?round=1&round=2", "?round=x9", "?round=123", "?tables=yes")
    for url in (page + query for query in odd):
        _get(client, url)
        response, queries = _get(client, url)
        assert not _hit(response) and queries > 0, url
    # An API caller that does not take JSON is answered by the API itself (406).
    api = reverse("api:tournament-standings", args=[event["tournament"].pk])
    for accept in ("application/json", "*/*"):
        _get(client, api, HTTP_ACCEPT=accept)
        assert _hit(_get(client, api, HTTP_ACCEPT=accept)[0]), accept
    assert client.get(api, HTTP_ACCEPT="text/html").status_code == 406
    _get(client, page)
    for cookie in ("messages", settings.SESSION_COOKIE_NAME):
        visitor = Client()
        visitor.cookies[cookie] = "something"
        assert not _hit(_get(visitor, page)[0]), cookie


def test_a_player_who_hides_leaves_the_cached_pages(
    client, event, django_capture_on_commit_callbacks
):
    page = reverse("tournaments:tournament-detail", args=[event["tournament"].pk])
    player_page = reverse("tournaments:player-detail", args=["ann"])
    _get(client, page)
    _get(client, player_page)
    assert "Name ann" in _get(client, page)[0].content.decode()
    admin = UserFactory(username="root", is_superuser=True, is_staff=True)
    with django_capture_on_commit_callbacks(execute=True):
        player_set_hidden(player="ann", hidden=True, user=admin)
    assert "Name ann" not in _get(client, page)[0].content.decode()
    assert client.get(player_page).status_code == 404
    # An edit in the admin (which bypasses the services) says what it changed too.
    bob = Player.objects.get(handle="bob")
    staff = Client()
    staff.force_login(admin)
    with django_capture_on_commit_callbacks(execute=True):
        response = staff.post(
            reverse("admin:tournaments_player_change", args=[bob.pk]),
            {"handle": "bob", "display_name": "Robert", "user": ""},
        )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert "Robert" in _get(client, page)[0].content.decode()


def test_what_follows_a_change_waits_for_the_commit(client, event):
    """Caches move on only once the change is committed: a page rendered before the
    commit (it cannot see the change) is dropped by the move after it."""
    page = reverse("tournaments:tournament-detail", args=[event["tournament"].pk])
    _get(client, page)
    version = page_version()
    game_record_placements(
        game=event["game"], placements={"bob": 1, "ann": 2, "cy": 3, "di": 4}, user=SYSTEM
    )
    assert page_version() == version  # the test's transaction has not committed


def test_the_page_cache_can_be_turned_off(client, event, settings):
    settings.PAGE_CACHE_SECONDS = 0
    page = reverse("tournaments:tournament-detail", args=[event["tournament"].pk])
    _get(client, page)
    response, queries = _get(client, page)
    assert not _hit(response) and queries > 0


def test_live_events_leave_the_cached_pages_alone_until_something_shown_changes(
    client, event, django_capture_on_commit_callbacks
):
    """A game's first event changes its status on the tournament page; the next events
    of a game in progress show nowhere cached, so a busy venue keeps its cached pages."""
    page = reverse("tournaments:tournament-detail", args=[event["tournament"].pk])
    log = engine.simulate(game="tock", players=["ann", "bob", "cy", "di"], seed=5)
    _get(client, page)
    assert "status-in_progress" not in _get(client, page)[0].content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        game_record_event(game=event["game"], event=log[0], expected_sequence=1, user=SYSTEM)
    response, _ = _get(client, page)
    assert not _hit(response) and "status-in_progress" in response.content.decode()
    version = page_version()
    for sequence in range(2, 6):
        with django_capture_on_commit_callbacks(execute=True):
            game_record_event(
                game=event["game"], event=log[sequence - 1], expected_sequence=sequence, user=SYSTEM
            )
    assert page_version() == version
    assert _hit(_get(client, page)[0])


@pytest.fixture
def unreachable_cache(settings):
    """The default cache on a Redis port where nothing listens."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    yield
    page_cache._Health.down_until, page_cache._Health.missed = 0.0, False  # for the next test


def test_with_the_cache_down_pages_render_and_results_are_recorded(event, unreachable_cache):
    page = reverse("tournaments:tournament-detail", args=[event["tournament"].pk])
    for url in _pages(event):
        assert not _hit(_get(Client(), url)[0])
    game_record_placements(
        game=event["game"], placements={"bob": 1, "ann": 2, "cy": 3, "di": 4}, user=SYSTEM
    )
    assert 'class="place place-1"' in _get(Client(), page)[0].content.decode()
    # The process leaves the dead cache alone for a while, and remembers the missed change.
    assert page_cache._Health.down() and page_cache._Health.missed


def test_a_change_missed_while_the_cache_was_down_drops_the_older_pages(client, event):
    page = reverse("tournaments:tournament-detail", args=[event["tournament"].pk])
    _get(client, page)
    assert _hit(_get(client, page)[0])
    page_cache._Health.missed = True  # as after a write during an outage
    assert not _hit(_get(client, page)[0])
    assert not page_cache._Health.missed
    assert _hit(_get(client, page)[0])


@pytest.mark.django_db(transaction=True)
def test_a_crowd_reloading_at_once_costs_one_render(requires_postgres):
    """After a result, every live page reloads at the same moment: one request renders,
    the others wait for its entry instead of rendering it too."""
    tournament = TournamentFactory(status="running")
    players = [PlayerFactory(handle=h) for h in ("ann", "bob", "cy", "di")]
    for player in players:
        RegistrationFactory(tournament=tournament, player=player)
    seat_table(RoundFactory(tournament=tournament, number=1, status="running"), players)
    page = reverse("tournaments:tournament-detail", args=[tournament.pk])
    crowd = 8
    start = threading.Barrier(crowd)
    answers: list[tuple[int, bool, int]] = []

    def visitor() -> None:
        try:
            start.wait()
            with CaptureQueriesContext(connections["default"]) as queries:
                response = Client().get(page)
            answers.append((response.status_code, _hit(response), len(queries.captured_queries)))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=visitor) for _ in range(crowd)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(answers) == crowd and all(status == 200 for status, _, _ in answers)
    rendered = [queries for _, hit, queries in answers if not hit]
    assert len(rendered) == 1 and rendered[0] > 0, answers
    assert all(queries == 0 for _, hit, queries in answers if hit)


class _Clock:
    """Stands in for the page cache's clock: each pause of a waiting request moves time
    on by one second (nothing sleeps) and runs what is scripted for that pause."""

    def __init__(self, actions: dict) -> None:
        self.now = 1000.0
        self.pauses = 0
        self.actions = actions

    def monotonic(self) -> float:
        return self.now

    def sleep(self, _seconds: float) -> None:
        self.pauses += 1
        self.now += 1.0
        action = self.actions.get(self.pauses)
        if action is not None:
            action()


def _waiter(monkeypatch, actions):
    """A request that finds another rendering its page, with ``actions`` (pause number
    -> function of (cache, key, lock)) played while it waits."""
    from django.core.cache import cache
    from django.test import RequestFactory

    key, version = "tock:page:test-crowd", page_version()
    lock = f"{key}:render:{version}"
    cache.delete_many([key, lock])
    assert cache.add(lock, 1, 30)  # another request is rendering this version
    clock = _Clock({n: (lambda f=f: f(cache, key, lock)) for n, f in actions.items()})
    monkeypatch.setattr(page_cache.time, "sleep", clock.sleep)
    monkeypatch.setattr(page_cache.time, "monotonic", clock.monotonic)
    request = RequestFactory().get("/")
    entry = page_cache.PageCacheMiddleware._render_once(request, key, version)
    cache.delete_many([key, lock])
    return request, entry, version, clock


def test_a_waiter_takes_the_render_it_waited_for_however_long_it_took(db, monkeypatch):
    """The render takes 5 seconds (past the 2 seconds after which waiters used to render
    the page themselves): the waiter takes its entry and renders nothing."""
    stored = {}

    def render_done(cache, key, lock):
        stored["entry"] = (page_version(), b"<p>page</p>", "utf-8", [])
        cache.set(key, stored["entry"], 60)
        cache.delete(lock)

    request, entry, _version, clock = _waiter(monkeypatch, {5: render_done})
    assert entry == stored["entry"] and clock.pauses == 5
    assert not hasattr(request, "_page_cache_miss")  # this request renders nothing


def test_a_render_that_stored_nothing_hands_the_lock_to_one_waiter(db, monkeypatch):
    def render_failed(cache, key, lock):
        cache.delete(lock)  # the renderer's answer could not be stored

    request, entry, version, _clock = _waiter(monkeypatch, {1: render_failed})
    assert entry is None
    assert request._page_cache_lock.endswith(f":render:{version}")  # it renders, alone
    assert request._page_cache_miss[1] == version


def test_a_later_versions_entry_is_taken_never_an_older_one(db, monkeypatch):
    def older(cache, key, lock):
        cache.set(key, (page_version() - 1, b"old", "utf-8", []), 60)

    def newer(cache, key, lock):
        cache.set(key, (page_version() + 1, b"new", "utf-8", []), 60)

    _request, entry, version, clock = _waiter(monkeypatch, {1: older, 2: newer})
    assert entry == (version + 1, b"new", "utf-8", []) and clock.pauses == 2


def test_a_waiter_renders_itself_only_past_the_bound(db, monkeypatch):
    request, entry, version, clock = _waiter(monkeypatch, {})
    assert entry is None and request._page_cache_miss == ("tock:page:test-crowd", version)
    assert clock.pauses == int(page_cache.WAIT_SECONDS)
    assert not hasattr(request, "_page_cache_lock")  # the renderer still holds it
