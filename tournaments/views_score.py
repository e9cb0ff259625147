"""The scorekeeper's page at a table: ``/games/<pk>/score/`` (``tournaments:game-score``).

Phone first, complete without JavaScript. Three ways to record, all through the
recording services the API uses (:mod:`tournaments.services.recording`), which check the
user's role again and store all or nothing:

1. placements (a form listing the table's players; the kind's placement rules,
   :func:`games.services.validate_placements`, errors in words);
2. a log file (JSON Lines; errors as ``line N: reason``);
3. events one by one: a button per move the engine offers now
   (:func:`games.scorekeeping.game_score_moves`: the legal moves, the moves the mode
   records as infractions, knocks, the start), each a small form POST carrying the
   event, the expected sequence (the log's length + 1) and a hidden idempotency key made
   when the page was rendered, so a double submit stores one event. A stale page gets
   "Someone else recorded an event; reload" (409) instead of a duplicate, an illegal
   event the engine's one-line reason (422), a referee's matter recorded by a plain
   scorekeeper the service's refusal (403).

A kind whose presenter has a play area of its own (``score_template`` and
``score_panel``: TOCK's card pad; UNO's and Casino's two-step card pad in a seeded game)
gets the compact layout (the play area alone on a phone's screen, the rest folded under
"More"); ``?pick=N`` (or a short key id, ``?pick=R``) opens a pad key's choice without
JavaScript. Every tap target carries ``data-event``, the exact event it records.

``static/js/score.js`` sends the same events to ``POST /api/games/<id>/events`` (with an
``Idempotency-Key``, retried on a lost answer, queued on the phone while offline) and
swaps the page's regions; ``static/js/live.js`` refreshes them when another scorekeeper
records.

"Stop live scoring" (``games/score/_stop_live.html``, folded, each choice behind a
confirmation box): once live scoring has started, the scorekeeper ends the game because
time is up (an ``end`` event, reason ``time``: the engine places the players from the
position) or proposes placements, which wait for a referee or an organizer to confirm
them (:mod:`tournaments.services.proposals`; a scorekeeper never decides a result
against the log).

Who: whoever may record the game (:func:`tournaments.permissions.user_can_record_game`):
its tournament's scorekeepers, referees and organizers, league organizers, superusers;
for a friendly game its creator and site staff. Anonymous visitors are sent to log in,
signed-in users who may see the game but not record it get 403, a game hidden from them
404. Successful posts redirect (post/redirect/get); failed ones render the page again
with the reason and the error's HTTP status.
"""

from __future__ import annotations

import json
import secrets
from itertools import count
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games.engine.log import MAX_DEPTH
from games.errors import DomainError, GameNotFound, MalformedInput, StaleSequence
from games.presenter_steps import valid_key_id
from games.presenters import Names, game_log_lines, game_view, presenter_for
from games.scorekeeping import ScoreMoves, event_needs_referee, game_score_moves
from games.selectors import Withdrawals, game_event_count, game_withdrawals
from games.services import MAX_LOG_BYTES
from games.sheet import SheetForm, build_sheet_event
from tournaments.errors import NotFound
from tournaments.permissions import (
    user_can_record_game,
    user_can_referee_game,
    user_plays_in_game,
)
from tournaments.redirects import see_other
from tournaments.selectors import VisibleGame, game_view_for
from tournaments.selectors.proposals import game_pending_proposal
from tournaments.services import game_record_event, game_record_log, game_record_placements
from tournaments.services.proposals import result_propose

#: How many of the latest events the page lists (the game page has the whole log).
RECENT_EVENTS = 8
#: The event "Stop live scoring: time is up" records (the engine places the players).
TIME_UP = {"type": "end", "reason": "time"}


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def game_score(request: HttpRequest, pk: int) -> HttpResponse:
    shown = _recordable_game(request, pk)
    if request.method != "POST":
        return _render(request, shown)
    action = request.POST.get("action", "")
    handler = {
        "event": _post_event,
        "placements": _post_placements,
        "log": _post_log,
        "stop-time": _post_stop_time,
        "propose": _post_propose,
        "sheet": _post_sheet,
    }.get(action)
    try:
        if handler is None:
            raise MalformedInput(_("Unknown action."))
        message = handler(request, shown)
    except StaleSequence as exc:
        return _render(request, _fresh(request, pk), error=exc, stale=True)
    except DomainError as exc:
        return _render(request, _fresh(request, pk), error=exc)
    messages.success(request, message)
    return see_other(reverse("tournaments:game-score", args=[pk]))


# --------------------------------------------------------------------------- access


