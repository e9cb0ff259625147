"""A league's seasons (issue 24): create, change and remove them (the league's
organizers). The season table is computed from the stored results
(:mod:`tournaments.selectors.seasons`), so it follows corrections at once.

Rules: a name (1-120 characters); ``ends_on`` on or after ``starts_on``; ``season_points``
a list of 1-100 numbers, none negative (points by final rank); ``best_of`` empty or a
whole number from 1 to 100; a league's seasons never overlap (:class:`InvalidState`, 409
``invalid_state``: a tournament must belong to one season at most). Every change is in
the league's audit log (``season_created``, ``season_changed``, ``season_deleted``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.inputs import check_input_text
from outbox.changes import LeagueChanged, change_recorded
from tournaments.errors import InvalidConfiguration, InvalidState
from tournaments.models import League, Season
from tournaments.models_seasons import default_season_points
from tournaments.permissions import ensure_can_manage_league
from tournaments.services.league_audit import league_audit_write

MAX_POINTS_ENTRIES = 100


def _clean(
    *,
    name: Any,
    starts_on: Any,
    ends_on: Any,
    season_points: Any,
    best_of: Any,
) -> tuple[str, dt.date, dt.date, list[float | int], int | None]:
    check_input_text(name)
    name = name.strip() if isinstance(name, str) else ""
    if not name or len(name) > 120:
        raise InvalidConfiguration(_("A season needs a name of 1 to 120 characters."))
    if not isinstance(starts_on, dt.date) or not isinstance(ends_on, dt.date):
        raise InvalidConfiguration(_("A season needs a start and an end date."))
    if ends_on < starts_on:
        raise InvalidConfiguration(_("A season cannot end before it starts."))
    if season_points is None:
        season_points = default_season_points()
    if (
        not isinstance(season_points, Sequence)
        or isinstance(season_points, str)
        or not 1 <= len(season_points) <= MAX_POINTS_ENTRIES
        or any(
            isinstance(p, bool) or not isinstance(p, int | float) or p < 0 or p != p
            for p in season_points
        )
    ):
        raise InvalidConfiguration(
            _(
                "Season points are a list of 1 to %(max)d numbers, none negative: the "
                "points of the 1st, 2nd, ... final rank."
            )
            % {"max": MAX_POINTS_ENTRIES}
        )
    if best_of is not None and (
        isinstance(best_of, bool) or not isinstance(best_of, int) or not 1 <= best_of <= 100
    ):
        raise InvalidConfiguration(
            _("Best of is empty (every tournament counts) or a whole number from 1 to 100.")
        )
    points = [int(p) if float(p).is_integer() else float(p) for p in season_points]
    return name, starts_on, ends_on, points, best_of


def _refuse_overlap(
    *, league: League, starts_on: dt.date, ends_on: dt.date, pk: int | None
) -> None:
    clash = (
        Season.objects.filter(league=league, starts_on__lte=ends_on, ends_on__gte=starts_on)
        .exclude(pk=pk)
        .order_by("starts_on")
        .first()
    )
    if clash is not None:
        raise InvalidState(
            _(
                "The season overlaps %(name)s (%(start)s to %(end)s): a tournament belongs to "
                "one season at most."
            )
            % {"name": clash.name, "start": clash.starts_on, "end": clash.ends_on}
        )


def season_create(
    *,
    league: League,
    name: Any,
    starts_on: Any,
    ends_on: Any,
    season_points: Any = None,
    best_of: Any = None,
    user: Any,
) -> Season:
    """A new season of ``league`` (its organizers; see the module's rules)."""
    ensure_can_manage_league(user=user, league=league)
    name, starts_on, ends_on, points, best_of = _clean(
        name=name,
        starts_on=starts_on,
        ends_on=ends_on,
        season_points=season_points,
        best_of=best_of,
    )
    with transaction.atomic():
        League.objects.select_for_update().filter(pk=league.pk).first()  # one writer at a time
        _refuse_overlap(league=league, starts_on=starts_on, ends_on=ends_on, pk=None)
        season = Season.objects.create(
            league=league,
            name=name,
            starts_on=starts_on,
            ends_on=ends_on,
            season_points=points,
            best_of=best_of,
        )
        league_audit_write(
            league=league,
            user=user,
            action="season_created",
            name=season.name,
            starts_on=season.starts_on.isoformat(),
            ends_on=season.ends_on.isoformat(),
            season_points=season.season_points,
            best_of=season.best_of,
        )
        change_recorded(LeagueChanged(league_id=league.pk))
    return season


def season_update(*, season: Season, user: Any, **fields: Any) -> Season:
    """Change a season's ``name``, dates, ``season_points`` or ``best_of`` (the league's
    organizers); the same rules as for a new one."""
    ensure_can_manage_league(user=user, league=season.league)
    unknown = set(fields) - {"name", "starts_on", "ends_on", "season_points", "best_of"}
    if unknown:
        raise InvalidConfiguration(
            _("Unknown fields: %(fields)s.") % {"fields": ", ".join(sorted(unknown))}
        )
    current = {
        "name": season.name,
        "starts_on": season.starts_on,
        "ends_on": season.ends_on,
        "season_points": season.season_points,
        "best_of": season.best_of,
    }
    name, starts_on, ends_on, points, best_of = _clean(**{**current, **fields})
    with transaction.atomic():
        League.objects.select_for_update().filter(pk=season.league_id).first()
        _refuse_overlap(league=season.league, starts_on=starts_on, ends_on=ends_on, pk=season.pk)
        season.name, season.starts_on, season.ends_on = name, starts_on, ends_on
        season.season_points, season.best_of = points, best_of
        season.save()
        after = {
            "name": name,
            "starts_on": starts_on,
            "ends_on": ends_on,
            "season_points": points,
            "best_of": best_of,
        }
        changed = sorted(k for k, v in after.items() if current[k] != v)
        if changed:
            league_audit_write(
                league=season.league,
                user=user,
                action="season_changed",
                name=name,
                fields=changed,
            )
        change_recorded(LeagueChanged(league_id=season.league_id))
    return season


def season_delete(*, season: Season, user: Any) -> None:
    """Remove a season (its tournaments stay; only the season table goes)."""
    ensure_can_manage_league(user=user, league=season.league)
    with transaction.atomic():
        league_id = season.league_id
        league_audit_write(
            league=season.league,
            user=user,
            action="season_deleted",
            name=season.name,
            starts_on=season.starts_on.isoformat(),
            ends_on=season.ends_on.isoformat(),
        )
        season.delete()
        change_recorded(LeagueChanged(league_id=league_id))
