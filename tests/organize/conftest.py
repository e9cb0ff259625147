"""Fixtures of the organizer pages' tests: a league, its organizer, a tournament with
staff of each role, a player with an account, and an organizer of another league."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import (
    LeagueFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
)
from tournaments.models import Role


@pytest.fixture
def league(db):
    return LeagueFactory(name="Club", slug="club")


@pytest.fixture
def organizer(league):
    user = UserFactory(username="orga")
    league.organizers.add(user)
    return user


@pytest.fixture
def tournament(league, organizer):
    return TournamentFactory(league=league, name="Club Night", auto_progress=False)


@pytest.fixture
def users(league, organizer, tournament):
    """One user per role: anonymous (None), player, scorekeeper, referee, organizer,
    organizer of another league."""
    player_user = UserFactory(username="a-player")
    player = PlayerFactory(handle="me", user=player_user)
    RegistrationFactory(tournament=tournament, player=player)
    scorekeeper = UserFactory(username="scorer")
    TournamentRoleFactory(tournament=tournament, user=scorekeeper, role=Role.SCOREKEEPER)
    referee = UserFactory(username="ref")
    TournamentRoleFactory(tournament=tournament, user=referee, role=Role.REFEREE)
    other = UserFactory(username="other-orga")
    LeagueFactory(slug="elsewhere").organizers.add(other)
    return {
        "anonymous": None,
        "player": player_user,
        "scorekeeper": scorekeeper,
        "referee": referee,
        "organizer": organizer,
        "other_organizer": other,
    }


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def org(organizer) -> Client:
    return client_for(organizer)


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)
