"""Fixtures for the throttling and accounts tests: users with known passwords."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.tournaments.factories import (
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    TournamentRoleFactory,
)
from tournaments.models import Role

PASSWORD = "a-long-password-1"


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Hundreds of password checks: a fast hasher (the lock logic does not depend on it)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def make_user(username: str, **extra) -> object:
    user = get_user_model().objects.create_user(username=username, password=PASSWORD, **extra)
    return user


@pytest.fixture
def people(db):
    """An organizer, a scorekeeper and a player of one tournament, a superuser, and an
    outsider (no part in that tournament)."""
    tournament = TournamentFactory(name="Venue Cup", status="running")
    users = {
        "organizer": make_user("olga"),
        "scorekeeper": make_user("sam"),
        "player": make_user("pia"),
        "outsider": make_user("otto"),
        "admin": make_user("root", is_superuser=True, is_staff=True),
    }
    TournamentRoleFactory(tournament=tournament, user=users["organizer"], role=Role.ORGANIZER)
    TournamentRoleFactory(tournament=tournament, user=users["scorekeeper"], role=Role.SCOREKEEPER)
    RegistrationFactory(tournament=tournament, player=PlayerFactory(user=users["player"]))
    return users
