"""Proposed results (issue 22, "No dead ends"): a scorekeeper who stops recording live
proposes the table's placements; a referee or an organizer of the tournament confirms
them in one tap, or rejects them (optionally replacing them with their own placements),
with a note.

A scorekeeper never decides a result against the log: a proposal records nothing by
itself. Its confirmation records the result through the recording choke point
(:func:`tournaments.services.recording._write`, by the referee):

* a game with a log (live scoring started): ONE ``end`` event
  ``{"type": "end", "reason": "adjudicated", "referee": <username>, "placements": {...}}``
  appended by the referee (a referee's matter for every kind:
  ``Game.event_needs_referee``), so the engine checks the placements against the
  position (TOCK: a player who went out keeps their place; refused with its reason,
  422: the referee then replaces the proposal);
* a game without a log (no event yet): the placements, unverified
  (:func:`~tournaments.services.recording.game_record_placements`).

Either way the round moves on as after any result (standings, ratings, the next round).
Every decision stores a :class:`~tournaments.models.Ruling` (``proposal_ok``,
``proposal_replaced`` or ``proposal_rejected``, listed on the rulings page like the
other referee decisions) and a line in the tournament's audit log, in the transaction
of the write; the live pages hear of it (:mod:`outbox.changes`).

Rules:

* propose: whoever may record the game (its tournament's scorekeepers, referees and
  organizers); the game has no result and is not over (:class:`GameFinished`, 409);
  the placements through the kind's placement rule (400). While a proposal is
  pending, its proposer may replace it with new placements (the same proposal,
  updated); anyone else gets :class:`ResultConflict` (409: a referee decides the
  pending one first);
* confirm, reject: organizers and referees of the game's tournament (404 for those who
  may not see the game, 403 for other users), never a user linked to a player seated in
  the game (403); a game without a pending proposal: :class:`NotFound` (404). A
  rejection needs a note (400); with placements it replaces the proposal (the result is
  recorded as for a confirmation, with the referee's placements), without them it
  records nothing (the table may go on playing, or propose again).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import GameFinished, MalformedInput, ResultConflict
from games.inputs import check_input_text, validate_placements
from games.models import Game, GameStatus, ResultSource
from games.selectors import game_get
from games.services import locked_game
from outbox.changes import RulingRecorded, change_recorded
from tournaments.errors import NotAllowed, NotFound
from tournaments.models import (
    OPEN_STATUSES,
    ProposalOrigin,
    ProposalStatus,
    ResultProposal,
    Ruling,
    RulingChoice,
    Table,
)
from tournaments.permissions import (
    acting_user,
    ensure_can_record_game,
    ensure_can_referee_game,
    game_tournament,
    user_plays_in_game,
)
from tournaments.services.core import audit_write
from tournaments.services.recording import game_record_event, game_record_placements

#: The longest note a referee may give (as for rulings and corrections).
MAX_NOTE = 2000


def _game(game: Game | int | str) -> Game:
    return game_get(game_id=game.pk if isinstance(game, Game) else game)


def _open(game: Game) -> None:
    """Refuse a game whose result is decided already (over, void, a result stored)."""
    if game.is_over or game.status == GameStatus.VOID or game.result_source != ResultSource.NONE:
        raise GameFinished(
            _(
                "This game already has a result: nothing to propose. A referee changes "
                "it with a correction."
            )
        )


def _audit(*, game: Game, user: Any, action: str, proposal: ResultProposal, **details: Any) -> None:
    """A line in the tournament's audit log (which records the change, so the live
    pages of the tournament hear of it); none for a friendly game."""
    table = Table.objects.filter(game_id=game.pk).select_related("round__tournament").first()
    if table is None:
        return
    audit_write(
        tournament=table.round.tournament,
        user=user,
        action=action,
        round=table.round,
        game=game.pk,
        proposal=proposal.pk,
        placements=proposal.placements,
        **details,
    )


def result_propose(*, game: Game | int | str, placements: Any, user: Any) -> ResultProposal:
    """Propose ``placements`` (player -> place) for ``game`` (see the module rules);
    returns the pending proposal (new, or the proposer's own one updated)."""
    game = _game(game)
    ensure_can_record_game(user=user, game=game)
    check_input_text(placements)
    with transaction.atomic(durable=True):
        locked = locked_game(game)
        _open(locked)
        places = validate_placements(
            kind=locked.kind, players=list(locked.players or []), placements=placements
        )
        pending = ResultProposal.objects.select_for_update().filter(
            game=locked, status__in=OPEN_STATUSES
        )
        proposal = pending.first()
        if proposal is not None:
            if (
                acting_user(user=user) is None
                or proposal.proposed_by_id != user.pk
                or proposal.origin != ProposalOrigin.STAFF
            ):
                raise ResultConflict(
                    _(
                        "A proposed result for this game is already waiting for a referee; "
                        "a referee confirms or rejects it first."
                    )
                )
            proposal.placements = places
            proposal.sequence = locked.last_sequence
            proposal.created_at = timezone.now()
            proposal.save(update_fields=["placements", "sequence", "created_at"])
            action = "result_proposal_replaced"
        else:
            try:
                with transaction.atomic():
                    proposal = ResultProposal.objects.create(
                        game=locked,
                        tournament=game_tournament(game=game),
                        placements=places,
                        sequence=locked.last_sequence,
                        proposed_by=acting_user(user=user),
                    )
            except IntegrityError:  # the constraint: someone proposed at the same time
                raise ResultConflict(
                    _("A proposed result for this game is already waiting for a referee.")
                ) from None
            action = "result_proposed"
        _audit(game=game, user=user, action=action, proposal=proposal)
    return proposal


def _decidable(*, game: Game | int | str, user: Any) -> Game:
    """The game once ``user`` may decide its proposed result (see the module rules)."""
    game = _game(game)
    ensure_can_referee_game(user=user, game=game)
    if user_plays_in_game(user=user, game=game):
        raise NotAllowed(_("You play in this game: another referee decides its result."))
    return game


def _pending(game: Game) -> ResultProposal:
    """The game's pending proposal, its row locked (else 404)."""
    proposal = (
        ResultProposal.objects.select_for_update()
        .filter(game=game, status__in=OPEN_STATUSES)
        .first()
    )
    if proposal is None:
        raise NotFound(_("This game has no proposed result waiting."))
    return proposal


def _record_result(*, game: Game, placements: dict[str, int], user: Any) -> int:
    """Record ``placements`` as the game's result through the choke point, by the
    referee ``user``; the sequence of the ``end`` event that did (0: no log)."""
    if game.last_sequence >= 1:
        event = {
            "type": "end",
            "reason": "adjudicated",
            "referee": getattr(user, "username", "") or "referee",
            "placements": placements,
        }
        outcome = game_record_event(
            game=game,
            event=event,
            expected_sequence=game.last_sequence + 1,
            user=user,
            within=True,
        )
        return outcome.game.last_sequence
    game_record_placements(game=game, placements=placements, user=user, within=True)
    return 0


def _ruling(
    *,
    game: Game,
    user: Any,
    choice: str,
    sequence: int,
    note: str,
    placements: dict[str, int] | None,
    previous: dict[str, int] | None,
) -> Ruling:
    tournament = game_tournament(game=game)
    ruling = Ruling.objects.create(
        game=game,
        tournament=tournament,
        referee=acting_user(user=user),
        sequence=sequence,
        knocker="",
        against="",
        engine_verdict="",
        engine_code="",
        ruling=choice,
        applied=choice,
        note=note,
        placements=placements,
        previous_placements=previous,
    )
    change_recorded(RulingRecorded(game_id=game.pk, tournament_id=getattr(tournament, "pk", None)))
    return ruling


def _decide(*, proposal: ResultProposal, user: Any, status: str, note: str) -> None:
    proposal.status = status
    proposal.decided_by = acting_user(user=user)
    proposal.decided_at = timezone.now()
    proposal.note = note
    proposal.save(update_fields=["status", "decided_by", "decided_at", "note"])


def result_proposal_confirm(*, game: Game | int | str, user: Any) -> Ruling:
    """Confirm the game's pending proposal: its placements become the result (see the
    module: an ``end`` event by the referee, or placements without a log), the proposal
    is confirmed, a :class:`Ruling` ``proposal_ok`` is stored; all in one transaction."""
    game = _decidable(game=game, user=user)
    with transaction.atomic(durable=True):
        locked = locked_game(game)
        proposal = _pending(locked)
        _open(locked)
        sequence = _record_result(game=locked, placements=proposal.placements, user=user)
        _decide(proposal=proposal, user=user, status=ProposalStatus.CONFIRMED, note="")
        ruling = _ruling(
            game=locked,
            user=user,
            choice=RulingChoice.PROPOSAL_CONFIRMED,
            sequence=sequence,
            note="",
            placements=proposal.placements,
            previous=None,
        )
        _audit(game=locked, user=user, action="result_proposal_confirmed", proposal=proposal)
    return ruling


def result_proposal_reject(
    *, game: Game | int | str, note: Any, user: Any, placements: Any = None
) -> Ruling:
    """Reject the game's pending proposal, with a ``note`` (required). With
    ``placements`` (player -> place) the referee replaces it: they are recorded as the
    result as a confirmation would (Ruling ``proposal_replaced``); without, nothing is
    recorded (Ruling ``proposal_rejected``)."""
    note = note.strip() if isinstance(note, str) else ""
    if not note:
        raise MalformedInput(_("A note is required to reject a proposed result: say why."))
    if len(note) > MAX_NOTE:
        raise MalformedInput(
            _("The note is too long (at most %(max)d characters).") % {"max": MAX_NOTE}
        )
    check_input_text(note)
    check_input_text(placements)
    game = _decidable(game=game, user=user)
    with transaction.atomic(durable=True):
        locked = locked_game(game)
        proposal = _pending(locked)
        sequence, places, choice = 0, None, RulingChoice.PROPOSAL_REJECTED
        if placements is not None and not (isinstance(placements, Mapping) and not placements):
            _open(locked)
            places = validate_placements(
                kind=locked.kind, players=list(locked.players or []), placements=placements
            )
            sequence = _record_result(game=locked, placements=places, user=user)
            choice = RulingChoice.PROPOSAL_REPLACED
        _decide(proposal=proposal, user=user, status=ProposalStatus.REJECTED, note=note)
        ruling = _ruling(
            game=locked,
            user=user,
            choice=choice,
            sequence=sequence,
            note=note,
            placements=places,
            previous=proposal.placements,
        )
        _audit(
            game=locked,
            user=user,
            action="result_proposal_rejected",
            proposal=proposal,
            note=note,
            replaced_by=places,
        )
    return ruling