def _recordable_game(request: HttpRequest, pk: int) -> VisibleGame:
    """The game as this user sees it, once they may record it: 404 when hidden from
    them (or unknown), 403 when they may see it but not record it."""
    try:
        shown = game_view_for(user=request.user, game_id=pk, with_names=True)
    except (NotFound, GameNotFound) as exc:
        raise Http404(str(exc.message)) from exc
    if not user_can_record_game(user=request.user, game=shown.game):
        raise PermissionDenied(_("You may not record this game."))
    return shown


def _fresh(request: HttpRequest, pk: int) -> VisibleGame:
    """The game re-read after a refused write (another writer may have been first)."""
    return _recordable_game(request, pk)


# --------------------------------------------------------------------------- writes


def _post_event(request: HttpRequest, shown: VisibleGame) -> str:
    return _post_event_of(request, shown, _json_object(request.POST.get("event", "")))


def _post_event_of(request: HttpRequest, shown: VisibleGame, event: Any) -> str:
    sequence = _whole_number(request.POST.get("sequence", ""))
    key = request.POST.get("key") or None
    outcome = game_record_event(
        game=shown.game.pk,
        event=event,
        expected_sequence=sequence,
        user=request.user,
        idempotency_key=key,
    )
    label = presenter_for(shown.game.kind).describe(event, shown.names)
    if outcome.replayed:
        return _("Already recorded as event %(n)d: %(event)s") % {
            "n": outcome.event.sequence,
            "event": label,
        }
    return _("Recorded event %(n)d: %(event)s") % {"n": outcome.event.sequence, "event": label}


def _sheet_form(shown: VisibleGame) -> SheetForm | None:
    """The score sheet's pad (:mod:`games.sheet`) while a score-sheet game (start event
    ``"sheet": true``, already recorded) is in progress; else ``None``."""
    game = shown.game
    start = game.start_event if isinstance(game.start_event, dict) else {}
    if not start.get("sheet") or game.last_sequence < 1 or game.is_over:
        return None
    if game.result_source != "none":
        return None
    return presenter_for(game.kind).sheet_form(list(game.players or []), shown.names)


def _post_sheet(request: HttpRequest, shown: VisibleGame) -> str:
    """One line of the score sheet, from the pad's fields (no JavaScript)."""
    form = _sheet_form(shown)
    if form is None:
        raise MalformedInput(_("This game keeps no score sheet now."))
    return _post_event_of(request, shown, build_sheet_event(form, request.POST))


def _post_placements(request: HttpRequest, shown: VisibleGame) -> str:
    placements: dict[str, int] = {}
    for i, handle in enumerate(shown.game.players or []):
        text = request.POST.get(f"place-{i}", "").strip()
        if not text:
            raise MalformedInput(_("Give a place to every player."))
        try:
            placements[handle] = int(text)
        except ValueError:
            raise MalformedInput(
                _("The place of %(player)s must be a whole number.")
                % {"player": shown.names.get(handle, handle)}
            ) from None
    outcome = game_record_placements(game=shown.game.pk, placements=placements, user=request.user)
    if not outcome.result_changed:
        return _("These placements were already recorded.")
    return _("Placements recorded (unverified: no event log).")


def _confirmed(request: HttpRequest) -> None:
    """The stop-live forms' confirmation box must be ticked (the page asks first)."""
    if request.POST.get("confirm") != "yes":
        raise MalformedInput(_("Tick the box to confirm that live scoring stops."))


def _post_stop_time(request: HttpRequest, shown: VisibleGame) -> str:
    _confirmed(request)
    game_record_event(
        game=shown.game.pk,
        event=TIME_UP,
        expected_sequence=_whole_number(request.POST.get("sequence", "")),
        user=request.user,
        idempotency_key=request.POST.get("key") or None,
    )
    return _("The game has ended: time is up. The engine placed the players from the position.")


def _post_propose(request: HttpRequest, shown: VisibleGame) -> str:
    _confirmed(request)
    places: dict[str, Any] = {}
    for i, handle in enumerate(shown.game.players or []):
        text = request.POST.get(f"place-{i}", "").strip()
        if not text:
            raise MalformedInput(_("Give a place to every player."))
        places[handle] = int(text) if text.isascii() and text.isdigit() and len(text) < 6 else text
    result_propose(game=shown.game.pk, placements=places, user=request.user)
    return _("Placements proposed: a referee or an organizer confirms them.")


def _post_log(request: HttpRequest, shown: VisibleGame) -> str:
    upload = request.FILES.get("log_file")
    if upload is not None:
        if upload.size > MAX_LOG_BYTES:
            raise MalformedInput(_("The log is too large."))
        log: str | bytes = upload.read()
    else:
        log = request.POST.get("log_text", "")
    if not log or not log.strip():
        raise MalformedInput(_("Choose a log file (JSON Lines) or paste the log."))
    outcome = game_record_log(game=shown.game.pk, log=log, user=request.user)
    if not outcome.events_added:
        return _("Nothing new: the log matches the events already recorded.")
    return _("Log recorded: %(n)d new events.") % {"n": outcome.events_added}


