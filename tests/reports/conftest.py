"""Fixtures for the players' reports: the API fixtures (a seated table, staff, clients)."""

from tests.api.conftest import (  # noqa: F401  (fixtures)
    anon,
    as_user,
    game,
    players,
    simulated_log,
    staff,
    table,
    tournament,
)
