"""Read-only queries of the tournaments app. Nothing here writes to the database."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass, field
from typing import Any

from django.db.models import Prefetch, Q, QuerySet
from django.utils.translation import gettext as _

from games.models import Game
from ratings.elo import ELO_START
from ratings.selectors import ratings_by_player
from tournaments.errors import NotFound
from tournaments.models import (
    TIEBREAK_BUCHHOLZ,
    TIEBREAK_FIRSTS,
    TIEBREAK_PLACEMENT_SUM,
    TIEBREAK_RATING,
    League,
    Player,
    Registration,
    Round,
    Seat,
    Table,
    Tournament,
)
from tournaments.permissions import user_is_signed_in, user_is_superuser
from tournaments.scoring import default_points, table_points

# --------------------------------------------------------------------------- leagues


def league_list(*, user: Any = None) -> QuerySet[League]:
    """Public leagues, plus those the user organizes (all for superusers)."""
    qs = League.objects.all()
    if user_is_superuser(user=user):
        return qs
    if user_is_signed_in(user=user):
        return qs.filter(Q(is_public=True) | Q(organizers=user)).distinct()
    return qs.filter(is_public=True)


def league_get(*, slug: str) -> League:
    try:
        return League.objects.get(slug=slug)
    except League.DoesNotExist as exc:
        raise NotFound() from exc


# --------------------------------------------------------------------------- tournaments


def tournament_list(*, user: Any = None, league: League | None = None) -> QuerySet[Tournament]:
    """Tournaments the user may see: public ones of public leagues, and those they staff."""
    qs = Tournament.objects.select_related("league")
    if league is not None:
        qs = qs.filter(league=league)
    if user_is_superuser(user=user):
        return qs
    public = Q(is_public=True, league__is_public=True)
    if user_is_signed_in(user=user):
        return qs.filter(public | Q(roles__user=user) | Q(league__organizers=user)).distinct()
    return qs.filter(public)


def tournament_get(*, tournament_id: Any) -> Tournament:
    try:
        return Tournament.objects.select_related("league").get(pk=int(tournament_id))
    except (TypeError, ValueError, OverflowError, Tournament.DoesNotExist) as exc:
        raise NotFound() from exc


def tournament_get_by_ref(*, ref: str) -> Tournament:
    """The tournament named by ``ref``: an id, or ``LEAGUE-SLUG/TOURNAMENT-SLUG``."""
    qs = Tournament.objects.select_related("league")
    if ref.isdigit():
        tournament = qs.filter(pk=int(ref)).first()
    elif "/" in ref:
        league, slug = ref.split("/", 1)
        tournament = qs.filter(league__slug=league, slug=slug).first()
    else:
        tournament = None
    if tournament is None:
        raise NotFound(_("No tournament %(ref)r.") % {"ref": ref})
    return tournament


def tournament_points(tournament: Tournament) -> list[float]:
    """The tournament's points per place at a full table (its own list or the default)."""
    return list(tournament.points_per_place or default_points(tournament.table_size))


def registration_list(*, tournament: Tournament) -> QuerySet[Registration]:
    return Registration.objects.filter(tournament=tournament).select_related("player")


def round_list(*, tournament: Tournament) -> QuerySet[Round]:
    return Round.objects.filter(tournament=tournament).order_by("number")


def round_tables(*, round: Round) -> QuerySet[Table]:
    """The round's tables with their game (without the cached state) and seats, 3 queries."""
    return (
        Table.objects.filter(round=round)
        .select_related("game")
        .defer("game__state", "game__summary")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
        )
        .order_by("number")
    )


def table_for_game(*, game: Game) -> Table | None:
    """The game's table with round, tournament, league and seats (players joined), 2
    queries; ``None`` for a friendly game."""
    return (
        Table.objects.filter(game_id=game.pk)
        .select_related("round__tournament__league")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .first()
    )


# --------------------------------------------------------------------------- standings


