"""The venue screen (issue 23): ``/tournaments/<id>/screen/``, full screen on a projector
or TV at 1920 x 1080. The current round's pairings by player name A-Z in columns (paged
by itself when they do not fit: static/js/screen.js), the round clock counting down to
the server's deadline (the page carries the server's time, so a wrong clock on the
screen's computer does not shift it), the standings between rounds, a QR code to the
tournament page; live over the tournament socket; dark by default (``?theme=light``).
Hidden players are "Player N" as everywhere."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

from tournaments.errors import NotFound
from tournaments.models import RoundStatus
from tournaments.qr import qr_svg
from tournaments.selectors import tournament_get_visible
from tournaments.selectors.standings_cache import tournament_standings_cached
from tournaments.selectors.tournaments import round_seats

#: Names on one page of the screen (four columns of 20).
PAGE_SIZE = 80


@require_safe
def venue_screen(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        tournament = tournament_get_visible(tournament_id=pk, user=request.user)
    except NotFound as exc:
        raise Http404() from exc
    rnd = tournament.rounds.order_by("-number").first()
    running = rnd is not None and rnd.status == RoundStatus.RUNNING
    rows = round_seats(round=rnd, tournament=tournament, user=None).rows if running else []
    pages = [rows[i : i + PAGE_SIZE] for i in range(0, len(rows), PAGE_SIZE)]
    deadline = rnd.deadline if running else None
    url = request.build_absolute_uri(reverse("tournaments:tournament-detail", args=[pk]))
    theme = request.GET.get("theme")
    return render(
        request,
        "tournaments/screen.html",
        {
            "tournament": tournament,
            "round": rnd if running else None,
            "pages": pages,
            "standings": []
            if running
            else tournament_standings_cached(tournament=tournament, user=None)[:20],
            "deadline_ms": int(deadline.timestamp() * 1000) if deadline else None,
            "now_ms": int(timezone.now().timestamp() * 1000),
            "qr": mark_safe(qr_svg(url, scale=5)),  # noqa: S308 - segno's own markup
            "theme": theme if theme in ("light", "dark") else "dark",
        },
    )
