"""Referees' rulings on TOCK knocks, and corrections of a finished game's result (issue 12).

:func:`knock_ruling_record` is the one way a ruling is stored: ONE ``tock`` event
carrying the ruling and the referee, appended through the recording choke point
(:func:`tournaments.services.recording.game_record_event`: its sequence check, so a
stale page gets 409 and two referees never both rule; the same follow-ups: round,
standings, ratings, live pages), where the choke point stores its
:class:`~tournaments.models.Ruling` record, in one transaction (nothing half-stored).
A ruling sent as an event through the API is recorded the same way.

Rules:

* only the organizers and referees of the game's tournament (and superusers) may rule;
  a user who may not even see the game gets 404 (:func:`ensure_can_referee_game`);
* ``ruling`` is ``confirm`` (apply the engine's verdict), ``correct`` or ``incorrect``;
  applying another verdict than the engine's is an override and needs a ``note``;
* the engine's verdict is computed under the game's row lock on the log the event is
  appended to, so the record states what the engine judged on exactly that position;
* a knock the engine refuses (before the first turn, on a player who went out...) is
  refused with the engine's reason (422): no ruling can make it legal.

:func:`result_correction_record` corrects the result of a game that has ended (any
kind): ONE ``correction`` event (new placements, a note, the referee) appended through
the same choke point (same role check: the kind calls it a referee's matter; same
sequence check: two referees correcting at once, one gets 409), which stores its
:class:`~tournaments.models.Ruling` record and lets standings and ratings follow.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import EventRejected, GameFinished, MalformedInput
from games.explanations import explain
from games.kinds import ruling_event
from games.models import Game
from games.selectors import game_get
from games.services import check_next_sequence, validate_placements
from tournaments.models import Ruling, RulingChoice
from tournaments.permissions import ensure_can_referee_game
from tournaments.selectors.rulings import knock_preview_of, result_correctable
from tournaments.services.recording import game_correct_placements, game_record_event
from tournaments.services.ruling_records import RulingDecision

MAX_NOTE = 2000


def knock_note(note: Any) -> str:
    """A knock ruling's note, stripped; :class:`MalformedInput` when longer than
    :data:`MAX_NOTE` (the knock ruling on a log and on a table's position share it)."""
    note = note.strip() if isinstance(note, str) else ""
    if len(note) > MAX_NOTE:
        raise MalformedInput(
            _("The note is too long (at most %(max)d characters).") % {"max": MAX_NOTE}
        )
    return note


def knock_ruling_record(
    *,
    game: Game | int | str,
    by: Any,
    ruling: Any,
    note: Any = "",
    expected_sequence: Any,
    user: Any,
) -> Ruling:
    """Store a referee's ruling on a knock by ``by`` made now (see the module rules)."""
    game = game if isinstance(game, Game) else game_get(game_id=game)
    ensure_can_referee_game(user=user, game=game)
    if ruling not in RulingChoice.values:
        raise MalformedInput(_("'ruling' must be confirm, correct or incorrect."))
    if not isinstance(by, str) or not by:
        raise MalformedInput(_("'by' must name the player who knocked."))
    note = knock_note(note)
    with transaction.atomic(durable=True):
        # The engine's verdict on exactly the position the ruling is appended to: the
        # row locked, the preview computed once (the choke point records it with the
        # ruling).
        locked = Game.objects.select_for_update().get(pk=game.pk)
        # A stale page is told so (409) before its knock is judged on a position it
        # did not see (the rule is the append's, stated once).
        check_next_sequence(game=locked, expected_sequence=expected_sequence)
        preview = knock_preview_of(game=locked, by=by)
        if preview["verdict"] == "invalid":
            raise EventRejected(explain(preview))
        applied = preview["verdict"] if ruling == RulingChoice.CONFIRM else ruling
        if applied != preview["verdict"] and not note:
            raise MalformedInput(_("A note is required to override the engine's verdict."))
        event = ruling_event(
            locked.kind,
            by=by,
            ruling=applied,
            referee=getattr(user, "username", "") or "referee",
        )
        outcome = game_record_event(
            game=locked,
            event=event,
            expected_sequence=expected_sequence,
            user=user,
            within=True,
            decision=RulingDecision(choice=ruling, note=note, preview=preview),
        )
        return Ruling.objects.get(game=outcome.game, sequence=outcome.game.last_sequence)


def result_correction_record(
    *,
    game: Game | int | str,
    placements: Any,
    note: Any,
    expected_sequence: Any,
    user: Any,
) -> Ruling:
    """Correct the result of a game that has ended: a placements-only result gets the
    new placements (:func:`~tournaments.services.recording.game_correct_placements`);
    a result from a log gets a ``correction`` event
    (``placements``: player -> place for every seated player, competition ranks;
    ``note``: why, required) carrying the referee's username, through the recording
    choke point, and return the :class:`Ruling` record it stored.

    Organizers and referees of the game's tournament (404 for those who may not see the
    game, 403 for other users, "sign in" for anonymous ones). Refused, with a reason
    in the page's language and nothing stored: a game still in progress or not started
    (:class:`EventRejected`, 422), a bye or a game closed without a result
    (:class:`GameFinished`, 409: nothing to correct), a stale
    ``expected_sequence`` (:class:`StaleSequence`, 409), bad placements (400), an
    empty or overlong note (400).
    """
    # read afresh: the checks below word the refusals (the append re-checks under lock)
    game = game_get(game_id=game.pk if isinstance(game, Game) else game)
    ensure_can_referee_game(user=user, game=game)
    note = note.strip() if isinstance(note, str) else ""
    if not note:
        raise MalformedInput(_("A note is required to correct a result: say why it changes."))
    if len(note) > MAX_NOTE:
        raise MalformedInput(
            _("The note is too long (at most %(max)d characters).") % {"max": MAX_NOTE}
        )
    if not game.is_over:
        raise EventRejected(
            _(
                "The game is still in progress: settle a dispute with a ruling or an "
                "adjudicated end; a correction replaces the result only after the end."
            )
        )
    if not result_correctable(game=game):  # void, a bye
        raise GameFinished(_("This game has no result to correct (a bye, or closed without one)."))
    places = validate_placements(kind=game.kind, players=list(game.players), placements=placements)
    if not game.result_verified:  # placements only: no log to append a correction to
        return game_correct_placements(game=game, placements=places, note=note, user=user)
    event = {
        "type": "correction",
        "referee": getattr(user, "username", "") or "referee",
        "placements": places,
        "note": note,
    }
    outcome = game_record_event(
        game=game.pk, event=event, expected_sequence=expected_sequence, user=user
    )
    return Ruling.objects.get(game=outcome.game, sequence=outcome.game.last_sequence)
