"""Results reported by the players of a table (issue 23, "Results reported by the
table"), on the proposed-result state of issue 22: a report IS a
:class:`~tournaments.models.ResultProposal` of origin ``players``, so pending and
disputed reports wait in the same place on the referee list as a scorekeeper's
proposal, and a referee decides them with the same confirm / reject
(:mod:`tournaments.services.proposals`).

Rules:

* Who reports: a signed-in user linked (``Player.user``) to a player seated in the
  game. Anyone else: 404 when they may not see the game, else 403.
* Which games: a tournament game without a log (no event) and without a result, not
  over (else :class:`~games.errors.GameFinished` or
  :class:`~games.errors.ResultConflict`, 409). A scorekeeper's pending proposal for the
  game comes first (409).
* The first report opens the proposal (status pending) with the reporter's
  placements (the kind's placement rule: 400). The same call by another player of the
  game is their answer: the same placements confirm it, different ones dispute it
  (status disputed: a referee decides, seeing who said what). A player may change their
  answer while the report is open (a disputing player who comes round makes it pending
  again). The reporter may replace their report while it is pending: the others'
  confirmations are cleared (they confirmed other placements).
* Who must agree (``Tournament.report_agreement``): ``all`` (the default) every player
  of the table who has an account and is still in the event (unlinked, dropped and
  no-show players are not waited for); ``two`` the reporter and one other of those (the
  reporter alone when they are the only one). Once they have, the placements are the
  game's result through the recording choke point (standings, ratings and progression
  follow as for any result), marked confirmed by the players
  (``Game.players_confirmed``), and the report is confirmed.
* Staff who may enter the game's placements (its tournament's organizers, referees and
  scorekeepers) accept a pending report early (:func:`game_report_accept`); never a
  player of the game (403), never a disputed one (409: a referee decides it on the
  referee list, with confirm or reject-and-replace).

Every report, confirmation, dispute and acceptance is a line in the tournament's audit
log, written in the transaction of the change (which is also what tells the live pages).
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import GameFinished, ResultConflict
from games.inputs import check_input_text, validate_placements
from games.models import Game, GameStatus, ResultSource
from games.selectors import game_get
from games.services import locked_game
from tournaments.errors import InvalidState, NotAllowed, NotFound
from tournaments.models import (
    OPEN_STATUSES,
    ProposalOrigin,
    ProposalStatus,
    ReportAgreement,
    ResultProposal,
    Table,
)
from tournaments.permissions import (
    SYSTEM,
    ensure_can_record_game,
    ensure_not_playing,
    user_can_view_game,
    user_is_signed_in,
)
from tournaments.selectors.games import table_for_game
from tournaments.selectors.reports import ReportState, report_state, user_plays, voters
from tournaments.services.core import audit_write
from tournaments.services.recording import game_record_placements


def _reporter_handle(*, user: Any, game: Game) -> str:
    """The handle of the player ``user`` is linked to, seated in ``game``; else 404
    (the game is hidden from them) or 403."""
    handle = user_plays(user=user, game=game)
    if handle is None:
        if not user_can_view_game(user=user, game=game):
            raise NotFound()
        raise NotAllowed(_("Only a player of this table reports its result."))
    return handle


def _table(game: Game) -> Table:
    table = table_for_game(game=game)
    if table is None:
        raise InvalidState(_("Only a tournament table's players report its result."))
    return table


def _enough(*, state: ReportState, voters: list[str], rule: str) -> bool:
    """Whether the players who must agree have (see the module rules)."""
    if state.disputed_by:
        return False
    agreed = set(state.agreed)
    if rule == ReportAgreement.TWO:
        return len(agreed) >= min(2, max(1, len(voters)))
    return all(h in agreed for h in voters)


def _open_for_reports(game: Game) -> None:
    if game.is_over or game.status == GameStatus.VOID or game.result_source != ResultSource.NONE:
        raise GameFinished(
            _("This game already has a result. A referee changes it with a correction.")
        )
    if game.last_sequence > 0:
        raise ResultConflict(
            _("This game is being recorded live: its result comes from the log, not from a report.")
        )


def _audit(*, table: Table, user: Any, action: str, proposal: ResultProposal, **more: Any) -> None:
    audit_write(
        tournament=table.round.tournament,
        user=user,
        action=action,
        round=table.round,
        game=proposal.game_id,
        proposal=proposal.pk,
        table=table.number,
        **more,
    )


def game_report(*, game: Game | int | str, placements: Any, user: Any) -> ReportState:
    """A player of ``game`` reports its ``placements`` or answers the open report (see
    the module rules). Returns the report's state after the answer; when enough players
    have agreed, the result is recorded in the same transaction (status accepted)."""
    game = game_get(game_id=game.pk if isinstance(game, Game) else game)
    handle = _reporter_handle(user=user, game=game)
    table = _table(game)
    check_input_text(placements)
    rule = table.round.tournament.report_agreement
    with transaction.atomic(durable=True):
        locked = locked_game(game)
        _open_for_reports(locked)
        places = validate_placements(
            kind=locked.kind, players=list(locked.players or []), placements=placements
        )
        counted = voters(game=locked, table=table)
        now = timezone.now().isoformat()
        proposal = (
            ResultProposal.objects.select_for_update()
            .filter(game=locked, status__in=OPEN_STATUSES)
            .first()
        )
        if proposal is not None and proposal.origin != ProposalOrigin.PLAYERS:
            raise ResultConflict(
                _(
                    "A scorekeeper's proposed result for this game is waiting for a referee; "
                    "a referee decides it first."
                )
            )
        if proposal is None:
            try:
                with transaction.atomic():
                    proposal = ResultProposal.objects.create(
                        game=locked,
                        tournament=table.round.tournament,
                        origin=ProposalOrigin.PLAYERS,
                        placements=places,
                        votes={handle: {"placements": places, "at": now}},
                        proposed_by=user,
                    )
            except IntegrityError:  # the constraint: another report at the same moment
                raise ResultConflict(
                    _("Another player reported this game at the same moment; reload.")
                ) from None
            action = "report_made"
        else:
            votes = dict(proposal.votes or {})
            reporter = next(iter(votes), None)
            if handle == reporter and proposal.status == ProposalStatus.PENDING:
                # the reporter replaces their report: earlier confirmations were of
                # other placements
                action = "report_replaced" if places != proposal.placements else "report_made"
                proposal.placements = places
                votes = {handle: {"placements": places, "at": now}}
            else:
                votes[handle] = {"placements": places, "at": now}
                action = "report_confirmed" if places == proposal.placements else "report_disputed"
            proposal.votes = votes
            disputed = any(v["placements"] != proposal.placements for v in votes.values())
            proposal.status = ProposalStatus.DISPUTED if disputed else ProposalStatus.PENDING
            proposal.created_at = proposal.created_at  # (when it was first reported)
            proposal.save(update_fields=["placements", "votes", "status"])
        _audit(
            table=table,
            user=user,
            action=action,
            proposal=proposal,
            player=handle,
            placements=places,
        )
        state = report_state(proposal=proposal, voters=counted, rule=rule)
        if proposal.status == ProposalStatus.PENDING and _enough(
            state=state, voters=counted, rule=rule
        ):
            _accept(game=locked, proposal=proposal, table=table, user=user, by_players=True)
            state = report_state(proposal=proposal, voters=counted, rule=rule)
    return state


def _accept(
    *, game: Game, proposal: ResultProposal, table: Table, user: Any, by_players: bool
) -> None:
    """Record the report's placements as the result (through the choke point: SYSTEM
    records it, the audit names who made it happen) and close the report."""
    game_record_placements(
        game=game,
        placements=proposal.placements,
        user=SYSTEM,
        within=True,
        confirmed_by_players=by_players,
    )
    proposal.status = ProposalStatus.CONFIRMED
    proposal.decided_by = user if user_is_signed_in(user=user) else None
    proposal.decided_at = timezone.now()
    proposal.save(update_fields=["status", "decided_by", "decided_at"])
    _audit(
        table=table,
        user=user,
        action="report_accepted" if by_players else "report_accepted_by_staff",
        proposal=proposal,
        placements=proposal.placements,
    )


def game_report_accept(*, game: Game | int | str, user: Any) -> ReportState:
    """Staff accept the game's pending report before every player has answered (see
    the module rules): its placements become the result (not marked confirmed by the
    players: staff decided). 404 without a pending report; 409 when it is disputed."""
    game = game_get(game_id=game.pk if isinstance(game, Game) else game)
    ensure_can_record_game(user=user, game=game)
    ensure_not_playing(user=user, game=game)
    table = _table(game)
    with transaction.atomic(durable=True):
        locked = locked_game(game)
        proposal = (
            ResultProposal.objects.select_for_update()
            .filter(game=locked, status__in=OPEN_STATUSES, origin=ProposalOrigin.PLAYERS)
            .first()
        )
        if proposal is None:
            raise NotFound(_("No report of this game is waiting."))
        if proposal.status == ProposalStatus.DISPUTED:
            raise ResultConflict(
                _(
                    "The players disagree about this result: a referee decides it from the "
                    "referee list."
                )
            )
        _open_for_reports(locked)
        _accept(game=locked, proposal=proposal, table=table, user=user, by_players=False)
        return report_state(
            proposal=proposal,
            voters=voters(game=locked, table=table),
            rule=table.round.tournament.report_agreement,
        )
