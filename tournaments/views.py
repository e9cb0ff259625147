"""Server-rendered pages (mobile first): thin views over the selectors.

What the visitor may not see (private leagues and tournaments, their games) answers
404, like anything that does not exist. Every page runs a bounded number of queries
(the selectors use select_related/prefetch_related; see tests/web).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from games.errors import GameNotFound
from games.kinds import rules_kinds
from games.selectors import BadStatePoint
from tock_site.page_cache import page_cached
from tournaments import rules_markdown
from tournaments.errors import NotFound
from tournaments.game_page import game_page_context
from tournaments.models import TIEBREAK_CHOICES, LeagueRole, TournamentStatus
from tournaments.permissions import user_can_manage_league
from tournaments.selectors import (
    game_view_for,
    home_tournaments,
    league_get_visible,
    league_list,
    league_top_ratings_shown,
    player_get_with_ratings,
    player_list_with_ratings,
    round_seats,
    tournament_get_visible,
    tournament_list_visible,
    tournament_points,
    tournament_rounds_with_tables,
)
from tournaments.selectors.organize import league_audit_recent
from tournaments.selectors.player_page import player_page
from tournaments.selectors.seasons import (
    league_seasons,
    season_current,
    season_get,
    season_standings,
)
from tournaments.selectors.standings_cache import tournament_standings_cached
from tournaments.selectors.tournament_page import (
    STANDINGS_FIRST,
    TABLES_FIRST,
    asked_number,
    round_provisional,
    seat_rows_html,
    seat_search,
    standings_rows_html,
    standings_show_stage,
    tables_html,
    tournament_podium,
)

RULES_DIR = Path(settings.BASE_DIR) / "docs" / "rules"


def _hidden_as_404(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Unknown or not visible (domain NotFound / GameNotFound) -> the 404 page.
    GET and HEAD only (HEAD like GET without a body); other methods answer 405."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except (NotFound, GameNotFound) as exc:
            raise Http404(str(exc.message)) from exc

    return require_safe(wrapper)


# --------------------------------------------------------------------------- pages


@page_cached
@_hidden_as_404
def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/home.html",
        {
            "leagues": list(league_list(user=request.user)[:20]),
            "groups": home_tournaments(user=request.user),
        },
    )


@_hidden_as_404
def league_list_page(request: HttpRequest) -> HttpResponse:
    return render(
        request, "tournaments/league_list.html", {"leagues": list(league_list(user=request.user))}
    )


@_hidden_as_404
def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A league: its current season's table (earlier seasons on their own pages), its
    tournaments and its best-rated players."""
    league = league_get_visible(slug=slug, user=request.user)
    seasons = league_seasons(league=league)
    current = season_current(league=league, seasons=seasons)
    return render(
        request,
        "tournaments/league_detail.html",
        {
            "league": league,
            "tournaments": list(tournament_list_visible(user=request.user, league=league)),
            "top_ratings": league_top_ratings_shown(league=league, user=request.user),
            "seasons": seasons,
            "standing": season_standings(season=current, user=request.user) if current else None,
            "may_manage": (manages := user_can_manage_league(user=request.user, league=league)),
            # the league's scorekeepers and referees (its organizers see and change them)
            "league_staff": list(
                LeagueRole.objects.filter(league=league).select_related("user").order_by("role")
            )
            if manages
            else [],
            "league_audit": league_audit_recent(league=league) if manages else [],
        },
    )