def _json_object(text: str) -> Any:
    try:
        return json.loads(text)
    except RecursionError:  # the stdlib parser recurses once per bracket ("[[[[...")
        raise MalformedInput(
            _("The input is nested too deeply (at most %(n)d levels).") % {"n": MAX_DEPTH}
        ) from None
    except ValueError:
        raise MalformedInput(_("The event is not valid JSON.")) from None


def _pick(request: HttpRequest) -> int | str | None:
    """The key whose choices the scorekeeper opened without JavaScript (score.js opens
    them in place): ``?pick=N``, a TOCK card, or a short key id (``?pick=R``, an UNO
    colour; ``?pick=10D``, a Casino card); anything else opens nothing."""
    text = request.GET.get("pick", "")
    if text.isascii() and text.isdigit() and len(text) <= 3:
        return int(text)
    return text if valid_key_id(text) else None


def _whole_number(text: str) -> int:
    text = text.strip()
    if not text.isascii() or not text.isdigit() or len(text) > 9:
        raise MalformedInput(_("The expected sequence number must be a positive integer."))
    return int(text)


# --------------------------------------------------------------------------- the page


def _render(
    request: HttpRequest,
    shown: VisibleGame,
    *,
    error: DomainError | None = None,
    stale: bool = False,
) -> HttpResponse:
    game = shown.game
    moves = game_score_moves(game=game)
    last = game.last_sequence
    after = max(0, last - RECENT_EVENTS)
    recent = shown.events(after=after)
    opening = presenter_for(game.kind).segment_opening
    # the hands or rounds opened before the window, so that it can mark their ends
    prior = game_event_count(game=game, event_type=opening, up_to=after) if opening and after else 0
    view = game_view(state=shown.state, names=shown.names)
    buttons = _Buttons(kind=game.kind, names=shown.names)
    can_referee = user_can_referee_game(user=request.user, game=game)
    withdrawals = (
        game_withdrawals(game=game) if last > 1 else Withdrawals(withdrawn={}, target=None)
    )
    sheet = _sheet_form(shown)
    panel = (
        {"sheet": True}
        if sheet is not None
        else buttons.presenter.score_panel(
            moves,
            view.summary,
            shown.names,
            buttons.button,
            pick=_pick(request),
            start=game.start_event if game.last_sequence else None,
        )
    )
    undo = _undo_button(request, shown, withdrawals, buttons, can_referee=can_referee)
    stop_live = _stop_live(request, shown, error=error, key=buttons.key())
    context = {
        "game": game,
        "table": shown.table,
        "state": shown.state,
        "view": view,
        "replay": {"shown_in_full": shown.full},
        "moves": moves,
        "groups": buttons.groups(moves, view.summary, game.start_event),
        # a kind with a play area of its own (the presenter's score_template) gets the
        # compact layout; the others the generic list of buttons
        "panel": panel,
        "moves_template": (
            "games/score/sheet.html"
            if sheet is not None
            else buttons.presenter.score_template
            if panel is not None
            else "games/score/_moves.html"
        ),
        # the score sheet's pad: one line per hand or round (games.sheet)
        "sheet": sheet,
        "sheet_key": buttons.key(),
        "sheet_posted": request.POST
        if error is not None and request.POST.get("action") == "sheet"
        else {},
        # where "Stop live scoring" links to (the result by placements or time-up)
        "knock_target_name": shown.names.get(moves.knock_target or "", moves.knock_target),
        "turn_name": shown.names.get(moves.turn or "", moves.turn),
        "recent": list(
            reversed(
                game_log_lines(
                    kind=game.kind,
                    events=recent,
                    summary=view.summary,
                    names=shown.names,
                    prior=prior,
                    withdrawn=withdrawals.withdrawn,
                )
            )
        ),
        "can_referee": can_referee,
        # the one Undo target (the engine's undo line), to whoever may take back the
        # last event now; None: not offered
        "undo": undo,
        # A result changes only by a referee's correction (with a note), never here.
        "placements_allowed": last <= 1 and game.result_source == "none",
        "result_stands": game.result_source == "placements",
        "log_allowed": not (game.is_over and game.result_source == "log"),
        "seats": [
            {
                "index": i,
                "handle": handle,
                "name": shown.names.get(handle, handle),
                "place": (game.placements or {}).get(handle),
                # the form's value: what was just posted (refused), else the stored place
                "value": (
                    request.POST.get(f"place-{i}")
                    if error is not None and request.POST.get("action") == "placements"
                    else (game.placements or {}).get(handle)
                ),
            }
            for i, handle in enumerate(game.players or [])
        ],
        "raw_key": buttons.key(),
        # what buttons cannot offer (UNO without a seed: cards to name), prefilled
        "raw_template": buttons.presenter.raw_template(
            moves.legal,
            list(game.players or []),
            start=game.start_event if game.last_sequence else None,
            waiting=bool(game.last_sequence) and not moves.any and moves.turn is None,
            summary=view.summary,
        ),
        "error": error,
        "stale": stale,
        "posted": request.POST if error is not None else {},
        "stop_live": stop_live,
    }
    status = error.http_status if error is not None else 200
    return render(request, "games/score.html", context, status=status)


