"""Tournaments: lists, the visible tournament, its settings, rounds and seats."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _

from tournaments.errors import NotFound
from tournaments.models import Registration, Round, Seat, Table, Tournament, TournamentStatus
from tournaments.permissions import user_tournament_roles
from tournaments.scoring import default_points
from tournaments.selectors.privacy import Masker, hidden_handle, hidden_label, mask_game
from tournaments.selectors.visibility import visible_tournaments_q


@dataclass(frozen=True)
class LeagueRef:
    """The league of a tournament, as the tournament's output names it."""

    slug: str
    kind: str


@dataclass(frozen=True)
class TournamentDetail:
    """A tournament's settings and the roles the user holds in it (for the API)."""

    id: int
    league: LeagueRef
    name: str
    slug: str
    status: str
    starts_on: dt.date
    ends_on: dt.date | None
    venue: str
    format: str
    table_size: int
    rounds_count: int
    is_public: bool
    points_per_place: list[float]
    tiebreaks: list[str]
    your_roles: list[str]


class SeatFinderRow(NamedTuple):
    """Where one player sits (``position`` from 1). A named tuple: a 1,000-player round
    makes 1,000 of them per page, and a tuple is the cheapest record to build."""

    handle: str
    display_name: str
    table: int
    position: int
    game_id: int


def tournament_list(*, user: Any = None, league: Any = None) -> QuerySet[Tournament]:
    """Tournaments the user may see (:func:`visible_tournaments_q`), with their league."""
    qs = Tournament.objects.select_related("league").filter(visible_tournaments_q(user=user))
    if league is not None:
        qs = qs.filter(league=league)
    return qs


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


def tournament_list_visible(
    *, user: Any, league: Any = None, status: str | None = None
) -> QuerySet[Tournament]:
    """Tournaments the user may see (with their league), newest first."""
    qs = tournament_list(user=user, league=league)
    if status:
        qs = qs.filter(status=status)
    return qs.order_by("-starts_on", "-id")


def tournament_get_visible(*, tournament_id: Any, user: Any) -> Tournament:
    """The tournament (with its league) if the user may see it, else NotFound (private
    ones stay hidden). 1 query."""
    try:
        pk = int(tournament_id)
    except (TypeError, ValueError, OverflowError) as exc:
        raise NotFound() from exc
    tournament = tournament_list(user=user).filter(pk=pk).first()
    if tournament is None:
        raise NotFound()
    return tournament


def tournament_user_roles(*, tournament: Tournament, user: Any) -> list[str]:
    return sorted(user_tournament_roles(user=user, tournament=tournament))


def tournament_detail(*, tournament_id: Any, user: Any) -> TournamentDetail:
    """The visible tournament's settings, its points per place and the user's roles.
    1 query (plus the role lookups of a signed-in user)."""
    t = tournament_get_visible(tournament_id=tournament_id, user=user)
    return TournamentDetail(
        id=t.pk,
        league=LeagueRef(slug=t.league.slug, kind=t.league.kind),
        name=t.name,
        slug=t.slug,
        status=t.status,
        starts_on=t.starts_on,
        ends_on=t.ends_on,
        venue=t.venue,
        format=t.format,
        table_size=t.table_size,
        rounds_count=t.rounds_count,
        is_public=t.is_public,
        points_per_place=tournament_points(t),
        tiebreaks=list(t.tiebreaks or []),
        your_roles=tournament_user_roles(tournament=t, user=user),
    )


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


def registration_list(*, tournament: Tournament) -> QuerySet[Registration]:
    return Registration.objects.filter(tournament=tournament).select_related("player")


def round_list(*, tournament: Tournament) -> QuerySet[Round]:
    return Round.objects.filter(tournament=tournament).order_by("number")


def _mask_tables(tables: Any, masker: Masker) -> None:
    """Replace hidden players (seats, and their handles in each table's game) in place."""
    for table in tables:
        names = {}
        for seat in table.seats.all():
            shown = masker.player(seat.player)
            if shown is not seat.player:
                names[seat.player.handle] = shown.handle
                seat.player = shown
        if names:
            table.game = mask_game(table.game, names)


def round_tables(*, round: Round) -> QuerySet[Table]:
    """The round's tables with their game (without the cached state) and seats, 3 queries.
    Real names (for services and commands; pages use :func:`tournament_rounds_detail`)."""
    return (
        Table.objects.filter(round=round)
        .select_related("game")
        .defer("game__state", "game__summary")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
        )
        .order_by("number")
    )


def tournament_rounds_detail(*, tournament: Tournament, user: Any = None) -> list[Round]:
    """Rounds (newest first) with tables, their games (no cached state) and seats. 3 queries.
    Hidden players appear under their neutral names unless ``user`` (``None``: the
    public) may see them (:mod:`.privacy`), in the seats and in the games' players and
    placements; :func:`round_seat_finder` then lists them so too."""
    seats = Seat.objects.select_related("player").order_by("position")
    tables = (
        Table.objects.select_related("game")
        .defer("game__state", "game__summary", "game__start_event")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("number")
    )
    rounds = list(
        Round.objects.filter(tournament=tournament)
        .prefetch_related(Prefetch("tables", queryset=tables))
        .order_by("-number")
    )
    masker = Masker(user=user, tournament=tournament)
    for rnd in rounds:
        _mask_tables(rnd.tables.all(), masker)
    return rounds


