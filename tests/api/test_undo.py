"""Undo through the API's events endpoint (``{"type": "undo"}``): who may send it (the
game's staff, never a player of the game, a referee's matter only by a referee), the
stale-sequence and Idempotency-Key rules unchanged, and the cache equal to a replay."""

from __future__ import annotations

import pytest

import games.engine as engine
from games import selectors
from games.kinds import ruling_event
from games.models import Game, GameEvent
from tests.api.test_recording import events_url, log_url, post_event
from tournaments.models import Player, Role

pytestmark = pytest.mark.django_db

UNDO = {"type": "undo"}


def _record(client, game, events, first=1):
    for n, event in enumerate(events, start=first):
        response = post_event(client, game.pk, event, n)
        assert response.status_code == 201, response.json()


def _assert_cache_equals_replay(game: Game) -> None:
    game.refresh_from_db()
    fresh = selectors.game_replay(game=game)
    assert game.state_sequence == game.last_sequence == fresh.event_count
    assert game.state == fresh.cache_state() and game.state["log"] is None
    assert game.summary == fresh.summary()


def test_a_scorekeeper_undoes_the_last_event(game, as_user, simulated_log):
    client = as_user("scorekeeper")
    log = simulated_log()
    _record(client, game, log[:6])
    response = post_event(client, game.pk, {"type": "undo", "_by": "t-scorekeeper"}, 7)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["game"]["sequence"] == 7
    assert body["game"]["summary"]["events"] == 7  # every line counts
    game.refresh_from_db()
    expected = engine.replay(log[:5]).summary()
    assert {k: v for k, v in game.summary.items() if k != "events"} == {
        k: v for k, v in expected.items() if k != "events"
    }
    _assert_cache_equals_replay(game)
    # an undo after an undo withdraws the one before; the game goes on from there
    assert post_event(client, game.pk, UNDO, 8).status_code == 201
    _record(client, game, log[4:7], first=9)
    _assert_cache_equals_replay(game)
    assert game.summary["events"] == 11


def test_nothing_to_undo_is_422_with_the_engines_reason(game, as_user, simulated_log):
    client = as_user("scorekeeper")
    _record(client, game, simulated_log()[:1])
    response = post_event(client, game.pk, UNDO, 2)
    assert response.status_code == 422
    assert "nothing to undo" in response.json()["detail"]
    assert GameEvent.objects.filter(game=game).count() == 1


def test_no_undo_after_the_end(game, as_user, simulated_log):
    client = as_user("organizer")
    log = simulated_log()
    response = client.post(log_url(game.pk), {"log": engine.format_log(log)}, format="json")
    assert response.status_code == 201, response.json()
    game.refresh_from_db()
    assert game.is_over
    response = post_event(client, game.pk, UNDO, len(log) + 1)
    assert response.status_code == 409
    assert response.json()["code"] == "game_finished"


def test_stale_sequence_and_idempotent_retry(game, as_user, simulated_log):
    client = as_user("scorekeeper")
    _record(client, game, simulated_log()[:4])
    assert post_event(client, game.pk, UNDO, 4).status_code == 409  # stale
    payload = {"event": UNDO, "sequence": 5}
    first = client.post(events_url(game.pk), payload, format="json", HTTP_IDEMPOTENCY_KEY="u-1")
    again = client.post(events_url(game.pk), payload, format="json", HTTP_IDEMPOTENCY_KEY="u-1")
    assert first.status_code == 201 and again.status_code == 200
    assert again.json()["replayed"] is True
    assert GameEvent.objects.filter(game=game).count() == 5
    assert post_event(client, game.pk, UNDO, 5).json()["code"] == "stale_sequence"
    _assert_cache_equals_replay(game)


def _knock_ruled(game, as_user, simulated_log):
    """The log up to a point where a knock is possible, then a referee's ruling on it."""
    log = simulated_log()
    referee = as_user(Role.REFEREE)
    for n in range(2, len(log)):
        probe = engine.replay(log[:n])
        target = probe.knock_target()
        if target is not None:
            break
    _record(referee, game, log[:n])
    knocker = next(p for p in probe.players if p != target)
    ruling = ruling_event(game.kind, by=knocker, ruling="incorrect", referee="t-referee")
    assert post_event(referee, game.pk, ruling, n + 1).status_code == 201
    return n + 2


def test_a_scorekeeper_cannot_undo_a_knock_ruling_a_referee_can(game, as_user, simulated_log):
    nxt = _knock_ruled(game, as_user, simulated_log)
    response = post_event(as_user("scorekeeper"), game.pk, UNDO, nxt)
    assert response.status_code == 403
    assert response.json()["code"] == "not_allowed"
    assert GameEvent.objects.filter(game=game).count() == nxt - 1
    assert post_event(as_user(Role.REFEREE), game.pk, UNDO, nxt).status_code == 201
    _assert_cache_equals_replay(game)


@pytest.mark.parametrize("role", [Role.SCOREKEEPER, Role.REFEREE, Role.ORGANIZER])
def test_staff_who_play_in_the_game_may_not_undo(game, staff, as_user, simulated_log, role):
    _record(as_user("organizer"), game, simulated_log()[:4])
    Player.objects.filter(handle="bob").update(user=staff[role])
    response = post_event(as_user(role), game.pk, UNDO, 5)
    assert response.status_code == 403
    assert response.json()["code"] == "plays_in_game"
    assert GameEvent.objects.filter(game=game).count() == 4


def test_a_referee_who_plays_may_not_rule(game, staff, as_user, simulated_log):
    Player.objects.filter(handle="ann").update(user=staff[Role.REFEREE])
    log = simulated_log()
    _record(as_user("scorekeeper"), game, log[:3])
    end = {"type": "end", "reason": "adjudicated", "referee": "t-referee"}
    response = post_event(as_user(Role.REFEREE), game.pk, end, 4)
    assert response.status_code == 403
    assert response.json()["code"] == "plays_in_game"


def test_strangers_may_not_undo(game, as_user, anon, simulated_log):
    _record(as_user("scorekeeper"), game, simulated_log()[:3])
    assert post_event(as_user("other_scorekeeper"), game.pk, UNDO, 4).status_code in (403, 404)
    assert post_event(anon, game.pk, UNDO, 4).status_code in (401, 403)
    assert GameEvent.objects.filter(game=game).count() == 3
