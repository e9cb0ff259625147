"""Set-up shared by the game page, score page, privacy and browser tests of every kind:
a running tournament in a league of the kind with one seated, registered table, its staff,
recording a log through the recording service, and fetching the game page as a role
sees it."""

from __future__ import annotations

import html as html_lib
from typing import Any

from django.urls import reverse

from games.models import Game
from tests.tournaments.factories import (
    LeagueFactory,
    PlayerFactory,
    RegistrationFactory,
    RoundFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
    seat_table,
)
from tournaments import services
from tournaments.models import Tournament
from tournaments.permissions import SYSTEM


def kind_tournament(kind: str, *, name: str, league: str | None = None) -> Tournament:
    """A running tournament ``name`` in a new league of ``kind`` (named ``league`` if
    given)."""
    league_names = {"name": league} if league else {}
    return TournamentFactory(
        league=LeagueFactory(kind=kind, **league_names), name=name, status="running"
    )


def seated_game(tournament: Tournament, names: dict[str, str]) -> Game:
    """Round 1's game: new players (handle -> display name, in seat order), registered."""
    players = [PlayerFactory(handle=h, display_name=n) for h, n in names.items()]
    for p in players:
        RegistrationFactory(tournament=tournament, player=p)
    return seat_table(RoundFactory(tournament=tournament, number=1), players).game


def staff(tournament: Tournament, role: str, username: str) -> Any:
    """A new user holding ``role`` in ``tournament``."""
    return TournamentRoleFactory(
        tournament=tournament, role=role, user=UserFactory(username=username)
    ).user


def record(game: Game, events: list[dict], first: int = 1) -> None:
    """Record ``events`` as the system, the first one at sequence ``first``."""
    for n, event in enumerate(events, start=first):
        services.game_record_event(game=game.pk, event=event, expected_sequence=n, user=SYSTEM)


def page(client: Any, game: Game, **params: Any) -> str:
    """The game page's HTML (entities unescaped) for ``client``; it must answer 200."""
    response = client.get(reverse("tournaments:game-detail", args=[game.pk]), params)
    assert response.status_code == 200
    return html_lib.unescape(response.content.decode())
