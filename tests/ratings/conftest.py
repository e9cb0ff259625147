from __future__ import annotations

from tests.tournaments.conftest import players, tournament  # noqa: F401  (shared fixtures)
