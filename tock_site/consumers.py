"""Site-level WebSocket consumer: a ping that travels through the channel layer.

Product consumers (live tables, standings) live in their apps. ``PingConsumer`` at
``ws/ping/`` proves that WebSockets and the channel layer work end to end: each
``{"type": "ping", "payload": ...}`` is sent to the connection's own group through
the channel layer (Redis on the real stack) and comes back as
``{"type": "pong", "payload": ...}``.
"""

import uuid
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils.translation import gettext as _


class PingConsumer(AsyncJsonWebsocketConsumer):
    group_name: str

    async def connect(self) -> None:
        self.group_name = f"ping.{uuid.uuid4().hex}"
        await self.channel_layer.group_add(self.group_name, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        group_name = getattr(self, "group_name", None)
        if group_name:
            await self.channel_layer.group_discard(group_name, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict) or content.get("type") != "ping":
            await self.send_json({"type": "error", "detail": _('Send {"type": "ping"}.')})
            return
        await self.channel_layer.group_send(
            self.group_name, {"type": "ping.reply", "payload": content.get("payload")}
        )

    async def ping_reply(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "pong", "payload": event.get("payload")})
