"""Recording results: the entry points the API and commands call, and the one choke
point every change to a game or a result goes through.

Three ways, one rule (see :mod:`games.services`):

1. :func:`game_record_event` -- append one event (live scorekeeping);
2. :func:`game_record_log` -- attach a whole JSON Lines log, all or nothing;
3. :func:`game_record_placements` -- placements only (unverified);

and, closing a game without a played result (organizers, referees and the progression
services): :func:`game_record_void` (no result) and :func:`game_record_bye` (one player
alone, first place);

plus :func:`friendly_game_create` (a game without a table, by any of the three) and
:func:`game_refresh` (rebuild a game's cache from its log, e.g. after an engine upgrade).

plus, for the other services, the writes that change a game without a result:
:func:`game_rename` (erasure), :func:`game_seat_players` (a no-show),
:func:`games_create` and :func:`games_create_ids` (a round seated).

Each entry point checks the user's role (:func:`tournaments.permissions.user_can_record_game`;
events the game's kind calls a referee's matter, such as TOCK rulings and adjudicated
ends, need a referee or organizer who does not play in the game; an ``undo`` line, see
:func:`game_record_event`) and then writes through :func:`_write`, the choke
point. In the transaction of the write, ``_write``

* stores a :class:`~tournaments.models.Ruling` record (kind ``correction``) for every
  ``correction`` event it stored, however it arrived (the referee page, the API's
  events endpoint, a whole log), so the rulings page lists every correction of a
  result; a round already finished stays finished and the round seated after it keeps
  its seating (progression only acts on a round finishing now);
* records what changed (:class:`~outbox.changes.GameChanged`). What follows is decided
  in one place, :mod:`tournaments.effects`: in the transaction, the table's round
  finishes when every table has a result (and the tournament after its final round;
  the next round is seated after commit when the tournament progresses by itself), and
  an outbox message rates the game when its result changed; after commit, the caches
  move on and the live pages of the game (and of its tournament when the result
  changed) hear of it.

Standings are computed from the stored results on read, so they follow at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

import games.engine as engine
from games import erasure as game_erasure
from games import services as game_services
from games.errors import LogRejected, ResultMismatch
from games.kinds import ruling_of
from games.models import Game, GameStatus
from games.selectors import game_get, game_withdrawals
from games.services import RecordOutcome
from outbox.changes import GameChanged, RulingRecorded, change_recorded
from tournaments.errors import NotAllowed
from tournaments.models import Player, Ruling
from tournaments.permissions import (
    SYSTEM,
    ensure_can_record_game,
    ensure_not_playing,
    ensure_signed_in,
    game_tournament,
    user_can_referee_game,
)
from tournaments.selectors.games import (
    remember_table,
    table_for_game,
    table_read,
    table_with_game,
)
from tournaments.services.ruling_records import (
    RulingDecision,
    correction_ruling,
    knock_previews,
    record_corrections,
    record_rulings,
    result_before,
)


def _resolve(game: Game | int | str) -> Game:
    return game if isinstance(game, Game) else game_get(game_id=game)


def _needs_referee(*, kind: str, events: Iterable[Any]) -> bool:
    """Whether any of ``events`` is a referee's matter; the game's kind decides."""
    try:
        needs = engine.game_class(kind).event_needs_referee
    except engine.EngineError:  # a kind the engine cannot play: its events are refused
        return False
    return any(needs(event) for event in events if isinstance(event, Mapping))


def _record_change(
    outcome: RecordOutcome, *, shown: bool = False, read: Game | None = None
) -> None:
    """Record what the write changed (:class:`~outbox.changes.GameChanged`): what follows
    it (the round, ratings, caches, live pages) is :mod:`tournaments.effects`' to decide.
    ``shown``: the write changed something listings show besides the result (players,
    names); a game's first events change its status, which they show too. ``read``: the
    game as the entry point read it, with its table (:func:`_where`)."""
    game = outcome.game
    started = bool(outcome.events_added) and game.last_sequence == outcome.events_added
    if not (outcome.events_added or outcome.result_changed or shown):
        return  # nothing changed (an idempotent repeat, a refresh that found it right)
    change_recorded(
        GameChanged(
            game_id=game.pk,
            sequence=game.last_sequence,
            status=game.status,
            result_version=game.result_version,
            events_added=outcome.events_added,
            result_changed=outcome.result_changed,
            shown_changed=shown or started,
            **_where(read if read is not None else game),
        )
    )


def _where(game: Game) -> dict[str, Any]:
    """The ``table`` of a :class:`GameChanged` when this request read the game's table
    already (:func:`_resolve_with_table`): the handler need not read it again."""
    known, table = table_read(game=game)
    if not known:
        return {}
    where = (table.round_id, table.round.tournament_id) if table is not None else None
    return {"table": where, "table_known": True}


def _write(
    *,
    game: Game,
    user: Any,
    events: Iterable[Any],
    write: Callable[[Game], RecordOutcome],
    shown: bool = False,
    within: bool = True,
    decision: RulingDecision | None = None,
) -> RecordOutcome:
    """The choke point: ``write`` and what must follow it, in one transaction, for a
    user whose recording role is already checked.

    Events the game's kind calls a referee's matter need a referee or an organizer,
    however they arrive (one event or a whole log).

    The entry points take ``within``. ``False`` (their default: views, the API and tasks
    call them so): the write is a top-level action, in a durable transaction (nothing
    may wrap it, so what follows it is published when it commits, Zulip's
    ``durable=True``). ``True``: part of the caller's transaction (a service composing
    this one, such as time up, a no-show or a ruling).
    """
    events = events if isinstance(events, list) else list(events)
    if _needs_referee(kind=game.kind, events=events):
        if not user_can_referee_game(user=user, game=game):
            raise NotAllowed(_("Only a referee or an organizer may record rulings and adjudicate."))
        ensure_not_playing(user=user, game=game)  # nobody rules on a game they play in
    corrects = any(isinstance(e, Mapping) and e.get("type") == "correction" for e in events)
    rulings = [(i, found) for i, e in enumerate(events) if (found := ruling_of(game.kind, e))]
    with transaction.atomic(durable=not within):
        before = result_before(game) if corrects or rulings else None
        previews = knock_previews(game, events, rulings, decision) if rulings else []
        outcome = write(game)
        if before is not None and outcome.events_added:
            if corrects:
                record_corrections(outcome=outcome, user=user, before=before)
            if rulings:
                record_rulings(
                    outcome=outcome,
                    user=user,
                    last_before=before[0],
                    events=events,
                    previews=previews,
                    decision=decision,
                )
        _record_change(outcome, shown=shown, read=game)
    return outcome


def _recordable(*, game: Game | int | str, user: Any) -> Game:
    """The game with its table (:func:`_resolve_with_table`), once the user's role lets
    them record its result (else NotAllowed)."""
    game = _resolve_with_table(game, user=user)
    ensure_can_record_game(user=user, game=game)
    return game


def _keep_table(*, outcome: RecordOutcome, game: Game) -> None:
    """Keep the table read before the write on the game the write returns, for the
    answer (:func:`~tournaments.selectors.games.table_for_game`): where a game is played
    does not change with its result, but its round's and tournament's statuses may (the
    last result finishes them). Those two are dropped from the kept instances, as
    deferred fields: whoever reads one gets it fresh from the database (Django loads a
    deferred field on access), and the API's answer, which shows neither, reads
    nothing."""
    table = table_for_game(game=game)
    if table is not None and outcome.result_changed:
        table.round.__dict__.pop("status", None)
        table.round.tournament.__dict__.pop("status", None)
    remember_table(game=outcome.game, table=table)


def _resolve_with_table(game: Game | int | str, *, user: Any = None) -> Game:
    """The game with its table (round, tournament, league, seats) read once and kept on
    it (see :func:`~tournaments.selectors.games.table_for_game`): the role check, the
    referee check and the API's answer use it instead of reading it again (the live
    append path stays at a handful of queries). A tournament game: 2 queries (the table
    with its game, the seats); a friendly one: 2 (no table, then the game). ``user``:
    the user's roles in the tournament are read with the table (the role check that
    follows asks no query; :func:`~tournaments.selectors.games.table_with_game`)."""
    if isinstance(game, Game):
        table_for_game(game=game)
        return game
    try:
        game_id = int(game)
    except (TypeError, ValueError, OverflowError):
        return game_get(game_id=game)  # its GameNotFound
    if not 0 < game_id < 2**63:  # not a database id: answered as before, without a table
        return game_get(game_id=game)
    table = table_with_game(game_id=game_id, user=user)
    found = table.game if table is not None else game_get(game_id=game_id)
    remember_table(game=found, table=table)
    return found


def game_record_event(
    *,
    game: Game | int | str,
    event: Any,
    expected_sequence: Any,
    user: Any,
    idempotency_key: str | None = None,
    within: bool = False,
    decision: RulingDecision | None = None,
) -> RecordOutcome:
    """Append one event (see :func:`games.services.game_append_event` for the rules).

    ``idempotency_key`` (the API's ``Idempotency-Key`` header, the score page's hidden
    key): a request repeating an earlier one with that key stores nothing and returns
    the stored event (``outcome.replayed``); nothing follows it (no live message, no
    rating), since nothing changed.

    ``decision``: a knock ruling from the referee page (:class:`RulingDecision`); a
    ruling without one is recorded as the engine's verdict confirmed or overridden.

    An ``undo`` (``{"type": "undo"}``, withdrawing the latest event not yet withdrawn)
    is the staff's while the game is in progress (the engine refuses it after the end,
    and with nothing to withdraw), never of someone who plays in the game
    (:class:`~tournaments.errors.PlaysInGame`), and of an event that is a referee's
    matter (a ruling, an adjudicated end) only by a referee or an organizer
    (:func:`_check_undo`)."""
    game = _resolve_with_table(game, user=user)
    ensure_can_record_game(user=user, game=game)
    undo = _is_undo(event)
    if undo:
        ensure_not_playing(user=user, game=game)

    def write(g: Game) -> RecordOutcome:
        if undo:
            _check_undo(game=g, user=user, expected_sequence=expected_sequence)
        return game_services.game_append_event(
            game=g,
            event=event,
            expected_sequence=expected_sequence,
            user=user,
            idempotency_key=idempotency_key,
        )

    outcome = _write(
        game=game,
        user=user,
        events=[event],
        write=write,
        within=within,
        decision=decision,
    )
    _keep_table(outcome=outcome, game=game)
    return outcome


def _check_undo(*, game: Game, user: Any, expected_sequence: Any) -> None:
    """An undo withdraws the latest event not yet withdrawn; when that event is a
    referee's matter (the kind's ``event_needs_referee``: a knock ruling, an adjudicated
    end), only a referee or an organizer may undo it (:class:`NotAllowed`). Read with
    the game's row locked, so the event judged is the one the undo withdraws. A stale
    sequence or a retry is left to the append (its 409 / the stored event), and an
    undo with nothing to withdraw to the engine (its 422)."""
    locked = game_services.locked_game(game)
    if type(expected_sequence) is not int or expected_sequence != locked.last_sequence + 1:
        return
    target = game_withdrawals(game=locked).target
    if target is None:
        return
    if _needs_referee(kind=locked.kind, events=[target[1]]) and not user_can_referee_game(
        user=user, game=game
    ):
        raise NotAllowed(_("Only a referee or an organizer may undo a ruling or an adjudication."))


def _is_undo(event: Any) -> bool:
    return isinstance(event, Mapping) and event.get("type") == "undo"


def game_record_log(
    *,
    game: Game | int | str,
    log: str | bytes | Iterable[Mapping[str, Any]],
    user: Any,
    within: bool = False,
) -> RecordOutcome:
    """Attach a whole log (see :func:`games.services.game_attach_log`). Onto a
    placements result: a scorekeeper's log is accepted when its result agrees (the
    result becomes verified); one that differs only from a referee or organizer."""
    game = _recordable(game=game, user=user)  # before parsing: strangers learn nothing
    events = game_services.game_log_parse(log=log)
    # A log whose result differs from recorded placements is a referee's matter.
    replace = user_can_referee_game(user=user, game=game)
    return _write(
        game=game,
        user=user,
        events=events,
        write=lambda g: game_services.game_attach_log(
            game=g, log=events, user=user, replace=replace
        ),
        within=within,
    )


def game_record_placements(
    *,
    game: Game | int | str,
    placements: Any,
    user: Any,
    within: bool = False,
    confirmed_by_players: bool = False,
) -> RecordOutcome:
    """Record placements only (see :func:`games.services.game_set_placements`): the
    same placements again change nothing; different ones for a game that has a result
    are refused (409) whoever sends them: a referee corrects a result on the referee
    page, with a note (:func:`tournaments.services.rulings.result_correction_record`).
    ``confirmed_by_players``: the table's players agreed on them (a players' report,
    :mod:`tournaments.services.reports`)."""
    game = _recordable(game=game, user=user)
    outcome = _write(
        game=game,
        user=user,
        events=[],
        write=lambda g: game_services.game_set_placements(
            game=g, placements=placements, user=user, confirmed_by_players=confirmed_by_players
        ),
        within=within,
    )
    _keep_table(outcome=outcome, game=game)
    return outcome


def game_correct_placements(
    *, game: Game | int | str, placements: Any, note: str, user: Any
) -> Ruling:
    """Correct a placements-only result (no log to append a ``correction`` to): the new
    placements replace the old ones through the choke point, and a :class:`Ruling` of
    kind correction records the referee, both placements and the ``note`` (sequence 0:
    no event). The caller (:func:`tournaments.services.rulings.result_correction_record`)
    checks the role, the note and that the game's result is correctable."""
    game = _resolve(game)
    ensure_not_playing(user=user, game=game)
    with transaction.atomic(durable=True):
        previous = Game.objects.select_for_update().values_list("placements", flat=True)
        previous = previous.get(pk=game.pk)
        outcome = _write(
            game=game,
            user=user,
            events=[],
            write=lambda g: game_services.game_set_placements(
                game=g, placements=placements, user=user, replace=True
            ),
        )
        tournament = game_tournament(game=outcome.game)
        ruling = correction_ruling(
            game=outcome.game,
            tournament=tournament,
            referee=user if getattr(user, "pk", None) else None,
            sequence=0,
            note=note,
            placements=outcome.game.placements,
            previous=previous,
        )
        change_recorded(
            RulingRecorded(game_id=outcome.game.pk, tournament_id=getattr(tournament, "pk", None))
        )
    return ruling


