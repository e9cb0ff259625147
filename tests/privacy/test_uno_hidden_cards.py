"""A spectator of an UNO game in progress never sees a hand: not on the page (the
summary's ``hand_sizes``), and not in the events, the log download or the game socket's
backlog either (the engine's ``public_event``: no seed, no dealt hands, no drawn cards,
no swapped hands). The game's staff see everything, and everyone does once it is over."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

import games.engine as engine
from tests.tournaments.factories import (
    LeagueFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
)
from tests.web.kind_fixtures import record, seated_game
from tournaments.models import Role
from tournaments.selectors import game_view_for

pytestmark = pytest.mark.django_db

HANDLES = ["ann", "bob", "cat"]
SECRET_KEYS = {"seed", "hands", "cards"}


@pytest.fixture
def setup(db):
    tournament = TournamentFactory(league=LeagueFactory(kind="uno"), status="running")
    game = seated_game(tournament, {h: h.upper() for h in HANDLES})
    organizer = TournamentRoleFactory(
        tournament=tournament, role=Role.ORGANIZER, user=UserFactory()
    ).user
    log = engine.simulate(game="uno", players=HANDLES, seed=4, target=120)
    return game, organizer, log


def _events(client, game) -> list[dict]:
    response = client.get(reverse("api:game-events", args=[game.pk]))
    assert response.status_code == 200
    return [e["event"] for e in response.json()["events"]]


def _log(client, game) -> list[dict]:
    response = client.get(reverse("api:game-log", args=[game.pk]))
    assert response.status_code == 200
    return [json.loads(line) for line in response.content.decode().splitlines() if line]


def _secret_keys(events: list[dict]) -> set[str]:
    return {key for event in events for key in event if key in SECRET_KEYS}


def test_a_spectator_sees_no_card_that_is_not_face_up(client, setup):
    game, _organizer, log = setup
    cut = 40
    assert any(e["type"] == "draw" for e in log[:cut])
    record(game, log[:cut])

    for shown in (_events(client, game), _log(client, game)):
        assert len(shown) == cut
        assert _secret_keys(shown) == set()
        draws = [e for e in shown if e["type"] == "draw"]
        assert draws and all(isinstance(e["_count"], int) for e in draws)
        deals = [e for e in shown if e["type"] == "deal"]
        assert deals and all("up" in e for e in deals)  # the up cards are face up
        plays = [e for e in shown if e["type"] == "play"]
        assert plays and all("card" in e for e in plays)  # every card played is seen
    # The page's log sentences still say how many cards were drawn (event 9 draws two).
    assert log[8]["type"] == "draw" and len(log[8]["cards"]) == 2
    page = client.get(reverse("tournaments:game-detail", args=[game.pk])).content.decode()
    assert "draws 2 cards" in page
    # The socket's backlog comes from the same selector.
    from django.contrib.auth.models import AnonymousUser

    backlog = game_view_for(user=AnonymousUser(), game_id=game.pk).events(after=0)
    assert _secret_keys([e.data for e in backlog]) == set()


def test_staff_see_every_card_and_everyone_once_the_game_is_over(client, setup):
    game, organizer, log = setup
    record(game, log[:40])
    client.force_login(organizer)
    assert _events(client, game) == log[:40]
    assert _log(client, game) == log[:40]

    client.logout()
    record(game, log[40:], first=41)
    assert _events(client, game) == log
    assert _log(client, game) == log