@dataclass
class StandingRow:
    """One line of the standings. ``places`` lists the player's place per round."""

    rank: int
    player_id: int
    handle: str
    display_name: str
    points: float = 0.0
    games: int = 0
    firsts: int = 0
    placement_sum: int = 0
    buchholz: float = 0.0
    rating: float = ELO_START
    provisional: bool = True
    dropped: bool = False
    places: dict[int, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _sort_key(row: StandingRow, tiebreaks: list[str]) -> tuple:
    key: list[float] = [-row.points]
    for t in tiebreaks:
        if t == TIEBREAK_BUCHHOLZ:
            key.append(-row.buchholz)
        elif t == TIEBREAK_FIRSTS:
            key.append(-row.firsts)
        elif t == TIEBREAK_PLACEMENT_SUM:
            key.append(row.placement_sum)
        elif t == TIEBREAK_RATING:
            key.append(-row.rating)
    return tuple(key)


def tournament_standings(*, tournament: Tournament) -> list[StandingRow]:
    """Standings of a tournament, best first, from a bounded number of queries (4).

    Points: per finished game (log-derived or placements-only), from the tournament's
    points per placement (:func:`tournaments.scoring.table_points`: shared places share,
    other table sizes interpolate). Games without a result do not count yet.

    Then the tiebreaks in ``tournament.tiebreaks`` order:
    ``buchholz`` (the average, over every opponent met at every table, of that
    opponent's points; higher is better), ``firsts`` (first places, shared ones
    included), ``placement_sum`` (sum of places; lower is better), ``rating`` (current
    Elo for the league's game kind). Rows equal on points and every tiebreak share a
    rank. Every registered player is listed (dropped ones flagged), plus anyone seated.
    """
    points_list = tournament_points(tournament)
    rows: dict[int, StandingRow] = {}
    for reg in Registration.objects.filter(tournament=tournament).values(
        "player_id", "player__handle", "player__display_name", "dropped"
    ):
        rows[reg["player_id"]] = StandingRow(
            rank=0,
            player_id=reg["player_id"],
            handle=reg["player__handle"],
            display_name=reg["player__display_name"],
            dropped=reg["dropped"],
        )
    tables = Table.objects.filter(round__tournament=tournament).values_list(
        "id", "round__number", "game__placements"
    )
    results = {tid: (number, places) for tid, number, places in tables if places}
    seated: dict[int, list[int]] = defaultdict(list)
    for table_id, player_id, handle, name in Seat.objects.filter(
        table__round__tournament=tournament
    ).values_list("table_id", "player_id", "player__handle", "player__display_name"):
        if player_id not in rows:
            rows[player_id] = StandingRow(
                rank=0, player_id=player_id, handle=handle, display_name=name
            )
        if table_id in results:
            seated[table_id].append(player_id)
    handle_of = {pid: row.handle for pid, row in rows.items()}
    opponents: dict[int, list[int]] = defaultdict(list)
    for table_id, players in seated.items():
        number, placements = results[table_id]
        pts = table_points(points_list, placements)
        for pid in players:
            h = handle_of[pid]
            if h not in placements:
                continue
            row = rows[pid]
            place = placements[h]
            row.points += pts[h]
            row.games += 1
            row.placement_sum += place
            row.firsts += place == 1
            row.places[number] = place
            opponents[pid].extend(o for o in players if o != pid)
    registered = Registration.objects.filter(tournament=tournament).values("player_id")
    for player_id, rating in ratings_by_player(
        kind=tournament.league.kind, player_ids=registered
    ).items():
        row = rows.get(player_id)
        if row is not None:
            row.rating = rating.rating
            row.provisional = rating.provisional
    for pid, opps in opponents.items():
        rows[pid].buchholz = sum(rows[o].points for o in opps) / len(opps)
    tiebreaks = list(tournament.tiebreaks or [])
    ordered = sorted(rows.values(), key=lambda r: (_sort_key(r, tiebreaks), r.handle))
    previous = None
    for i, row in enumerate(ordered, start=1):
        key = _sort_key(row, tiebreaks)
        row.rank = i if key != previous else ordered[i - 2].rank
        previous = key
    return ordered


# --------------------------------------------------------------------------- players


def player_get(*, handle: str) -> Player:
    try:
        return Player.objects.get(handle=handle)
    except Player.DoesNotExist as exc:
        raise NotFound() from exc


def player_list(*, search: str | None = None) -> QuerySet[Player]:
    qs = Player.objects.all()
    if search:
        qs = qs.filter(Q(handle__icontains=search) | Q(display_name__icontains=search))
    return qs
