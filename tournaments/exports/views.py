"""Downloads: standings, results and players as CSV, a league's calendar as iCalendar.

Standings and results are public like the tournament page (a tournament the visitor
may not see answers 404; hidden players masked as on the page); the players list is
for the tournament's organizers (anonymous: the login page, others 403). The rows come
from :mod:`tournaments.exports.selectors`; the text from the pure
:mod:`tournaments.exports.csv_export` and :mod:`tournaments.exports.ical`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_safe

from tournaments.errors import NotFound
from tournaments.exports.csv_export import csv_text
from tournaments.exports.ical import render_calendar
from tournaments.exports.selectors import (
    Rows,
    league_calendar_events,
    players_export,
    results_export,
    season_export,
    standings_export,
)
from tournaments.models import Tournament
from tournaments.selectors import league_get_visible, tournament_get_visible
from tournaments.selectors.seasons import season_get, season_standings
from tournaments.staff.views import organizer_tournament


def _not_found_as_404(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except NotFound as exc:
            raise Http404(str(exc.message)) from exc

    return require_safe(wrapper)


def _download(*, body: str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(body.encode("utf-8"), content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _csv(tournament: Tournament, what: str, rows: Rows) -> HttpResponse:
    header, data = rows
    return _download(
        body=csv_text(header=header, rows=data),
        content_type="text/csv; charset=utf-8",
        # Slugs only (letters, digits, - and _): safe in a header without quoting rules.
        filename=f"{tournament.league.slug}-{tournament.slug}-{what}.csv",
    )


@_not_found_as_404
def season_standings_csv(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """A season's table as CSV: ``rank, handle, name, points, events, played`` and one
    column per tournament of the season (the season points it gave the player; empty:
    not played; in brackets: played but not among the best N)."""
    league = league_get_visible(slug=slug, user=request.user)
    standing = season_standings(
        season=season_get(league=league, season_id=season_id), user=request.user
    )
    header, rows = season_export(standing=standing)
    return _download(
        body=csv_text(header=header, rows=rows),
        content_type="text/csv; charset=utf-8",
        filename=f"{league.slug}-season-{standing.season.pk}.csv",
    )


@_not_found_as_404
def standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_get_visible(tournament_id=pk, user=request.user)
    return _csv(tournament, "standings", standings_export(tournament=tournament, user=request.user))


@_not_found_as_404
def results_csv(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_get_visible(tournament_id=pk, user=request.user)
    return _csv(tournament, "results", results_export(tournament=tournament, user=request.user))


@require_safe
@login_required
def players_csv(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = organizer_tournament(request, pk)
    return _csv(tournament, "players", players_export(tournament=tournament, user=request.user))


@_not_found_as_404
def league_calendar(request: HttpRequest, slug: str) -> HttpResponse:
    league = league_get_visible(slug=slug, user=request.user)

    def url_of(tournament: Tournament) -> str:
        return request.build_absolute_uri(
            reverse("tournaments:tournament-detail", args=[tournament.pk])
        )

    events = league_calendar_events(
        league=league, user=request.user, url_of=url_of, host=request.get_host()
    )
    return _download(
        body=render_calendar(events=events, now=timezone.now(), name=league.name),
        content_type="text/calendar; charset=utf-8",
        filename=f"{league.slug}.ics",
    )
