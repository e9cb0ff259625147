"""Write services for games: the three ways to record a result, one rule.

The rule: when a game has a log, its result is whatever the engine derives by
replaying that log. Every service here

* runs in ``transaction.atomic()`` with the game row locked (``select_for_update``),
  so two writers on the same game are serialized, and the ``(game, sequence)``
  unique constraint is the last line of defence (an ``IntegrityError`` becomes
  :class:`~games.errors.StaleSequence`);
* validates everything before writing anything: raising a
  :class:`~games.errors.DomainError` means nothing was stored;
* keeps the derived-state cache (``state``, ``summary``, ``state_sequence``) equal to
  a replay of the log from scratch.

Sequence numbers start at 1 with the ``start`` event (see :mod:`games.models`); the
client sends the sequence number it wants to write, i.e. ``last_sequence + 1``.

These services know nothing about tournaments or permissions. The API must call the
wrappers in :mod:`tournaments.services.recording`, which check the user's role, check
the players against the table's seats and update standings/ratings on commit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import games.engine as engine
from games.bulk import insert_rows
from games.errors import (
    EventRejected,
    GameFinished,
    GameNotFound,
    IdempotencyKeyReused,
    LogRejected,
    MalformedInput,
    ResultConflict,
    ResultMismatch,
    StaleSequence,
)
from games.inputs import (  # noqa: F401  (the inputs' checks are part of this API)
    IDEMPOTENCY_KEY_RE,
    MAX_EVENT_BYTES,
    MAX_LOG_BYTES,
    check_idempotency_key,
    check_input_text,
    check_sequence_number,
    game_log_parse,
    normalize_event,
    validate_placements,
)
from games.kinds import is_game_kind
from games.models import Game, GameEvent, GameStatus, ResultSource
from games.selectors import game_engine, game_event_list


@dataclass(frozen=True)
class RecordOutcome:
    """What a recording service did.

    ``game`` is the updated game (re-read under lock: use it, not the object you
    passed in); ``events_added`` the number of new log lines; ``result_changed`` is
    true when the game's placements (or their source) changed, i.e. standings and
    ratings must follow.
    """

    game: Game
    events_added: int
    result_changed: bool
    #: :func:`game_append_event`: the event stored (now, or by the earlier request
    #: whose ``Idempotency-Key`` this one repeats); ``None`` for the other services.
    event: GameEvent | None = None
    #: True when nothing was stored because the request repeated an earlier one (same
    #: ``Idempotency-Key``, same event and sequence): ``event`` is the stored one.
    replayed: bool = False


def _actor(user: Any) -> Any:
    """The user to store as author: ``None`` for anonymous/system callers."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return user


def _check_start(game: Game, start_event: dict[str, Any], eng: engine.Game) -> None:
    """The start event must be of the game's kind and name the game's players in order."""
    if start_event.get("game") != game.kind:
        raise ResultMismatch(
            _("The start event is for game %(got)r, but this game is %(kind)r.")
            % {"got": start_event.get("game"), "kind": game.kind}
        )
    if game.players and list(eng.players) != list(game.players):
        raise ResultMismatch(
            _("The log's players %(got)s differ from the seated players %(seated)s (seat order).")
            % {"got": ", ".join(eng.players), "seated": ", ".join(game.players)}
        )


def _apply_derived(game: Game, eng: engine.Game) -> bool:
    """Copy the engine's derived state onto ``game`` (not saved). Return result_changed.

    The state is cached without the log lines (:meth:`engine.Game.cache_state`): the
    event rows are the log, and a state holding them grew with every event (an UNO
    game's append at its 300th event: 3.1 ms with them, 2.3 without)."""
    game.state = eng.cache_state()
    game.summary = eng.summary()
    game.state_sequence = game.last_sequence
    if game.played_at is None and game.last_sequence:
        game.played_at = timezone.now()  # its first events are being recorded
    outcome = eng.outcome()  # typed: status, placements (None while in progress), why
    places = outcome.placements
    source = ResultSource.LOG if outcome.is_over else ResultSource.NONE
    if not outcome.is_over and game.result_source == ResultSource.PLACEMENTS:
        # An unfinished log (the start event only) does not erase a placements-only result.
        return False
    game.status = GameStatus(outcome.status.value)  # the column keeps the engine's strings
    changed = places != game.placements or source != game.result_source
    if changed:
        game.placements = places
        game.result_source = source
        game.result_version += 1
        if places is None:
            game.finished_at = None
        elif game.finished_at is None:
            game.finished_at = timezone.now()
    return changed


