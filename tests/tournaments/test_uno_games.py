"""UNO through the site's generic paths, with nothing UNO-specific on the Django side:
a friendly game from a whole log, live appends to the end, a score sheet, the game page
(generic presenter, the hands hidden while a hand runs) and UNO ratings."""

from __future__ import annotations

import pytest
from django.urls import reverse

import games.engine as engine
from ratings.models import Rating
from tests.tournaments.factories import PlayerFactory
from tournaments import services
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db

NAMES = ["ann", "bob", "cat"]


@pytest.fixture(autouse=True)
def players():
    for handle in NAMES:
        PlayerFactory(handle=handle)


def test_friendly_uno_game_from_a_log(django_capture_on_commit_callbacks):
    log = engine.simulate("uno", players=NAMES, seed=3, target=150)
    with django_capture_on_commit_callbacks(execute=True):
        outcome = services.friendly_game_create(kind="uno", log=log, user=SYSTEM)
    game = outcome.game
    assert game.kind == "uno" and game.placements == engine.replay(log).placements()
    assert Rating.objects.filter(kind="uno").count() == 3
    assert Rating.objects.filter(kind="tock").count() == 0


def test_live_uno_game_and_its_page(client, django_capture_on_commit_callbacks):
    log = engine.simulate("uno", players=NAMES, seed=5, target=100)
    with django_capture_on_commit_callbacks(execute=True):
        game = services.friendly_game_create(kind="uno", start_event=log[0], user=SYSTEM).game
        for n, event in enumerate(log[1:12], start=2):
            services.game_record_event(game=game.pk, event=event, expected_sequence=n, user=SYSTEM)
    page = client.get(reverse("tournaments:game-detail", args=[game.pk]))
    assert page.status_code == 200
    hand = engine.replay(log[:12]).summary()["hands"]["ann"]
    assert " ".join(hand) not in page.content.decode()  # hidden from visitors mid-hand
    with django_capture_on_commit_callbacks(execute=True):
        for n, event in enumerate(log[12:], start=13):
            outcome = services.game_record_event(
                game=game.pk, event=event, expected_sequence=n, user=SYSTEM
            )
    assert outcome.game.placements == engine.replay(log).placements()
    assert client.get(reverse("tournaments:game-detail", args=[game.pk])).status_code == 200


def test_uno_score_sheet():
    sheet = [
        {"type": "start", "game": "uno", "players": NAMES, "sheet": True},
        {"type": "hand", "winner": "bob", "points": 300},
        {"type": "hand", "winner": "cat", "points": 520},
    ]
    outcome = services.friendly_game_create(kind="uno", log=sheet, user=SYSTEM)
    assert outcome.game.placements == {"ann": 3, "bob": 2, "cat": 1}
