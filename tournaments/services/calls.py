"""Calling a referee to a table (issue 23): a player of the game (their account linked
to a player seated there) or whoever may record the game calls; a referee claims the
call (the others see it claimed; another referee may take it over) and closes it,
optionally with a ruling made there. The times are kept (the organizer's median time
to answer per round: :func:`tournaments.selectors.calls.calls_answer_times`).

Rules: a tournament game whose round is running (else 409); calling again while the
table's call is not closed returns that call (one per table, a database constraint);
a one-line reason of at most 200 characters. Claim and close: organizers and referees
of the tournament (404 for those who may not see the game, 403 for others); a closed
call changes no more (409). Audited (``referee_called``, ``referee_call_claimed``,
``referee_call_closed``); the referee list and the table hear of it live.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import MalformedInput
from games.inputs import check_input_text
from games.models import Game
from games.selectors import game_get
from tournaments.errors import InvalidState, NotAllowed, NotFound
from tournaments.models import RefereeCall, RoundStatus, Ruling, Table
from tournaments.permissions import (
    ensure_can_referee_game,
    user_can_record_game,
    user_can_view_game,
    user_is_signed_in,
    user_plays_in_game,
)
from tournaments.selectors.games import table_for_game
from tournaments.services.core import audit_write

MAX_REASON = 200


def _audit(call: RefereeCall, table: Table, user: Any, action: str, **more: Any) -> None:
    audit_write(
        tournament=call.tournament,
        user=user,
        action=action,
        round=table.round,
        game=call.game_id,
        table=table.number,
        call=call.pk,
        **more,
    )


def _table(game: Game) -> Table:
    table = table_for_game(game=game)
    if table is None:
        raise InvalidState(_("Only a tournament table calls a referee."))
    return table


def referee_call(*, game: Game | int | str, user: Any, reason: Any = "") -> RefereeCall:
    """Call a referee to ``game``'s table (see the module rules); the open call."""
    game = game_get(game_id=game.pk if isinstance(game, Game) else game)
    if not (user_plays_in_game(user=user, game=game) or user_can_record_game(user=user, game=game)):
        if user_is_signed_in(user=user) and not user_can_view_game(user=user, game=game):
            raise NotFound()
        raise NotAllowed(_("Only the table's players and its staff call a referee."))
    reason = reason.strip() if isinstance(reason, str) else ""
    check_input_text(reason)
    if len(reason) > MAX_REASON or "\n" in reason:
        raise MalformedInput(
            _("The reason is one line of at most %(max)d characters.") % {"max": MAX_REASON}
        )
    table = _table(game)
    if table.round.status != RoundStatus.RUNNING:
        raise InvalidState(_("The round is over: no referee is called to it."))
    with transaction.atomic(durable=True):
        existing = RefereeCall.objects.filter(game=game, closed_at__isnull=True).first()
        if existing is not None:
            return existing
        try:
            with transaction.atomic():
                call = RefereeCall.objects.create(
                    tournament=table.round.tournament,
                    game=game,
                    reason=reason,
                    called_by=user if user_is_signed_in(user=user) else None,
                )
        except IntegrityError:  # called at the same moment by someone else at the table
            return RefereeCall.objects.get(game=game, closed_at__isnull=True)
        _audit(call, table, user, "referee_called", reason=reason)
    return call


def _decidable(call_id: Any, user: Any) -> tuple[RefereeCall, Table]:
    try:
        call = RefereeCall.objects.select_related("game", "tournament").get(pk=int(call_id))
    except (RefereeCall.DoesNotExist, TypeError, ValueError):
        raise NotFound() from None
    ensure_can_referee_game(user=user, game=call.game)
    return call, _table(call.game)


def referee_call_claim(*, call: Any, user: Any) -> RefereeCall:
    """A referee is on the way (another referee may take a claimed call over)."""
    call_id = call.pk if isinstance(call, RefereeCall) else call
    found, table = _decidable(call_id, user)
    with transaction.atomic(durable=True):
        locked = RefereeCall.objects.select_for_update().get(pk=found.pk)
        if locked.closed_at is not None:
            raise InvalidState(_("This call is closed."))
        locked.claimed_by = user
        locked.claimed_at = locked.claimed_at or timezone.now()
        locked.save(update_fields=["claimed_by", "claimed_at"])
        _audit(locked, table, user, "referee_call_claimed", referee=user.get_username())
    return locked


def referee_call_close(*, call: Any, user: Any, ruling: Any = None) -> RefereeCall:
    """The referee settled it: the call is closed, with the ruling made there if any
    (a ruling of the same game)."""
    call_id = call.pk if isinstance(call, RefereeCall) else call
    found, table = _decidable(call_id, user)
    made = None
    if ruling not in (None, ""):
        made = Ruling.objects.filter(pk=ruling if isinstance(ruling, int) else -1).first()
        if made is None or made.game_id != found.game_id:
            raise MalformedInput(_("The ruling must be one of this game's rulings."))
    with transaction.atomic(durable=True):
        locked = RefereeCall.objects.select_for_update().get(pk=found.pk)
        if locked.closed_at is not None:
            raise InvalidState(_("This call is closed."))
        now = timezone.now()
        locked.claimed_by = locked.claimed_by or user
        locked.claimed_at = locked.claimed_at or now
        locked.closed_by, locked.closed_at, locked.ruling = user, now, made
        locked.save(update_fields=["claimed_by", "claimed_at", "closed_by", "closed_at", "ruling"])
        _audit(locked, table, user, "referee_call_closed", ruling=getattr(made, "pk", None))
    return locked
