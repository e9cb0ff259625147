"""Live-page notifications: after commit, tell the pages watching a game or tournament.

A notification is a small hint (``{"type": "game.changed", "game": 7, "sequence": 42}``)
sent to channel-layer groups; a page that receives it fetches what changed. Losing
one (Redis down, a process dying after commit) loses no work, since the next
notification or a reload shows the state, so notifications are sent on commit
without an outbox row, and a channel layer that cannot be reached is only logged.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

#: Seconds a notification may take before it is given up.
SEND_TIMEOUT = 1.0


def game_group(game_id: int) -> str:
    """The channel-layer group of the pages watching game ``game_id``."""
    return f"game.{game_id}"


def tournament_group(tournament_id: int) -> str:
    """The channel-layer group of the pages watching tournament ``tournament_id``."""
    return f"tournament.{tournament_id}"


def live_send(*, groups: Iterable[str], message: dict[str, Any]) -> None:
    """Send ``message`` (a dict with a ``type`` naming the consumer handler, e.g.
    ``"game.changed"``) to every group now. Never raises."""
    layer = get_channel_layer()
    if layer is None:
        return

    async def send_all() -> None:
        for group in groups:
            await layer.group_send(group, message)

    try:
        # Bounded: a hung Redis must not hold the request that committed the change.
        async_to_sync(asyncio.wait_for)(send_all(), SEND_TIMEOUT)
    except Exception:
        logger.warning("live notification %s not sent", message.get("type"), exc_info=True)


def live_send_on_commit(*, groups: Iterable[str], message: dict[str, Any]) -> None:
    """:func:`live_send` once the current transaction commits (at once outside one)."""
    groups = list(groups)
    transaction.on_commit(lambda: live_send(groups=groups, message=message))
