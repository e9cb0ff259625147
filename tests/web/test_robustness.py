"""Odd requests to the pages found by probing: a proper status, never a 500."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.factories import (
    PlayerFactory,
    RegistrationFactory,
    RoundFactory,
    TournamentFactory,
    seat_table,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(db):
    """A public running tournament with one seated table; its game."""
    tournament = TournamentFactory(name="Spring Cup", status="running")
    players = [PlayerFactory(handle=h, display_name=h.title()) for h in ("ann", "bob", "cy")]
    for player in players:
        RegistrationFactory(tournament=tournament, player=player)
    return seat_table(RoundFactory(tournament=tournament, number=1), players).game


@pytest.mark.parametrize(
    "name, args",
    [
        ("home", []),
        ("tournaments:league-list", []),
        ("tournaments:player-list", []),
        ("tournaments:tournament-detail", "tournament"),
        ("tournaments:game-detail", "game"),
        ("tournaments:rules", []),
    ],
)
def test_head_is_answered_like_get_without_a_body(client, game, name, args):
    # Given a page that answers GET
    if args == "tournament":
        args = [game.table.round.tournament_id]
    elif args == "game":
        args = [game.pk]
    url = reverse(name, args=args)
    # When it is asked with HEAD (link checkers, monitors, curl -I)
    response = client.head(url)
    # Then it is a 200 like GET (not 405), and no body is sent
    assert response.status_code == 200
    assert response.content == b""


@pytest.mark.parametrize("method", ["put", "delete", "patch"])
def test_writes_to_a_page_are_refused(client, db, method):
    response = getattr(client, method)(reverse("tournaments:player-list"))
    assert response.status_code == 405


@pytest.mark.parametrize("q", ["%00", "a%00b", "%FF", "x" * 5000])
def test_player_search_with_odd_text_is_answered(client, db, q):
    # Given a player, and a search text the database may dislike (NUL on PostgreSQL)
    PlayerFactory(handle="ann", display_name="Ann")
    # When the player list is searched with it
    response = client.get(reverse("tournaments:player-list") + "?q=" + q)
    # Then the page renders (the NUL is ignored, not a database error)
    assert response.status_code == 200


def test_player_search_ignores_a_nul_character(client, db):
    PlayerFactory(handle="ann", display_name="Ann")
    PlayerFactory(handle="bob", display_name="Bob")
    # "a\0n" searches "an"
    response = client.get(reverse("tournaments:player-list") + "?q=a%00n")
    assert response.status_code == 200
    assert [p.handle for p in response.context["players"]] == ["ann"]


@pytest.mark.parametrize(
    "path",
    [
        "/tournaments/99999999999999999999/",
        "/games/99999999999999999999/",
        "/games/0/",
        "/leagues/no-such-league/",
        "/players/no-such-player/",
        "/rules/chess/",
    ],
)
def test_unknown_or_huge_ids_are_404(client, db, path):
    assert client.get(path).status_code == 404


@pytest.mark.parametrize(
    "query", ["limit=abc", "offset=-1", "after=x", "league=%00", "q=" + "y" * 3000]
)
def test_odd_query_strings_on_pages_are_ignored(client, game, query):
    tournament_id = game.table.round.tournament_id
    for url in (
        reverse("home"),
        reverse("tournaments:tournament-detail", args=[tournament_id]),
        reverse("tournaments:game-detail", args=[game.pk]),
    ):
        assert client.get(url + "?" + query).status_code == 200
