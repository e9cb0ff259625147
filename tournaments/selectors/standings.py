"""Standings of a tournament (points, tiebreaks, ranks), from a bounded number of queries."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet, TextField
from django.db.models.functions import Cast

from ratings.elo import ELO_START
from ratings.selectors import rating_values_by_player
from tock_site.compiled import CompiledQuery
from tournaments.models import (
    TIEBREAK_BEST_FINISH,
    TIEBREAK_BUCHHOLZ,
    TIEBREAK_FIRSTS,
    TIEBREAK_HEAD_TO_HEAD,
    TIEBREAK_OPPONENTS_PERCENTAGE,
    TIEBREAK_PLACEMENT_SUM,
    TIEBREAK_RATING,
    LateEntryPoints,
    NoShow,
    Player,
    Registration,
    Seat,
    Stage,
    Table,
    Tournament,
)
from tournaments.scoring import table_points
from tournaments.selectors.privacy import Masker, hidden_handle, hidden_label
from tournaments.selectors.tournaments import tournament_points
from tournaments.tiebreaks import (
    head_to_head,
    opponents_percentage,
    points_percentage,
)


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
    #: Opponents' points percentage (0 to 1; each opponent floored at 1/3).
    opponents_percentage: float = 0.0
    #: The best place the player finished a game in (byes are no finish).
    best_finish: int | None = None
    #: Head-to-head score among the players tied with this one when that tiebreak is
    #: reached (``None``: not tied there).
    head_to_head: int | None = None
    rating: float = ELO_START
    provisional: bool = True
    dropped: bool = False
    places: dict[int, int] = field(default_factory=dict)
    hidden: bool = False
    #: Shown under the neutral name (a hidden player, to a viewer who may not see them).
    masked: bool = False
    #: The stage the player reached: ``swiss``, or ``elimination`` (played in the
    #: elimination stage: the cut of ``swiss_cut``, everyone in ``elimination``).
    stage: str = Stage.SWISS
    #: Elimination: the number of the last elimination round the player sat in.
    reached_round: int | None = None
    #: Rounds the player was marked a no-show in.
    no_shows: list[int] = field(default_factory=list)
    #: Byes: the rounds the player sat out alone (scored with the bye points).
    byes: list[int] = field(default_factory=list)
    #: A late entry: the Swiss rounds played before the player joined (scored as the
    #: tournament's late entry says: last place at a full table, or nothing).
    late: list[int] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


#: Sort key part of each tiebreak read from the row (smaller sorts first);
#: head-to-head depends on who is tied and is computed while ordering.
_TIEBREAK_KEY = {
    TIEBREAK_BUCHHOLZ: lambda r: -r.buchholz,
    TIEBREAK_OPPONENTS_PERCENTAGE: lambda r: -r.opponents_percentage,
    TIEBREAK_FIRSTS: lambda r: -r.firsts,
    TIEBREAK_PLACEMENT_SUM: lambda r: r.placement_sum,
    TIEBREAK_BEST_FINISH: lambda r: r.best_finish if r.best_finish is not None else 10**6,
    TIEBREAK_RATING: lambda r: -r.rating,
}


def _order(
    rows: list[StandingRow],
    *,
    first: dict[int, tuple],
    tiebreaks: list[str],
    meetings_of: dict[int, list[dict[int, int]]],
) -> list[tuple]:
    """Each row's sort key: ``first[player id]`` (stage and points), then the tiebreaks
    in order. Head-to-head is scored within each group of rows equal on everything
    before it (and stored on the rows: ``None`` for a row tied with nobody there)."""
    keys = {r.player_id: list(first[r.player_id]) for r in rows}
    for t in tiebreaks:
        if t == TIEBREAK_HEAD_TO_HEAD:
            groups: dict[tuple, list[StandingRow]] = defaultdict(list)
            for r in rows:
                groups[tuple(keys[r.player_id])].append(r)
            for group in groups.values():
                if len(group) == 1:
                    group[0].head_to_head = None
                    keys[group[0].player_id].append(0)
                    continue
                scores = head_to_head(group=[r.player_id for r in group], meetings_of=meetings_of)
                for r in group:
                    r.head_to_head = scores[r.player_id]
                    keys[r.player_id].append(-scores[r.player_id])
        elif t in _TIEBREAK_KEY:
            part = _TIEBREAK_KEY[t]
            for r in rows:
                keys[r.player_id].append(part(r))
    return [tuple(keys[r.player_id]) for r in rows]


def tournament_standings(
    *, tournament: Tournament, user: Any = None, seats: list[tuple[int, int, int]] | None = None
) -> list[StandingRow]:
    """:func:`standings_unmasked`, hidden players masked for ``user`` (see there)."""
    return standings_mask(
        rows=standings_unmasked(tournament=tournament, seats=seats),
        tournament=tournament,
        user=user,
    )


def _seats_of(*, tournament_id: int) -> QuerySet:
    return (
        Seat.objects.filter(table__round__tournament_id=tournament_id)
        .order_by("table_id", "position")
        .values_list("table_id", "player_id", "position")
    )


def _registrations_of(*, tournament_id: int) -> QuerySet:
    no_show = NoShow.objects.filter(
        round__tournament_id=tournament_id, player=OuterRef("player_id")
    )
    return (
        Registration.objects.filter(tournament_id=tournament_id)
        .annotate(no_show=Exists(no_show))
        .values_list(
            "player_id",
            "player__handle",
            "player__display_name",
            "player__hidden",
            "dropped",
            "no_show",
            "joined_round",
            "waitlisted",
        )
    )


def _tables_of(*, tournament_id: int) -> QuerySet:
    # The placements as their JSON text (decoded below in one call for every table).
    return (
        Table.objects.filter(round__tournament_id=tournament_id)
        .annotate(placements_text=Cast("game__placements", TextField()))
        .values_list("id", "round__number", "placements_text", "round__stage")
    )


#: The standings' reads by tournament, compiled once (:class:`~tock_site.compiled.
#: CompiledQuery`): the progression to the next round reads them under the tournament's
#: lock, and Django took longer to write their SQL than PostgreSQL to run some of them.
_SEATS = CompiledQuery(_seats_of, "tournament_id")
_REGISTRATIONS = CompiledQuery(_registrations_of, "tournament_id")
_TABLES = CompiledQuery(_tables_of, "tournament_id")


def event_seats(*, tournament: Tournament) -> list[tuple[int, int, int]]:
    """Every seat of the tournament so far, ``(table id, player id, position)`` by table
    and position (the standings read them; so does the seating of the next round, which
    hands them to :func:`standings_unmasked` instead of reading them twice). 1 query."""
    return _SEATS.run(tournament_id=tournament.pk)


def standings_unmasked(
    *, tournament: Tournament, seats: list[tuple[int, int, int]] | None = None
) -> list[StandingRow]:
    """Standings of a tournament, best first, from a bounded number of queries (5; one
    more when a seated player has no registration; one less when the caller hands in
    ``seats``, :func:`event_seats` read in the same transaction).

    Points: per finished game (log-derived or placements-only), from the tournament's
    points per placement (:func:`tournaments.scoring.table_points`: shared places share,
    other table sizes interpolate). Games without a result do not count yet. A bye (a
    table the player sat at alone) scores the tournament's ``bye_points``, by default
    the points of a table win, and listed in ``byes``.

    A no-show takes the last place of their table (one below its last seat) with that
    place's points, unrated. With an elimination stage (formats ``elimination`` and
    ``swiss_cut``), the players who played it come first (``stage`` ``elimination``):
    the later the round they went out in, the better, then their place at that table,
    then points and tiebreaks; the others (``stage`` ``swiss``) follow by points.

    Then the tiebreaks in ``tournament.tiebreaks`` order:
    ``buchholz`` (the average, over every opponent met at every table, of that
    opponent's points; higher is better), ``opponents_percentage`` (the same average of
    each opponent's points percentage, floored at 1/3: :mod:`tournaments.tiebreaks`),
    ``firsts`` (first places, shared ones included), ``placement_sum`` (sum of places;
    lower is better), ``best_finish`` (the best place in a game played; lower is
    better), ``head_to_head`` (among the players still tied at that point: +1 for each
    game finished ahead of one of them, -1 behind), ``rating`` (current Elo for the
    league's game kind). Rows equal on points and every tiebreak share a rank. Every
    registered player is listed (dropped ones flagged; not those waiting on the
    waitlist), plus anyone seated.

    Hidden players are listed under their neutral names (``masked``) unless ``user`` may
    see them (:mod:`.privacy`; ``None``: the public); ranks and points do not change.
    """
    points_list = tournament_points(tournament)
    rows: dict[int, StandingRow] = {}
    any_no_show = False
    joined: dict[int, int] = {}  # late entries: player id -> the round they joined
    # Every registration is read (those waiting on the waitlist too, which get no row):
    # their ids are the ones whose ratings are read below.
    registered: list[int] = []
    # Tuples, not ``values()`` dicts: one row per player (1,000 at a large event).
    for (
        pid,
        handle,
        name,
        hidden,
        dropped,
        has_no_show,
        joined_round,
        waitlisted,
    ) in _REGISTRATIONS.run(tournament_id=tournament.pk):
        registered.append(pid)
        if waitlisted:
            continue
        any_no_show = any_no_show or has_no_show
        rows[pid] = StandingRow(
            rank=0, player_id=pid, handle=handle, display_name=name, dropped=dropped, hidden=hidden
        )
        if joined_round:
            joined[pid] = joined_round
    tables = _TABLES.run(tournament_id=tournament.pk)
    # The placements as their JSON text, decoded in one ``json.loads`` of them all (an
    # array): one decoder call instead of a field converter and a decoder call per game
    # (750 games at a 1,000-player event's 4th round). The text is the column's own (a
    # JSON object, or NULL), so the dicts are those the field would give, keys in the
    # same order.
    decoded = json.loads("[" + ",".join(text or "null" for _t, _n, text, _s in tables) + "]")
    results: dict[int, tuple[int, dict]] = {}
    elimination_tables: dict[int, tuple[int, dict]] = {}
    for (tid, number, _text, stage), places in zip(tables, decoded, strict=True):
        if places:
            results[tid] = (number, places)
        if stage == Stage.ELIMINATION:
            elimination_tables[tid] = (number, places or {})
    # Elimination: player id -> (last elimination round sat in, place at that table;
    # a large number until the table has one).
    elimination: dict[int, tuple[int, int]] = {}
    seated: dict[int, list[int]] = defaultdict(list)
    if seats is None:
        seats = event_seats(tournament=tournament)
    # Seated players are nearly always registered (their row is made above): the
    # seats are read without their players (4,000 rows at a 1,000-player event's 4th
    # round), and the few others, if any, in one query more.
    unlisted = {pid for _t, pid, _pos in seats if pid not in rows}
    if unlisted:
        found = {
            pid: (handle, name, hidden)
            for pid, handle, name, hidden in Player.objects.filter(pk__in=unlisted).values_list(
                "pk", "handle", "display_name", "hidden"
            )
        }
        for _t, pid, _pos in seats:  # rows in the order the seats list them, as ever
            if pid not in rows:
                handle, name, hidden = found[pid]
                rows[pid] = StandingRow(
                    rank=0, player_id=pid, handle=handle, display_name=name, hidden=hidden
                )
    for table_id, player_id, _pos in seats:
        if table_id in results:
            seated[table_id].append(player_id)
    # A second pass only when there is an elimination stage (a Swiss event has none).
    for table_id, player_id, _pos in seats if elimination_tables else ():
        if table_id in elimination_tables:
            number, places = elimination_tables[table_id]
            if number >= elimination.get(player_id, (0, 0))[0]:
                elimination[player_id] = (number, places.get(rows[player_id].handle, 10**6))
    handle_of = {pid: row.handle for pid, row in rows.items()}
    # A no-show takes the last place of the table they were seated at (unrated).
    no_show_places: dict[int, list[tuple[int, int, float]]] = defaultdict(list)
    # No-shows are rare: their query runs only when a registration has one (the
    # registrations' query says so), so the usual standings stay at 4 queries.
    no_show_rows = (
        NoShow.objects.filter(round__tournament=tournament).values_list(
            "table_id", "player_id", "round__number"
        )
        if any_no_show
        else []
    )
    for table_id, player_id, number in no_show_rows:
        if player_id in rows:
            rows[player_id].no_shows.append(number)
        if table_id in results:
            placements = results[table_id][1]
            size = len(placements) + 1
            last = table_points(points_list, {**placements, "\x00no-show": size})["\x00no-show"]
            no_show_places[player_id].append((number, size, last))
    # Opponents' points percentage: points earned in the games played (no-shows and
    # byes included, rounds missed by a late entry not) over the most possible there:
    # a sole winner's points, the first entry at a table of any size (scoring.py).
    earned: dict[int, float] = defaultdict(float)
    possible: dict[int, float] = defaultdict(float)
    win = float(points_list[0])

    for pid, entries in no_show_places.items():
        row = rows.get(pid)
        if row is None:
            continue
        for number, place, pts in entries:
            row.points += pts
            row.games += 1
            row.placement_sum += place
            row.places[number] = place
            earned[pid] += pts
            possible[pid] += win
    if joined:  # late entries: the Swiss rounds before they joined
        swiss = sorted(
            {number for number, _p in results.values()}
            - {number for number, _p in elimination_tables.values()}
        )
        missed_points = (
            float(points_list[-1]) if tournament.late_entry_points == LateEntryPoints.LAST else 0.0
        )
        for pid, first in joined.items():
            row = rows.get(pid)
            if row is not None:
                row.late = [n for n in swiss if n < first]
                row.points += missed_points * len(row.late)
    opponents: dict[int, list[int]] = defaultdict(list)
    # Head-to-head and best finish: the placements (player id -> place) of each game
    # a player played at a table with others.
    meetings_of: dict[int, list[dict[int, int]]] = defaultdict(list)
    # A table's points depend on its places only (in the placements' order): a few
    # dozen patterns among the 250 tables of each round of a 1,000-player event.
    points_of: dict[tuple[int, ...], tuple[float, ...]] = {}
    bye_points = None if tournament.bye_points is None else float(tournament.bye_points)
    for table_id, players in seated.items():
        number, placements = results[table_id]
        places = tuple(placements.values())
        shares = points_of.get(places)
        if shares is None:
            shares = points_of[places] = tuple(table_points(points_list, placements).values())
        pts = dict(zip(placements, shares, strict=True))
        bye = len(placements) == 1
        most = win
        if bye and bye_points is not None:  # a bye scores the tournament's points
            pts = dict.fromkeys(placements, bye_points)
            most = max(win, bye_points)
        meeting = {
            pid: placements[handle_of[pid]] for pid in players if handle_of[pid] in placements
        }
        for pid, place in meeting.items():
            row = rows[pid]
            gained = pts[row.handle]
            row.points += gained
            row.games += 1
            row.placement_sum += place
            if place == 1:
                row.firsts += 1
            row.places[number] = place
            earned[pid] += gained
            possible[pid] += most
            if bye:
                row.byes.append(number)
            else:
                meetings_of[pid].append(meeting)
                # The best finish: the least place among the games met at (byes not).
                if row.best_finish is None or place < row.best_finish:
                    row.best_finish = place
            opponents[pid].extend([o for o in players if o != pid])
    # The ids as a list, not a subquery: without fresh statistics (a new event's
    # tables) PostgreSQL joined the subquery by a nested loop, 1,000 x 1,000 rows.
    for player_id, (rating, provisional) in rating_values_by_player(
        kind=tournament.league.kind, player_ids=registered
    ).items():
        row = rows.get(player_id)
        if row is not None:
            row.rating = rating
            row.provisional = provisional
    percentage = {
        pid: points_percentage(earned=earned[pid], possible=possible[pid]) for pid in possible
    }
    # Each player's points and percentage summed over their opponents (10,000 terms at a
    # 1,000-player event's 4th round): ``sum`` over ``map`` adds the same terms in the
    # same order as a per-opponent generator (the same floats), without a Python frame
    # per term.
    points_of_player = {pid: row.points for pid, row in rows.items()}
    for pid, opps in opponents.items():
        if not opps:  # a bye: nobody met
            continue
        row = rows[pid]
        row.buchholz = sum(map(points_of_player.__getitem__, opps)) / len(opps)
        row.opponents_percentage = opponents_percentage(opponents=opps, percentage=percentage)
    tiebreaks = list(tournament.tiebreaks or [])
    for pid, (number, _place) in elimination.items():
        if pid in rows:
            rows[pid].stage = Stage.ELIMINATION
            rows[pid].reached_round = number

    def stage_key(r: StandingRow) -> tuple:
        # Elimination: the later a player went out the better, then their place at
        # that table; then points and tiebreaks (everyone else: those alone).
        reach = elimination.get(r.player_id)
        return (-reach[0], reach[1]) if reach else (1, 0)

    every = list(rows.values())
    keys = _order(
        every,
        first={r.player_id: (stage_key(r), -r.points) for r in every},
        tiebreaks=tiebreaks,
        meetings_of=meetings_of,
    )
    key_of = {r.player_id: key for r, key in zip(every, keys, strict=True)}
    ordered = sorted(every, key=lambda r: (key_of[r.player_id], r.handle))
    previous = None
    for i, row in enumerate(ordered, start=1):
        key = key_of[row.player_id]
        row.rank = i if key != previous else ordered[i - 2].rank
        previous = key
    return ordered


def standings_mask(
    *, rows: list[StandingRow], tournament: Tournament, user: Any
) -> list[StandingRow]:
    """Show the hidden players of ``rows`` (by their ``hidden`` flag) under their neutral
    names unless ``user`` may see them. Changes the rows in place; returns them."""
    masker = Masker(user=user, tournament=tournament)
    for row in rows:
        # ``masks`` is false for a player who is not hidden (most): not asked then.
        if row.hidden and masker.masks(player_id=row.player_id, hidden=row.hidden):
            row.handle = hidden_handle(player_id=row.player_id)
            row.display_name = hidden_label(player_id=row.player_id)
            row.masked = True
    return rows
