"""Reads: public where the tournament is public, hidden (404) otherwise; the schema."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

from ratings.models import Rating, RatingChange
from tests.api.conftest import token_client
from tests.tournaments.factories import (
    LeagueFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    seat_table,
)
from tournaments.permissions import SYSTEM
from tournaments.services import game_record_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(game, simulated_log, django_capture_on_commit_callbacks):
    """The seated game played to the end from a whole log (ratings updated on commit)."""
    log = simulated_log(seed=4)
    with django_capture_on_commit_callbacks(execute=True):
        game_record_log(game=game, log=log, user=SYSTEM)
    game.refresh_from_db()
    return game


@pytest.fixture
def private(db):
    """A private tournament (of a public league) with a seated table, and its organizer."""
    from tests.tournaments.factories import TournamentRoleFactory, UserFactory

    tournament = TournamentFactory(name="Secret Cup", is_public=False)
    seated = [PlayerFactory(handle=h) for h in ("pia", "quin", "rex")]
    table = seat_table(RoundFactory(tournament=tournament, number=1), seated)
    organizer = TournamentRoleFactory(
        tournament=tournament, user=UserFactory(username="secret-org")
    ).user
    return {"tournament": tournament, "game": table.game, "organizer": organizer}


def test_leagues_and_their_tournaments(anon, tournament, played):
    LeagueFactory(slug="hidden", is_public=False)
    body = anon.get(reverse("api:league-list")).json()
    assert body["count"] == 1
    assert body["results"][0]["slug"] == tournament.league.slug
    detail = anon.get(reverse("api:league-detail", args=[tournament.league.slug])).json()
    assert detail["kind"] == "tock"
    assert {r["handle"] for r in detail["top_ratings"]} == {"ann", "bob", "cat", "dan"}
    assert all(r["provisional"] for r in detail["top_ratings"])
    assert anon.get(reverse("api:league-detail", args=["hidden"])).status_code == 404
    assert anon.get(reverse("api:league-detail", args=["nope"])).status_code == 404
    listed = anon.get(reverse("api:league-tournaments", args=[tournament.league.slug])).json()
    assert [t["id"] for t in listed["results"]] == [tournament.pk]


def test_tournament_list_filters(anon, tournament):
    other = TournamentFactory(status="finished")
    url = reverse("api:tournament-list")
    assert anon.get(url).json()["count"] == 2
    by_league = anon.get(url, {"league": other.league.slug}).json()
    assert [t["id"] for t in by_league["results"]] == [other.pk]
    by_status = anon.get(url, {"status": "running"}).json()
    assert [t["id"] for t in by_status["results"]] == [tournament.pk]
    assert anon.get(url, {"league": "no-such-league"}).status_code == 404
    page = anon.get(url, {"limit": 1}).json()
    assert len(page["results"]) == 1 and page["next"]


def test_tournament_detail_standings_and_rounds(anon, tournament, played, staff):
    detail = anon.get(reverse("api:tournament-detail", args=[tournament.pk])).json()
    assert detail["name"] == "Spring Cup"
    assert detail["points_per_place"] == [4, 2, 1, 0]
    assert detail["tiebreaks"][0] == "buchholz"
    assert detail["your_roles"] == []
    mine = token_client(staff["scorekeeper"]).get(
        reverse("api:tournament-detail", args=[tournament.pk])
    )
    assert mine.json()["your_roles"] == ["scorekeeper"]

    standings = anon.get(reverse("api:tournament-standings", args=[tournament.pk])).json()
    assert [row["rank"] for row in standings] == [1, 2, 3, 4]
    winner = min(played.placements, key=played.placements.get)
    assert standings[0]["handle"] == winner
    assert standings[0]["points"] == 4
    assert standings[0]["places"] == {"1": 1}

    rounds = anon.get(reverse("api:tournament-rounds", args=[tournament.pk])).json()
    assert len(rounds) == 1
    table = rounds[0]["tables"][0]
    assert [s["handle"] for s in table["seats"]] == ["ann", "bob", "cat", "dan"]
    assert table["game"]["id"] == played.pk
    assert table["game"]["verified"] is True
    assert table["game"]["status"] in ("finished", "stalemate")


def test_players_with_ratings_and_history(anon, played):
    body = anon.get(reverse("api:player-list"), {"q": "an"}).json()
    handles = [p["handle"] for p in body["results"]]
    assert "ann" in handles and "dan" in handles and "bob" not in handles
    ann = anon.get(reverse("api:player-detail", args=["ann"])).json()
    rating = Rating.objects.get(player__handle="ann", kind="tock")
    assert ann["ratings"] == [
        {"kind": "tock", "rating": rating.value, "games": 1, "provisional": True}
    ]
    change = RatingChange.objects.get(player__handle="ann")
    assert ann["history"]["tock"][0]["game_id"] == played.pk
    assert ann["history"]["tock"][0]["after"] == change.after
    assert anon.get(reverse("api:player-detail", args=["nobody"])).status_code == 404


def test_game_state_events_and_log(anon, played):
    state = anon.get(reverse("api:game-detail", args=[played.pk])).json()
    assert state["verified"] is True
    assert state["placements"] == played.placements
    assert state["summary"]["game"] == "tock"
    assert state["sequence"] == played.last_sequence
    assert state["table"]["tournament"] == "Spring Cup"
    events = anon.get(reverse("api:game-events", args=[played.pk]), {"after": 10}).json()
    assert events["events"][0]["sequence"] == 11
    assert events["sequence"] == played.last_sequence
    assert anon.get(reverse("api:game-events", args=[played.pk]), {"after": -1}).status_code == 400


def test_private_tournament_is_hidden_from_the_public(anon, private, staff):
    t, game = private["tournament"], private["game"]
    urls = [
        reverse("api:tournament-detail", args=[t.pk]),
        reverse("api:tournament-standings", args=[t.pk]),
        reverse("api:tournament-rounds", args=[t.pk]),
        reverse("api:game-detail", args=[game.pk]),
        reverse("api:game-events", args=[game.pk]),
        reverse("api:game-log", args=[game.pk]),
    ]
    stranger = token_client(staff["stranger"])
    for client in (anon, stranger):
        for url in urls:
            assert client.get(url).status_code == 404, url
        listed = client.get(reverse("api:tournament-list")).json()["results"]
        assert t.pk not in [x["id"] for x in listed]
    staff_client = token_client(private["organizer"])
    for url in urls:
        assert staff_client.get(url).status_code == 200, url
    listed = staff_client.get(reverse("api:tournament-list")).json()["results"]
    assert t.pk in [x["id"] for x in listed]


def test_private_league_hides_its_tournaments(anon, db):
    t = TournamentFactory(league=LeagueFactory(is_public=False))
    assert anon.get(reverse("api:tournament-detail", args=[t.pk])).status_code == 404
    assert anon.get(reverse("api:league-tournaments", args=[t.league.slug])).status_code == 404


def test_schema_endpoint_serves_a_valid_schema(anon, tmp_path):
    response = anon.get(reverse("api-schema"))
    assert response.status_code == 200
    text = response.content.decode()
    for path in (
        "/api/games/{game_id}/events",
        "/api/games/{game_id}/log",
        "/api/games/{game_id}/placements",
        "/api/tournaments/{tournament_id}/standings",
        "/api/auth/token",
    ):
        assert path in text
    # Validates against the OpenAPI spec and raises on any warning.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yml"))
