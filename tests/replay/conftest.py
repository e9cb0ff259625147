"""The API tests' tournament (4 seated players, staff, clients), and TOCK logs with
infractions: a game in progress whose last turn has one nobody has knocked on yet."""

from __future__ import annotations

import pytest

import games.engine as engine
from tests.api.conftest import (  # noqa: F401 (fixtures)
    HANDLES,
    anon,
    as_user,
    game,
    players,
    staff,
    table,
    tournament,
)


def full_log(seed: int = 3) -> list[dict]:
    """A whole seeded 4-player TOCK game with infractions (some knocked on, some not)."""
    return engine.simulate(game="tock", players=HANDLES, seed=seed, mistakes=0.15, knocks=0.3)


def cut_with_pending_infraction(log: list[dict]) -> int:
    """The first line count after which the game is in progress with an unpenalised
    infraction (one nobody has knocked on yet)."""
    for n in range(2, len(log)):
        summary = engine.replay(log[:n]).summary()
        if summary["status"] == "in_progress" and any(
            not i["penalized"] for i in summary["infractions"]
        ):
            return n
    raise AssertionError("no infraction in the simulated log")


@pytest.fixture
def tock_log():
    return full_log()
