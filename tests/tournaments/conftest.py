from __future__ import annotations

import pytest

from tests.games.conftest import simulated_log  # noqa: F401  (shared fixture)
from tests.tournaments.factories import (
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
)
from tournaments.models import Role


@pytest.fixture
def tournament(db):
    return TournamentFactory()


@pytest.fixture
def staff(tournament):
    """Users by role for ``tournament`` (plus an unrelated signed-in user)."""
    users = {}
    for role in (Role.ORGANIZER, Role.REFEREE, Role.SCOREKEEPER):
        users[role] = TournamentRoleFactory(
            tournament=tournament, role=role, user=UserFactory(username=role)
        ).user
    users["stranger"] = UserFactory(username="stranger")
    return users


@pytest.fixture
def players(tournament):
    result = [PlayerFactory(handle=h) for h in ("ann", "bob", "cat", "dan")]
    for p in result:
        RegistrationFactory(tournament=tournament, player=p)
    return result
