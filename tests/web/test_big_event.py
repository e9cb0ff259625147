"""The public tournament page of a 1,000-player, 5-round event: small (under 250 kB),
a query count that does not grow with the players or the rounds, the current round
shown with every player in "find my table", other rounds and the full standings on
demand; the cached standings follow a recorded result. Speed is measured by
``make bench-web``, not here."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Game
from tests.big_event import build_big_event
from tournaments.models import Player, Round
from tournaments.permissions import SYSTEM
from tournaments.selectors.tournament_page import STANDINGS_FIRST, TABLES_FIRST
from tournaments.services import game_record_placements

pytestmark = pytest.mark.django_db

#: Largest page for 1,000 players (uncompressed bytes).
MAX_BYTES = 250_000
#: Most SQL queries of the page, whatever the size of the event (the session and the
#: user add a few when signed in; this is the public).
MAX_QUERIES = 8


@pytest.fixture(autouse=True)
def _no_page_cache(settings):
    """These tests read the render's context and count its queries: the page cache
    (tests/web/test_page_cache.py) would answer the second visit without rendering."""
    settings.PAGE_CACHE_SECONDS = 0


@pytest.fixture
def big(db):
    return build_big_event(players=1000, rounds=5)


def _get(client, tournament, **params):
    url = reverse("tournaments:tournament-detail", args=[tournament.pk])
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, params)
    assert response.status_code == 200
    return response, response.content.decode(), len(ctx.captured_queries)


def test_the_page_of_a_1000_player_event_is_small_and_needs_few_queries(client, big):
    response, html, cold = _get(client, big)
    assert len(response.content) < MAX_BYTES, len(response.content)
    assert cold <= MAX_QUERIES + 4  # first visit: the standings are computed
    response, html, warm = _get(client, big)
    assert len(response.content) < MAX_BYTES, len(response.content)
    assert warm <= MAX_QUERIES, warm
    # Find my table lists every player of the current round.
    assert html.count("<li data-search=") == 1000
    # The current round's first tables, the rest on demand; 100 standings rows.
    assert response.context["shown_round"].number == 5
    assert len(response.context["shown_tables"]) == TABLES_FIRST
    assert response.context["tables_more"] == 250 - TABLES_FIRST
    assert "?tables=all#rounds" in html
    assert len(response.context["standings_rows"]) == STANDINGS_FIRST
    assert "?standings=all#standings" in html
    # Past rounds are links, not rendered.
    for number in range(1, 5):
        assert f'href="?round={number}#rounds"' in html
    # No per-row URL reversing needed: the links are right.
    first = response.context["standings_rows"][0]
    assert f'href="/players/{first.handle}/"' in html


def test_other_rounds_and_the_full_standings_on_demand(client, big):
    response, html, queries = _get(client, big, round="2")
    assert response.context["shown_round"].number == 2
    assert queries <= MAX_QUERIES + 4
    round_two = Round.objects.get(tournament=big, number=2)
    first_table = round_two.tables.order_by("number").first()
    assert f'href="/games/{first_table.game_id}/"' in html
    # Places of a finished round are shown.
    assert 'class="place place-1"' in html
    response, html, _ = _get(client, big, standings="all", tables="all")
    assert len(response.context["standings_rows"]) == 1000
    assert len(response.context["shown_tables"]) == 250
    # Nonsense asks for the current round, never an error.
    response, _, _ = _get(client, big, round="x9")
    assert response.context["shown_round"].number == 5


def test_the_cached_standings_follow_a_recorded_result_and_privacy(
    client, big, django_capture_on_commit_callbacks
):
    _get(client, big)  # computes and caches the standings
    game = Game.objects.filter(table__round__tournament=big, table__round__number=5).first()
    placements = {h: i for i, h in enumerate(game.players, start=1)}
    with django_capture_on_commit_callbacks(execute=True):  # the caches move on at commit
        game_record_placements(game=game, placements=placements, user=SYSTEM)
    response, _, _ = _get(client, big)
    winner = next(r for r in response.context["standings"] if r.handle == game.players[0])
    assert winner.places.get(5) == 1
    # A player who hides is hidden at once, cached rows or not.
    Player.objects.filter(handle=game.players[0]).update(hidden=True)
    response, html, _ = _get(client, big, standings="all")
    assert not any(r.handle == game.players[0] for r in response.context["standings"])
    assert f"/players/{game.players[0]}/" not in html
