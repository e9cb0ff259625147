"""A WebSocket round trip through the channel layer (Redis on the real stack)."""

import pytest
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from tock_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = [(b"origin", b"http://testserver")]


async def ping_roundtrip() -> None:
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=ORIGIN)
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    try:
        await communicator.send_json_to({"type": "ping", "payload": {"n": 1}})
        assert await communicator.receive_json_from(timeout=5) == {
            "type": "pong",
            "payload": {"n": 1},
        }
        await communicator.send_json_to({"type": "nonsense"})
        reply = await communicator.receive_json_from(timeout=5)
        assert reply["type"] == "error"
    finally:
        await communicator.disconnect()


@pytest.mark.services
async def test_ping_roundtrip_through_the_redis_channel_layer(redis_channel_layer):
    from channels_redis.core import RedisChannelLayer

    assert isinstance(get_channel_layer(), RedisChannelLayer)
    await ping_roundtrip()


async def test_ping_roundtrip_through_the_default_channel_layer():
    await ping_roundtrip()


@pytest.mark.parametrize("origin", [b"http://evil.example", None])
async def test_websocket_from_a_foreign_origin_is_refused(origin):
    headers = [(b"origin", origin)] if origin else []
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    assert not connected
    await communicator.disconnect()
