from tests.tournaments.conftest import (  # noqa: F401  (shared fixtures)
    players,
    simulated_log,
    staff,
    tournament,
)
