"""Games as the tournaments app shows them: with their table, visible or not found."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet

from games.errors import GameNotFound
from games.models import Game, GameEvent
from games.selectors import game_event_list, game_get
from tournaments.models import Seat, Table
from tournaments.selectors.visibility import visible_tournament_expression


def _tables_of(*, game: Game) -> QuerySet[Table]:
    return (
        Table.objects.filter(game_id=game.pk)
        .select_related("round__tournament__league")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
    )


def table_for_game(*, game: Game) -> Table | None:
    """The game's table with round, tournament, league and seats (players joined), 2
    queries; ``None`` for a friendly game."""
    return _tables_of(game=game).first()


def game_get_visible(*, game_id: Any, user: Any) -> tuple[Game, Table | None]:
    """The game and its table (with round, tournament, league, seats) if the user may see
    it (a friendly game, or one of a tournament they may see); GameNotFound otherwise.
    3 queries."""
    game = game_get(game_id=game_id)
    table = (
        _tables_of(game=game)
        .annotate(visible=visible_tournament_expression(user=user, prefix="round__tournament__"))
        .first()
    )
    if table is not None and not table.visible:
        raise GameNotFound()
    return game, table


def game_events(*, game: Game, after: int = 0, limit: int | None = None) -> list[GameEvent]:
    """The game's events after sequence ``after`` (in order), at most ``limit``. 1 query."""
    qs = game_event_list(game=game, after=after)
    if limit is not None:
        qs = qs[:limit]
    return list(qs)
