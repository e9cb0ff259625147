"""Fixtures for the HTTP API tests: a tournament with a seated table, its staff, clients."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

import games.engine as engine
from tests.tournaments.factories import (
    PlayerFactory,
    RegistrationFactory,
    RoundFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
    seat_table,
)
from tournaments.models import Role


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Schemathesis names each operation's test ``test_x[GET /api/...]`` but gives all
    of them the function's node id; pytest-xdist tells tests apart by node id, so it
    would run one operation per test function and drop the rest. Give each its own."""
    for item in items:
        base = item.nodeid.split("::")[-1]
        if item.name != base and item.name.startswith(base + "["):
            unique = item.nodeid[: -len(base)] + item.name
            if hasattr(item, "_id"):  # pytest 9: a structured node id
                from _pytest.nodes import NodeId

                item._id = NodeId.parse(unique)
            else:
                item._nodeid = unique


HANDLES = ["ann", "bob", "cat", "dan"]


@pytest.fixture
def simulated_log():
    def make(seed: int = 7, players: list[str] | None = None) -> list[dict]:
        return engine.simulate(game="tock", players=list(players or HANDLES), seed=seed)

    return make


@pytest.fixture
def tournament(db):
    return TournamentFactory(name="Spring Cup", status="running")


@pytest.fixture
def players(tournament):
    result = [PlayerFactory(handle=h, display_name=h.title()) for h in HANDLES]
    for p in result:
        RegistrationFactory(tournament=tournament, player=p)
    return result


@pytest.fixture
def table(tournament, players):
    return seat_table(RoundFactory(tournament=tournament, number=1), players)


@pytest.fixture
def game(table):
    return table.game


@pytest.fixture
def staff(tournament):
    """Users by role in ``tournament``, plus a stranger and another tournament's scorekeeper."""
    users = {}
    for role in (Role.ORGANIZER, Role.REFEREE, Role.SCOREKEEPER):
        users[role] = TournamentRoleFactory(
            tournament=tournament, role=role, user=UserFactory(username=f"t-{role}")
        ).user
    users["stranger"] = UserFactory(username="stranger")
    other = TournamentFactory(league=tournament.league, name="Other Cup")
    users["other_scorekeeper"] = TournamentRoleFactory(
        tournament=other, role=Role.SCOREKEEPER, user=UserFactory(username="other-sk")
    ).user
    return users


#: Statements that are transaction control, not work: left out of query counts.
TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE", "ROLLBACK")


def counted_queries(ctx) -> list[str]:
    """The SQL captured by ``ctx`` (a ``CaptureQueriesContext``) without transaction
    control: what a query cap counts."""
    return [
        q["sql"]
        for q in ctx.captured_queries
        if not q["sql"].lstrip().upper().startswith(TRANSACTION_CONTROL)
    ]


def token_client(user) -> APIClient:
    """A client authenticated like a scorekeeping device (token, CSRF checks on)."""
    client = APIClient(enforce_csrf_checks=True)
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def as_user(staff):
    """``as_user("scorekeeper")`` -> a token client of that staff member."""

    def make(key: str) -> APIClient:
        return token_client(staff[key])

    return make


@pytest.fixture
def anon():
    return APIClient(enforce_csrf_checks=True)
