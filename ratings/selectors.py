"""Read-only queries of the ratings app. Nothing here writes to the database.

Selectors that feed pages and the API return plain data (dicts and dataclasses). The
player is ``tournaments.Player``, reached through ORM paths only (this app does not
import ``tournaments``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import BooleanField, Prefetch, QuerySet
from django.db.models.expressions import RawSQL

from games.bulk import int_array_literal
from ratings.elo import ELO_START, PROVISIONAL_GAMES, is_provisional
from ratings.models import Rating, RatingChange


@dataclass(frozen=True)
class RatingEntry:
    """A player's current rating for one game kind."""

    kind: str
    rating: float
    games: int
    provisional: bool

    @classmethod
    def of(cls, rating: Rating) -> RatingEntry:
        return cls(
            kind=rating.kind,
            rating=rating.value,
            games=rating.games,
            provisional=is_provisional(rating.games),
        )


@dataclass(frozen=True)
class LeaderboardEntry:
    """One line of a leaderboard: who, and their current rating."""

    handle: str
    display_name: str
    kind: str
    rating: float
    games: int
    provisional: bool
    player_id: int = 0
    #: The player hid their profile: pages show a neutral name (tournaments' privacy rule).
    hidden: bool = False


@dataclass(frozen=True)
class RatingHistoryEntry:
    """One rating change of a player (one game), for the history chart."""

    game_id: int
    before: float
    after: float
    game_finished_at: datetime


def _leaderboard(qs: QuerySet[Rating]) -> list[LeaderboardEntry]:
    return [
        LeaderboardEntry(
            handle=handle,
            display_name=name,
            kind=kind,
            rating=value,
            games=games,
            provisional=is_provisional(games),
            player_id=player_id,
            hidden=hidden,
        )
        for handle, name, kind, value, games, player_id, hidden in qs.values_list(
            "player__handle",
            "player__display_name",
            "kind",
            "value",
            "games",
            "player_id",
            "player__hidden",
        )
    ]


def player_rating(*, player: Any, kind: str) -> dict[str, Any]:
    """The player's rating for ``kind`` (the start rating with no rated games). 1 query."""
    r = Rating.objects.filter(player=player, kind=kind).first()
    value, games = (r.value, r.games) if r else (ELO_START, 0)
    return {
        "kind": kind,
        "rating": value,
        "games": games,
        "provisional": is_provisional(games),
    }


def player_rating_history(*, player: Any, kind: str) -> list[dict[str, Any]]:
    """Every rating change of the player for ``kind``, in rating order (for the chart)."""
    return list(
        RatingChange.objects.filter(player=player, kind=kind)
        .order_by("game_finished_at", "game_id")
        .values("game_id", "before", "after", "game_finished_at")
    )


def player_rating_histories(*, player: Any) -> dict[str, list[dict[str, Any]]]:
    """Every rating change of the player per game kind, in rating order. 1 query."""
    histories: dict[str, list[dict[str, Any]]] = {}
    for change in (
        RatingChange.objects.filter(player=player)
        .order_by("kind", "game_finished_at", "game_id")
        .values("kind", "game_id", "before", "after", "game_finished_at")
    ):
        histories.setdefault(change.pop("kind"), []).append(change)
    return histories


def player_ratings_prefetch() -> Prefetch:
    """Prefetch of a player queryset's ``ratings`` (by kind): 1 query for any number."""
    return Prefetch("ratings", queryset=Rating.objects.order_by("kind"))


def player_rating_entries(*, player: Any) -> list[RatingEntry]:
    """The player's ratings as plain data (no query if prefetched with
    :func:`player_ratings_prefetch`)."""
    return [RatingEntry.of(r) for r in player.ratings.all()]


def rating_leaderboard(*, kind: str, include_provisional: bool = True) -> QuerySet[Rating]:
    """Every current rating of ``kind``, best first (with the player)."""
    qs = Rating.objects.filter(kind=kind).select_related("player").order_by("-value", "player_id")
    if not include_provisional:
        qs = qs.filter(games__gte=PROVISIONAL_GAMES)
    return qs


def top_ratings(*, kind: str, player_ids: Any, limit: int = 10) -> list[LeaderboardEntry]:
    """Best current ratings of ``kind`` among the given players (ids, or a
    ``values("pk")`` queryset, which stays a subquery). 1 query."""
    return _leaderboard(
        Rating.objects.filter(kind=kind, player_id__in=player_ids).order_by("-value", "player_id")[
            :limit
        ]
    )


def ratings_by_player(*, kind: str, player_ids: Any) -> dict[int, RatingEntry]:
    """Current ratings of ``kind`` of the given players (ids, or a ``values("...id")``
    queryset, which stays a subquery): player id -> rating. 1 query."""
    return {
        pid: RatingEntry(kind=kind, rating=value, games=games, provisional=is_provisional(games))
        for pid, value, games in _rating_rows(kind=kind, player_ids=player_ids)
    }


def rating_values_by_player(*, kind: str, player_ids: Any) -> dict[int, tuple[float, bool]]:
    """:func:`ratings_by_player` as ``(rating, provisional)`` pairs: what the standings
    keep of each of an event's players, without a frozen dataclass built per player
    (1,000 at a large event). 1 query."""
    return {
        pid: (value, is_provisional(games))
        for pid, value, games in _rating_rows(kind=kind, player_ids=player_ids)
    }


def _rating_rows(*, kind: str, player_ids: Any) -> Any:
    """``(player id, value, games)`` of the ratings of ``kind`` of ``player_ids``."""
    # Plain rows, not model instances: the standings ask this for every player of an
    # event (1,000 at a large one), and building a Rating per row cost more than the query.
    ratings = Rating.objects.filter(kind=kind)
    if connection.vendor == "postgresql" and isinstance(player_ids, list | tuple):
        # A list of ids as one array parameter: ``IN (%s, %s, ...)`` spent more time
        # quoting 1,000 parameters one by one (client-side binding) than the query.
        ids = [int(pid) for pid in player_ids]
        column = Rating._meta.get_field("player").target_field.db_type(connection)
        ratings = ratings.filter(
            RawSQL(
                f"{connection.ops.quote_name(Rating._meta.db_table)}.player_id"
                f" = ANY(%s::{column}[])",
                (int_array_literal(ids),),
                output_field=BooleanField(),
            )
        )
    else:
        ratings = ratings.filter(player_id__in=player_ids)
    return ratings.values_list("player_id", "value", "games")
