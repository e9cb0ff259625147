"""Draw planning: who plays the next round, and at which tables (no lifecycle).

The round lifecycle (:mod:`tournaments.services.progression`: seating a round,
finishing it, the organizer's controls) asks here what comes next:

* :func:`plan_next` -- the stage and players of the round after the last one: the next
  Swiss round (checked-in, not dropped players), the cut of a Swiss event with a cut
  (the top ``cut`` of the standings), the survivors of an elimination round (the top
  ``advance`` of every table, ties and tables without a result by the standings), or
  nothing once the tournament is over;
* :func:`seat_tables` -- the seating request (players in standings order, their
  points, seat positions so far, the pairs who met, the rounds left) handed to
  :func:`tournaments.seating.seat_round` (pure, seeded), and the tables, seats and
  games it chose (games through the recording choke point);
* :class:`Standings` -- the standings read at most once per step;
* the rules these share: :func:`round_done`, :func:`is_final`,
  :func:`fits_one_table`, :func:`rounds_left`, :func:`allowed_sizes`.

Nothing here locks: the lifecycle services call it holding the tournament's lock.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from itertools import chain, combinations, repeat, starmap
from typing import Any, NamedTuple

from django.db.models import Count, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.bulk import insert_rows
from games.models import Game, GameStatus
from ratings.selectors import ratings_by_player
from tock_site.compiled import CompiledQuery
from tournaments import seating
from tournaments.errors import InvalidState
from tournaments.models import (
    Registration,
    Round,
    RoundSeating,
    Seat,
    Seeding,
    Stage,
    Table,
    Tournament,
    TournamentFormat,
    UnevenPlayers,
)
from tournaments.permissions import SYSTEM
from tournaments.selectors import tournament_standings
from tournaments.selectors.standings import event_seats
from tournaments.services import recording
from tournaments.services.core import audit_write, table_size_limits


class Entrant(NamedTuple):
    """A player to seat: what planning and seating read of them (the id and the handle).

    Plain values, not :class:`~tournaments.models.Player` instances: a round of a large
    event seats 1,000 players, and building a registration and a player instance for
    each cost more than reading them."""

    pk: int
    handle: str


def _active_of(*, tournament_id: int) -> QuerySet:
    return (
        Registration.objects.filter(tournament_id=tournament_id, checked_in=True, dropped=False)
        .order_by("player__handle")
        .values_list("player_id", "player__handle")
    )


#: Compiled once (:class:`~tock_site.compiled.CompiledQuery`): read by every progression.
_ACTIVE = CompiledQuery(_active_of, "tournament_id")


def active_players(tournament: Tournament) -> list[Entrant]:
    """The checked-in, not dropped players, by handle."""
    return list(starmap(Entrant, _ACTIVE.run(tournament_id=tournament.pk)))


def min_players(tournament: Tournament) -> int:
    return max(table_size_limits(kind=tournament.league.kind)[0], 2)


def allowed_sizes(tournament: Tournament) -> list[int]:
    lo, hi = table_size_limits(kind=tournament.league.kind)
    return [s for s in tournament.table_sizes if lo <= s <= hi]


class Standings:
    """The tournament's standings, computed at most once per step: planning the next
    round (the cut, the survivors) and ordering its players read the same rows, and
    nothing they read changes in between (the step holds the tournament's lock).
    The event's seats likewise: the standings and the seating history
    (:func:`_history`) share one read of them."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self._rows: list[Any] | None = None
        self._seats: list[tuple[int, int, int]] | None = None

    @property
    def seats(self) -> list[tuple[int, int, int]]:
        """:func:`~tournaments.selectors.standings.event_seats`, read once."""
        if self._seats is None:
            self._seats = event_seats(tournament=self.tournament)
        return self._seats

    @property
    def rows(self) -> list[Any]:
        if self._rows is None:
            self._rows = tournament_standings(
                tournament=self.tournament, user=SYSTEM, seats=self.seats
            )
        return self._rows


# -- what comes next --------------------------------------------------------------------


def round_pending_games(rnd: Any) -> Any:
    """The games of round ``rnd`` (a round, its id or an ``OuterRef``) still waiting for
    a result: no placements, not closed without one."""
    return Game.objects.filter(table__round=rnd, placements__isnull=True).exclude(
        status=GameStatus.VOID
    )


def round_done(rnd: Round) -> bool:
    """Every table of ``rnd`` has a result or was closed without one. Answered without
    a query when ``rnd`` was read with it (``round_has_pending``, see
    :func:`tournaments.services.progression.round_refresh_status`), once: a later
    call asks the database."""
    if "round_has_pending" in rnd.__dict__:
        return not rnd.__dict__.pop("round_has_pending")
    return not round_pending_games(rnd).exists()


def is_final(tournament: Tournament, rnd: Round) -> bool:
    """Whether the tournament ends with ``rnd``."""
    if rnd.stage == Stage.ELIMINATION:
        return rnd.tables.count() <= 1
    return tournament.format == TournamentFormat.SWISS and rnd.number >= tournament.swiss_rounds


def _survivors(tournament: Tournament, rnd: Round, order: dict[int, int]) -> list[int]:
    """Player ids advancing from the elimination round ``rnd``: the top ``advance`` of
    every table by place, ties (and tables without a result) by the standings order."""
    seats = Seat.objects.filter(table__round=rnd).values_list(
        "table_id", "player_id", "player__handle", "table__game__placements"
    )
    by_table: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for table_id, pid, handle, placements in seats:
        place = (placements or {}).get(handle, 10**6)
        by_table[table_id].append((place, pid))
    advancing: list[int] = []
    for players in by_table.values():
        players.sort(key=lambda x: (x[0], order.get(x[1], 10**6)))
        advancing.extend(pid for _, pid in players[: tournament.advance])
    return advancing


def plan_next(
    tournament: Tournament, last: Round | None, standings: Standings
) -> tuple[str, list[Entrant]]:
    """``(stage, players)`` of the round to seat after ``last``; ``("", [])`` when the
    tournament is over after it."""
    if last is None:
        stage = Stage.ELIMINATION if tournament.format == TournamentFormat.ELIMINATION else ""
        return stage or Stage.SWISS, active_players(tournament)
    if last.stage == Stage.SWISS:
        if last.number < tournament.swiss_rounds and tournament.format != (
            TournamentFormat.ELIMINATION
        ):
            return Stage.SWISS, active_players(tournament)
        if tournament.format != TournamentFormat.SWISS_CUT:
            return "", []
        active = {p.pk: p for p in active_players(tournament)}
        top = [active[r.player_id] for r in standings.rows if r.player_id in active]
        top = top[: tournament.cut]
        return (Stage.ELIMINATION, top) if len(top) >= 2 else ("", [])
    if is_final(tournament, last):
        return "", []
    order = {r.player_id: i for i, r in enumerate(standings.rows)}
    survivors = set(_survivors(tournament, last, order))
    active = {p.pk: p for p in active_players(tournament)}
    players = [active[pid] for pid in sorted(survivors, key=order.get) if pid in active]
    return (Stage.ELIMINATION, players) if len(players) >= 2 else ("", [])


# -- seating ------------------------------------------------------------------------------


def _history(
    seats: list[tuple[int, int, int]],
) -> tuple[dict[int, list[int]], dict[frozenset, int]]:
    """Seat-position counts per player and the pairs who met, in this event so far, from
    its seats (:attr:`Standings.seats`)."""
    counts: dict[int, list[int]] = defaultdict(list)
    tables: dict[int, list[int]] = defaultdict(list)
    for table_id, pid, pos in seats:
        c = counts[pid]
        c.extend([0] * (pos + 1 - len(c)))
        c[pos] += 1
        tables[table_id].append(pid)
    # Every pair of every table, in table order and each table's pairs in seat order
    # (``combinations``' order), counted in C (``Counter``): 4,500 pairs at a 1,000-player
    # event's 4th round. The same dict, in the same order, as a loop over the pairs.
    met = Counter(
        map(frozenset, chain.from_iterable(map(combinations, tables.values(), repeat(2))))
    )
    return counts, dict(met)


def _ordered(
    tournament: Tournament, number: int, players: list[Entrant], seed: Any, standings: Standings
) -> tuple[list[Entrant], dict[int, float], bool]:
    """Players in standings order with their points, and whether to shuffle (round 1
    seeded at random). Round 1 by rating: best first, equal ratings in seeded order."""
    if number == 1:
        if tournament.seeding == Seeding.RANDOM:
            return players, {}, True
        ratings = ratings_by_player(kind=tournament.league.kind, player_ids=[p.pk for p in players])
        shuffled = list(players)
        random.Random(f"{tournament.pk}:seeding:{seed}").shuffle(shuffled)
        shuffled.sort(key=lambda p: -(ratings[p.pk].rating if p.pk in ratings else 0.0))
        return shuffled, {}, False
    rows = standings.rows
    rank = {r.player_id: i for i, r in enumerate(rows)}
    points = {r.player_id: r.points for r in rows}
    return sorted(players, key=lambda p: rank.get(p.pk, len(rank))), points, False


def rounds_left(tournament: Tournament, rnd: Round, players: int) -> int | None:
    """The rounds still to seat in ``rnd``'s stage, ``rnd`` included (the seating looks
    one round ahead with it at small events): the Swiss rounds left, or the elimination
    rounds that ``players`` seated now lead to (:func:`_elimination_rounds`); ``None``
    when it cannot be told."""
    if rnd.stage == Stage.ELIMINATION:
        return _elimination_rounds(tournament, players)
    if rnd.stage != Stage.SWISS or rnd.number > tournament.swiss_rounds:
        return None
    return tournament.swiss_rounds - rnd.number + 1


def _sizes_text(sizes: list[int]) -> str:
    return ", ".join(str(s) for s in sizes)


def cannot_seat_message(tournament: Tournament, count: int, sizes: list[int]) -> str:
    """Why ``count`` players cannot be seated at ``sizes`` (preferred first), and which
    table-size settings would seat them (:func:`tournaments.seating.sizes_that_seat`
    within the game kind's fewest and most players), in the user's language."""
    lo, hi = table_size_limits(kind=tournament.league.kind)
    head = ngettext(
        "%(count)d player cannot be seated at tables of %(sizes)s.",
        "%(count)d players cannot be seated at tables of %(sizes)s.",
        count,
    ) % {"count": count, "sizes": _sizes_text(sizes)}
    found = seating.sizes_that_seat(count, sizes, min_size=lo, max_size=hi)
    if not found:
        needs = _("No table sizes of this game (%(min)d to %(max)d players) would seat them.") % {
            "min": lo,
            "max": hi,
        }
        return f"{head} {needs}"
    ways = [
        _("tables of %(min)d to %(max)d (table sizes “%(sizes)s”)")
        % {"min": min(plan), "max": max(plan), "sizes": _sizes_text(plan)}
        for plan in found
    ]
    if len(ways) == 1:
        tail = _("Settings that would seat them: %(first)s.") % {"first": ways[0]}
    else:
        tail = _("Settings that would seat them: %(first)s, or %(second)s.") % {
            "first": ways[0],
            "second": ways[1],
        }
    return f"{head} {tail}"


def fits_one_table(tournament: Tournament, players: int) -> bool:
    """Whether an elimination round of ``players`` is the final: one table holds them
    all (at least the kind's fewest players, at most the largest size allowed)."""
    lo, _hi = table_size_limits(kind=tournament.league.kind)
    sizes = allowed_sizes(tournament)
    return bool(sizes) and lo <= players <= max(max(sizes), lo)


def _elimination_rounds(tournament: Tournament, players: int) -> int | None:
    """The elimination rounds ``players`` seated now play, this one included: each
    round seats the table plan and the top ``advance`` of every table go on, until one
    table holds everyone left (the final, :func:`fits_one_table`). Who drops
    out or misses a table can shorten it; ``None`` when no plan exists or nobody would
    go out."""
    sizes = allowed_sizes(tournament)
    n, rounds = players, 0
    while sizes and rounds < 64:
        rounds += 1
        if fits_one_table(tournament, n):
            return rounds
        try:
            plan = seating.table_plan(n, sizes)
        except seating.SeatingError:
            return None
        survivors = sum(min(tournament.advance, size) for size in plan)
        if survivors >= n:
            return None
        n = survivors
    return None


def seat_tables(
    tournament: Tournament,
    rnd: Round,
    players: list[Entrant],
    user: Any,
    seed: Any,
    standings: Standings | None = None,
) -> list[list[Entrant]]:
    """Seat ``players`` at new tables (games) of ``rnd``; the groups in table order.

    When the players do not fill tables of the allowed sizes (5 at tables of 4 only),
    the tournament's ``uneven_players`` decides: ``refuse`` (the error says which table
    sizes would seat them), ``resize`` (tables one larger and one smaller than the
    sizes allowed are allowed too, within the game's limits), or ``byes`` (Swiss rounds:
    the fewest players who must sit out do, chosen by :func:`choose_byes`; each gets a
    table of their own, closed at once with them first: a bye, scored with the
    tournament's ``bye_points``). Bye tables come after the others."""
    sizes = allowed_sizes(tournament)
    if rnd.stage == Stage.ELIMINATION and fits_one_table(tournament, len(players)):
        sizes = [len(players)]  # the final: everyone left at one table
    standings = standings or Standings(tournament)
    byes: list[Entrant] = []
    if sizes and not _seatable(len(players), sizes):
        if tournament.uneven_players == UnevenPlayers.RESIZE:
            sizes = widened_sizes(tournament, sizes)
        elif tournament.uneven_players == UnevenPlayers.BYES and rnd.stage == Stage.SWISS:
            byes = choose_byes(tournament, players, sizes, standings)
            players = [p for p in players if p not in byes]
    order, points, shuffle = _ordered(tournament, rnd.number, players, seed, standings)
    counts, met = _history(standings.seats)
    by_id = {p.pk: p for p in order}
    try:
        if not sizes:
            raise seating.SeatingError("no_table_sizes", "no allowed table size")
        request = seating.SeatingRequest(
            players=tuple(
                seating.SeatingPlayer(
                    id=p.pk, points=float(points.get(p.pk, 0.0)), seats=tuple(counts.get(p.pk, ()))
                )
                for p in order
            ),
            table_sizes=tuple(sizes),
            # Pairs with a player not seated now (dropped) are left out; usually every
            # player seated so far is seated again, and the dict is handed on as it is.
            met=met
            if counts.keys() <= by_id.keys()
            else {k: v for k, v in met.items() if k <= by_id.keys()},
            seed=f"{tournament.pk}:{rnd.number}:{seed}",
            shuffle=shuffle,
            rounds_left=rounds_left(tournament, rnd, len(players)),
            # Swiss rounds follow the tournament's rule; an elimination keeps issue 9's.
            repeats=tournament.repeat_avoidance if rnd.stage == Stage.SWISS else "balanced",
            top_table=tournament.top_table_final and rnd.stage == Stage.SWISS,
        )
        outcome = seating.seat_round_explained(request)
    except seating.SeatingError as exc:
        raise InvalidState(
            cannot_seat_message(tournament, len(players), sizes or [tournament.table_size])
        ) from exc
    tables = outcome.tables
    # The round has no record yet: a new round, or one whose record round_reseat
    # deleted with its tables (one INSERT, not update_or_create's lock and write).
    record = seating_record(request, outcome, handle_of={p.pk: p.handle for p in order})
    RoundSeating.objects.create(round=rnd, request=record.pop("request"), record=record)
    groups = [[by_id[pk] for pk in table] for table in tables]
    # Games, tables and seats: one INSERT each, ids only (games.bulk.insert_rows).
    game_ids = recording.games_create_ids(
        kind=tournament.league.kind, seatings=[[p.handle for p in g] for g in groups], user=user
    )
    table_ids = insert_rows(
        Table,
        same={"round": rnd},
        columns={"number": list(range(1, len(groups) + 1)), "game_id": game_ids},
    )
    insert_rows(
        Seat,
        same={},
        columns={
            "table_id": [tid for tid, g in zip(table_ids, groups, strict=True) for _p in g],
            "position": [pos for g in groups for pos in range(len(g))],
            "player_id": [p.pk for g in groups for p in g],
        },
        returning=False,
    )
    if byes:
        _seat_byes(rnd, byes, first_number=len(groups) + 1, user=user)
    return groups


def seating_record(
    request: seating.SeatingRequest, outcome: seating.SeatingOutcome, *, handle_of: dict
) -> dict[str, Any]:
    """What a round keeps of its seating (:class:`RoundSeating`): the method, seed and what
    it achieved, and the request with handles for ids, which ``python -m
    tournaments.seating`` seats again into the same tables (ids are labels only). Stored
    with the ``request`` in a column of its own, read back as one dict
    (:func:`tournaments.selectors.seating.round_seating_record`)."""
    data = request.to_json(labels=handle_of)
    return {
        "method": outcome.method,
        "seed": request.seed,
        "repeats": outcome.repeats,
        "spread": round(outcome.spread, 4),
        "seat_cost": outcome.seat_cost,
        "lower_bound": outcome.lower_bound,
        "request": data,
    }


def _seatable(count: int, sizes: list[int]) -> bool:
    try:
        seating.table_plan(count, sizes)
    except seating.SeatingError:
        return False
    return True


def widened_sizes(tournament: Tournament, sizes: list[int]) -> list[int]:
    """``sizes`` (preferred first) with one smaller than the smallest and one larger
    than the largest added, within the game kind's limits (``resize``)."""
    lo, hi = table_size_limits(kind=tournament.league.kind)
    extra = [s for s in (min(sizes) - 1, max(sizes) + 1) if lo <= s <= hi and s not in sizes]
    return [*sizes, *extra]


def bye_counts(tournament: Tournament) -> dict[int, int]:
    """Byes each player had in this event so far: tables where they sat alone (the
    byes of uneven counts and a no-show's lone tablemate alike)."""
    alone = (
        Seat.objects.filter(table__round__tournament=tournament)
        .values("table_id")
        .annotate(n=Count("id"))
        .filter(n=1)
        .values("table_id")
    )
    counts: dict[int, int] = defaultdict(int)
    for pid in Seat.objects.filter(table_id__in=alone).values_list("player_id", flat=True):
        counts[pid] += 1
    return dict(counts)


def choose_byes(
    tournament: Tournament, players: list[Entrant], sizes: list[int], standings: Standings
) -> list[Entrant]:
    """The players who sit out this round (``byes``): the fewest that let the others be
    seated at ``sizes``, taken from the bottom of the standings among those with the
    fewest byes so far (FIDE's rule: nobody gets a second bye while others have had
    none). :class:`InvalidState` when no number of byes would seat the others."""
    had = bye_counts(tournament)
    rank = {r.player_id: i for i, r in enumerate(standings.rows)}
    # the next to sit out first: fewest byes, then the lowest standing, then the handle
    queue = sorted(players, key=lambda p: (had.get(p.pk, 0), -rank.get(p.pk, -1), p.handle))
    for k in range(1, len(players)):
        if _seatable(len(players) - k, sizes):
            return queue[:k]
    raise InvalidState(cannot_seat_message(tournament, len(players), sizes))


def _seat_byes(rnd: Round, byes: list[Entrant], *, first_number: int, user: Any) -> None:
    games = recording.games_create(
        kind=rnd.tournament.league.kind, seatings=[[p.handle] for p in byes], user=user
    )
    tables = Table.objects.bulk_create(
        [Table(round=rnd, number=first_number + i, game=g) for i, g in enumerate(games)]
    )
    Seat.objects.bulk_create(
        [Seat(table=t, position=0, player_id=p.pk) for t, p in zip(tables, byes, strict=True)]
    )
    for game, player in zip(games, byes, strict=True):
        recording.game_record_bye(game=game, player=player.handle, user=SYSTEM, within=True)
    audit_write(
        tournament=rnd.tournament,
        user=user,
        action="byes",
        round=rnd,
        players=[p.handle for p in byes],
    )
