"""Role checks at service level: anonymous and wrong-role users are refused."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import AnonymousUser

from games.models import GameEvent
from tests.tournaments.factories import GameFactory, RoundFactory, UserFactory, seat_table
from tournaments import permissions, services
from tournaments.errors import NotAllowed
from tournaments.models import Role, TournamentRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(tournament, players):
    return seat_table(RoundFactory(tournament=tournament, number=1), players)


def test_roles(tournament, staff):
    roles = permissions.user_tournament_roles
    assert roles(user=staff[Role.ORGANIZER], tournament=tournament) == {Role.ORGANIZER}
    assert roles(user=staff["stranger"], tournament=tournament) == set()
    assert roles(user=AnonymousUser(), tournament=tournament) == set()
    assert roles(user=None, tournament=tournament) == set()
    assert roles(user=permissions.SYSTEM, tournament=tournament) == permissions.ALL_ROLES
    league_organizer = UserFactory()
    tournament.league.organizers.add(league_organizer)
    assert permissions.user_can_manage_tournament(user=league_organizer, tournament=tournament)


def test_manage_tournament(tournament, staff):
    can = permissions.user_can_manage_tournament
    assert can(user=staff[Role.ORGANIZER], tournament=tournament)
    for who in (Role.REFEREE, Role.SCOREKEEPER, "stranger"):
        assert not can(user=staff[who], tournament=tournament)
    assert not can(user=AnonymousUser(), tournament=tournament)
    superuser = UserFactory(is_superuser=True)
    assert can(user=superuser, tournament=tournament)


@pytest.mark.parametrize("who", [None, "anonymous", "stranger", Role.SCOREKEEPER, Role.REFEREE])
def test_management_services_refuse_wrong_roles(tournament, staff, players, who):
    user = AnonymousUser() if who == "anonymous" else staff.get(who)
    reg = tournament.registrations.first()
    calls = [
        lambda: services.tournament_update(tournament=tournament, name="x", user=user),
        lambda: services.tournament_role_add(
            tournament=tournament, member=staff["stranger"], role=Role.ORGANIZER, user=user
        ),
        lambda: services.registration_check_in(registration=reg, user=user),
        lambda: services.round_create_next(tournament=tournament, user=user),
        lambda: services.tournament_create(
            league=tournament.league, name="New", starts_on=dt.date(2026, 5, 1), user=user
        ),
    ]
    for call in calls:
        with pytest.raises(NotAllowed) as exc:
            call()
        assert exc.value.http_status == 403
    assert not tournament.rounds.exists()
    assert not TournamentRole.objects.filter(user=staff["stranger"]).exists()


@pytest.mark.parametrize("who", [None, "anonymous", "stranger"])
def test_recording_refused_without_role(table, staff, simulated_log, who):
    user = AnonymousUser() if who == "anonymous" else staff.get(who)
    log = simulated_log()
    with pytest.raises(NotAllowed):
        services.game_record_event(game=table.game, event=log[0], expected_sequence=1, user=user)
    with pytest.raises(NotAllowed):
        services.game_record_log(game=table.game, log=log, user=user)
    with pytest.raises(NotAllowed):
        services.game_record_placements(
            game=table.game, placements={"ann": 1, "bob": 2, "cat": 3, "dan": 4}, user=user
        )
    assert not GameEvent.objects.exists()
    assert not permissions.user_can_record_game(user=user, game=table.game)


@pytest.mark.parametrize("who", [Role.ORGANIZER, Role.SCOREKEEPER, Role.REFEREE])
def test_staff_may_record(table, staff, simulated_log, who):
    assert permissions.user_can_record_game(user=staff[who], game=table.game)
    outcome = services.game_record_event(
        game=table.game, event=simulated_log()[0], expected_sequence=1, user=staff[who]
    )
    assert outcome.events_added == 1


def test_adjudication_needs_a_referee(table, staff, simulated_log):
    log = simulated_log()
    game = services.game_record_log(
        game=table.game, log=log[:10], user=staff[Role.SCOREKEEPER]
    ).game
    end = {"type": "end", "reason": "adjudicated", "referee": "ref"}
    with pytest.raises(NotAllowed):
        services.game_record_event(
            game=game, event=end, expected_sequence=11, user=staff[Role.SCOREKEEPER]
        )
    outcome = services.game_record_event(
        game=game, event=end, expected_sequence=11, user=staff[Role.REFEREE]
    )
    assert outcome.result_changed and outcome.game.is_over


def test_friendly_game_permissions(simulated_log, players):
    creator, other = UserFactory(), UserFactory()
    game = GameFactory(created_by=creator)
    assert permissions.user_can_record_game(user=creator, game=game)
    assert not permissions.user_can_record_game(user=other, game=game)
    assert not permissions.user_can_record_game(user=AnonymousUser(), game=game)
    assert permissions.user_can_record_game(user=UserFactory(is_staff=True), game=game)
    with pytest.raises(NotAllowed):
        services.friendly_game_create(kind="tock", log=simulated_log(), user=AnonymousUser())


def test_view_permissions(tournament, staff):
    assert permissions.user_can_view_tournament(user=AnonymousUser(), tournament=tournament)
    tournament.is_public = False
    tournament.save()
    assert not permissions.user_can_view_tournament(user=AnonymousUser(), tournament=tournament)
    assert not permissions.user_can_view_tournament(user=staff["stranger"], tournament=tournament)
    assert permissions.user_can_view_tournament(user=staff[Role.REFEREE], tournament=tournament)
