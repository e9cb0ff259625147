"""Factories for games tests (factory-boy)."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from games.models import Game


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = "!"  # unusable; hashing a password per user would slow the suite down


class GameFactory(factory.django.DjangoModelFactory):
    """A not-yet-started TOCK game with four seated players."""

    class Meta:
        model = Game

    kind = "tock"
    players = factory.LazyFunction(lambda: ["ann", "bob", "cat", "dan"])
