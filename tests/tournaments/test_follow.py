"""The choke point of every change to a game: what must follow a change (the round,
the ratings, the live pages) is recorded with it and is never lost."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from games.errors import EventRejected
from games.models import Game
from outbox import services as outbox_services
from outbox import tasks as outbox_tasks
from outbox.live import game_group, live_flush, tournament_group
from outbox.models import OutboxMessage
from ratings.models import RatingChange
from ratings.services import RATE_GAME
from tests.tournaments.factories import RoundFactory, seat_table
from tournaments import services
from tournaments.models import Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(tournament, players):
    return seat_table(RoundFactory(tournament=tournament, number=1), players)


@pytest.fixture
def memory_layer(settings):
    """The in-memory channel layer (its queues work across the event loops that
    ``async_to_sync`` makes; the Redis layer is tested in tests/outbox/test_live.py)."""
    live_flush()  # what earlier tests queued must not reach this test's groups
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def _listen(*groups: str):
    """A channel subscribed to ``groups``; returns a function draining its messages."""
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    for group in groups:
        async_to_sync(layer.group_add)(group, channel)

    async def receive_all() -> list[dict]:
        await sync_to_async(live_flush)()
        messages = []
        while True:
            try:
                messages.append(await asyncio.wait_for(layer.receive(channel), 0.05))
            except TimeoutError:
                return messages

    return async_to_sync(receive_all)


def test_a_lost_rating_update_is_finished_by_the_sweep(
    table, staff, simulated_log, monkeypatch, django_capture_on_commit_callbacks
):
    """The broker is down when the game ends: the result and the round are stored at
    once, the rating update waits in the outbox, and the sweep finishes it."""

    def broker_down(*args, **kwargs):
        raise ConnectionError("broker unreachable")

    monkeypatch.setattr(outbox_tasks.deliver, "apply_async", broker_down)
    log = simulated_log(seed=8)
    with django_capture_on_commit_callbacks(execute=True):
        outcome = services.game_record_log(game=table.game, log=log, user=staff[Role.SCOREKEEPER])
    assert outcome.result_changed
    table.round.refresh_from_db()
    assert table.round.status == "finished"
    assert not RatingChange.objects.filter(game=outcome.game).exists()
    message = OutboxMessage.objects.get(topic=RATE_GAME)
    assert message.payload == {"game_id": outcome.game.pk} and message.done_at is None

    monkeypatch.undo()
    later = timezone.now() + outbox_services.SWEEP_AFTER + dt.timedelta(seconds=1)
    assert outbox_services.outbox_sweep(now=later) == 1
    assert RatingChange.objects.filter(game=outcome.game).count() == 4


def test_live_pages_hear_of_every_stored_event_and_nothing_else(
    table, staff, simulated_log, django_capture_on_commit_callbacks, memory_layer
):
    drain_game = _listen(game_group(table.game_id))
    drain_tournament = _listen(tournament_group(table.round.tournament_id))
    log = simulated_log(seed=9)
    user = staff[Role.SCOREKEEPER]
    with django_capture_on_commit_callbacks(execute=True):
        for n, event in enumerate(log[:3], start=1):
            services.game_record_event(game=table.game, event=event, expected_sequence=n, user=user)
        with pytest.raises(EventRejected):
            services.game_record_event(
                game=table.game,
                event={"type": "flip", "player": "zed"},
                expected_sequence=4,
                user=user,
            )
    heard = drain_game()
    # Notifications are hints: a burst may be coalesced, but the latest always arrives.
    sequences = [m["sequence"] for m in heard]
    assert sequences == sorted(set(sequences)) and set(sequences) <= {1, 2, 3}
    assert sequences[-1] == 3
    assert heard[-1] == {
        "type": "game.changed",
        "game": table.game_id,
        "sequence": 3,
        "status": "in_progress",
        "result_version": 0,
    }
    assert drain_tournament() == []  # no result yet: the tournament's pages need nothing

    with django_capture_on_commit_callbacks(execute=True):
        services.game_record_log(game=table.game, log=log, user=user)
    assert [m["sequence"] for m in drain_game()] == [len(log)]
    results = [m for m in drain_tournament() if m["type"] == "game.changed"]
    assert [m["result_version"] for m in results] == [1]


def test_a_friendly_game_goes_through_the_same_choke_point(
    players, staff, simulated_log, django_capture_on_commit_callbacks
):
    log = simulated_log(seed=10, players=[p.handle for p in players])
    with django_capture_on_commit_callbacks(execute=True):
        outcome = services.friendly_game_create(kind="tock", log=log, user=staff["stranger"])
    assert outcome.game.placements is not None
    assert OutboxMessage.objects.get(topic=RATE_GAME).done_at is not None
    assert RatingChange.objects.filter(game=outcome.game).count() == 4


def test_refreshing_a_cache_that_changes_the_result_follows_like_any_change(
    table, staff, simulated_log, django_capture_on_commit_callbacks
):
    log = simulated_log(seed=11)
    with django_capture_on_commit_callbacks(execute=True):
        game = services.game_record_log(game=table.game, log=log, user=staff[Role.SCOREKEEPER]).game
    # A damaged row (say, a bad manual edit): the log still says who won.
    wrong = {h: 1 for h in game.players}
    Game.objects.filter(pk=game.pk).update(placements=wrong, state=None)
    with django_capture_on_commit_callbacks(execute=True):
        outcome = services.game_refresh(game=game.pk)
    assert outcome.result_changed and outcome.game.placements == game.placements
    assert OutboxMessage.objects.filter(topic=RATE_GAME, done_at__isnull=False).count() == 2
    with django_capture_on_commit_callbacks(execute=True):
        assert not services.game_refresh(game=game.pk).result_changed


def test_the_refresh_task_rebuilds_a_cache_and_ignores_unknown_games(table, staff, simulated_log):
    from tournaments.tasks import game_refresh

    log = simulated_log(seed=12)
    game = services.game_record_log(
        game=table.game, log=log[:20], user=staff[Role.SCOREKEEPER]
    ).game
    Game.objects.filter(pk=game.pk).update(state=None, state_sequence=0)
    assert game_refresh.delay(game.pk).get() == 20
    game.refresh_from_db()
    assert game.cache_is_fresh
    assert game_refresh.delay(987654).get() is None


def test_the_tournament_pages_hear_of_seating_and_registrations(
    tournament, players, staff, django_capture_on_commit_callbacks, memory_layer
):
    from tournaments.models import Registration

    drain = _listen(tournament_group(tournament.pk))
    organizer = staff[Role.ORGANIZER]
    registrations = list(Registration.objects.filter(tournament=tournament))
    Registration.objects.filter(tournament=tournament).update(checked_in=False)
    with django_capture_on_commit_callbacks(execute=True):
        for registration in registrations:
            registration.refresh_from_db()
            services.registration_check_in(registration=registration, user=organizer)
        services.tournament_start(tournament=tournament, user=organizer, seed=1)
    heard = drain()
    assert heard and all(m["type"] == "tournament.changed" for m in heard)
    changed = {c for m in heard for c in m["changed"]}
    assert {"registrations", "seating", "rounds"} <= changed
