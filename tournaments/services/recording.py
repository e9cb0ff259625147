"""Recording results: the entry points the API and commands call.

Three ways, one rule (see :mod:`games.services`):

1. :func:`game_record_event` – append one event (live scorekeeping);
2. :func:`game_record_log` – attach a whole JSON Lines log, all or nothing;
3. :func:`game_record_placements` – placements only (unverified).

Each wrapper checks the user's role (:func:`tournaments.permissions.user_can_record_game`;
ending a game by adjudication or recording a ruling needs a referee or organizer),
calls the games service inside one transaction and, when the result changed,
finishes the round if every table has a result and enqueues the rating update on
commit. Standings are computed from the stored results on read, so they follow at once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games import services as game_services
from games.errors import LogRejected, ResultMismatch
from games.models import Game
from games.selectors import game_get
from games.services import RecordOutcome
from tournaments.errors import NotAllowed
from tournaments.models import Player, Table
from tournaments.permissions import (
    ensure_can_record_game,
    ensure_signed_in,
    user_can_referee_game,
)
from tournaments.services.rounds import round_refresh_status

logger = logging.getLogger(__name__)


def _resolve(game: Game | int | str) -> Game:
    return game if isinstance(game, Game) else game_get(game_id=game)


def _needs_referee(event: Any) -> bool:
    """Adjudicated ends and rulings are the referee's."""
    if not isinstance(event, Mapping):
        return False
    return "ruling" in event or (event.get("type") == "end" and event.get("reason") != "time")


def _enqueue_rating_update(game_id: int) -> None:
    from ratings.tasks import ratings_update_for_game

    try:
        ratings_update_for_game.delay(game_id)
    except Exception:  # the broker being down must not fail a stored result
        logger.exception("could not enqueue the rating update of game %s", game_id)


def _after_result_change(game: Game) -> None:
    round_id = Table.objects.filter(game_id=game.pk).values_list("round_id", flat=True).first()
    if round_id is not None:
        round_refresh_status(round_id=round_id)
    transaction.on_commit(lambda: _enqueue_rating_update(game.pk))


def _record(
    *,
    game: Game,
    user: Any,
    events: Iterable[Any],
    write: Callable[[Game], RecordOutcome],
) -> RecordOutcome:
    """``write`` in one transaction, for a user whose recording role is already checked.

    Rulings and adjudicated ends among ``events`` need a referee or an organizer, however
    they arrive (one event or a whole log). When the result changed, the round's status
    follows at once and the rating update is enqueued after commit.
    """
    if any(_needs_referee(event) for event in events) and not user_can_referee_game(
        user=user, game=game
    ):
        raise NotAllowed(_("Only a referee or an organizer may record rulings and adjudicate."))
    with transaction.atomic():
        outcome = write(game)
        if outcome.result_changed:
            _after_result_change(outcome.game)
    return outcome


def _recordable(*, game: Game | int | str, user: Any) -> Game:
    """The game, once the user's role lets them record its result (else NotAllowed)."""
    game = _resolve(game)
    ensure_can_record_game(user=user, game=game)
    return game


def game_record_event(
    *, game: Game | int | str, event: Any, expected_sequence: Any, user: Any
) -> RecordOutcome:
    """Append one event (see :func:`games.services.game_append_event` for the rules)."""
    return _record(
        game=_recordable(game=game, user=user),
        user=user,
        events=[event],
        write=lambda g: game_services.game_append_event(
            game=g, event=event, expected_sequence=expected_sequence, user=user
        ),
    )


def game_record_log(
    *, game: Game | int | str, log: str | bytes | Iterable[Mapping[str, Any]], user: Any
) -> RecordOutcome:
    """Attach a whole log (see :func:`games.services.game_attach_log`)."""
    game = _recordable(game=game, user=user)  # before parsing: strangers learn nothing
    events = game_services.game_log_parse(log=log)
    return _record(
        game=game,
        user=user,
        events=events,
        write=lambda g: game_services.game_attach_log(game=g, log=events, user=user),
    )


def game_record_placements(*, game: Game | int | str, placements: Any, user: Any) -> RecordOutcome:
    """Record placements only (see :func:`games.services.game_set_placements`)."""
    return _record(
        game=_recordable(game=game, user=user),
        user=user,
        events=[],
        write=lambda g: game_services.game_set_placements(
            game=g, placements=placements, user=user
        ),
    )


def _check_known(handles: Any, *, create_missing: bool = False) -> None:
    """Every handle must be a known player (non-strings are left for the engine to refuse).

    With ``create_missing`` (imports of outside logs) unknown handles become players
    named after their handle instead of being refused.
    """
    handles = [h for h in handles if isinstance(h, str)] if isinstance(handles, list) else []
    known = set(Player.objects.filter(handle__in=handles).values_list("handle", flat=True))
    unknown = [h for h in handles if h not in known]
    if unknown and create_missing:
        Player.objects.bulk_create(
            [Player(handle=h, display_name=h) for h in dict.fromkeys(unknown) if h],
            ignore_conflicts=True,  # a concurrent import may have created the same handle
        )
    elif unknown:
        raise ResultMismatch(
            _("Unknown player handles: %(handles)s.") % {"handles": ", ".join(unknown)}
        )


def friendly_game_create(
    *,
    kind: str,
    user: Any,
    start_event: Mapping[str, Any] | None = None,
    log: str | bytes | Iterable[Mapping[str, Any]] | None = None,
    placements: Mapping[str, int] | None = None,
    create_players: bool = False,
) -> RecordOutcome:
    """Create a friendly game (no table) from a start event, a whole log or placements.

    Any signed-in user may; every player must be a known :class:`Player` handle, unless
    ``create_players`` (unknown handles become players). All or nothing: a bad log or
    result leaves no game (and no new player) behind.
    """
    ensure_signed_in(user=user)
    given = [x for x in (start_event, log, placements) if x is not None]
    if len(given) != 1:
        raise ResultMismatch(_("Give exactly one of a start event, a log or placements."))
    if log is not None:
        events = game_services.game_log_parse(log=log)
        if not events:
            raise LogRejected(1, _("the log is empty"))
        handles = events[0].get("players")
    elif start_event is not None:
        handles = start_event.get("players") if isinstance(start_event, Mapping) else None
    else:
        handles = list(placements) if isinstance(placements, Mapping) else None
    with transaction.atomic():
        _check_known(handles, create_missing=create_players)
        game = game_services.game_create(kind=kind, user=user)
        if log is not None:
            outcome = game_services.game_attach_log(game=game, log=events, user=user)
        elif start_event is not None:
            outcome = game_services.game_append_event(
                game=game, event=start_event, expected_sequence=1, user=user
            )
        else:
            outcome = game_services.game_set_placements(game=game, placements=placements, user=user)
        if outcome.result_changed:
            _after_result_change(outcome.game)
    return outcome
