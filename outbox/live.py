"""Live-page notifications: after commit, tell the pages watching a game or tournament.

A notification is a small hint (``{"type": "game.changed", "game": 7, "sequence": 42}``)
sent to channel-layer groups; the socket that receives it reads what changed for its
listener (``tournaments.consumers``). Losing
one (Redis down, a process dying after commit) loses no work, since the next
notification or a reload shows the state, so notifications are sent on commit
without an outbox row, and a channel layer that cannot be reached is only logged.

Sending never runs in the request: :func:`live_send` puts the notification on a
bounded in-process queue and returns at once; one daemon thread per process, with an
event loop of its own (so the Redis layer keeps its connections), sends them in
order, each batch within :data:`SEND_TIMEOUT`; of several notifications waiting for
one group about one game only the latest is sent (they are hints). A full queue (the
layer hung for a long time) drops notifications with a warning. :func:`live_flush`
waits for the queue to drain (tests, graceful shutdown).
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
#: How long the sender lets notifications gather before sending them (latency bound).
GATHER_SECONDS = 0.05
#: Notifications waiting to be sent, at most, per process.
QUEUE_SIZE = 10_000


def game_group(game_id: int) -> str:
    """The channel-layer group of the pages watching game ``game_id``."""
    return f"game.{game_id}"


def tournament_group(tournament_id: int) -> str:
    """The channel-layer group of the pages watching tournament ``tournament_id``."""
    return f"tournament.{tournament_id}"


def user_group(user_id: int) -> str:
    """The channel-layer group of the signed-in user's own live pages (``/ws/me/``)."""
    return f"user.{user_id}"


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
            batch = [q.get()]
            # Let a burst gather (a busy table, a round seated): one wake-up and one send
            # per group for all of it, instead of a thread switch per event.
            time.sleep(GATHER_SECONDS)
            while True:
                try:
                    batch.append(q.get_nowait())
                except queue.Empty:
                    break
            try:
                latest = latest_per_group(batch)
                loop.run_until_complete(asyncio.wait_for(_send(latest), SEND_TIMEOUT))
            except Exception:
                logger.warning("%d live notification(s) not sent", len(batch), exc_info=True)
            finally:
                for _ in batch:
                    q.task_done()


def latest_per_group(
    batch: list[tuple[list[str], dict[str, Any]]],
) -> dict[tuple[str, Any, Any], dict[str, Any]]:
    """Notifications are hints to refetch, so of several waiting for one group about one
    thing (its ``type`` and ``game``), only the latest needs sending; a burst of events
    from one table costs one send. Messages that list what ``changed`` (a tournament's
    seating, rounds, ...) are merged: the one sent names everything that changed."""
    latest: dict[tuple[str, Any, Any], dict[str, Any]] = {}
    for groups, message in batch:
        for group in groups:
            key = (group, message.get("type"), message.get("game"))
            earlier = latest.pop(key, None)  # re-insert: keep the order of the latest
            if earlier is not None and "changed" in earlier and "changed" in message:
                merged = list(dict.fromkeys([*earlier["changed"], *message["changed"]]))
                message = {**message, "changed": merged}
            latest[key] = message
    return latest


async def _send(latest: dict[tuple[str, Any, Any], dict[str, Any]]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for (group, _type, _game), message in latest.items():
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
