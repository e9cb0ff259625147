"""One visibility rule (tournaments.selectors.visible_tournaments_q) for tournament lists,
a tournament, a player's recent seats and games."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from games.errors import GameNotFound
from tests.tournaments.factories import (
    LeagueFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
    seat_table,
)
from tournaments import selectors
from tournaments.errors import NotFound
from tournaments.models import Role
from tournaments.permissions import SYSTEM, user_can_view_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    public_league = LeagueFactory(is_public=True)
    private_league = LeagueFactory(is_public=False)
    tournaments = {
        "public": TournamentFactory(league=public_league, is_public=True),
        "private": TournamentFactory(league=public_league, is_public=False),
        "in_private_league": TournamentFactory(league=private_league, is_public=True),
    }
    ann, bob = PlayerFactory(handle="ann"), PlayerFactory(handle="bob")
    tables = {
        name: seat_table(RoundFactory(tournament=t, number=1), [ann, bob])
        for name, t in tournaments.items()
    }
    referee = TournamentRoleFactory(tournament=tournaments["private"], role=Role.REFEREE).user
    organizer = UserFactory(username="org")
    private_league.organizers.add(organizer)
    superuser = UserFactory(username="root", is_superuser=True)
    users = {
        "anonymous": AnonymousUser(),
        "stranger": UserFactory(username="stranger"),
        "referee": referee,
        "organizer": organizer,
        "superuser": superuser,
        "system": SYSTEM,
    }
    return tournaments, tables, users, ann


EXPECTED = {
    "anonymous": {"public"},
    "stranger": {"public"},
    "referee": {"public", "private"},
    "organizer": {"public", "in_private_league"},
    "superuser": {"public", "private", "in_private_league"},
    "system": {"public", "private", "in_private_league"},
}


@pytest.mark.parametrize("who", sorted(EXPECTED))
def test_lists_seats_tournaments_and_games_follow_one_rule(world, who):
    tournaments, tables, users, ann = world
    user = users[who]
    names = {t.pk: name for name, t in tournaments.items()}
    expected = EXPECTED[who]

    assert {names[t.pk] for t in selectors.tournament_list(user=user)} == expected
    seats = selectors.player_recent_seats(player=ann, user=user)
    assert {names[s.table.round.tournament_id] for s in seats} == expected
    for name, tournament in tournaments.items():
        # the same answer as the object-level permission
        assert user_can_view_tournament(user=user, tournament=tournament) == (name in expected)
        if name in expected:
            assert selectors.tournament_get_visible(tournament_id=tournament.pk, user=user)
            game, table = selectors.game_get_visible(game_id=tables[name].game_id, user=user)
            assert table.pk == tables[name].pk
        else:
            with pytest.raises(NotFound):
                selectors.tournament_get_visible(tournament_id=tournament.pk, user=user)
            with pytest.raises(GameNotFound):
                selectors.game_get_visible(game_id=tables[name].game_id, user=user)


def test_a_friendly_game_is_visible_to_all(db):
    from tests.games.factories import GameFactory

    game = GameFactory()
    assert selectors.game_get_visible(game_id=game.pk, user=AnonymousUser()) == (game, None)
