"""Live-page notifications: after commit, tell the pages watching a game or tournament.

A notification is a small hint (``{"type": "game.changed", "game": 7, "sequence": 42}``)
sent to channel-layer groups; a page that receives it fetches what changed. Losing
one (Redis down, a process dying after commit) loses no work, since the next
notification or a reload shows the state, so notifications are sent on commit
without an outbox row, and a channel layer that cannot be reached is only logged.

Sending never runs in the request: :func:`live_send` puts the notification on a
bounded in-process queue and returns at once; one daemon thread per process, with an
event loop of its own (so the Redis layer keeps its connections), sends them in
order, each within :data:`SEND_TIMEOUT`. A full queue (the layer hung for a long
time) drops notifications with a warning. :func:`live_flush` waits for the queue to
drain (tests, graceful shutdown).
"""

from __future__ import annotations

import asyncio
import logging
import os
import queue
import threading
import time
from collections.abc import Iterable
from typing import Any

from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

#: Seconds one notification may take before it is given up.
SEND_TIMEOUT = 1.0
#: Notifications waiting to be sent, at most, per process.
QUEUE_SIZE = 10_000


def game_group(game_id: int) -> str:
    """The channel-layer group of the pages watching game ``game_id``."""
    return f"game.{game_id}"


def tournament_group(tournament_id: int) -> str:
    """The channel-layer group of the pages watching tournament ``tournament_id``."""
    return f"tournament.{tournament_id}"


class _Sender:
    """The per-process sending thread (started on first use, again after a fork)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pid: int | None = None
        self._queue: queue.Queue[tuple[list[str], dict[str, Any]]] = queue.Queue(QUEUE_SIZE)

    def submit(self, groups: list[str], message: dict[str, Any]) -> None:
        if self._pid != os.getpid():
            self._start()
        try:
            self._queue.put_nowait((groups, message))
        except queue.Full:
            logger.warning("live notification %s dropped: queue full", message.get("type"))

    def flush(self, timeout: float) -> bool:
        """Wait until every submitted notification was sent or given up."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)
        return True

    def _start(self) -> None:
        with self._lock:
            if self._pid == os.getpid():
                return
            # After a fork the parent's thread is gone: start afresh with an empty queue.
            self._queue = queue.Queue(QUEUE_SIZE)
            threading.Thread(target=self._run, name="live-notifications", daemon=True).start()
            self._pid = os.getpid()

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        q = self._queue
        while True:
            groups, message = q.get()
            try:
                loop.run_until_complete(asyncio.wait_for(_send(groups, message), SEND_TIMEOUT))
            except Exception:
                logger.warning("live notification %s not sent", message.get("type"), exc_info=True)
            finally:
                q.task_done()


async def _send(groups: list[str], message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for group in groups:
        await layer.group_send(group, message)


_sender = _Sender()


def live_send(*, groups: Iterable[str], message: dict[str, Any]) -> None:
    """Queue ``message`` (a dict whose ``type`` names the consumer handler, e.g.
    ``"game.changed"``) for every group in ``groups``. Returns at once; never raises."""
    _sender.submit(list(groups), message)


def live_send_on_commit(*, groups: Iterable[str], message: dict[str, Any]) -> None:
    """:func:`live_send` once the current transaction commits (at once outside one)."""
    groups = list(groups)
    transaction.on_commit(lambda: live_send(groups=groups, message=message))


def live_flush(timeout: float = 5.0) -> bool:
    """Wait (at most ``timeout`` seconds) until queued notifications are sent or given
    up; whether the queue drained."""
    return _sender.flush(timeout)