def _adjudicable(*, game: Game | int | str, user: Any) -> Game:
    """The game, once the user may close it without a played result: organizers and
    referees of its tournament (and SYSTEM, for the progression services); else
    ``GameNotFound`` / :class:`NotAllowed` as for recording."""
    game = _recordable(game=game, user=user)
    if not user_can_referee_game(user=user, game=game):
        raise NotAllowed(_("Only a referee or an organizer may close a game without its result."))
    return game


def game_record_void(*, game: Game | int | str, user: Any, within: bool = False) -> RecordOutcome:
    """Close a game that has no event and no result without a result (status ``void``:
    no points, not rated; :func:`games.services.game_void` has the rules), through the
    choke point, so its round finishes (and progresses) like after any result. Used
    when a round's time is up before the game started. Organizers and referees."""
    return _write(
        game=_adjudicable(game=game, user=user),
        user=user,
        events=[],
        write=lambda g: game_services.game_void(game=g, user=user),
        within=within,
    )


def game_record_bye(
    *, game: Game | int | str, player: str, user: Any, within: bool = False
) -> RecordOutcome:
    """Give ``player`` a bye: the game (no event, no result) is closed with ``player``
    alone in first place, not rated (:func:`games.services.game_award_bye`), through the
    choke point. Used when the other players of a table did not show up. Organizers
    and referees."""
    return _write(
        game=_adjudicable(game=game, user=user),
        user=user,
        events=[],
        write=lambda g: game_services.game_award_bye(game=g, player=player, user=user),
        within=within,
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
    for given_input in (start_event, placements):
        game_services.check_input_text(given_input)  # before any handle reaches a query
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
    with transaction.atomic(durable=True):  # a top-level action
        _check_known(handles, create_missing=create_players)
        game = game_services.game_create(kind=kind, user=user)
        if log is not None:
            return _write(
                game=game,
                user=user,
                events=events,
                write=lambda g: game_services.game_attach_log(game=g, log=events, user=user),
            )
        if start_event is not None:
            return _write(
                game=game,
                user=user,
                events=[start_event],
                write=lambda g: game_services.game_append_event(
                    game=g, event=start_event, expected_sequence=1, user=user
                ),
            )
        return _write(
            game=game,
            user=user,
            events=[],
            write=lambda g: game_services.game_set_placements(
                game=g, placements=placements, user=user
            ),
        )


def game_refresh(*, game: Game | int | str) -> RecordOutcome:
    """Rebuild a game's cached state from its log (maintenance: after an engine
    upgrade, or when a cache is suspect). Idempotent; a result that the replay changes
    follows like any other change (round, ratings, live pages)."""
    game = _resolve(game)
    return _write(
        game=game,
        user=SYSTEM,
        events=[],
        write=lambda g: game_services.game_refresh_cache(game=g),
    )


def game_rename(
    *, game: Game | int, old: str, new: str, texts: Iterable[str] = ()
) -> RecordOutcome:
    """Rename a player in one game (:func:`games.erasure.game_rename_player`: erasure;
    the result stays) through the choke point. No role check: the caller's service
    checks (only superusers erase)."""
    return _write(
        game=_resolve(game),
        user=SYSTEM,
        events=[],
        write=lambda g: game_erasure.game_rename_player(game=g, old=old, new=new, texts=texts),
        shown=True,
    )


def game_seat_players(*, game: Game | int, players: list[str], user: Any) -> RecordOutcome:
    """Change who plays a game that has not started (:func:`games.services.game_set_players`:
    a no-show) through the choke point. The caller's service checks the role
    (organizers mark no-shows)."""

    def write(g: Game) -> RecordOutcome:
        changed = game_services.game_set_players(game=g, players=players, user=user)
        return RecordOutcome(game=changed, events_added=0, result_changed=False)

    return _write(game=_resolve(game), user=user, events=[], write=write, shown=True)


def games_create_ids(*, kind: str, seatings: list[list[str]], user: Any) -> list[int]:
    """:func:`games_create` for a caller that needs only the ids (in seating order):
    :func:`games.services.game_create_batch_ids`, one statement, no model instances; each
    game recorded as a change all the same (a new game: pending, result version 0)."""
    with transaction.atomic():
        ids = game_services.game_create_batch_ids(kind=kind, seatings=seatings, user=user)
        for game_id in ids:
            change_recorded(
                GameChanged(
                    game_id=game_id,
                    sequence=0,
                    status=GameStatus.PENDING,
                    result_version=0,
                    shown_changed=True,
                )
            )
    return ids


def games_create(*, kind: str, seatings: list[list[str]], user: Any) -> list[Game]:
    """Create one not-yet-started game per seating (:func:`games.services.game_create_batch`:
    a round seated), each recorded as a change. The caller's service checks the role."""
    with transaction.atomic():
        games = game_services.game_create_batch(kind=kind, seatings=seatings, user=user)
        for game in games:
            change_recorded(
                GameChanged(
                    game_id=game.pk,
                    sequence=0,
                    status=game.status,
                    result_version=game.result_version,
                    shown_changed=True,
                )
            )
    return games