def locked_game(game: Game | int) -> Game:
    """Re-read the game with its row locked until the end of the transaction."""
    pk = game.pk if isinstance(game, Game) else game
    try:
        return Game.objects.select_for_update().get(pk=int(pk))
    except (TypeError, ValueError, OverflowError, Game.DoesNotExist) as exc:
        raise GameNotFound() from exc


def game_create(
    *,
    kind: str,
    players: Iterable[str] | None = None,
    start_event: Mapping[str, Any] | None = None,
    user: Any = None,
) -> Game:
    """Create a game of ``kind``.

    ``players`` (seat order) fixes who must be named by the start event; with a
    ``start_event`` the game starts at once (event 1 is stored). Without either the
    players are taken from the first start event recorded.
    """
    if not is_game_kind(kind):
        raise MalformedInput(_("Unknown game kind %(kind)r.") % {"kind": kind})
    names = list(players or [])
    if len(set(names)) != len(names) or not all(isinstance(p, str) and p for p in names):
        raise MalformedInput(_("Players must be distinct non-empty handles."))
    with transaction.atomic():
        game = Game.objects.create(kind=kind, players=names, created_by=_actor(user))
        if start_event is not None:
            game = game_append_event(
                game=game, event=start_event, expected_sequence=1, user=user
            ).game
    return game


def check_next_sequence(*, game: Game, expected_sequence: Any) -> int:
    """``expected_sequence`` if it is the next event of ``game`` (its row locked by the
    caller), else :class:`StaleSequence` (409) with the current sequence: a page that
    did not see the last event. The one statement of the rule (the append, and the
    referee's ruling before it judges the position)."""
    if (
        isinstance(expected_sequence, bool)
        or not isinstance(expected_sequence, int)
        or expected_sequence != game.last_sequence + 1
    ):
        raise StaleSequence(game.last_sequence, expected_sequence)
    return expected_sequence


def game_append_event(
    *,
    game: Game | int,
    event: Any,
    expected_sequence: Any,
    user: Any,
    idempotency_key: str | None = None,
) -> RecordOutcome:
    """Append one event to a game's log (live scorekeeping).

    Rules:

    * with an ``idempotency_key`` (:func:`check_idempotency_key`, else 400) that an
      event of this game already carries, nothing is stored: the same event and
      ``expected_sequence`` as that event is a retry and returns it
      (``replayed=True``, ``events_added=0``; even once the game is over or has
      moved on), anything else is :class:`IdempotencyKeyReused` (422). Checked under
      the row lock, so two requests with one key store one event; the key is stored
      with the event (unique per game: the last line of defence);
    * ``expected_sequence`` must be exactly ``last_sequence + 1``, else
      :class:`StaleSequence` carrying the current sequence (409);
    * the game must not be over (:class:`GameFinished`) nor carry a placements-only
      result, with one exception: the ``correction`` event (new placements and a note,
      which every kind's engine accepts only after the end) may follow the end of a
      game whose result comes from its log; the engine refuses it (422, with its
      reason) while the game is in progress. The stored result then follows the
      replay like any other change (``result_version`` grows when the places change);
    * event 1 must be the ``start`` event naming the game's players in seat order
      (:class:`ResultMismatch`);
    * the engine validates the event against the state after the last event; a refusal
      raises :class:`EventRejected` with the engine's one-line reason (422).

    Nothing is stored unless the event is accepted. The state cache is advanced by
    pushing the one event onto the cached state (no replay when the cache is fresh); an
    ``undo`` first takes the log lines from the event rows (the cache holds none).
    """
    expected_sequence = check_sequence_number(expected_sequence)
    data = normalize_event(event)
    key = check_idempotency_key(idempotency_key)
    with transaction.atomic():
        game = locked_game(game)
        # A retry is of a stored event (a sequence already written) or meets a game
        # over: only then look the key up. A new event with a key used before is caught
        # by the unique (game, key) constraint below, with no query spent beforehand.
        maybe_retry = (
            expected_sequence <= game.last_sequence
            or game.is_over
            or game.result_source == ResultSource.PLACEMENTS
        )
        if key is not None and maybe_retry:
            replay = _replay_of(game=game, key=key, data=data, sequence=expected_sequence)
            if replay is not None:
                return replay
        if (
            game.is_over and not (data.get("type") == "correction" and game.last_sequence)
        ) or game.result_source == ResultSource.PLACEMENTS:
            raise GameFinished()
        check_next_sequence(game=game, expected_sequence=expected_sequence)
        try:
            if game.last_sequence == 0:
                eng = engine.start(data)
            else:
                eng = game_engine(game=game)
                if data.get("type") == "undo":  # the one event that replays the lines:
                    # the cached state keeps none (Game.cache_state), the rows are the log
                    lines = game_event_list(game=game).values_list("data", flat=True)
                    eng.attach_log(list(lines))
                eng.push(data)
        except engine.EngineError as exc:
            raise EventRejected(str(exc), sequence=expected_sequence) from exc
        if expected_sequence == 1:
            _check_start(game, data, eng)
            game.start_event = data
            if not game.players:
                game.players = list(eng.players)
        try:
            with transaction.atomic():
                stored = GameEvent.objects.create(
                    game=game,
                    sequence=expected_sequence,
                    data=data,
                    recorded_by=_actor(user),
                    idempotency_key=key,
                )
        except IntegrityError as exc:  # a writer that bypassed the row lock
            if key is not None:
                replay = _replay_of(game=game, key=key, data=data, sequence=expected_sequence)
                if replay is not None:
                    return replay
            current = GameEvent.objects.filter(game=game).count()
            raise StaleSequence(current, expected_sequence) from exc
        game.last_sequence = expected_sequence
        changed = _apply_derived(game, eng)
        game.save()
    return RecordOutcome(game=game, events_added=1, result_changed=changed, event=stored)


