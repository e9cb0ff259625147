"""Game-independent entry point for bot simulations."""

from __future__ import annotations

from typing import Any

from .base import simulator


def simulate(
    game: str = "tock",
    players: list[str] | tuple[str, ...] | int = 4,
    seed: int = 0,
    mistakes: float = 0.0,
    knocks: float = 0.0,
    **options: Any,
) -> list[dict[str, Any]]:
    """Bots play one complete game of ``game``; returns its log (start event first).

    Extra keyword options go to the game's simulator (TOCK: ``mode``, ``max_events``,
    ``first``). Every drawn card is named, so the log replays with or without its seed.
    """
    func = simulator(game)
    return func(game=game, players=players, seed=seed, mistakes=mistakes, knocks=knocks, **options)
