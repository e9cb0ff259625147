"""Read-only queries for the JSON API and the pages: visibility-aware, query-bounded.

Everything here answers "what may this user see" on top of :mod:`tournaments.selectors`
and :mod:`tournaments.permissions`. Anything the user may not see is reported as not
found (:class:`~tournaments.errors.NotFound`, :class:`~games.errors.GameNotFound`), so
private leagues, tournaments and their games stay hidden from the public.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, QuerySet

from games.errors import GameNotFound
from games.models import Game, GameEvent
from games.selectors import game_event_list, game_get
from ratings.selectors import player_ratings_prefetch
from tournaments.errors import NotFound
from tournaments.models import (
    League,
    Player,
    Round,
    Seat,
    Table,
    Tournament,
    TournamentStatus,
)
from tournaments.permissions import (
    user_can_view_tournament,
    user_is_signed_in,
    user_is_superuser,
    user_tournament_roles,
)
from tournaments.selectors import (
    league_list,
    player_list,
    table_for_game,
    tournament_get,
    tournament_list,
)

# --------------------------------------------------------------------------- leagues


def league_get_visible(*, slug: str, user: Any) -> League:
    """The league with ``slug`` if the user may see it (public, or organizer), else NotFound."""
    league = league_list(user=user).filter(slug=slug).first()
    if league is None:
        raise NotFound()
    return league


# --------------------------------------------------------------------------- tournaments


def tournament_list_visible(
    *, user: Any, league: League | None = None, status: str | None = None
) -> QuerySet[Tournament]:
    """Tournaments the user may see (with their league), newest first."""
    qs = tournament_list(user=user, league=league)
    if status:
        qs = qs.filter(status=status)
    return qs.order_by("-starts_on", "-id")


def tournament_get_visible(*, tournament_id: Any, user: Any) -> Tournament:
    """The tournament if the user may see it, else NotFound (private ones stay hidden)."""
    tournament = tournament_get(tournament_id=tournament_id)
    if not user_can_view_tournament(user=user, tournament=tournament):
        raise NotFound()
    return tournament


def home_tournaments(*, user: Any, limit: int = 12) -> dict[str, list[Tournament]]:
    """Visible tournaments for the home page, grouped: running, upcoming, recent. 1 query."""
    shown = [
        TournamentStatus.RUNNING,
        TournamentStatus.REGISTRATION,
        TournamentStatus.FINISHED,
    ]
    groups: dict[str, list[Tournament]] = {"running": [], "upcoming": [], "recent": []}
    qs = tournament_list_visible(user=user).filter(status__in=shown)[: limit * 3]
    for t in qs:
        key = {
            TournamentStatus.RUNNING: "running",
            TournamentStatus.REGISTRATION: "upcoming",
        }.get(t.status, "recent")
        if len(groups[key]) < limit:
            groups[key].append(t)
    return groups


def tournament_user_roles(*, tournament: Tournament, user: Any) -> list[str]:
    return sorted(user_tournament_roles(user=user, tournament=tournament))


def tournament_rounds_detail(*, tournament: Tournament) -> list[Round]:
    """Rounds (newest first) with tables, their games (no cached state) and seats. 3 queries."""
    seats = Seat.objects.select_related("player").order_by("position")
    tables = (
        Table.objects.select_related("game")
        .defer("game__state", "game__summary", "game__start_event")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("number")
    )
    return list(
        Round.objects.filter(tournament=tournament)
        .prefetch_related(Prefetch("tables", queryset=tables))
        .order_by("-number")
    )


@dataclass(frozen=True)
class SeatFinderRow:
    handle: str
    display_name: str
    table: int
    position: int
    game_id: int


def round_seat_finder(*, round: Round) -> list[SeatFinderRow]:
    """Where do I sit: every seated player of a prefetched round, by name. No query."""
    rows = [
        SeatFinderRow(
            handle=seat.player.handle,
            display_name=seat.player.display_name,
            table=table.number,
            position=seat.position + 1,
            game_id=table.game_id,
        )
        for table in round.tables.all()
        for seat in table.seats.all()
    ]
    return sorted(rows, key=lambda r: (r.display_name.lower(), r.handle))


# --------------------------------------------------------------------------- games


def game_get_visible(*, game_id: Any, user: Any) -> tuple[Game, Table | None]:
    """The game and its table (with round, tournament, league, seats) if the user may see
    it; GameNotFound otherwise. 2-3 queries (+ role lookups for private tournaments)."""
    game = game_get(game_id=game_id)
    table = table_for_game(game=game)
    if table is not None and not user_can_view_tournament(
        user=user, tournament=table.round.tournament
    ):
        raise GameNotFound()
    return game, table


def game_events(*, game: Game, after: int = 0, limit: int | None = None) -> list[GameEvent]:
    """The game's events after sequence ``after`` (in order), at most ``limit``. 1 query."""
    qs = game_event_list(game=game, after=after)
    if limit is not None:
        qs = qs[:limit]
    return list(qs)


# --------------------------------------------------------------------------- players


def player_list_with_ratings(*, search: str | None = None) -> QuerySet[Player]:
    """Players by handle with their ratings; ``search`` matches part of a handle or name
    (NUL characters, which PostgreSQL cannot compare, are ignored)."""
    search = (search or "").replace("\x00", "")
    return player_list(search=search).prefetch_related(player_ratings_prefetch()).order_by("handle")


def player_get_with_ratings(*, handle: str) -> Player:
    player = player_list_with_ratings().filter(handle=handle).first()
    if player is None:
        raise NotFound()
    return player


def player_recent_seats(*, player: Player, user: Any, limit: int = 10) -> list[Seat]:
    """The player's latest seats in tournaments the user may see, with table, round,
    tournament and game (no cached state). 1 query."""
    qs = Seat.objects.filter(player=player).select_related(
        "table__round__tournament__league", "table__game"
    )
    if not user_is_superuser(user=user):
        if user_is_signed_in(user=user):
            visible = tournament_list(user=user).values("pk")
            qs = qs.filter(table__round__tournament__in=visible)
        else:
            qs = qs.filter(
                table__round__tournament__is_public=True,
                table__round__tournament__league__is_public=True,
            )
    return list(
        qs.defer("table__game__state", "table__game__summary", "table__game__start_event").order_by(
            "-table__game_id"
        )[:limit]
    )
