"""A placements POST is cheap: POST /api/games/<id>/placements by an organizer with a
token costs at most 7 SQL queries (token, table with game and the user's roles, seats,
game lock, update, outbox, then the tournament lock and the round lock with whether the
round is done, sent together on PostgreSQL: one query; SQLite takes one statement at a
time: 8 there),
transaction control (BEGIN, COMMIT, SAVEPOINT, RELEASE, ROLLBACK) excluded; the result
that finishes the round 2 more (the round's status, its audit row). The roles read with
the table are the ones the union query of ``user_tournament_roles`` answers."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from tests.api.conftest import counted_queries, token_client
from tests.tournaments.factories import (
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
    seat_table,
)
from tournaments.models import LeagueRole, Role, Tournament
from tournaments.permissions import user_tournament_roles
from tournaments.selectors.games import table_with_game

pytestmark = pytest.mark.django_db

#: Most queries per placements POST (one more table left in the round), on PostgreSQL.
MAX_QUERIES = 7


def _cap() -> int:
    """:data:`MAX_QUERIES`, and one more on SQLite (the two lock statements apart)."""
    return MAX_QUERIES + (connection.vendor != "postgresql")


def test_an_organizer_posts_placements_with_at_most_7_queries():
    tournament = TournamentFactory(status="running")
    user = UserFactory(username="org")
    tournament.league.organizers.add(user)
    rnd = RoundFactory(tournament=tournament, number=1)
    tables = [seat_table(rnd, [PlayerFactory() for _ in range(4)], number=n) for n in (1, 2, 3)]
    client = token_client(user)
    for n, table in enumerate(tables):
        game = table.game
        with CaptureQueriesContext(connection) as ctx:
            response = client.post(
                f"/api/games/{game.pk}/placements",
                {"placements": {h: n + 1 for n, h in enumerate(game.players)}},
                format="json",
            )
        assert response.status_code == 200, response.content
        queries = counted_queries(ctx)
        cap = _cap() if n < len(tables) - 1 else _cap() + 2
        assert len(queries) <= cap, "\n".join(queries)
    rnd.refresh_from_db()
    assert rnd.status == "finished"


def test_a_stranger_still_gets_403_and_nothing_is_stored():
    tournament = TournamentFactory(status="running")
    rnd = RoundFactory(tournament=tournament, number=1)
    table = seat_table(rnd, [PlayerFactory() for _ in range(4)])
    response = token_client(UserFactory(username="nobody")).post(
        f"/api/games/{table.game.pk}/placements",
        {"placements": {h: n + 1 for n, h in enumerate(table.game.players)}},
        format="json",
    )
    assert response.status_code in (403, 404)
    table.game.refresh_from_db()
    assert table.game.placements is None


@pytest.mark.parametrize(
    "tournament_roles,league_roles,organizer",
    [
        ([], [], False),
        ([Role.SCOREKEEPER], [], False),
        ([Role.REFEREE, Role.SCOREKEEPER], [], False),
        ([], [Role.REFEREE], False),
        ([Role.SCOREKEEPER], [Role.SCOREKEEPER], True),
        ([], [], True),
    ],
)
def test_the_role_rule_asked_alone_or_read_with_the_table(
    tournament_roles, league_roles, organizer
):
    """A user's roles in a tournament: its own, its league's staff roles, and the
    organizer's for a league organizer; roles elsewhere count for nothing. Asked alone
    (one query, then kept on the instance) or read with a game's table (no query)."""
    tournament = TournamentFactory(status="running")
    other = TournamentFactory(league=tournament.league, status="running")
    rnd = RoundFactory(tournament=tournament, number=1)
    table = seat_table(rnd, [PlayerFactory() for _ in range(4)])
    user = UserFactory()
    TournamentRoleFactory(tournament=other, user=user, role=Role.ORGANIZER)
    for role in tournament_roles:
        TournamentRoleFactory(tournament=tournament, user=user, role=role)
    for role in league_roles:
        LeagueRole.objects.create(league=tournament.league, user=user, role=role)
    if organizer:
        tournament.league.organizers.add(user)
    expected = {*tournament_roles, *league_roles} | ({Role.ORGANIZER} if organizer else set())
    fresh = Tournament.objects.get(pk=tournament.pk)
    with CaptureQueriesContext(connection) as alone:
        assert user_tournament_roles(user=user, tournament=fresh) == expected
        assert user_tournament_roles(user=user, tournament=fresh) == expected
    assert len(alone.captured_queries) == 1
    read = table_with_game(game_id=table.game_id, user=user)
    with CaptureQueriesContext(connection) as ctx:
        roles = user_tournament_roles(user=user, tournament=read.round.tournament)
    assert roles == expected
    assert len(ctx.captured_queries) == 0


def test_a_league_role_of_another_name_is_refused_by_the_database():
    """The role rule knows every name a role row can hold: the database holds a
    league's roles to its two."""
    tournament = TournamentFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        LeagueRole.objects.create(league=tournament.league, user=UserFactory(), role="someday")