class TableSeatRow(NamedTuple):
    """A seat of a table on the tournament page: the player as the viewer sees them
    (``masked``: under the neutral name, not linked) and their place in the table's
    game (``None`` while it has no result)."""

    handle: str
    display_name: str
    masked: bool
    place: Any


class TableRow(NamedTuple):
    """A table on the tournament page: its number, its game's id, status and result
    source, and its seats in seat order."""

    number: int
    game_id: int
    status: str
    result_source: str
    seats: list[TableSeatRow]


def round_table_rows(*, round: Round, limit: int | None, masker: Masker) -> list[TableRow]:
    """The first ``limit`` tables of ``round`` by number (``None``: all) with their seats,
    as plain values (no model instances: a big round's ``?tables=all`` has 1,000 seats),
    hidden players masked by ``masker``. 2 queries."""
    tables = (
        Table.objects.filter(round=round)
        .order_by("number")
        .values_list(
            "id", "number", "game_id", "game__status", "game__result_source", "game__placements"
        )
    )
    tables = list(tables if limit is None else tables[:limit])
    if not tables:
        return []
    seats_of: dict[int, list[TableSeatRow]] = {table[0]: [] for table in tables}
    placements_of = {table[0]: table[5] for table in tables}
    seats = (
        Seat.objects.filter(table__round=round)
        if limit is None
        else Seat.objects.filter(table_id__in=list(seats_of))
    )
    for table_id, player_id, handle, name, hidden in seats.order_by("position").values_list(
        "table_id", "player_id", "player__handle", "player__display_name", "player__hidden"
    ):
        placements = placements_of[table_id]
        # The place is looked up under the real handle, before masking.
        place = placements.get(handle) if isinstance(placements, dict) else None
        masked = hidden and masker.masks(player_id=player_id, hidden=hidden)
        if masked:
            handle, name = hidden_handle(player_id=player_id), hidden_label(player_id=player_id)
        seats_of[table_id].append(TableSeatRow(handle, name, masked, place))
    return [
        TableRow(number, game_id, status, source, seats_of[table_id])
        for table_id, number, game_id, status, source, _placements in tables
    ]


def tournament_rounds_with_tables(
    *,
    tournament: Tournament,
    shown: int | None = None,
    tables_limit: int | None = None,
    user: Any = None,
) -> list[Round]:
    """Rounds (newest first); only the one numbered ``shown`` (default: the newest) gets
    its tables as ``shown_tables`` (:func:`round_table_rows`: at most ``tables_limit``,
    hidden players masked as in :func:`tournament_rounds_detail`). The others must not
    be asked for their tables: the public page shows one round, so its work does not
    grow with the rounds or the players. 3 queries (1 without rounds)."""
    rounds = list(Round.objects.filter(tournament=tournament).order_by("-number"))
    chosen = [r for r in rounds if r.number == shown] or rounds[:1]
    if chosen:
        chosen[0].shown_tables = round_table_rows(
            round=chosen[0], limit=tables_limit, masker=Masker(user=user, tournament=tournament)
        )
    return rounds


@dataclass(frozen=True)
class RoundSeats:
    """Where everyone sits in a round, read as plain values (no model instances, so a
    1,000-player round costs one light query): the seat finder's rows by name, and the
    status of each table's game by table number."""

    rows: list[SeatFinderRow]
    statuses: dict[int, str]


def _by_name(row: SeatFinderRow) -> tuple[str, str]:
    return (row.display_name.lower(), row.handle)


def round_seats(*, round: Round, tournament: Tournament, user: Any = None) -> RoundSeats:
    """Every seated player of ``round`` (of ``tournament``; hidden players under their
    neutral names unless ``user`` may see them) and each table's game status. 1 query."""
    masker = Masker(user=user, tournament=tournament)
    rows = []
    statuses: dict[int, str] = {}
    seats = Seat.objects.filter(table__round=round).values_list(
        "player_id",
        "player__handle",
        "player__display_name",
        "player__hidden",
        "position",
        "table__number",
        "table__game_id",
        "table__game__status",
    )
    for player_id, handle, name, hidden, position, table, game_id, status in seats:
        statuses[table] = status
        if hidden and masker.masks(player_id=player_id, hidden=hidden):
            handle, name = hidden_handle(player_id=player_id), hidden_label(player_id=player_id)
        rows.append(SeatFinderRow(handle, name, table, position + 1, game_id))
    rows.sort(key=_by_name)
    return RoundSeats(rows=rows, statuses=statuses)


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
    return sorted(rows, key=_by_name)
