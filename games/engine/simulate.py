"""Game-independent entry point for bot simulations."""

from __future__ import annotations

from typing import Any

from .base import simulator


def simulate(
    game: str = "tock",
    players: list[str] | tuple[str, ...] | int = 4,
    seed: int = 0,
    **options: Any,
) -> list[dict[str, Any]]:
    """Bots play one complete game of ``game``; returns its log (start event first).

    ``players`` is a list of names or a number of players; ``options`` are the kind's
    own and go to its simulator unchanged (see :func:`~games.engine.base.register_simulator`;
    TOCK: ``mistakes``, ``knocks``, ``mode``, ``max_events``, ``first``, see
    :func:`games.engine.tock.bots.simulate`). Every drawn card is named, so the log
    replays with or without its seed.
    """
    return simulator(game)(game=game, players=players, seed=seed, **options)