def _replay_of(
    *, game: Game, key: str, data: dict[str, Any], sequence: int
) -> RecordOutcome | None:
    """The outcome of a retry: ``None`` when no event of ``game`` carries ``key``; the
    stored event when it is ``data`` at ``sequence``; else :class:`IdempotencyKeyReused`."""
    stored = GameEvent.objects.filter(game=game, idempotency_key=key).first()
    if stored is None:
        return None
    if stored.sequence != sequence or stored.data != data:
        raise IdempotencyKeyReused(stored.sequence)
    return RecordOutcome(
        game=game, events_added=0, result_changed=False, event=stored, replayed=True
    )


def _result_stands() -> ResultConflict:
    """Why a result already recorded does not change by entering another one."""
    return ResultConflict(
        _(
            "This game already has a result. Only a referee or an organizer may change it, "
            "with a note: on the game's referee page."
        )
    )


def game_attach_log(
    *,
    game: Game | int,
    log: str | bytes | Iterable[Mapping[str, Any]],
    user: Any,
    replace: bool = False,
) -> RecordOutcome:
    """Store a whole log (JSON Lines text, or a list of event objects) for a game.

    The log is parsed and replayed completely before anything is stored (all or
    nothing; :class:`LogRejected` carries the 1-based line of the first bad line). Its
    players must equal the game's seated players in seat order (:class:`ResultMismatch`).

    If the game already has events, the log must start with exactly those events (it
    completes a partially recorded game); uploading the same log again is a no-op.
    A placements-only result becomes the verified, log-derived one when the log's
    result agrees with it; a log whose result differs replaces it only with
    ``replace`` (a referee's decision; else :class:`ResultConflict`).
    """
    events = game_log_parse(log=log)
    if not events:
        raise LogRejected(1, _("the log is empty"))
    try:
        eng = engine.replay(events)
    except engine.LogError as exc:
        raise LogRejected(exc.line, exc.reason) from exc
    with transaction.atomic():
        game = locked_game(game)
        _check_start(game, events[0], eng)
        stored = list(
            GameEvent.objects.filter(game=game).order_by("sequence").values_list("data", flat=True)
        )
        if len(stored) > len(events) or events[: len(stored)] != stored:
            first_diff = next(
                (i for i, (a, b) in enumerate(zip(stored, events, strict=False)) if a != b),
                min(len(stored), len(events)),
            )
            raise ResultConflict(
                _(
                    "The log differs from the %(count)d events already recorded for this "
                    "game (first difference at line %(line)d); events are never replaced."
                )
                % {"count": len(stored), "line": first_diff + 1},
                line=first_diff + 1,
            )
        if (
            game.result_source == ResultSource.PLACEMENTS
            and not replace
            and (not eng.is_over or eng.placements() != game.placements)
        ):
            raise _result_stands()
        new = events[len(stored) :]
        actor = _actor(user)
        try:
            with transaction.atomic():
                GameEvent.objects.bulk_create(
                    GameEvent(game=game, sequence=n, data=data, recorded_by=actor)
                    for n, data in enumerate(new, start=len(stored) + 1)
                )
        except IntegrityError as exc:
            raise StaleSequence(len(stored)) from exc
        if not game.players:
            game.players = list(eng.players)
        game.start_event = events[0]
        game.last_sequence = len(events)
        changed = _apply_derived(game, eng)
        game.save()
    return RecordOutcome(game=game, events_added=len(new), result_changed=changed)


