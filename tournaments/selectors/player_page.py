"""The public player page: ratings with their history as a chart, recent games with the
place and the rating change, and the tournaments played. A constant number of queries
whatever the player's history (ratings, rating changes, seats, registrations)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import games.engine as engine
from ratings.models import Rating
from ratings.selectors import player_rating_histories
from tournaments.charts import RatingChart, rating_chart
from tournaments.models import Player, Registration, Seat
from tournaments.selectors.players import player_recent_seats
from tournaments.selectors.visibility import visible_tournaments_q

#: Rating changes listed under each chart (newest first); the chart shows them all.
HISTORY_ROWS = 10


@dataclass(frozen=True)
class RatingPanel:
    rating: Rating
    chart: RatingChart | None
    #: The latest changes, newest first: game_id, before, after, change, date.
    history: list[dict[str, Any]]


@dataclass(frozen=True)
class RecentGame:
    seat: Seat
    place: int | None
    #: The player's rating change in this game (``None``: not rated, e.g. unfinished).
    change: float | None
    date: dt.datetime | None


@dataclass(frozen=True)
class PlayerPage:
    player: Player
    ratings: list[RatingPanel]
    games: list[RecentGame]
    tournaments: list[Registration]


def _played(game: Any) -> dt.datetime | None:
    """When a game was played (``Game.played_at``), else when its result was recorded."""
    return game.played_at or game.finished_at


def player_page(*, player: Player, user: Any) -> PlayerPage:
    """Everything the player page shows of ``player`` (from
    :func:`~tournaments.selectors.player_get_with_ratings`, ratings prefetched) to
    ``user``: 3 queries (rating changes, seats, registrations)."""
    histories = player_rating_histories(player=player)
    by_game: dict[int, dict[str, Any]] = {}
    panels = []
    # The game kinds in the engine's order (TOCK first), not the database's.
    order = {kind: i for i, kind in enumerate(engine.game_kinds())}
    for rating in sorted(
        player.ratings.all(), key=lambda r: (order.get(r.kind, len(order)), r.kind)
    ):
        # A rating change is dated with its game's result (RatingChange.game_finished_at).
        history = [
            {**h, "change": h["after"] - h["before"], "date": h["game_finished_at"]}
            for h in histories.get(rating.kind, [])
        ]
        by_game.update((h["game_id"], h) for h in history)
        panels.append(
            RatingPanel(
                rating=rating,
                chart=rating_chart(history),
                history=history[-HISTORY_ROWS:][::-1],
            )
        )
    games = []
    for seat in player_recent_seats(player=player, user=user):
        game = seat.table.game
        change = by_game.get(game.pk)
        games.append(
            RecentGame(
                seat=seat,
                place=(game.placements or {}).get(player.handle),
                change=change["change"] if change else None,
                date=_played(game),
            )
        )
    tournaments = list(
        Registration.objects.filter(player=player)
        .filter(visible_tournaments_q(user=user, prefix="tournament__"))
        .select_related("tournament__league")
        .order_by("-tournament__starts_on", "-tournament_id")[:20]
    )
    return PlayerPage(player=player, ratings=panels, games=games, tournaments=tournaments)
