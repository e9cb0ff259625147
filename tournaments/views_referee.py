"""Referees' pages (issue 12), phone first, complete without JavaScript.

* ``/tournaments/<pk>/referee/`` (``tournaments:referee``): the proposed results waiting
  for a referee first (:func:`~tournaments.selectors.proposals.tournament_pending_proposals`),
  each with a one-tap confirm form and a folded reject/replace form (a note, optional
  placements), then the tournament's games for a referee, those with an open knock
  first (:func:`~tournaments.selectors.rulings.referee_games`); live on the tournament's
  socket;
* ``/games/<pk>/proposal/`` (``tournaments:game-proposal``, POST only): confirm or reject
  the game's proposed result (:mod:`tournaments.services.proposals`), then back to the
  referee list (a refusal renders the list with the reason and its HTTP status);
* ``/games/<pk>/referee/`` (``tournaments:game-referee``): the state of the game, "who
  knocks?" (a GET form), the engine's preview of that knock (verdict, explanation in the
  page's language, the penalty cards), then a POST form to confirm or override (with a
  note), stored by :func:`tournaments.services.rulings.knock_ruling_record` (the
  recording choke point: a stale page gets "someone ruled first", never a double
  ruling);
  Once the game has ended (any kind): a form to correct its result (one place per
  player, prefilled with the current places, and a required note), stored by
  :func:`tournaments.services.rulings.result_correction_record` (the same choke point;
  a stale page is told someone changed the game first);
* ``/tournaments/<pk>/rulings/`` and ``rulings.csv``: the tournament's rulings and
  corrections, for whoever sees the tournament.

Who: the referee pages, organizers and referees of the tournament (and superusers);
anonymous visitors are sent to log in, other users get 403, a hidden tournament 404.
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
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games.errors import DomainError, GameNotFound, MalformedInput, StaleSequence
from games.explanations import explain, verdict_label
from games.kinds import has_knocks
from games.presenters import game_view, placements_text
from games.selectors import game_get
from tournaments.errors import NotFound
from tournaments.exports.csv_export import csv_text
from tournaments.models import RulingChoice
from tournaments.permissions import (
    ensure_can_referee_game,
    ensure_not_playing,
    user_can_referee_tournament,
)
from tournaments.redirects import see_other
from tournaments.selectors import game_view_for, tournament_get_visible
from tournaments.selectors.calls import calls_answer_times, tournament_calls
from tournaments.selectors.proposals import tournament_pending_proposals
from tournaments.selectors.rulings import (
    knock_preview_for,
    referee_games,
    result_correctable,
    ruling_names,
    tournament_rulings,
)
from tournaments.services.position_rulings import judge_position, position_ruling_record
from tournaments.services.proposals import result_proposal_confirm, result_proposal_reject
from tournaments.services.rulings import knock_ruling_record, result_correction_record


def _tournament(request: HttpRequest, pk: int) -> Any:
    try:
        return tournament_get_visible(tournament_id=pk, user=request.user)
    except NotFound as exc:
        raise Http404(str(exc.message)) from exc


def _ensure_referee(request: HttpRequest, tournament: Any) -> None:
    if not user_can_referee_tournament(user=request.user, tournament=tournament):
        raise PermissionDenied(_("Only the tournament's referees and organizers may rule."))


def _render_home(
    request: HttpRequest,
    tournament: Any,
    *,
    error: DomainError | None = None,
    failed: int | None = None,
) -> HttpResponse:
    return render(
        request,
        "tournaments/referee.html",
        {
            "tournament": tournament,
            "proposals": tournament_pending_proposals(tournament=tournament, user=request.user),
            "games": referee_games(tournament=tournament),
            # referee calls: the open ones, oldest first; the median time to answer
            "calls": tournament_calls(tournament=tournament),
            "answer_times": calls_answer_times(tournament=tournament),
            "error": error,
            # the refused form's game and what was posted (shown again, unfolded)
            "failed": failed,
            "posted": request.POST if error is not None else {},
        },
        status=error.http_status if error is not None else 200,
    )


@login_required
@require_safe
def referee_home(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    _ensure_referee(request, tournament)
    return _render_home(request, tournament)


@login_required
@require_POST
def game_proposal(request: HttpRequest, pk: int) -> HttpResponse:
    """Confirm (``action=confirm``) or reject (``action=reject``: ``note``, optional
    ``place-1`` .. ``place-N`` in seat order to replace it) the game's proposed result."""
    shown = _shown(request, pk)
    game = shown.game
    tournament = shown.table.round.tournament if shown.table is not None else None
    action = request.POST.get("action", "")
    try:
        if action == "confirm":
            result_proposal_confirm(game=game.pk, user=request.user)
            message = _("Proposed result confirmed: it is the game's result.")
        elif action == "reject":
            places = _posted_places(request, list(game.players or []))
            replace = any(v != "" for v in places.values())
            result_proposal_reject(
                game=game.pk,
                note=request.POST.get("note", ""),
                placements=places if replace else None,
                user=request.user,
            )
            message = (
                _("Proposed result replaced by your placements.")
                if replace
                else _("Proposed result rejected.")
            )
        else:
            raise MalformedInput(_("Unknown action."))
    except DomainError as exc:
        if tournament is None:
            raise
        return _render_home(request, tournament, error=exc, failed=game.pk)
    messages.success(request, message)
    target = (
        reverse("tournaments:referee", args=[tournament.pk])
        if tournament is not None
        else reverse("tournaments:game-detail", args=[game.pk])
    )
    response = see_other(target)
    return response