def game_set_placements(
    *,
    game: Game | int,
    placements: Any,
    user: Any,
    replace: bool = False,
    confirmed_by_players: bool = False,
) -> RecordOutcome:
    """Record a result as placements only (unverified), for a game whose log is missing.

    Allowed when the game has no log beyond its start event and no log-derived result.
    Once it has a placements result, the same placements again change nothing, and
    different ones replace it only with ``replace`` (a referee's correction; else
    :class:`ResultConflict`: a result changes only by a ruling). The placements must
    cover exactly the game's players (:class:`ResultMismatch`); a game with no
    players yet takes them from the placements (in the given order).
    ``confirmed_by_players``: the players of the table reported and confirmed these
    placements themselves (``Game.players_confirmed``); a replacement clears the mark.
    """
    check_input_text(placements)
    with transaction.atomic():
        game = locked_game(game)
        if game.result_source == ResultSource.LOG or game.last_sequence > 1:
            raise ResultConflict(
                _(
                    "This game has a recorded log; its result is derived from the log. Record "
                    "a correction as an event (e.g. an adjudicated end) instead."
                )
            )
        players = list(game.players)
        if not players:
            if not isinstance(placements, Mapping) or len(placements) < 2:
                raise ResultMismatch(_("A result needs at least two players."))
            players = [str(p) for p in placements]
        places = validate_placements(kind=game.kind, players=players, placements=placements)
        changed = places != game.placements or game.result_source != ResultSource.PLACEMENTS
        if changed and game.result_source == ResultSource.PLACEMENTS and not replace:
            raise _result_stands()
        if changed:
            game.players = players
            game.placements = places
            game.result_source = ResultSource.PLACEMENTS
            game.players_confirmed = confirmed_by_players
            game.result_version += 1
            game.status = GameStatus.FINISHED
            if game.finished_at is None:
                game.finished_at = timezone.now()
            if game.played_at is None:
                game.played_at = game.finished_at
            fields = ["players", "placements", "result_source", "players_confirmed"]
            fields += ["result_version", "status", "finished_at", "played_at", "updated_at"]
            if game.created_by_id is None:  # (by id: reading the author is a query)
                game.created_by = _actor(user)
                fields.append("created_by")
            game.save(update_fields=fields)
    return RecordOutcome(game=game, events_added=0, result_changed=changed)


def game_refresh_cache(*, game: Game | int) -> RecordOutcome:
    """Rebuild the derived-state cache by replaying the whole log (idempotent).

    Used after engine upgrades and when a cache is suspect. The derived result follows
    the replay (a changed result bumps ``result_version`` and ``result_changed`` says so).
    """
    with transaction.atomic():
        game = locked_game(game)
        if game.last_sequence == 0:
            return RecordOutcome(game=game, events_added=0, result_changed=False)
        game.state = None
        eng = game_engine(game=game)
        changed = _apply_derived(game, eng)
        game.save()
    return RecordOutcome(game=game, events_added=0, result_changed=changed)