def _undo_button(
    request: HttpRequest,
    shown: VisibleGame,
    withdrawals: Withdrawals,
    buttons: _Buttons,
    *,
    can_referee: bool,
) -> dict[str, Any] | None:
    """The one "Undo" button (``{"type": "undo"}``): shown while the game is in
    progress with an event to withdraw, to whoever may undo it (not a player of the
    game; a referee's matter only to a referee or an organizer); the choke point
    checks the same (:func:`tournaments.services.recording.game_record_event`)."""
    game = shown.game
    target = withdrawals.target
    if target is None or game.is_over or game.result_source == "placements":
        return None
    if event_needs_referee(kind=game.kind, event=target[1]) and not can_referee:
        return None
    if user_plays_in_game(user=request.user, game=game):
        return None
    return {
        **buttons.undo(),  # json, key, words: a tap target like every other
        "sequence": target[0],
        "target": presenter_for(game.kind).describe(target[1], shown.names),
    }


def _stop_live(
    request: HttpRequest, shown: VisibleGame, *, error: DomainError | None, key: str
) -> dict[str, Any] | None:
    """What "Stop live scoring" offers (``games/score/_stop_live.html``): only once live
    scoring has started and while the game has no result. The pending proposal, whether
    this user may propose (none pending, or their own), the time-up event and the
    proposal form's rows (refused values shown again)."""
    game = shown.game
    if game.last_sequence < 1 or game.is_over or game.result_source != "none":
        return None
    pending = game_pending_proposal(game=game, names=shown.names)
    posted = error is not None and request.POST.get("action") in ("propose", "stop-time")
    own = pending is not None and pending.proposed_by == request.user.get_username()
    current = pending.placements if pending is not None else {}
    return {
        "pending": pending,
        "can_propose": pending is None or own,
        "open": posted,
        "time_up": json.dumps(TIME_UP, separators=(",", ":")),
        "key": key,
        "rows": [
            {
                "index": i,
                "name": shown.names.get(handle, handle),
                "value": (
                    request.POST.get(f"place-{i}")
                    if posted and request.POST.get("action") == "propose"
                    else current.get(handle)
                ),
            }
            for i, handle in enumerate(game.players or [])
        ],
    }


class _Buttons:
    """One form per move: the event (JSON), its words, a stable ``data-move`` for
    automation, and an idempotency key of its own made for this rendering."""

    def __init__(self, *, kind: str, names: Names) -> None:
        self.kind = kind
        self.names = names
        self.presenter = presenter_for(kind)
        self.token = secrets.token_urlsafe(12)
        self.counter = count(1)

    def key(self) -> str:
        return f"{self.token}-{next(self.counter)}"

    def button(self, event: dict[str, Any]) -> dict[str, Any]:
        return {
            "event": event,
            "json": json.dumps(event, separators=(",", ":"), ensure_ascii=False),
            "label": self.presenter.move_label(event, self.names),
            "move": ";".join(
                f"{k}={v}" for k, v in event.items() if k not in ("game", "players", "mode")
            ),
            "key": self.key(),
            "needs_referee": event_needs_referee(kind=self.kind, event=event),
        }

    def undo(self) -> dict[str, Any]:
        """The target that takes back the last event (``{"type": "undo"}``)."""
        made = self.button({"type": "undo"})
        made["label"] = _("Undo the last event")
        made["short"] = _("Undo")
        return made

    def groups(
        self,
        moves: ScoreMoves,
        summary: dict[str, Any] | None = None,
        start: dict[str, Any] | None = None,
    ) -> list[dict[str, Any]]:
        """The button groups in the order a scorekeeper needs them."""
        groups = [
            ("start", self.presenter.start_moves_title, moves.start),
            (
                "legal",
                _("Moves by the rules"),
                self.presenter.button_moves(moves.legal, summary, start),
            ),
            ("table", self.presenter.table_moves_title, moves.table),
            (
                "infractions",
                _("Moves that break a rule (recorded as infractions)"),
                moves.infractions,
            ),
        ]
        return [
            {"name": name, "title": title, "buttons": [self.button(e) for e in events]}
            for name, title, events in groups
            if events
        ]
