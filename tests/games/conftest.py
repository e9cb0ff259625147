from __future__ import annotations

import pytest

import games.engine as engine

PLAYERS = ["ann", "bob", "cat", "dan"]


@pytest.fixture
def simulated_log():
    """A complete, legal TOCK log for PLAYERS (start line first)."""

    def make(seed: int = 7, players: list[str] | None = None) -> list[dict]:
        return engine.simulate(game="tock", players=list(players or PLAYERS), seed=seed)

    return make