def _check_seatings(kind: str, seatings: list[list[str]]) -> None:
    if not is_game_kind(kind):
        raise MalformedInput(_("Unknown game kind %(kind)r.") % {"kind": kind})
    for names in seatings:
        if len(set(names)) != len(names) or not all(isinstance(p, str) and p for p in names):
            raise MalformedInput(_("Players must be distinct non-empty handles."))


def game_create_batch(*, kind: str, seatings: list[list[str]], user: Any) -> list[Game]:
    """Create one not-yet-started game per seating (seat order), in one query.

    Used when a round is seated. Each seating needs distinct non-empty handles.
    """
    _check_seatings(kind, seatings)
    actor = _actor(user)
    return Game.objects.bulk_create(
        [Game(kind=kind, players=list(names), created_by=actor) for names in seatings]
    )


def game_create_batch_ids(*, kind: str, seatings: list[list[str]], user: Any) -> list[int]:
    """:func:`game_create_batch` for a caller that needs only the new games' ids (in
    seating order): one statement, no model instance per game (:func:`games.bulk.insert_rows`;
    a 1,000-player round seats 250 games). The same checks and rows."""
    _check_seatings(kind, seatings)
    return insert_rows(
        Game,
        same={"kind": kind, "created_by": _actor(user)},
        columns={"players": [list(names) for names in seatings]},
    )


def game_void(*, game: Game | int, user: Any) -> RecordOutcome:
    """Close a game that has no event and no result *without a result* (status
    ``void``, no placements): no points, not rated (e.g. its round's time ran out
    before it started).

    Refused (:class:`ResultConflict`) when the game has an event or a result; voiding a
    void game changes nothing. A later log or placements for the game replace the void
    (a correction). ``result_changed`` is true when the game was voided now, so the
    recording choke point follows it like a result (its round may be complete).
    """
    with transaction.atomic():
        game = locked_game(game)
        if game.status == GameStatus.VOID:
            return RecordOutcome(game=game, events_added=0, result_changed=False)
        if game.last_sequence > 0 or game.result_source != ResultSource.NONE:
            raise ResultConflict(_("Only a game with no event and no result can be voided."))
        game.status = GameStatus.VOID
        game.placements = None
        game.result_version += 1
        game.finished_at = timezone.now()
        game.save()
    return RecordOutcome(game=game, events_added=0, result_changed=True)


def game_set_players(*, game: Game | int, players: list[str], user: Any) -> Game:
    """Change who plays a game that has not started (no event, no result): seat order
    ``players`` (distinct non-empty handles, at least two). Used when a player does not
    show up. :class:`ResultConflict` once the game has an event or a result."""
    names = list(players)
    if len(names) < 2 or len(set(names)) != len(names):
        raise MalformedInput(_("A game needs at least two distinct players."))
    if not all(isinstance(p, str) and p for p in names):
        raise MalformedInput(_("Players must be distinct non-empty handles."))
    with transaction.atomic():
        game = locked_game(game)
        if game.last_sequence > 0 or game.result_source != ResultSource.NONE or game.is_over:
            raise ResultConflict(_("The game has started; its players cannot change."))
        game.players = names
        game.save(update_fields=["players", "updated_at"])
    return game


def game_award_bye(*, game: Game | int, player: str, user: Any) -> RecordOutcome:
    """Give ``player`` a bye: the game (with no event and no result) is closed with
    ``player`` alone, first place. A one-player result is never rated (ratings need two
    players). :class:`ResultConflict` once the game has an event or a result."""
    with transaction.atomic():
        game = locked_game(game)
        if game.result_source == ResultSource.PLACEMENTS and game.placements == {player: 1}:
            return RecordOutcome(game=game, events_added=0, result_changed=False)
        if game.last_sequence > 0 or game.result_source != ResultSource.NONE or game.is_over:
            raise ResultConflict(_("The game has started; no bye can be given."))
        game.players = [player]
        game.placements = {player: 1}
        game.result_source = ResultSource.PLACEMENTS
        game.result_version += 1
        game.status = GameStatus.FINISHED
        game.finished_at = timezone.now()
        game.created_by = game.created_by or _actor(user)
        game.save()
    return RecordOutcome(game=game, events_added=0, result_changed=True)