def _shown(request: HttpRequest, pk: int) -> Any:
    """The game for a referee: 404 hidden or unknown, 403 without the role."""
    try:
        shown = game_view_for(user=request.user, game_id=pk, with_names=True)
    except (NotFound, GameNotFound) as exc:
        raise Http404(str(exc.message)) from exc
    ensure_can_referee_game(user=request.user, game=shown.game)  # NotAllowed is a 403
    return shown


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def game_referee(request: HttpRequest, pk: int) -> HttpResponse:
    shown = _shown(request, pk)
    if request.method != "POST":
        return _render(request, shown, by=request.GET.get("by", ""))
    by = request.POST.get("by", "")
    sequence = _small_number(request.POST.get("sequence", "").strip(), default=-1)
    if request.POST.get("action") == "correct-result":
        return _correct_result(request, shown, sequence)
    if request.POST.get("action") in ("position-judge", "position-record"):
        return _position(request, shown)
    try:
        knock_ruling_record(
            game=shown.game.pk,
            by=by,
            ruling=request.POST.get("ruling", ""),
            note=request.POST.get("note", ""),
            expected_sequence=sequence,
            user=request.user,
        )
    except StaleSequence as exc:
        return _render(request, _shown(request, pk), by=by, error=exc, stale=True)
    except DomainError as exc:
        return _render(request, _shown(request, pk), by=by, error=exc)
    messages.success(request, _("Ruling recorded."))
    response = see_other(reverse("tournaments:game-referee", args=[pk]))
    return response


def _posted_position(request: HttpRequest, players: list[str]) -> dict[str, Any]:
    """The "what the table shows" form as the engine's position facts (players by seat:
    ``turn``, ``to`` and the piles' fields name seats, never handles, so that no handle
    is a field name): numbers where given as such, else the text (the engine names what
    is wrong)."""

    def number(name: str) -> Any:
        raw = request.POST.get(name, "").strip()
        return _small_number(raw, default=raw or None)

    def seat(name: str) -> Any:
        index = _small_number(request.POST.get(name, "").strip(), default=-1)
        return players[index] if 0 <= index < len(players) else None

    piles, stocks = {}, {}
    for i, handle in enumerate(players):
        bottoms = [number(f"pile-{i}-bottom"), number(f"pile-{i}-bottom2")]
        piles[handle] = {
            "count": number(f"pile-{i}-count") or 0,
            "top": number(f"pile-{i}-top"),
            "bottoms": [b for b in bottoms if b is not None],
        }
        stocks[handle] = number(f"stock-{i}") or 0
    to = request.POST.get("move-to", "")
    action: dict[str, Any] = {"type": request.POST.get("move-type", "")}
    if action["type"] != "flip":
        action["card"] = number("move-card")
        action["to"] = "center" if to == "center" else seat("move-to")
    return {
        "center": [n for n in (number(f"center-{k}") for k in range(6)) if n is not None],
        "piles": piles,
        "stocks": stocks,
        "table": number("table") or 0,
        "turn": seat("turn"),
        "action": action,
        "penalized": request.POST.get("penalized") == "yes",
    }


