"""Fast set-up helpers: seat rounds and give games results without the engine."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from games.models import Game
from tests.tournaments.factories import RoundFactory, seat_table
from tournaments.models import Player, Round, Tournament

T0 = timezone.make_aware(dt.datetime(2026, 1, 1, 12, 0))


def set_result(game: Game, placements: dict[str, int], minutes: int = 0) -> None:
    """Store a placements-only result directly (set-up only; services are tested elsewhere)."""
    Game.objects.filter(pk=game.pk).update(
        placements=placements,
        result_source="placements",
        result_version=1,
        status="finished",
        finished_at=T0 + dt.timedelta(minutes=minutes),
    )


def play_round(
    tournament: Tournament, number: int, tables: list[list[tuple[Player, int]]]
) -> Round:
    """A round whose tables have the given (player, place) results, in seat order."""
    rnd = RoundFactory(tournament=tournament, number=number)
    for i, seats in enumerate(tables, start=1):
        table = seat_table(rnd, [p for p, _ in seats], number=i)
        set_result(table.game, {p.handle: place for p, place in seats}, minutes=number * 100 + i)
    return rnd
