"""Registry of outbox topics: topic -> the function that does the work.

Apps register their topics in ``AppConfig.ready()``::

    register("ratings.update_for_game", "ratings.services.ratings_update_for_game")

A handler is called with the message's payload as keyword arguments, inside a
transaction that also marks the message done, so a handler that raises leaves the
message pending (it is retried by the sweep). Handlers must be idempotent. The target
is a dotted path, imported on first use, so that registering imports nothing.

Two options (issue 26):

* ``queue``: the Celery queue its deliveries go to. :data:`URGENT_QUEUE` is consumed
  before the others (``CELERY_TASK_QUEUES`` lists it first and the broker is polled in
  that order): a round's progression does not wait behind a crowd of rating updates.
* ``batch``: a function taking ``payloads`` (a list of payloads, oldest first). A
  delivery then also takes the topic's other pending messages (those no other worker
  holds, up to :data:`BATCH_LIMIT`) and hands them over in one call: 250 results of a
  round are rated in a few deliveries, not 250 waits for the same lock. While one
  delivery of such a topic is queued, new messages publish no task of their own
  (:func:`outbox.services.outbox_publish`): the queued one takes them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.module_loading import import_string

#: The queue of every delivery unless its topic names another.
DEFAULT_QUEUE = "celery"
#: The queue consumed first (``CELERY_TASK_QUEUES`` order): work people wait for.
URGENT_QUEUE = "urgent"
#: Most messages one batched delivery takes.
BATCH_LIMIT = 500

_HANDLERS: dict[str, str] = {}
_QUEUES: dict[str, str] = {}
_BATCHES: dict[str, str] = {}


def register(
    topic: str, handler_path: str, *, queue: str = DEFAULT_QUEUE, batch: str | None = None
) -> None:
    """Make ``topic`` deliverable by the function at ``handler_path``, through ``queue``;
    ``batch``: the dotted path of the function that takes several payloads at once."""
    current = _HANDLERS.get(topic)
    if current is not None and current != handler_path:
        raise ValueError(f"outbox topic {topic!r} is already handled by {current}")
    _HANDLERS[topic] = handler_path
    _QUEUES[topic] = queue
    if batch is not None:
        _BATCHES[topic] = batch


def queue_for(topic: str) -> str:
    """The Celery queue of ``topic``'s deliveries (its name as the broker knows it:
    with ``settings.CELERY_QUEUE_PREFIX``)."""
    from django.conf import settings

    prefix = getattr(settings, "CELERY_QUEUE_PREFIX", "")
    return f"{prefix}{_QUEUES.get(topic, DEFAULT_QUEUE)}"


def is_batched(topic: str) -> bool:
    """Whether ``topic`` has a batch handler (its deliveries take every pending message
    of the topic, so one queued delivery answers for the messages after it)."""
    return topic in _BATCHES


def batch_handler_for(topic: str) -> Callable[..., Any] | None:
    """The function that takes several of ``topic``'s payloads at once, if any."""
    path = _BATCHES.get(topic)
    return import_string(path) if path is not None else None


def topics() -> tuple[str, ...]:
    return tuple(sorted(_HANDLERS))


def handler_for(topic: str) -> Callable[..., Any]:
    """The handler of ``topic`` (``LookupError`` for an unknown topic)."""
    try:
        path = _HANDLERS[topic]
    except KeyError:
        raise LookupError(f"no outbox handler for topic {topic!r}") from None
    return import_string(path)
