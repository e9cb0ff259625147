"""Registry of outbox topics: topic -> the function that does the work.

Apps register their topics in ``AppConfig.ready()``::

    register("ratings.update_for_game", "ratings.services.ratings_update_for_game")

A handler is called with the message's payload as keyword arguments, inside a
transaction that also marks the message done, so a handler that raises leaves the
message pending (it is retried by the sweep). Handlers must be idempotent. The target
is a dotted path, imported on first use, so that registering imports nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.module_loading import import_string

_HANDLERS: dict[str, str] = {}


def register(topic: str, handler_path: str) -> None:
    """Make ``topic`` deliverable by the function at ``handler_path``."""
    current = _HANDLERS.get(topic)
    if current is not None and current != handler_path:
        raise ValueError(f"outbox topic {topic!r} is already handled by {current}")
    _HANDLERS[topic] = handler_path


def topics() -> tuple[str, ...]:
    return tuple(sorted(_HANDLERS))


def handler_for(topic: str) -> Callable[..., Any]:
    """The handler of ``topic`` (``LookupError`` for an unknown topic)."""
    try:
        path = _HANDLERS[topic]
    except KeyError:
        raise LookupError(f"no outbox handler for topic {topic!r}") from None
    return import_string(path)
