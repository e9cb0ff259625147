"""The three recording paths through the tournament services (seats, rounds, ratings)."""

from __future__ import annotations

import pytest

import games.engine as engine
from games.errors import (
    EventRejected,
    GameFinished,
    GameNotFound,
    LogRejected,
    ResultMismatch,
    StaleSequence,
)
from games.models import Game, GameEvent
from ratings.models import Rating, RatingChange
from tests.tournaments.factories import PlayerFactory, RoundFactory, seat_table
from tournaments import services
from tournaments.models import Role
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(tournament, players):
    return seat_table(RoundFactory(tournament=tournament, number=1), players)


def test_live_scoring_to_the_end(table, staff, simulated_log, django_capture_on_commit_callbacks):
    user = staff[Role.SCOREKEEPER]
    log = simulated_log(seed=8)
    head = len(log) - 40  # most of the game as a partial log, the tail event by event
    with django_capture_on_commit_callbacks(execute=True):
        services.game_record_log(game=table.game.pk, log=log[:head], user=user)
        for n, event in enumerate(log[head:], start=head + 1):
            outcome = services.game_record_event(
                game=table.game.pk, event=event, expected_sequence=n, user=user
            )
    game = outcome.game
    assert game.placements == engine.replay(log).placements()
    table.round.refresh_from_db()
    assert table.round.status == "finished"
    assert RatingChange.objects.filter(game=game).count() == 4
    assert Rating.objects.filter(kind="tock").count() == 4
    with pytest.raises(GameFinished):
        services.game_record_event(
            game=game, event=log[-1], expected_sequence=len(log) + 1, user=user
        )


def test_bad_input_gets_clear_errors_and_nothing_stored(table, staff, simulated_log):
    user = staff[Role.SCOREKEEPER]
    log = simulated_log()
    with pytest.raises(GameNotFound):
        services.game_record_event(game=987654, event=log[0], expected_sequence=1, user=user)
    with pytest.raises(StaleSequence):
        services.game_record_event(game=table.game, event=log[0], expected_sequence=2, user=user)
    with pytest.raises(EventRejected):
        services.game_record_event(
            game=table.game, event={"type": "start", "game": "tock"}, expected_sequence=1, user=user
        )
    wrong = engine.simulate(game="tock", players=["ann", "bob", "cat", "eve"], seed=1)
    with pytest.raises(ResultMismatch):
        services.game_record_log(game=table.game, log=wrong, user=user)
    with pytest.raises(LogRejected):
        services.game_record_log(game=table.game, log=b"\xff\xfe not json", user=user)
    with pytest.raises(ResultMismatch):
        services.game_record_placements(
            game=table.game, placements={"ann": 1, "bob": 2, "cat": 3, "eve": 4}, user=user
        )
    assert not GameEvent.objects.exists()
    table.game.refresh_from_db()
    assert table.game.placements is None


def test_placements_only_then_log(table, staff, simulated_log, django_capture_on_commit_callbacks):
    user = staff[Role.ORGANIZER]
    with django_capture_on_commit_callbacks(execute=True):
        outcome = services.game_record_placements(
            game=table.game, placements={"ann": 4, "bob": 1, "cat": 2, "dan": 2}, user=user
        )
    assert not outcome.game.result_verified
    assert RatingChange.objects.filter(game=table.game).count() == 4
    log = simulated_log(seed=12)
    with django_capture_on_commit_callbacks(execute=True):
        outcome = services.game_record_log(game=table.game, log=log, user=user)
    assert outcome.game.result_verified and outcome.result_changed
    changes = RatingChange.objects.filter(game=table.game)
    assert {c.result_version for c in changes} == {2}
    ratings = {r.player.handle: r.value for r in Rating.objects.select_related("player")}
    places = engine.replay(log).placements()
    best = min(places, key=places.get)
    assert ratings[best] > 1500


def test_friendly_game_from_log(simulated_log, django_capture_on_commit_callbacks):
    for h in ("ann", "bob", "cat", "dan"):
        PlayerFactory(handle=h)
    log = simulated_log(seed=30)
    with django_capture_on_commit_callbacks(execute=True):
        outcome = services.friendly_game_create(kind="tock", log=log, user=SYSTEM)
    assert outcome.game.players == ["ann", "bob", "cat", "dan"]
    assert RatingChange.objects.filter(game=outcome.game).count() == 4
    count = Game.objects.count()
    with pytest.raises(ResultMismatch):
        services.friendly_game_create(
            kind="tock", log=engine.simulate(game="tock", players=["x", "y"], seed=1), user=SYSTEM
        )
    bad = [*log[:5], {"type": "bogus"}]
    with pytest.raises(LogRejected) as exc:
        services.friendly_game_create(kind="tock", log=bad, user=SYSTEM)
    assert exc.value.line == 6
    assert Game.objects.count() == count


@pytest.mark.parametrize(
    "kwargs",
    [
        {"start_event": ["not", "an", "object"]},
        {"start_event": {"type": "start", "game": "tock", "players": [1, {"x": 2}]}},
        {"log": [["not an object"]]},
        {"log": "{broken"},
        {"placements": ["ann", "bob"]},
        {"placements": {"ann": 1}},
    ],
)
def test_friendly_game_bad_input_is_a_domain_error(kwargs):
    from games.errors import DomainError

    with pytest.raises(DomainError) as exc:
        services.friendly_game_create(kind="tock", user=SYSTEM, **kwargs)
    assert 400 <= exc.value.http_status < 500
    assert not Game.objects.exists()


def test_unknown_game_id_is_a_domain_error():
    from games import services as game_services

    for bad in (424242, "x"):
        with pytest.raises(GameNotFound):
            game_services.game_append_event(game=bad, event={}, expected_sequence=1, user=None)
