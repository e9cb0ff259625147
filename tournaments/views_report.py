"""The table's report page: ``/games/<pk>/report/`` (``tournaments:game-report``), where
the QR code on a table's slip leads (issue 23, "Results reported by the table").

A player of the game (their account linked to a player seated there) reports the
table's placements, or answers the open report: one tap confirms it, or they give the
placements they saw (a dispute, for a referee). The reporter may change their report
while it waits. The page shows who agreed and who is still to answer, live (the
tournament's socket: every answer is a line in the tournament's audit log). Staff who
may enter the game's placements see the report and accept it early.

Phone first, complete without JavaScript: places are radio buttons (one row per
player, one large target per place). Placements are posted by seat (``place-0`` ..),
and the server maps seats to the real handles, so a hidden player stays "Player N" on a
tablemate's phone. The rules are in :mod:`tournaments.services.reports`.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games.errors import DomainError, GameNotFound, MalformedInput
from games.models import Game
from games.selectors import game_get
from tournaments.errors import NotFound
from tournaments.permissions import user_can_record_game, user_plays_in_game
from tournaments.redirects import see_other
from tournaments.selectors import VisibleGame, game_view_for
from tournaments.selectors.reports import ReportState, game_report_for, user_plays
from tournaments.services.reports import game_report, game_report_accept


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def game_report_page(request: HttpRequest, pk: int) -> HttpResponse:
    shown, real, handle = _reportable(request, pk)
    if request.method != "POST":
        return _render(request, shown, real, handle=handle)
    action = request.POST.get("action", "")
    try:
        if action == "report":
            game_report(game=real, placements=_posted(request, real), user=request.user)
            message = _("Your placements are recorded.")
        elif action == "confirm":
            state = _state(request, pk)
            if state is None:
                raise NotFound(_("No player has reported this game's result."))
            game_report(game=pk, placements=state.placements, user=request.user)
            message = _("You confirmed the reported result.")
        elif action == "accept":
            game_report_accept(game=pk, user=request.user)
            message = _("Report accepted: it is the game's result.")
        else:
            raise MalformedInput(_("Unknown action."))
    except DomainError as exc:
        shown, real, handle = _reportable(request, pk)  # read again: another answer may be in
        return _render(request, shown, real, handle=handle, error=exc)
    messages.success(request, message)
    response = see_other(reverse("tournaments:game-report", args=[pk]))
    return response


def _reportable(request: HttpRequest, pk: int) -> tuple[VisibleGame, Game, str | None]:
    """The game as this user sees it, the game itself (real handles: the posted seats
    map to them) and their handle when they play in it: 404 when it is hidden from them,
    403 when they neither play in it nor may record it."""
    try:
        shown = game_view_for(user=request.user, game_id=pk, with_names=True)
    except (NotFound, GameNotFound) as exc:
        raise Http404(str(exc.message)) from exc
    real = game_get(game_id=pk)
    handle = user_plays(user=request.user, game=real)
    if handle is None and not user_can_record_game(user=request.user, game=real):
        raise PermissionDenied(_("Only the table's players and its staff report its result."))
    if shown.table is None:
        raise Http404(_("Only a tournament table's players report its result."))
    return shown, real, handle


def _state(request: HttpRequest, pk: int) -> ReportState | None:
    try:
        return game_report_for(game_id=pk, user=request.user)
    except NotFound:
        return None


def _posted(request: HttpRequest, real: Game) -> dict[str, Any]:
    """The posted places by seat, keyed by the real handles (the engine's placement
    rule checks them)."""
    players = list(real.players or [])
    places: dict[str, Any] = {}
    for i, handle in enumerate(players):
        text = request.POST.get(f"place-{i}", "").strip()
        if not text:
            raise MalformedInput(_("Give a place to every player."))
        if not (text.isascii() and text.isdigit() and len(text) < 4):
            raise MalformedInput(_("A place is a whole number."))
        places[handle] = int(text)
    return places


def _render(
    request: HttpRequest,
    shown: VisibleGame,
    real: Game,
    *,
    handle: str | None,
    error: DomainError | None = None,
) -> HttpResponse:
    game = shown.game
    state = _state(request, game.pk)
    seat_handles = list(real.players or [])
    shown_handles = list(game.players or [])
    name_of = {
        real_h: shown.names.get(shown_h, shown_h)
        for real_h, shown_h in zip(seat_handles, shown_handles, strict=False)
    }
    if handle is not None:
        name_of[handle] = shown.names.get(handle, name_of.get(handle, handle))
    is_open = state is not None and state.status in ("pending", "disputed")
    answered = (
        state is not None
        and handle is not None
        and (handle in state.agreed or handle in state.disputed_by)
    )
    posted = request.POST if error is not None and request.POST.get("action") == "report" else {}
    mine: dict[str, int] = {}
    if state is not None and handle is not None:
        if handle in state.disputed_by:
            mine = state.disputed_by[handle]
        elif handle in state.agreed:
            mine = state.placements
    rows = [
        {
            "index": i,
            "name": name_of.get(h, h),
            "me": h == handle,
            "value": str(posted.get(f"place-{i}", "")) if posted else str(mine.get(h, "")),
        }
        for i, h in enumerate(seat_handles)
    ]
    has_result = real.placements is not None
    context = {
        "game": game,
        "table": shown.table,
        "tournament": shown.table.round.tournament,
        "handle": handle,
        "me": name_of.get(handle or "", ""),
        "state": state,
        "places": _places(state.placements, name_of) if state else [],
        "versions": [
            {"names": [name_of.get(h, h) for h in who], "places": _places(p, name_of)}
            for p, who in _versions(state)
        ]
        if state and state.disputed_by
        else [],
        "agreed": [name_of.get(h, h) for h in state.agreed] if state else [],
        "waiting": [name_of.get(h, h) for h in state.waiting] if state else [],
        "result": _places(real.placements, name_of) if has_result else [],
        "rows": rows,
        "choices": list(range(1, len(seat_handles) + 1)),
        # what this visitor may do now
        "can_report": handle is not None
        and not has_result
        and real.last_sequence == 0
        and (
            state is None or not is_open or (state.reporter == handle and state.status == "pending")
        ),
        "can_answer": handle is not None and is_open and state.reporter != handle,
        "answered": answered,
        "can_accept": handle is None
        and state is not None
        and state.status == "pending"
        and not user_plays_in_game(user=request.user, game=real),
        "live_recorded": real.last_sequence > 0,
        "error": error,
    }
    status = error.http_status if error is not None else 200
    return render(request, "tournaments/report.html", context, status=status)


def _own_pending(state: ReportState, handle: str | None) -> bool:
    """The visitor's own report, still waiting: they may replace it."""
    return state.reporter == handle and state.status == "pending"


def _places(placements: dict[str, int] | None, name_of: dict[str, str]) -> list[tuple[int, str]]:
    return sorted((p, name_of.get(h, h)) for h, p in (placements or {}).items())


def _versions(state: ReportState) -> list[tuple[dict[str, int], list[str]]]:
    """The report's own version (with who agreed), then each other one with who gave it."""
    out: list[tuple[dict[str, int], list[str]]] = [(state.placements, list(state.agreed))]
    for handle, places in state.disputed_by.items():
        for given, who in out:
            if given == places:
                who.append(handle)
                break
        else:
            out.append((places, [handle]))
    return out
