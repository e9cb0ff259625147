"""Print-ready pages of a tournament (issue 23, "Paper"): when the software fails,
printed pairings and result slips are what a venue misses.

* ``/tournaments/<id>/print/pairings/``: the current round by table (players in seat
  order), then every player A-Z with table and seat, for the wall;
* ``/tournaments/<id>/print/slips/``: one slip per table of the current round
  (tournament, round, table, players in seat order, boxes for places, signatures, and
  a QR code to the table's report page);
* ``/tournaments/<id>/print/standings/``.

Whoever may see the tournament may print them; hidden players are "Player N" as on
every page. Print CSS (``static/css/print.css``) sizes the page: ``?paper=a4`` (the
default) or ``?paper=letter``.
"""

from __future__ import annotations

from itertools import groupby
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

from tournaments.errors import NotFound
from tournaments.models import Round, Tournament
from tournaments.qr import qr_svg
from tournaments.selectors import tournament_get_visible
from tournaments.selectors.standings_cache import tournament_standings_cached
from tournaments.selectors.tournaments import round_seats

PAPERS = ("a4", "letter")


def _tournament(request: HttpRequest, pk: int) -> Tournament:
    try:
        return tournament_get_visible(tournament_id=pk, user=request.user)
    except NotFound as exc:
        raise Http404() from exc


def print_context(request: HttpRequest, tournament: Tournament, **more: Any) -> dict[str, Any]:
    paper = request.GET.get("paper", "a4")
    paper = paper if paper in PAPERS else "a4"
    size = "letter" if paper == "letter" else "A4"
    return {
        "tournament": tournament,
        "paper": paper,
        # the printed page's size and margins (CSS, not words: no translation)
        "page_css": f"@page {{ size: {size}; margin: 12mm; }}",
        **more,
    }


def _current(tournament: Tournament) -> Round | None:
    return tournament.rounds.order_by("-number").first()


def _tables(request: HttpRequest, tournament: Tournament, rnd: Round | None) -> list[dict]:
    if rnd is None:
        return []
    rows = round_seats(round=rnd, tournament=tournament, user=request.user).rows
    by_table = sorted(rows, key=lambda r: (r.table, r.position))
    return [
        {"number": number, "game": seats[0].game_id, "seats": seats}
        for number, group in groupby(by_table, key=lambda r: r.table)
        for seats in [list(group)]
    ]


@require_safe
def print_pairings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    rnd = _current(tournament)
    tables = _tables(request, tournament, rnd)
    players = sorted(
        (s for t in tables for s in t["seats"]), key=lambda s: (s.display_name.lower(), s.handle)
    )
    return render(
        request,
        "tournaments/print/pairings.html",
        print_context(request, tournament, round=rnd, tables=tables, players=players),
    )


@require_safe
def print_slips(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    rnd = _current(tournament)
    tables = _tables(request, tournament, rnd)
    for table in tables:
        url = request.build_absolute_uri(reverse("tournaments:game-report", args=[table["game"]]))
        table["report_url"] = url
        table["qr"] = mark_safe(qr_svg(url, scale=3))  # noqa: S308 - segno's own markup
    return render(
        request,
        "tournaments/print/slips.html",
        print_context(request, tournament, round=rnd, tables=tables),
    )


@require_safe
def print_standings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    rows = tournament_standings_cached(tournament=tournament, user=request.user)
    return render(
        request, "tournaments/print/standings.html", print_context(request, tournament, rows=rows)
    )
