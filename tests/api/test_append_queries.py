"""The live-append path is cheap: POST /api/games/<id>/events by a scorekeeper with a
token costs at most 7 SQL queries per event, token authentication included and
transaction control (BEGIN, COMMIT, SAVEPOINT, RELEASE, ROLLBACK) excluded."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import games.engine as engine
from tests.api.conftest import counted_queries, token_client
from tests.tournaments.factories import (
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
    seat_table,
)
from tournaments.models import Role

pytestmark = pytest.mark.django_db

#: Most queries per appended event.
MAX_QUERIES = 7


@pytest.fixture
def table_and_scorekeeper():
    tournament = TournamentFactory(status="running")
    rnd = RoundFactory(tournament=tournament, number=1)
    players = [PlayerFactory() for _ in range(4)]
    table = seat_table(rnd, players)
    user = UserFactory(username="keeper")
    TournamentRoleFactory(tournament=tournament, user=user, role=Role.SCOREKEEPER)
    return table, user


def test_a_scorekeeper_appends_events_with_at_most_7_queries_each(table_and_scorekeeper):
    table, user = table_and_scorekeeper
    client = token_client(user)
    game = table.game
    log = engine.simulate(game=game.kind, players=list(game.players), seed=3, mistakes=0)
    url = f"/api/games/{game.pk}/events"
    counts = []
    for sequence, event in enumerate(log[:12], start=1):
        with CaptureQueriesContext(connection) as ctx:
            response = client.post(
                url,
                {"event": event, "sequence": sequence},
                format="json",
                HTTP_IDEMPOTENCY_KEY=f"key-{sequence}",
            )
        assert response.status_code == 201, response.content
        body = response.json()
        assert body["game"]["sequence"] == sequence
        assert body["event"]["sequence"] == sequence
        counts.append(len(counted_queries(ctx)))
        assert counts[-1] <= MAX_QUERIES, "\n".join(counted_queries(ctx))
    # A retry with the same key answers from what is stored, as cheaply.
    with CaptureQueriesContext(connection) as ctx:
        response = client.post(
            url, {"event": log[11], "sequence": 12}, format="json", HTTP_IDEMPOTENCY_KEY="key-12"
        )
    assert response.status_code == 200 and response.json()["replayed"] is True
    assert len(counted_queries(ctx)) <= MAX_QUERIES
