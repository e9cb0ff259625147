"""Only referees (and organizers) decide results: a scorekeeper's ``end`` gives no
placements, through one event or a whole log; the engine places a time-up end."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

import games.engine as engine
from games.models import Game, GameEvent

pytestmark = pytest.mark.django_db


def _post_events(client, game, events, start=1):
    for n, event in enumerate(events, start=start):
        response = client.post(
            reverse("api:game-events", args=[game.pk]),
            {"event": event, "sequence": n},
            format="json",
        )
        assert response.status_code == 201, response.json()


def _hand_picked(log):
    players = log[0]["players"]
    return {p: i for i, p in enumerate(reversed(players), start=1)}


def test_a_scorekeeper_cannot_give_placements_in_a_time_up_end(game, as_user, simulated_log):
    log = simulated_log()
    scorekeeper = as_user("scorekeeper")
    _post_events(scorekeeper, game, log[:6])
    end = {"type": "end", "reason": "time", "placements": _hand_picked(log)}
    response = scorekeeper.post(
        reverse("api:game-events", args=[game.pk]), {"event": end, "sequence": 7}, format="json"
    )
    assert response.status_code == 403
    assert Game.objects.get(pk=game.pk).placements is None
    assert GameEvent.objects.filter(game=game).count() == 6
    # The same through a whole-log upload.
    text = "".join(json.dumps(e) + "\n" for e in [*log[:6], end])
    response = scorekeeper.post(
        reverse("api:game-log", args=[game.pk]), data=text, content_type="text/plain"
    )
    assert response.status_code == 403
    assert GameEvent.objects.filter(game=game).count() == 6


def test_a_scorekeepers_time_up_end_is_placed_by_the_engine(game, as_user, simulated_log):
    log = simulated_log()
    scorekeeper = as_user("scorekeeper")
    _post_events(scorekeeper, game, [*log[:6], {"type": "end", "reason": "time"}])
    game.refresh_from_db()
    expected = engine.replay([*log[:6], {"type": "end", "reason": "time"}]).placements()
    assert game.placements == expected and game.result_verified


@pytest.mark.parametrize("role", ["referee", "organizer"])
def test_referees_and_organizers_may_give_placements(game, as_user, simulated_log, role):
    log = simulated_log()
    client = as_user(role)
    end = {"type": "end", "reason": "time", "placements": _hand_picked(log), "referee": role}
    _post_events(client, game, [*log[:6], end])
    game.refresh_from_db()
    assert game.placements == _hand_picked(log)
