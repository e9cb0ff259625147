"""What the exports hold (CSV, iCalendar), as plain rows: reads only.

Every export shows what the pages show to the same visitor: a tournament or league they
may not see is ``NotFound``; hidden players are masked by the same selectors the pages
use (:func:`tournament_standings`, :func:`tournament_rounds_detail`, :class:`Masker`).
Query counts do not grow with the number of players.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.db.models import Exists, Max, Min, OuterRef
from django.utils.translation import gettext as _

from tournaments.exports.ical import CalendarEvent
from tournaments.models import (
    TIEBREAK_BEST_FINISH,
    TIEBREAK_BUCHHOLZ,
    TIEBREAK_FIRSTS,
    TIEBREAK_HEAD_TO_HEAD,
    TIEBREAK_OPPONENTS_PERCENTAGE,
    TIEBREAK_PLACEMENT_SUM,
    TIEBREAK_RATING,
    League,
    NoShow,
    Registration,
    Round,
    RoundStatus,
    Season,
    Tournament,
    TournamentStatus,
)
from tournaments.permissions import ensure_can_manage_tournament
from tournaments.scoring import table_points
from tournaments.selectors.privacy import Masker
from tournaments.selectors.standings import StandingRow, tournament_standings
from tournaments.selectors.tournaments import (
    tournament_list_visible,
    tournament_points,
    tournament_rounds_detail,
)

Rows = tuple[list[str], list[list[Any]]]

_TIEBREAK_VALUE: dict[str, Callable[[StandingRow], Any]] = {
    TIEBREAK_BUCHHOLZ: lambda r: r.buchholz,
    TIEBREAK_OPPONENTS_PERCENTAGE: lambda r: round(r.opponents_percentage, 4),
    TIEBREAK_FIRSTS: lambda r: r.firsts,
    TIEBREAK_PLACEMENT_SUM: lambda r: r.placement_sum,
    TIEBREAK_BEST_FINISH: lambda r: "" if r.best_finish is None else r.best_finish,
    TIEBREAK_HEAD_TO_HEAD: lambda r: "" if r.head_to_head is None else r.head_to_head,
    TIEBREAK_RATING: lambda r: round(r.rating, 1),
}


#: The CSV column of a tiebreak whose setting key does not say what it holds: the
#: ``buchholz`` tiebreak is the average of the opponents' points ("Opp. avg." on the
#: page), not a Buchholz sum. The other tiebreaks' columns are their keys.
_TIEBREAK_COLUMN = {TIEBREAK_BUCHHOLZ: "opponents_average"}


def standings_export(*, tournament: Tournament, user: Any) -> Rows:
    """Header and rows of the standings: ``place, handle, name, points``, one column per
    tiebreak of the tournament in its order (``opponents_average``,
    ``opponents_percentage`` (0 to 1), ``firsts``, ``placement_sum``, ``best_finish``,
    ``head_to_head`` (empty for a player tied with nobody there), ``rating``), then
    ``games, stage, dropped``. 5 queries."""
    tiebreaks = [t for t in tournament.tiebreaks or [] if t in _TIEBREAK_VALUE]
    columns = [_TIEBREAK_COLUMN.get(t, t) for t in tiebreaks]
    header = ["place", "handle", "name", "points", *columns, "games", "stage", "dropped"]
    rows = [
        [
            row.rank,
            row.handle,
            row.display_name,
            row.points,
            *[_TIEBREAK_VALUE[t](row) for t in tiebreaks],
            row.games,
            row.stage,
            row.dropped,
        ]
        for row in tournament_standings(tournament=tournament, user=user)
    ]
    return header, rows


def results_export(*, tournament: Tournament, user: Any) -> Rows:
    """Header and rows of every seat of every round: ``round, table, game_id, handle,
    name, place, points, game_status, result`` (place and points empty until the game
    has a result; ``result``: verified, players (confirmed by the table's players),
    unverified, or empty). Rounds, tables and seats in order. 4 queries."""
    header = [
        "round",
        "table",
        "game_id",
        "handle",
        "name",
        "place",
        "points",
        "game_status",
        "result",
    ]
    points_list = tournament_points(tournament)
    rows: list[list[Any]] = []
    for rnd in sorted(tournament_rounds_detail(tournament=tournament, user=user), key=_number):
        for table in rnd.tables.all():
            placements = table.game.placements or {}
            points = table_points(points_list, placements) if placements else {}
            for seat in table.seats.all():
                handle = seat.player.handle
                rows.append(
                    [
                        rnd.number,
                        table.number,
                        table.game_id,
                        handle,
                        seat.player.display_name,
                        placements.get(handle),
                        points.get(handle),
                        table.game.status,
                        table.game.result_trust,
                    ]
                )
    return header, rows


def season_export(*, standing: Any) -> Rows:
    """Header and rows of a season table (:class:`~tournaments.selectors.seasons.SeasonStanding`):
    ``rank, handle, name, points, events, played``, then one column per tournament of the
    season, named ``t<id>`` (its season points for the player; empty: not played; in
    brackets: played but not among the best N)."""
    tournaments = [t for t in standing.tournaments if t[3]]
    header = ["rank", "handle", "name", "points", "events", "played"] + [
        f"t{tid}" for tid, *_rest in tournaments
    ]
    rows: list[list[Any]] = []
    for row in standing.rows:
        got = {c.tournament: c for c in row.results}
        cells: list[Any] = []
        for tid, *_rest in tournaments:
            c = got.get(tid)
            points = "" if c is None else f"{c.points:g}"
            cells.append(points if c is None or c.counted else f"({points})")
        rows.append(
            [row.rank, row.player, row.name, f"{row.points:g}", row.events, row.played, *cells]
        )
    return header, rows


def _number(rnd: Round) -> int:
    return rnd.number


def players_export(*, tournament: Tournament, user: Any) -> Rows:
    """Header and rows of the registered players (organizers only, else
    ``NotAllowed``): ``handle, name, checked_in, dropped, no_show`` (marked a no-show in
    any round). 1 query after the role check."""
    ensure_can_manage_tournament(user=user, tournament=tournament)
    no_show = NoShow.objects.filter(round__tournament=tournament, player=OuterRef("player_id"))
    registrations = (
        Registration.objects.filter(tournament=tournament)
        .select_related("player")
        .annotate(no_show=Exists(no_show))
        .order_by("player__handle")
    )
    masker = Masker(user=user, tournament=tournament)
    rows = []
    for reg in registrations:
        player = masker.player(reg.player)
        rows.append([player.handle, player.display_name, reg.checked_in, reg.dropped, reg.no_show])
    return ["handle", "name", "checked_in", "dropped", "no_show"], rows


_STATUS = {
    TournamentStatus.CANCELLED: "CANCELLED",
    TournamentStatus.DRAFT: "TENTATIVE",
}


#: The length given to a round nobody has played yet and that has no clock: it has no
#: end of its own, and an iCalendar event's end must come after its start.
NOMINAL_ROUND = dt.timedelta(hours=1)


def round_span(
    rnd: Round,
    *,
    round_minutes: int | None,
    first_played: dt.datetime | None,
    last_result: dt.datetime | None,
) -> tuple[dt.datetime, dt.datetime]:
    """When ``rnd`` was (or is to be) played, as (start, end), end after start.

    * start: when it was played, its games' first ``played_at`` (a game's first event
      or result); a round nobody has played yet: its clock's start (``deadline`` minus
      the minutes per round), else when it was seated. Seating is not playing: a past
      event entered later (or the demo) seats its rounds long after they were played.
    * end: a finished round ends with its last result (``finished_at``); a round still
      being played at its clock's end, if that comes after the start; else its last
      result so far; else (nothing known) the start plus :data:`NOMINAL_ROUND`. A clock
      set when the round was seated says nothing about a round played long before.
    """
    clock_start = (
        rnd.deadline - dt.timedelta(minutes=round_minutes)
        if rnd.deadline is not None and round_minutes
        else None
    )
    start = first_played or clock_start or rnd.created_at
    finished = rnd.status == RoundStatus.FINISHED
    candidates = [
        last_result if finished else None,
        rnd.deadline,
        last_result,
    ]
    for end in candidates:
        if end is not None and end > start:
            return start, end
    return start, start + NOMINAL_ROUND


def league_calendar_events(
    *, league: League, user: Any, url_of: Callable[[Tournament], str], host: str
) -> list[CalendarEvent]:
    """The league's tournaments the user may see (all-day events from ``starts_on`` to
    ``ends_on``) and their rounds (when each was played, :func:`round_span`: every
    round has a start and an end). ``url_of`` gives a tournament's absolute page
    address; ``host`` makes the UIDs globally unique. A tournament of a season names
    the season in its description. 3 queries."""
    tournaments = list(tournament_list_visible(user=user, league=league))
    by_id = {t.pk: t for t in tournaments}
    seasons = list(Season.objects.filter(league=league).order_by("starts_on"))
    events: list[CalendarEvent] = []
    for t in tournaments:
        last = t.ends_on if t.ends_on and t.ends_on >= t.starts_on else t.starts_on
        season = next((s for s in seasons if s.starts_on <= t.starts_on <= s.ends_on), None)
        events.append(
            CalendarEvent(
                uid=f"tournament-{t.pk}@{host}",
                summary=t.name,
                start=t.starts_on,
                end=last + dt.timedelta(days=1),
                url=url_of(t),
                location=t.venue,
                # a tournament of a season says so (the season's table counts it)
                description=f"{league.name} – {season.name}" if season else league.name,
                status=_STATUS.get(t.status, "CONFIRMED"),
            )
        )
    rounds = (
        Round.objects.filter(tournament_id__in=list(by_id))
        .annotate(
            first_played=Min("tables__game__played_at"),
            last_result=Max("tables__game__finished_at"),
        )
        .order_by("tournament_id", "number")
    )
    for rnd in rounds:
        t = by_id[rnd.tournament_id]
        start, end = round_span(
            rnd,
            round_minutes=t.round_minutes,
            first_played=rnd.first_played,
            last_result=rnd.last_result,
        )
        events.append(
            CalendarEvent(
                uid=f"round-{rnd.pk}@{host}",
                summary=_("%(tournament)s – round %(number)d")
                % {"tournament": t.name, "number": rnd.number},
                start=start,
                end=end,
                url=url_of(t),
                location=t.venue,
            )
        )
    return events
