"""Players: lists with their ratings, the player page/API data, recent seats."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet

from ratings.selectors import (
    RatingEntry,
    RatingHistoryEntry,
    player_rating_entries,
    player_rating_histories,
    player_ratings_prefetch,
)
from tournaments.errors import NotFound
from tournaments.models import Player, Seat
from tournaments.permissions import (
    user_can_see_hidden_player,
    user_is_signed_in,
    user_is_superuser,
)
from tournaments.selectors.visibility import visible_tournaments_q


@dataclass(frozen=True)
class PlayerSummary:
    """A player with their current rating per game kind."""

    handle: str
    display_name: str
    ratings: list[RatingEntry]


@dataclass(frozen=True)
class PlayerDetail:
    """A player, their ratings and every rating change per game kind (for the API)."""

    handle: str
    display_name: str
    ratings: list[RatingEntry]
    history: dict[str, list[RatingHistoryEntry]]


def players_listed_q(*, user: Any) -> Q:
    """Players a user finds in lists and search: not hidden ones, except their own
    player; superusers find everyone."""
    if user_is_superuser(user=user):
        return Q()
    if user_is_signed_in(user=user):
        return Q(hidden=False) | Q(user_id=user.pk)
    return Q(hidden=False)


def player_list(*, search: str | None = None, user: Any = None) -> QuerySet[Player]:
    """Players the user may find (``None``: the public, without hidden players)."""
    qs = Player.objects.filter(players_listed_q(user=user))
    if search:
        qs = qs.filter(Q(handle__icontains=search) | Q(display_name__icontains=search))
    return qs


def player_list_with_ratings(*, search: str | None = None, user: Any = None) -> QuerySet[Player]:
    """Players by handle with their ratings; ``search`` matches part of a handle or name
    (NUL characters, which PostgreSQL cannot compare, are ignored). Hidden players are
    left out unless ``user`` is them or a superuser."""
    search = (search or "").replace("\x00", "")
    return (
        player_list(search=search, user=user)
        .prefetch_related(player_ratings_prefetch())
        .order_by("handle")
    )


def player_get_with_ratings(*, handle: str, user: Any = None) -> Player:
    """The player with their ratings; a hidden one only for those who may see them
    (themself, their tournaments' staff, superusers), else NotFound like a missing one."""
    player = (
        Player.objects.filter(handle=handle).prefetch_related(player_ratings_prefetch()).first()
    )
    if player is None:
        raise NotFound()
    if player.hidden and not user_can_see_hidden_player(user=user, player=player):
        raise NotFound()
    return player


def player_summaries(*, players: Any) -> list[PlayerSummary]:
    """Players from :func:`player_list_with_ratings` (e.g. one page of it) as plain data.
    No query of its own."""
    return [
        PlayerSummary(
            handle=p.handle,
            display_name=p.display_name,
            ratings=player_rating_entries(player=p),
        )
        for p in players
    ]


def player_detail(*, handle: str, user: Any = None) -> PlayerDetail:
    """The player, their ratings and rating history. 3 queries. A hidden player is
    NotFound for whoever may not see them."""
    player = player_get_with_ratings(handle=handle, user=user)
    return PlayerDetail(
        handle=player.handle,
        display_name=player.display_name,
        ratings=player_rating_entries(player=player),
        history={
            kind: [RatingHistoryEntry(**change) for change in changes]
            for kind, changes in player_rating_histories(player=player).items()
        },
    )


def player_recent_seats(*, player: Player, user: Any, limit: int = 10) -> list[Seat]:
    """The player's latest seats in tournaments the user may see, with table, round,
    tournament and game (no cached state). 1 query."""
    return list(
        Seat.objects.filter(player=player)
        .filter(visible_tournaments_q(user=user, prefix="table__round__tournament__"))
        .select_related("table__round__tournament__league", "table__game")
        .defer("table__game__state", "table__game__summary", "table__game__start_event")
        .order_by("-table__game_id")[:limit]
    )
