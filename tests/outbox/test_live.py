"""Live notifications reach the channel layer, and never hurt the writer when it is gone."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from outbox.live import SEND_TIMEOUT, game_group, live_flush, live_send


async def _send_and_receive(message: dict) -> dict:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(game_group(7), channel)
    await sync_to_async(live_send)(groups=[game_group(7)], message=message)
    return await asyncio.wait_for(layer.receive(channel), 5)


@pytest.mark.services
async def test_a_notification_travels_through_the_redis_channel_layer(redis_channel_layer):
    message = {"type": "game.changed", "game": 7, "sequence": 3}
    assert await _send_and_receive(message) == message


async def test_a_notification_travels_through_the_default_channel_layer():
    message = {"type": "game.changed", "game": 7, "sequence": 4}
    assert await _send_and_receive(message) == message


def test_an_unreachable_channel_layer_is_logged_not_raised(settings, caplog):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]},  # nothing listens there
        }
    }
    live_send(groups=[game_group(7)], message={"type": "game.changed", "game": 7})
    assert live_flush(SEND_TIMEOUT + 2)
    assert "not sent" in caplog.text


def test_the_writer_never_waits_for_the_sender(monkeypatch):
    """A sender stuck on the channel layer does not hold up the request that queues a
    notification: live_send returns while the sender thread is still blocked."""
    import outbox.live

    entered, release = threading.Event(), threading.Event()

    async def stuck(latest):  # blocks the sender thread itself, as a hung socket would
        entered.set()
        release.wait(60)

    monkeypatch.setattr(outbox.live, "_send", stuck)
    try:
        live_send(groups=[game_group(7)], message={"type": "game.changed", "game": 7})
        assert entered.wait(60), "the sender never started"
        writer = threading.Thread(
            target=live_send,
            kwargs={"groups": [game_group(8)], "message": {"type": "game.changed", "game": 8}},
        )
        writer.start()
        writer.join(60)
        assert not writer.is_alive() and not release.is_set()
    finally:
        release.set()
    assert live_flush(SEND_TIMEOUT + 60)


def test_a_burst_for_one_game_is_sent_once_with_the_latest_state():
    from outbox.live import latest_per_group

    batch = [
        (["game.7", "tournament.1"], {"type": "game.changed", "game": 7, "sequence": 1}),
        (["game.8"], {"type": "game.changed", "game": 8, "sequence": 5}),
        (["game.7"], {"type": "game.changed", "game": 7, "sequence": 2}),
    ]
    latest = latest_per_group(batch)
    assert [(group, m["game"], m["sequence"]) for (group, _, _), m in latest.items()] == [
        ("tournament.1", 7, 1),
        ("game.8", 8, 5),
        ("game.7", 7, 2),
    ]


def test_what_changed_in_a_tournament_is_merged_not_lost():
    from outbox.live import latest_per_group

    batch = [
        (["tournament.1"], {"type": "tournament.changed", "changed": ["seating", "rounds"]}),
        (["tournament.1"], {"type": "tournament.changed", "changed": ["registrations"]}),
        (["tournament.1"], {"type": "tournament.changed", "changed": ["rounds"]}),
    ]
    [message] = latest_per_group(batch).values()
    assert message["changed"] == ["seating", "rounds", "registrations"]
