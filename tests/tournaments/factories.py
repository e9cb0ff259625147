"""Factories for tournaments tests (factory-boy)."""

from __future__ import annotations

import datetime as dt

import factory

from tests.games.factories import GameFactory, UserFactory
from tournaments.models import (
    League,
    Player,
    Registration,
    Role,
    Round,
    Seat,
    Table,
    Tournament,
    TournamentRole,
)

__all__ = ["GameFactory", "UserFactory"]


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    handle = factory.Sequence(lambda n: f"p{n:04d}")
    display_name = factory.LazyAttribute(lambda o: o.handle.upper())


class LeagueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = League

    name = factory.Sequence(lambda n: f"League {n}")
    slug = factory.Sequence(lambda n: f"league-{n}")
    kind = "tock"


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    league = factory.SubFactory(LeagueFactory)
    name = factory.Sequence(lambda n: f"Open {n}")
    slug = factory.Sequence(lambda n: f"open-{n}")
    starts_on = dt.date(2026, 1, 10)
    status = "registration"
    # Set-up tournaments are driven by hand (the model's default is on); the tests of
    # automatic progression turn it on.
    auto_progress = False


class TournamentRoleFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TournamentRole

    tournament = factory.SubFactory(TournamentFactory)
    user = factory.SubFactory(UserFactory)
    role = Role.ORGANIZER


class RegistrationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Registration

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    checked_in = True


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.Sequence(lambda n: n + 1)


def seat_table(rnd: Round, players: list[Player], number: int = 1) -> Table:
    """A table of ``rnd`` with ``players`` seated in order and its (pending) game."""
    game = GameFactory(kind=rnd.tournament.league.kind, players=[p.handle for p in players])
    table = Table.objects.create(round=rnd, number=number, game=game)
    Seat.objects.bulk_create(Seat(table=table, position=i, player=p) for i, p in enumerate(players))
    return table