def _position(request: HttpRequest, shown: Any) -> HttpResponse:
    """Judge a knock from the table's position (``position-judge``: the engine's verdict,
    nothing stored) or record the ruling on it (``position-record``)."""
    game = shown.game
    real = game_get(game_id=game.pk)  # the real handles (a hidden player is masked in shown)
    players = list(real.players or [])
    facts = _posted_position(request, players)
    knocker = _small_number(request.POST.get("by", "").strip(), default=-1)
    by = players[knocker] if 0 <= knocker < len(players) else ""
    try:
        if request.POST.get("action") == "position-record":
            position_ruling_record(
                game=real,
                facts=facts,
                by=by,
                ruling=request.POST.get("ruling", ""),
                note=request.POST.get("note", ""),
                user=request.user,
            )
            messages.success(request, _("Ruling recorded."))
            response = see_other(reverse("tournaments:game-referee", args=[game.pk]))
            return response
        ensure_not_playing(user=request.user, game=real)
        verdict = judge_position(game=real, facts=facts, by=by)
    except DomainError as exc:
        return _render(request, _shown(request, game.pk), by="", error=exc)
    return _render(request, shown, by="", position_verdict=verdict)


def _small_number(text: str, *, default: Any) -> Any:
    """``text`` as an integer when it is one to nine ASCII digits, else ``default``:
    ``str.isdigit`` also accepts ``"²"`` (which ``int`` refuses) and ``int`` refuses more
    than 4,300 digits, so neither decides alone."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else default


def _posted_places(request: HttpRequest, players: list[str]) -> dict[str, Any]:
    """The correction form's places (``place-1`` .. ``place-N`` in seat order, so that no
    handle needs to be a form field name): integers where given as such, else the text
    (the service refuses it with a clear message)."""
    places: dict[str, Any] = {}
    for i, handle in enumerate(players, start=1):
        raw = request.POST.get(f"place-{i}", "").strip()
        places[handle] = _small_number(raw, default=raw)
    return places


def _correct_result(request: HttpRequest, shown: Any, sequence: int) -> HttpResponse:
    game = shown.game
    places = _posted_places(request, list(game.players or []))
    try:
        result_correction_record(
            game=game.pk,
            placements=places,
            note=request.POST.get("note", ""),
            expected_sequence=sequence,
            user=request.user,
        )
    except StaleSequence as exc:
        return _render(request, _shown(request, game.pk), by="", error=exc, stale=True)
    except DomainError as exc:
        return _render(request, _shown(request, game.pk), by="", error=exc, places=places)
    messages.success(request, _("Result corrected."))
    response = see_other(reverse("tournaments:game-referee", args=[game.pk]))
    return response


def _render(
    request: HttpRequest,
    shown: Any,
    *,
    by: str,
    error: DomainError | None = None,
    stale: bool = False,
    places: dict[str, Any] | None = None,
    position_verdict: dict[str, Any] | None = None,
) -> HttpResponse:
    game = shown.game
    players = list(game.players or [])
    correction = None
    if result_correctable(game=game):
        current = places or game.placements or {}
        correction = {
            "sequence": game.last_sequence + 1,
            "rows": [
                {
                    "field": f"place-{i}",
                    "name": shown.names.get(h, h),
                    "place": current.get(h, ""),
                    "played": (game.placements or {}).get(h),
                }
                for i, h in enumerate(players, start=1)
            ],
            "max": len(players),
        }
    preview = None
    if position_verdict is not None:
        preview = _shown_verdict(position_verdict, shown.names)
        preview["from_position"] = True
    elif by in players and has_knocks(game.kind):
        preview = knock_preview_for(game_id=game.pk, by=by, user=request.user)
        preview["verdict_label"] = verdict_label(preview["verdict"])
        preview["explanation"] = explain(preview, names=shown.names)  # display names
        preview["penalty_shown"] = [
            {
                **m,
                "from_name": shown.names.get(m["from"], m["from"]),
                "to_name": shown.names.get(m["to"], m["to"]),
            }
            for m in preview["penalty"]
        ]
    context = {
        "game": game,
        "table": shown.table,
        "view": game_view(state=shown.state, names=shown.names),
        # the kind's template says what is hidden only from those who do not see it all
        "replay": {"shown_in_full": shown.full},
        "players": [{"handle": h, "name": shown.names.get(h, h)} for h in players],
        "by": by,
        "knocks": has_knocks(game.kind),  # the engine says whether its kind has knocks
        "preview": preview,
        "rulings": [
            (RulingChoice.CONFIRM, _("Confirm the engine's verdict")),
            (RulingChoice.CORRECT, _("Rule the knock correct (override)")),
            (RulingChoice.INCORRECT, _("Rule the knock wrong (override)")),
        ],
        "error": error,
        "stale": stale,
        "note": request.POST.get("note", "") if error is not None else "",
        "correction": correction,
        # a knock at a table nobody recorded: judged from what the table shows
        "position_form": has_knocks(game.kind) and game.last_sequence == 0,
        "posted": request.POST if request.method == "POST" else {},
        "seats": list(enumerate(shown.names.get(h, h) for h in players)),
        "series": range(6),
    }
    return render(
        request,
        "games/referee.html",
        context,
        status=error.http_status if error is not None else 200,
    )


def _shown_verdict(verdict: dict[str, Any], names: Any) -> dict[str, Any]:
    shown = dict(verdict)
    shown["verdict_label"] = verdict_label(verdict["verdict"])
    shown["explanation"] = explain(verdict, names=names)
    shown["penalty_shown"] = [
        {**m, "from_name": names.get(m["from"], m["from"]), "to_name": names.get(m["to"], m["to"])}
        for m in verdict["penalty"]
    ]
    return shown


@require_safe
def rulings_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    rows = tournament_rulings(tournament=tournament, user=request.user)
    names = ruling_names(rows=rows)  # players by name, hidden ones as "Player N"
    return render(
        request,
        "tournaments/rulings.html",
        {
            "tournament": tournament,
            "rows": [
                {
                    "row": r,
                    "by": names.get(r.knocker, r.knocker),
                    "against": names.get(r.against, r.against),
                    "engine": verdict_label(r.engine_verdict or ""),
                    "places": placements_text(r.placements, names),
                    "previous": placements_text(r.previous_placements, names),
                }
                for r in rows
            ],
        },
    )


def _places_csv(placements: dict[str, int] | None) -> str:
    """A correction's placements in a CSV cell: ``handle=place`` by place, ``;``-separated
    (empty for a ruling on a knock)."""
    if not placements:
        return ""
    return ";".join(f"{h}={v}" for h, v in sorted(placements.items(), key=lambda kv: kv[1]))


@require_safe
def rulings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    rows = tournament_rulings(tournament=tournament, user=request.user)
    header = [
        "game", "round", "table", "time", "referee", "event", "knocked_by", "knocked_on",
        "engine_verdict", "engine_reason", "ruling", "applied", "note", "placements",
        "previous_placements", "judged_from", "withdrawn_by",
    ]  # fmt: skip
    data = [
        [
            r.game,
            r.round,
            r.table,
            r.at.isoformat(),
            r.referee,
            r.sequence,
            r.knocker,
            r.against,
            r.engine_verdict or "",
            r.engine_code or "",
            r.ruling,
            r.applied,
            r.note,
            _places_csv(r.placements),
            _places_csv(r.previous_placements),
            r.judged_from,
            r.withdrawn_by or "",
        ]  # fmt: skip
        for r in rows
    ]
    response = HttpResponse(
        csv_text(header=header, rows=data).encode("utf-8"), content_type="text/csv; charset=utf-8"
    )
    filename = f"{tournament.league.slug}-{tournament.slug}-rulings.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
