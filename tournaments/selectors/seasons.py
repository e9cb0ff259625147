"""Reads for a league's seasons (issue 24): the seasons, which one is current, and the
season table computed from the stored results of its finished tournaments (the rules
are :mod:`tournaments.season_scoring`'s).

A tournament is in the season whose dates contain its ``starts_on``. Final ranks come
from the tournament standings of the players who played at least one game there (a bye
counts; a withdrawal before the start does not), keyed by player id; the standings of
all the season's finished tournaments are read from the cache at once and kept there
(:func:`~tournaments.selectors.standings_cache.standings_of_many`: the table's
queries do not grow with its tournaments), so a correction (which moves its
tournament's version on) shows at once and a hidden player is one line all season. Hidden
players are shown as "Player N" except to themselves, the league's organizers and
superusers.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from tournaments.errors import NotFound
from tournaments.models import League, Player, Season, Tournament, TournamentStatus
from tournaments.permissions import user_can_manage_league
from tournaments.season_scoring import SeasonRow, TournamentRanks, season_table
from tournaments.selectors.privacy import hidden_handle, hidden_label, viewer_player_id
from tournaments.selectors.standings_cache import standings_of_many
from tournaments.selectors.tournaments import tournament_list


@dataclass(frozen=True)
class SeasonStanding:
    """A season and its table, as pages, the API and the CSV show it. ``rows``' player
    keys are handles (hidden players masked for the viewer); ``tournaments``: the
    season's tournaments in date order, ``(id, name, starts_on, finished)``."""

    season: Season
    rows: list[SeasonRow]
    tournaments: list[tuple[int, str, dt.date, bool]]


def league_seasons(*, league: League) -> list[Season]:
    """The league's seasons, earliest first."""
    return list(Season.objects.filter(league=league).order_by("starts_on", "id"))


def season_current(
    *, league: League, today: dt.date | None = None, seasons: list[Season] | None = None
) -> Season | None:
    """The season that contains ``today``, else the latest that has started, else
    ``None`` (from ``seasons`` when given: no query)."""
    today = today or timezone.localdate()
    started = [
        s
        for s in (seasons if seasons is not None else league_seasons(league=league))
        if s.starts_on <= today
    ]
    running = [s for s in started if s.ends_on >= today]
    if running:
        return running[0]
    return max(started, key=lambda s: (s.starts_on, s.pk), default=None)


def season_get(*, league: League, season_id: Any) -> Season:
    try:
        return Season.objects.get(league=league, pk=int(season_id))
    except (Season.DoesNotExist, TypeError, ValueError):
        raise NotFound() from None


def season_tournaments(*, season: Season, user: Any = None) -> list[Tournament]:
    """The season's tournaments that ``user`` may see, by date."""
    return list(
        tournament_list(user=user)
        .filter(
            league_id=season.league_id,
            starts_on__gte=season.starts_on,
            starts_on__lte=season.ends_on,
        )
        .order_by("starts_on", "id")
    )


def season_standings(*, season: Season, user: Any = None) -> SeasonStanding:
    """The season table for ``user`` (see the module)."""
    tournaments = season_tournaments(season=season, user=user)
    finished = [t for t in tournaments if t.status == TournamentStatus.FINISHED]
    ranks = []
    rows_of = standings_of_many(tournaments=finished)  # (one read for them all)
    for t in finished:
        rows = rows_of[t.pk]
        ranks.append(
            TournamentRanks(
                id=t.pk,
                starts_on=t.starts_on.isoformat(),
                # Only those who played: a registration withdrawn before the start
                # (or a late entry who never sat) is listed last in the standings
                # but earns no season points and is not "played".
                ranks={str(r.player_id): r.rank for r in rows if r.games},
            )
        )
    ids = {int(k) for t in ranks for k in t.ranks}
    players = {p.pk: p for p in Player.objects.filter(pk__in=ids)}
    sees_all = user_can_manage_league(user=user, league=season.league)
    mine = viewer_player_id(user=user)
    keys: dict[str, str] = {}
    names: dict[str, str] = {}
    for pk, player in players.items():
        if player.hidden and not sees_all and pk != mine:
            keys[str(pk)], names[str(pk)] = hidden_handle(player_id=pk), hidden_label(player_id=pk)
        else:
            keys[str(pk)], names[str(pk)] = player.handle, player.display_name or player.handle
    table = season_table(
        tournaments=ranks,
        season_points=season.season_points,
        best_of=season.best_of,
        names=names,
    )
    for row in table:
        row.player = keys.get(row.player, row.player)
    return SeasonStanding(
        season=season,
        rows=table,
        tournaments=[
            (t.pk, t.name, t.starts_on, t.status == TournamentStatus.FINISHED) for t in tournaments
        ],
    )