def league_season(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """One season's table, with every tournament of the season."""
    league = league_get_visible(slug=slug, user=request.user)
    try:
        season = season_get(league=league, season_id=season_id)
    except NotFound as exc:
        raise Http404() from exc
    return render(
        request,
        "tournaments/season.html",
        {
            "league": league,
            "seasons": league_seasons(league=league),
            "standing": season_standings(season=season, user=request.user),
        },
    )


@page_cached(params={"round": r"[1-9][0-9]?", "tables": "all", "standings": "all"})
@_hidden_as_404
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A tournament: a finished one opens with its podium, a running one with its current
    round and the "find my table" search (``?find=`` answered here without JavaScript;
    ``static/js/find-table.js`` filters the same rows as one types). Standings say
    when they are provisional. The query count does not grow with the players."""
    tournament = tournament_get_visible(tournament_id=pk, user=request.user)
    asked_round = asked_number(request.GET.get("round"))
    all_tables = request.GET.get("tables") == "all"
    rounds = tournament_rounds_with_tables(
        tournament=tournament,
        shown=asked_round,
        tables_limit=None if all_tables else TABLES_FIRST,
        user=request.user,
    )
    tiebreaks = [(key, TIEBREAK_CHOICES.get(key, key)) for key in tournament.tiebreaks or []]
    standings = tournament_standings_cached(tournament=tournament, user=request.user)
    current_round = rounds[0] if rounds else None
    shown_round = next((r for r in rounds if r.number == asked_round), current_round)
    finished = tournament.status == TournamentStatus.FINISHED
    # Where everyone sits and the tables' statuses, as plain values (one light query).
    current = (
        round_seats(round=current_round, tournament=tournament, user=request.user)
        if current_round and not finished
        else None
    )
    seats = current.rows if current else []
    all_standings = request.GET.get("standings") == "all"
    shown_tables = shown_round.shown_tables if shown_round else []
    if all_tables or len(shown_tables) < TABLES_FIRST:
        tables_count = len(shown_tables)
    elif shown_round is current_round and current:
        tables_count = len(current.statuses)
    else:
        tables_count = shown_round.tables.count()
    # URLs of the rows are a prefix and an id: no reversing per row.
    player_prefix = reverse("tournaments:player-detail", args=["-"])[:-2]
    game_prefix = reverse("tournaments:game-detail", args=[0])[:-2]
    search = seat_search(rows=seats, query=request.GET.get("find", ""))
    standings_rows = standings if all_standings else standings[:STANDINGS_FIRST]
    show_stage = standings_show_stage(tournament=tournament)
    round_numbers = sorted(r.number for r in rounds)
    tiebreak_keys = {key for key, _label in tiebreaks}
    return render(
        request,
        "tournaments/tournament_detail.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            "current_round": current_round,
            "shown_round": shown_round,
            "shown_tables": shown_tables,
            "tables_html": tables_html(
                tables=shown_tables, game_prefix=game_prefix, player_prefix=player_prefix
            ),
            "tables_more": tables_count - len(shown_tables),
            "tables_count": tables_count,
            "seat_finder": seats,
            "seat_search": search,
            "seat_rows": seat_rows_html(search=search, game_prefix=game_prefix),
            "standings": standings,
            "standings_rows": standings_rows,
            "standings_html": standings_rows_html(
                rows=standings_rows,
                tiebreak_keys=tiebreak_keys,
                show_stage=show_stage,
                round_numbers=round_numbers,
                player_prefix=player_prefix,
            ),
            "standings_more": 0 if all_standings else max(0, len(standings) - STANDINGS_FIRST),
            "podium": tournament_podium(tournament=tournament, standings=standings),
            "provisional": round_provisional(
                tournament=tournament,
                round=current_round,
                statuses=current.statuses if current else {},
            ),
            "show_stage": show_stage,
            "points": tournament_points(tournament),
            "tiebreaks": tiebreaks,
            "tiebreak_keys": tiebreak_keys,
            "round_numbers": round_numbers,
            "player_prefix": player_prefix,
            "game_prefix": game_prefix,
        },
    )


@_hidden_as_404
def player_list_page(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()[:60]
    return render(
        request,
        "tournaments/player_list.html",
        {
            "players": list(player_list_with_ratings(search=query, user=request.user)[:200]),
            "q": query,
        },
    )


@page_cached
@_hidden_as_404
def player_detail(request: HttpRequest, handle: str) -> HttpResponse:
    """A player: each rating with its history as a chart (inline SVG drawn here), recent
    games with place and rating change, tournaments played."""
    player = player_get_with_ratings(handle=handle, user=request.user)
    return render(
        request,
        "tournaments/player_detail.html",
        {"player": player, "page": player_page(player=player, user=request.user)},
    )


@_hidden_as_404
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A game: players by name, the table the engine derives and the log as sentences.

    ``?at=N`` is the replay viewer: the table after event N (the engine's state, 1 more
    query). What the visitor sees (hidden players, the public view of a game in
    progress) is :func:`~tournaments.selectors.game_view_for`'s to decide."""
    requested = request.GET.get("at", "").strip()
    at_error = None
    try:
        shown = game_view_for(user=request.user, game_id=pk, at=requested or None, with_names=True)
    except BadStatePoint as exc:
        at_error = str(exc)
        shown = game_view_for(user=request.user, game_id=pk, with_names=True)
    context = game_page_context(shown=shown, at_error=at_error)
    return render(request, "games/game_detail.html", context)


def _rules_page(request: HttpRequest, name: str, title: str, **more: Any) -> HttpResponse:
    """``docs/rules/<name>.<language>.md`` rendered on the rules page, in the active
    language, English when that language has no page."""
    language = (translation.get_language() or settings.LANGUAGE_CODE).split("-")[0]
    page = page_language = None
    for candidate in dict.fromkeys((language, "en")):
        path = RULES_DIR / f"{name}.{candidate}.md"
        if path.is_file():
            page = rules_markdown.render(path.read_text(encoding="utf-8"))
            page_language = candidate
            break
    context = {
        "title": title,
        "body": page.body if page else None,
        "toc": page.toc if page else [],
        "page_language": page_language,
        "kinds": {},
        **more,
    }
    return render(request, "tournaments/rules.html", context)


@_hidden_as_404
def rules(request: HttpRequest, kind: str = "tock") -> HttpResponse:
    """The players' rules of a game kind the engine plays (:func:`_rules_page`)."""
    kinds = rules_kinds()
    if kind not in kinds:
        raise Http404()
    title = _("Rules of %(kind)s") % {"kind": kind.upper()}
    return _rules_page(request, kind, title, kind=kind, kinds=kinds)


@_hidden_as_404
def standings_rules(request: HttpRequest) -> HttpResponse:
    """How standings are ranked: points, then each tiebreak an organizer may choose,
    with its formula (``docs/rules/standings.<language>.md``)."""
    return _rules_page(request, "standings", _("Standings and tiebreaks"))
